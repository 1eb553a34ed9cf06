"""``paddle.amp.debugging``: find NaN/Inf in op outputs and count op calls per dtype.

The tensor checker and the operator stats watch every kernel through the registry's observer
seam (``_core/op_observers.py``): forward kernels under their op names (``log``, ``matmul``,
``add``), gradient kernels as ``<op>_grad``. They see ops that run one by one; the ops of a
compiled ``paddle.jit.to_static`` program are neither checked nor counted.
``compare_accuracy`` (which compares dumps of Paddle's GPU checker) is not provided.
"""

from __future__ import annotations

import contextlib
import enum
import os
import random
from collections.abc import Callable, Generator, Sequence

import jax
import numpy as np

from .._core import op_observers
from .._core.amp_state import amp_names
from .._core.place import device_name
from .._core.tensor import Tensor

__all__ = [
    "DebugMode",
    "TensorCheckerConfig",
    "check_numerics",
    "enable_operator_stats_collection",
    "disable_operator_stats_collection",
    "collect_operator_stats",
    "enable_tensor_checker",
    "disable_tensor_checker",
    "check_layer_numerics",
]


class DebugMode(enum.Enum):
    """What the tensor checker does: 0 raises on NaN/Inf, 1 prints them, 2 and 3 print every
    floating output (on CPU 2 is 3)."""

    CHECK_NAN_INF_AND_ABORT = 0
    CHECK_NAN_INF = 1
    CHECK_ALL_FOR_OVERFLOW = 2
    CHECK_ALL = 3


_SHORT = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64"}


def _device(x) -> str:
    try:
        return device_name(next(iter(x.devices())))
    except (AttributeError, StopIteration):
        return "cpu"


def _e(v: float) -> str:
    """C's ``%e``: 1.400000e+05, inf, and a NaN's sign (x86 makes ``-nan`` of 0/0, log(-1))."""
    if np.isnan(v):
        return "-nan" if np.signbit(v) else "nan"
    return f"{v:e}"


class _Stats:
    """NaN/Inf/zero counts and max/min/mean of one floating array, as Paddle's CPU kernel
    computes them: max/min scan from the first element (a leading NaN sticks, later ones are
    skipped) and the mean is the first NaN when there is one."""

    def __init__(self, array, op: str, var: str) -> None:
        a = np.asarray(array).astype(np.float64).ravel()
        name = np.dtype(array.dtype).name
        self.where = f"[device={_device(array)}, op={op}, tensor={var}, dtype={_SHORT[name]}]"
        self.numel = a.size
        nan = np.isnan(a)
        self.num_nan = int(nan.sum())
        self.num_inf = int(np.isinf(a).sum())
        self.num_zero = int((a == 0).sum())
        if a.size and nan[0]:
            self.max = self.min = a[0]
        else:
            rest = a[~nan]  # a strict scan keeps the first of equal values (-0.0 vs 0.0)
            self.max = rest[np.argmax(rest == rest.max())] if rest.size else np.nan
            self.min = rest[np.argmax(rest == rest.min())] if rest.size else np.nan
        self.mean = a[nan][0] if self.num_nan else (a.mean() if a.size else np.nan)

    @property
    def bad(self) -> bool:
        return bool(self.num_nan or self.num_inf)

    def line(self) -> str:
        """Paddle's ``[PRECISION]`` line."""
        mx, mn, mean = _e(self.max), _e(self.min), _e(self.mean)
        if not self.bad:
            return (
                f"[PRECISION] in {self.where}, numel={self.numel}, num_zero={self.num_zero}, "
                f"max={mx}, min={mn}, mean={mean}"
            )
        return (
            f"[PRECISION] [ERROR] in {self.where}, numel={self.numel}, num_nan={self.num_nan}, "
            f"num_inf={self.num_inf}, num_zero={self.num_zero}, max={mx}, min={mn}, mean={mean}"
        )

    def error(self) -> RuntimeError:
        return RuntimeError(
            f"(PreconditionNotMet) There are NAN or INF (num_nan={self.num_nan}, "
            f"num_inf={self.num_inf}, num_zero={self.num_zero}) in {self.where}."
        )


