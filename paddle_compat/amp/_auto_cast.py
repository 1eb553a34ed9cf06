"""``paddle.amp.auto_cast`` / ``decorate``: mixed precision as Paddle runs it on a GPU.

``auto_cast`` installs an ``AmpState`` (``_core/amp_state.py``) that the op registry consults
on every op call; ``decorate(level='O2')`` casts a model's parameters to float16/bfloat16
(norm layers stay float32) and gives its optimizers float32 master weights.

Real Paddle ignores AMP on CPU (with a warning); here it takes effect on every device, as
Paddle does on GPU, since XLA computes float16 and bfloat16 everywhere (docs/porting.md).
"""

from __future__ import annotations

import contextlib
import functools

import jax.numpy as jnp

from .._core import amp_state, autograd
from .._core.registry import REGISTRY
from . import amp_lists

__all__ = [
    "amp_decorate",
    "amp_guard",
    "auto_cast",
    "autocast",
    "decorate",
    "get_autocast_dtype",
    "is_autocast_enabled",
]


class _GlobalState:
    """Paddle's ``amp_global_state()``: the dtype of the last ``auto_cast`` entered (read by
    ``GradScaler.scale``; not restored on exit) and the master-grad parameters."""

    def __init__(self) -> None:
        self.amp_dtype = "float32"
        self.use_master_grad = False
        self.model_parameters: list = []
        self.hook_registered = False


def _master_grad_hook() -> None:
    """``decorate(master_grad=True)``: after backward, low-precision gradients become float32."""
    from .._core import trace_state

    _global.hook_registered = False
    for p in _global.model_parameters:
        g = p.grad
        if g is not None and g.dtype.name in ("float16", "bfloat16"):
            g._set_value(trace_state.read(g).astype(jnp.float32))


_global = _GlobalState()


def amp_global_state() -> _GlobalState:
    return _global


def _dtype_name(dtype) -> str:
    name = getattr(dtype, "name", dtype)
    if not isinstance(name, str):
        raise TypeError(f"dtype should be 'float16' or 'bfloat16', but got {dtype!r}")
    return name.lower()


def _lists(level: str, dtype: str, white: frozenset, black: frozenset):
    """The registry op names in the white and black lists (Paddle's ``_update_list``)."""
    return _lists_at(len(REGISTRY), level, dtype, white, black)


@functools.lru_cache(maxsize=64)
def _lists_at(n_ops: int, level: str, dtype: str, white: frozenset, black: frozenset):
    if white and black:
        for name in white:
            if name in black:
                raise ValueError("Custom white list overlap custom black list")
    default_white = amp_lists.white_list()[dtype][level]
    default_black = amp_lists.black_list()[dtype][level]
    w = set(default_white) - set(black) | set(white)
    b = set(default_black) - set(white) | set(black)
    ops_w = {n for n, od in REGISTRY.items() if any(a in w for a in amp_state.amp_names(n))}
    ops_b = {n for n, od in REGISTRY.items() if any(a in b for a in amp_state.amp_names(n))}
    return frozenset(ops_w - ops_b), frozenset(ops_b)


@contextlib.contextmanager
def amp_guard(
    enable: bool = True,
    custom_white_list=None,
    custom_black_list=None,
    level: str = "O1",
    dtype: str = "float16",
    use_promote: bool = True,
):
    """Run the block with auto-mixed precision (see ``auto_cast``)."""
    level = str(level).upper()
    if level not in amp_state.LEVELS:
        raise ValueError("level should be O0, OD, O1 or O2.")
    dtype = _dtype_name(dtype)
    if enable and dtype not in ("float16", "bfloat16"):
        raise ValueError("If enable amp, dtype should be 'float16' or 'bfloat16'.")
    _global.amp_dtype = dtype
    if _global.use_master_grad and not _global.hook_registered:
        autograd.add_backward_final_hook(_master_grad_hook)
        _global.hook_registered = True
    state = None
    if enable and level != "O0":
        white, black = _lists(
            level,
            dtype,
            frozenset(custom_white_list or ()),
            frozenset(custom_black_list or ()),
        )
        state = amp_state.AmpState(
            level=level,
            dtype=jnp.dtype(dtype),
            white=white,
            black=black,
            use_promote=bool(use_promote) if level == "O2" else True,
        )
    old = amp_state.set_current(state)
    try:
        yield
    finally:
        amp_state.set_current(old)


def auto_cast(
    enable: bool = True,
    custom_white_list=None,
    custom_black_list=None,
    level: str = "O1",
    dtype: str = "float16",
    use_promote: bool = True,
):
    """Context in which each op runs in float16/bfloat16 or float32 by Paddle's AMP lists:
    O1 casts white-list ops (matmul, conv2d, linear, einsum) down and black-list ops up; O2
    runs everything low precision except the black list (use with ``decorate``); OD runs
    only the white list low precision. Custom lists use Paddle's op names
    (``elementwise_add``, ``reduce_sum``, ``conv2d``)."""
    return amp_guard(enable, custom_white_list, custom_black_list, level, dtype, use_promote)


def autocast(device_type, dtype: str = "float16", enabled: bool = True, cache_enabled=True):
    """PyTorch-style alias: ``auto_cast(enable=enabled, dtype=dtype)``."""
    return auto_cast(enable=enabled, dtype=dtype)


def is_autocast_enabled(device_type=None) -> bool:
    """Whether an ``auto_cast`` block is active in this thread."""
    return amp_state.current() is not None


def get_autocast_dtype(device_type=None) -> str:
    """The active AMP dtype; ``'float16'`` outside ``auto_cast``."""
    s = amp_state.current()
    return "float16" if s is None else s.dtype.name