def _report(stats: _Stats, mode: int, out_dir: str | None = None, clean_from: int = 2) -> None:
    """Print (or write) the line when the values are bad or ``mode >= clean_from``; raise in
    abort mode."""
    if not stats.bad and mode < clean_from:
        return
    line = stats.line()
    if out_dir is None:
        print(line)
    else:
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, f"worker_{os.getpid()}.log"), "a") as f:
            f.write(line + "\n")
    if stats.bad and mode == DebugMode.CHECK_NAN_INF_AND_ABORT.value:
        raise stats.error()


def _floating(x) -> bool:
    return np.dtype(x.dtype).name in _SHORT and not isinstance(x, jax.core.Tracer)


# ---------------------------------------------------------------------- tensor checker


class _Flags:
    """Paddle's global checker flags (``FLAGS_check_nan_inf`` and friends): a config sets
    them and they outlive it. ``checked``/``skipped`` come from the last config given such a
    list; ``level`` and ``output_dir`` from the last config that started checking."""

    level = DebugMode.CHECK_NAN_INF_AND_ABORT.value
    checked: frozenset[str] = frozenset()
    skipped: frozenset[str] = frozenset()
    output_dir: str | None = None


# the checker prints a few ops under the names Paddle's kernels have
_KERNEL_NAMES = {
    "zeros": "full",
    "ones": "full",
    "zeros_like": "full_like",
    "ones_like": "full_like",
    "_mul_scalar": "scale",
    "neg": "scale",
}


def _check_outputs(name: str, kernel_dtype, outputs, grad: bool) -> None:
    """The checker's observer: every floating output of every kernel while it is on. Op lists
    match Paddle's AMP op names (``elementwise_div``, ``matmul_v2``), as Paddle's do."""
    if _Flags.checked or _Flags.skipped:
        names = amp_names(name[:-5]) if grad else amp_names(name)
        names = {f"{n}_grad" for n in names} if grad else set(names)
        if _Flags.checked and not names & _Flags.checked:
            return
        if names & _Flags.skipped:
            return
    name = _KERNEL_NAMES.get(name, name)
    for x in outputs:
        if _floating(x) and x.size:
            _report(_Stats(x, name, ""), _Flags.level, _Flags.output_dir)


def _set_checking(on: bool) -> None:
    """``FLAGS_check_nan_inf``: the checker observes kernels while it is on."""
    if on and _check_outputs not in op_observers.OBSERVERS:
        op_observers.OBSERVERS.append(_check_outputs)
    elif not on and _check_outputs in op_observers.OBSERVERS:
        op_observers.OBSERVERS.remove(_check_outputs)