def get_autocast_cpu_dtype(device_type=None) -> str:
    """``get_autocast_dtype("cpu")`` (``device_type`` is ignored, as in Paddle)."""
    return get_autocast_dtype("cpu")


def get_autocast_gpu_dtype(device_type=None) -> str:
    """``get_autocast_dtype("gpu")`` (``device_type`` is ignored, as in Paddle)."""
    return get_autocast_dtype("gpu")


# -- decorate -------------------------------------------------------------------------------
def _keep_fp32(layer, dtype: str) -> bool:
    from .. import nn

    if not getattr(layer, "_cast_to_low_precision", True):
        return True
    if isinstance(layer, nn.BatchNorm | nn.BatchNorm1D | nn.BatchNorm2D | nn.BatchNorm3D):
        return True
    if isinstance(layer, getattr(nn, "SyncBatchNorm", ())):
        return True
    if str(layer._dtype) == "float16":
        return True
    norms = (nn.LayerNorm, nn.InstanceNorm1D, nn.InstanceNorm2D, nn.InstanceNorm3D)
    return dtype == "float16" and isinstance(layer, norms)


def _set_excluded(models, excluded) -> None:
    from .. import nn

    message = (
        "excluded_layers must be either a nn.Layer instance/type or a list of nn.Layer "
        "instances/types."
    )
    if excluded is None:
        items = []
    elif isinstance(excluded, list):
        items = excluded
    elif isinstance(excluded, nn.Layer) or (
        isinstance(excluded, type) and issubclass(excluded, nn.Layer)
    ):
        items = [excluded]
    else:
        raise TypeError(message)
    instances, types = [], []
    for item in items:
        if isinstance(item, nn.Layer):
            instances.append(item)
        elif isinstance(item, type) and issubclass(item, nn.Layer):
            types.append(item)
        else:
            raise TypeError(message)
    for inst in instances:
        for layer in inst.sublayers(include_self=True):
            layer._cast_to_low_precision = False
    if types:
        for model in models:
            for layer in model.sublayers(include_self=True):
                if isinstance(layer, tuple(types)):
                    layer._cast_to_low_precision = False


def _cast_layer(layer, dtype: str) -> None:
    from .._core import dtype as _dt
    from ..nn._layer_state import _cast_all

    _cast_all(layer, _dt.to_dtype(dtype), floating_only=True, recurse=False)


class _StateDictHook:
    """Cast a state_dict's floating-point entries to ``save_dtype`` (``decorate``)."""

    def __init__(self, save_dtype: str) -> None:
        self._save_dtype = save_dtype

    def __call__(self, state_dict) -> None:
        from .. import cast, is_floating_point

        for key, value in list(state_dict.items()):
            if is_floating_point(value):
                out = cast(value, self._save_dtype)
                out.name = value.name
                state_dict[key] = out


def decorate(
    models,
    optimizers=None,
    level: str = "O1",
    dtype: str = "float16",
    master_weight: bool | None = None,
    save_dtype: str | None = None,
    master_grad: bool = False,
    excluded_layers=None,
):
    """Prepare models (and optimizers) for AMP: at O1 nothing changes; at O2 the floating
    parameters and buffers become ``dtype`` except BatchNorm (and, for float16, LayerNorm and
    InstanceNorm) and ``excluded_layers``, and the optimizers keep float32 master weights
    unless ``master_weight=False``. Returns what it was given (models, or models and
    optimizers), in the same form."""
    from .. import nn, optimizer

    if str(level).upper() not in ("O1", "O2"):
        raise ValueError(
            "level should be O1 or O2, O1 represent AMP train mode, O2 represent Pure fp16 "
            "train mode."
        )
    level = str(level).upper()
    dtype = _dtype_name(dtype)
    if dtype not in ("float16", "bfloat16"):
        raise ValueError("dtype only support float16 or bfloat16.")
    if level == "O1":
        return models if optimizers is None else (models, optimizers)

    models_is_list = isinstance(models, list)
    if isinstance(models, nn.Layer):
        models = [models]
    elif not models_is_list:
        raise TypeError("models must be either a single model or a list of models.")
    for m in models:
        if not isinstance(m, nn.Layer):
            raise RuntimeError(
                "Current train mode is pure fp16, models should be paddle.nn.Layer, but "
                f"receive {type(m)}."
            )
    _set_excluded(models, excluded_layers)
    for m in models:
        for layer in m.sublayers(include_self=True):
            if not _keep_fp32(layer, dtype):
                _cast_layer(layer, dtype)

    opts_is_list = isinstance(optimizers, list)
    if optimizers is not None:
        opts = optimizers if opts_is_list else [optimizers]
        for o in opts:
            if not isinstance(o, optimizer.Optimizer):
                raise RuntimeError(
                    "Current train mode is pure fp16, optimizers should be "
                    f"paddle.optimizer.Optimizer or DygraphShardingOptimizer, but receive "
                    f"{type(o)}."
                )
            o._multi_precision = master_weight is not False
    if master_grad:
        _global.use_master_grad = True
        for m in models:
            _global.model_parameters.extend(m.parameters())
    if save_dtype is not None:
        if save_dtype not in ("float16", "bfloat16", "float32", "float64"):
            raise ValueError(
                "save_dtype can only be float16 float32 or float64, but your input "
                f"save_dtype is {save_dtype}."
            )
        for m in models:
            for layer in m.sublayers(include_self=True):
                layer.register_state_dict_hook(_StateDictHook(save_dtype))
    out_models = models if models_is_list else models[0]
    if optimizers is None:
        return out_models
    return out_models, optimizers


amp_decorate = decorate