class TensorCheckerConfig:
    """Settings of the NaN/Inf checker that ``enable_tensor_checker`` switches on.

    As in Paddle, an enabled config reseeds paddle, numpy and ``random`` with the default
    generator's initial seed (123 when that does not fit in 32 bits) and prints it;
    ``debug_step=[start, end)`` counts ``enable_tensor_checker`` calls from 0; op lists and
    the mode stay in force after the config (they are global flags in Paddle). Checked ops
    are named as paddle-compat runs them (``log``, ``matmul``, ``<op>_grad``). With
    ``output_dir`` the lines go to ``output_dir/worker_<pid>.log``."""

    current_step_id = 0

    def __init__(
        self,
        enable: bool,
        debug_mode: DebugMode = DebugMode.CHECK_NAN_INF_AND_ABORT,
        output_dir: str | None = None,
        checked_op_list: Sequence[str] | None = None,
        skipped_op_list: Sequence[str] | None = None,
        debug_step: Sequence[int] | None = None,
        stack_height_limit: int = 1,
    ) -> None:
        self.enable = enable
        self.debug_mode = debug_mode
        self.output_dir = output_dir
        self.checked_op_list = checked_op_list
        self.skipped_op_list = skipped_op_list
        self.debug_step = debug_step
        self.stack_height_limit = stack_height_limit
        self.start_step = self.end_step = None
        self.seed = self.initial_seed = 123
        if debug_step is not None:
            if not isinstance(debug_step, list | tuple):
                raise ValueError("debug_step must be list or tuple")
            assert len(debug_step) == 2 and debug_step[1] > debug_step[0]
            self.start_step, self.end_step = debug_step
            self.start_step = max(self.start_step, 0)
        lists = (
            ("checked_op_list", checked_op_list, "checked"),
            ("skipped_op_list", skipped_op_list, "skipped"),
        )
        for arg, ops, flag in lists:
            if ops is None:
                continue
            if not isinstance(ops, list | tuple):
                raise ValueError(f"{arg} must be list or tuple")
            if ops:  # Paddle ignores an empty list: the old one stays
                setattr(_Flags, flag, frozenset(ops))
        if self.enable:
            self._set_seed()

    def _set_seed(self) -> None:
        import paddle_compat as paddle

        from .._core.random import default_generator

        self.initial_seed = default_generator.initial_seed()
        if self.initial_seed != self.seed:
            self.seed = self.initial_seed
        if not 0 <= self.seed <= np.iinfo(np.uint32).max:
            print("[Warning: Seed must be between 0 and 2**32 - 1")
            self.seed = 123
        paddle.seed(self.seed)
        np.random.seed(self.seed)
        random.seed(self.seed)
        print("AMP Debugging TensorCheckerConfig: seed ", self.seed)

    def update_and_check_step_id(self) -> bool:
        """Whether this ``enable_tensor_checker`` call falls in ``debug_step``."""
        if not self.enable:
            return False
        if self.start_step is not None and self.end_step is not None:
            step = TensorCheckerConfig.current_step_id
            if not self.start_step <= step < self.end_step:
                return False
            TensorCheckerConfig.current_step_id += 1
        return True

    def start_check_nan_inf(self) -> None:
        if self.enable:
            if not isinstance(self.stack_height_limit, int):
                raise ValueError("stack_height_limit must be int")
            _Flags.level = self.debug_mode.value
            if self.output_dir is not None:
                _Flags.output_dir = self.output_dir
            _set_checking(True)

    def stop_check_nan_inf(self) -> None:
        _set_checking(False)


def enable_tensor_checker(checker_config: TensorCheckerConfig) -> None:
    """Check every op's floating outputs for NaN/Inf (print them, or raise) until
    ``disable_tensor_checker``."""
    if checker_config.update_and_check_step_id():
        checker_config.start_check_nan_inf()
    else:
        checker_config.stop_check_nan_inf()


def disable_tensor_checker() -> None:
    """Stop the tensor checker."""
    _set_checking(False)


def check_numerics(
    tensor: Tensor,
    op_type: str,
    var_name: str,
    debug_mode: DebugMode = DebugMode.CHECK_NAN_INF_AND_ABORT,
) -> tuple[Tensor, Tensor]:
    """``[num_nan, num_inf, num_zero]`` (int64) and ``[max, min, mean]`` (float32) of
    ``tensor``; prints Paddle's ``[PRECISION]`` line when it has NaN/Inf (every time with
    ``CHECK_ALL``) and raises RuntimeError on NaN/Inf with ``CHECK_NAN_INF_AND_ABORT``."""
    from .._core import trace_state

    if trace_state._ctx is not None:
        raise RuntimeError(
            "check_numerics reads the tensor's values: call it outside paddle.jit.to_static."
        )
    value = tensor._value if isinstance(tensor, Tensor) else tensor
    name = np.dtype(value.dtype).name
    if name not in _SHORT:
        raise RuntimeError(
            f"(NotFound) check_numerics supports float16, bfloat16, float32 and float64 "
            f"tensors, but {var_name!r} of op {op_type!r} is {name}."
        )
    stats = _Stats(value, op_type, var_name)
    _report(stats, debug_mode.value, clean_from=DebugMode.CHECK_ALL.value)
    counts = np.array([stats.num_nan, stats.num_inf, stats.num_zero], np.int64)
    values = np.array([stats.max, stats.min, stats.mean], np.float32)
    return Tensor(counts), Tensor(values)


def _toggle(on_forward: bool):
    """An identity op that switches checking on (off) in forward and the other way round in
    backward, as Paddle's ``enable_check_model_nan_inf``/``disable_check_model_nan_inf``
    (the class names are the op names the checker prints), so ``check_layer_numerics``
    covers the layer's gradient kernels too."""
    from ..autograd import PyLayer

    def forward(ctx, x):
        _set_checking(on_forward)
        if on_forward:
            _check_outputs("enable_check_model_nan_inf", None, [x._value], False)
        return x

    def backward(ctx, g):
        _set_checking(not on_forward)
        return g

    name = "enable_check_model_nan_inf" if on_forward else "disable_check_model_nan_inf"
    return type(
        name,
        (PyLayer,),
        {"forward": staticmethod(forward), "backward": staticmethod(backward)},
    )


def check_layer_numerics(func: Callable) -> Callable:
    """Decorate a Layer's ``forward``: check every op inside it (forward and backward) with
    the checker's current mode (by default: raise RuntimeError at the first NaN/Inf). The first
    argument must be a Tensor (Paddle sets its ``stop_gradient`` to False)."""

    def wrapper(self, *args, **kwargs):
        if not args:
            raise RuntimeError("No elements found in args.")
        start = args[0]
        if not isinstance(start, Tensor):
            raise RuntimeError("First input of this layer must be tensor.")
        start.stop_gradient = False
        try:
            out = func(self, _toggle(True).apply(start), *args[1:], **kwargs)
        except BaseException:
            _set_checking(False)
            raise
        if isinstance(out, Tensor):
            return _toggle(False).apply(out)
        _set_checking(False)
        return out

    return wrapper


# ---------------------------------------------------------------------- operator stats

_op_counts: dict[str, list[int]] | None = None
_CALL_COLUMN = {"float16": 0, "bfloat16": 1, "float32": 2}


def _count(name: str, kernel_dtype, outputs, grad: bool) -> None:
    if grad or _op_counts is None:
        return
    col = _CALL_COLUMN.get(np.dtype(kernel_dtype).name, 3) if kernel_dtype is not None else 3
    _op_counts.setdefault(amp_names(name)[0], [0, 0, 0, 0])[col] += 1


def enable_operator_stats_collection() -> None:
    """Start counting op calls per dtype (FP16, BF16, FP32, other); the table prints at
    ``disable_operator_stats_collection``."""
    global _op_counts
    _op_counts = {}
    if _count not in op_observers.OBSERVERS:
        op_observers.OBSERVERS.append(_count)


def disable_operator_stats_collection() -> None:
    """Stop counting and print Paddle's op list table (nothing if counting was off)."""
    global _op_counts
    if _op_counts is None:
        return
    counts, _op_counts = _op_counts, None
    if _count in op_observers.OBSERVERS:
        op_observers.OBSERVERS.remove(_count)
    _print_operator_stats(counts)


@contextlib.contextmanager
def collect_operator_stats() -> Generator[None, None, None]:
    """``with collect_operator_stats():`` counts the op calls inside and prints the table."""
    enable_operator_stats_collection()
    try:
        yield
    finally:
        disable_operator_stats_collection()


def _print_operator_stats(counts: dict[str, list[int]]) -> None:
    print("<{:-^120}>".format(" op list "))
    print(
        "<{:-^40}".format(" Op Name "),
        "|",
        "{:-^17}".format(" FP16 Calls "),
        "|",
        "{:-^17}".format(" BF16 Calls "),
        "|",
        "{:-^17}".format(" FP32 Calls"),
        "|",
        "{:-^17}>".format(" Other Calls "),
    )
    for op in sorted(counts):
        c = counts[op]
        print(f"  {op:<40}|  {c[0]:<17}|  {c[1]:<17}|  {c[2]:<17}|  {c[3]:<17}")
    print("<{:-^120}>\n".format(f" op count: {len(counts)} "))
