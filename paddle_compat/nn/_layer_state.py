"""Layer state: ``state_dict`` / ``set_state_dict`` / ``load_state_dict`` and dtype/device
moves (``to``, ``astype``, ``float``, ...): ``LayerStateMixin``, a base class of ``Layer``."""

from __future__ import annotations

import collections
import warnings
from collections import namedtuple
from typing import Any

import jax
import numpy as np

from .._core import dtype as _dt
from .._core import trace_state
from .._core.tensor import Tensor, to_device

_FLOATS = ("float16", "bfloat16", "float32", "float64")


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """Result of ``load_state_dict``: the missing and unexpected keys."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (
            f"_IncompatibleKeys(missing_keys={self.missing_keys}, "
            f"unexpected_keys={self.unexpected_keys})"
        )

    __str__ = __repr__


# -- helpers ----------------------------------------------------------------------------------
def _as_array(value, target: Tensor):
    """The array to load into ``target`` (dtype must match, as Paddle asserts)."""
    if isinstance(value, Tensor):
        arr = trace_state.read(value)
        src_dt = value.dtype
    elif isinstance(value, np.ndarray | np.generic):
        arr = np.asarray(value)
        src_dt = _dt.to_dtype(arr.dtype)
    elif isinstance(value, jax.Array):
        arr = value
        src_dt = _dt.to_dtype(arr.dtype)
    else:
        raise AssertionError(
            "Variable set_value function, arguments type only support "
            "Variable, numpy, Tensor, dict, string."
        )
    if src_dt != target.dtype:
        raise AssertionError(
            f"Variable dtype not match, Variable [ {target.name} ] need tensor with dtype "
            f"{target.dtype}  but load tensor with dtype {src_dt}"
        )
    return arr


def _cast_all(layer, dt, floating_only: bool, device=None, excluded=(), recurse=True) -> None:
    for sub in layer.sublayers(include_self=True) if recurse else [layer]:
        if excluded and isinstance(sub, excluded):
            continue
        for store in (sub._parameters, sub._buffers):
            for t in store.values():
                if t is None:
                    continue
                v = trace_state.read(t)
                if dt is not None and (not floating_only or t.dtype.name in _FLOATS):
                    if t.dtype != dt:
                        v = v.astype(dt.np)
                if device is not None:
                    v = jax.device_put(v, device)
                if v is not trace_state.read(t):
                    t._set_value(v)
        if dt is not None:
            sub.__dict__["_dtype"] = dt.name


def _parse_to_args(device, dtype):
    from .._core.place import Place, device_from_spec, to_jax_device

    dev = None
    if isinstance(device, Place):
        dev = to_jax_device(device)
    elif isinstance(device, str):
        if device.lower().split(":")[0] not in ("cpu", "gpu", "cuda", "xpu", "dcu", "npu"):
            raise ValueError(
                "The device must be a string which is like 'cpu', 'gpu', 'gpu:x', "
                "'dcu', 'dcu:x', 'xpu', 'xpu:x', 'npu', 'npu:x'"
            )
        dev = device_from_spec(device.lower())
    elif device is not None:
        dev = device_from_spec(f"gpu:{int(device)}")
    dt = _dt.to_dtype(dtype) if dtype is not None else None
    return dev, dt


def _excluded(excluded_layers):
    if excluded_layers is None:
        return ()
    if not isinstance(excluded_layers, list | tuple):
        excluded_layers = [excluded_layers]
    return tuple(excluded_layers)


def _float_cast(name):
    def cast(self, excluded_layers=None):
        _cast_all(self, _dt.to_dtype(name), floating_only=True, excluded=_excluded(excluded_layers))
        return self

    cast.__name__ = {"float32": "float"}.get(name, name)
    cast.__doc__ = f"Cast floating-point parameters and buffers to {name} in place."
    return cast


def _all_cast(name):
    def cast(self):
        _cast_all(self, _dt.to_dtype(name), floating_only=False)
        return self

    cast.__doc__ = f"Cast every parameter and buffer to {name} in place."
    return cast


class LayerStateMixin:
    """``Layer``'s state methods: ``state_dict``/``set_state_dict``/``load_state_dict`` and the
    in-place dtype/device moves of its parameters and buffers."""

    def _state_dict_impl(
        self,
        destination=None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        include_non_persistable_buffer=False,
        use_hook: bool = True,
        keep_vars: bool = True,
    ):
        if destination is None:
            destination = collections.OrderedDict()

        def put(key, t):
            destination[key] = (
                t if keep_vars else Tensor(trace_state.read(t), stop_gradient=True, name=t.name)
            )

        for name, p in self._parameters.items():
            if p is not None:
                put(structured_name_prefix + name, p)
        for name, b in self._buffers.items():
            if b is None:
                continue
            if (
                not include_non_persistable_buffer
                and name in self._non_persistable_buffer_names_set
            ):
                continue
            put(structured_name_prefix + name, b)
        if include_sublayers:
            for name, layer in self._sub_layers.items():
                if layer is not None:
                    LayerStateMixin._state_dict_impl(
                        layer,
                        destination,
                        include_sublayers,
                        structured_name_prefix + name + ".",
                        include_non_persistable_buffer,
                        use_hook,
                        keep_vars,
                    )
        if use_hook:
            for hook in self._state_dict_hooks.values():
                res = hook(destination)
                if res is not None:
                    destination = res
        return destination

    def state_dict(
        self,
        destination=None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        use_hook: bool = True,
        keep_vars: bool = True,
    ):
        """An ordered dict of every parameter and persistable buffer, keyed by attribute path
        (``fc.weight``); values are the live Parameters/Tensors (copies with ``keep_vars=False``)."""
        return LayerStateMixin._state_dict_impl(
            self, destination, include_sublayers, structured_name_prefix, False, use_hook, keep_vars
        )

    def to_static_state_dict(
        self,
        destination=None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        use_hook: bool = True,
        keep_vars: bool = True,
    ):
        """Like ``state_dict`` but also with non-persistable buffers."""
        return LayerStateMixin._state_dict_impl(
            self, destination, include_sublayers, structured_name_prefix, True, use_hook, keep_vars
        )

    def set_state_dict(self, state_dict, use_structured_name: bool = True):
        """Load values from ``state_dict`` (numpy arrays or Tensors) into this layer's parameters
        and persistable buffers in place. Returns ``(missing_keys, unexpected_keys)``; keys with a
        shape mismatch are skipped with a warning (and count as both)."""
        own = LayerStateMixin._state_dict_impl(self, use_hook=False)
        missing, matched = [], []
        for key, target in own.items():
            k = key if use_structured_name else target.name
            value = state_dict.get(k, None)
            if value is None:
                missing.append(k)
                warnings.warn(
                    f"Skip loading for {key}. {k} is not found in the provided dict.", stacklevel=1
                )
                continue
            if isinstance(value, list | tuple):
                shape = list(np.shape(value))
            else:
                shape = list(value.shape)
            if shape != list(target.shape):
                missing.append(k)
                warnings.warn(
                    f"Skip loading for {key}. {k} receives a shape {shape}, but the "
                    f"expected shape is {list(target.shape)}.",
                    stacklevel=1,  # attributed to this file, as Paddle (shown once per message)
                )
                continue
            matched.append((k, target, value))
        matched_keys = {k for k, _, _ in matched}
        unexpected = [k for k in state_dict if k not in matched_keys]
        for _, target, value in matched:
            arr = to_device(_as_array(value, target))
            old = target._value
            if not trace_state.is_tracer(old) and isinstance(
                old.sharding, jax.sharding.NamedSharding
            ):
                arr = jax.device_put(arr, old.sharding)  # a distributed parameter keeps its layout
            target._set_value(arr)
        return missing, unexpected

    set_dict = set_state_dict
    load_dict = set_state_dict

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """PyTorch-style loading: returns ``_IncompatibleKeys``; with ``strict`` raises
        RuntimeError on missing or unexpected keys."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            missing, unexpected = LayerStateMixin.set_state_dict(self, state_dict)
        if strict and (missing or unexpected):
            msgs = []
            if unexpected:
                msgs.append(
                    "Unexpected key(s) in state_dict: "
                    + ", ".join(f'"{k}"' for k in unexpected)
                    + ". "
                )
            if missing:
                msgs.append(
                    "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". "
                )
            raise RuntimeError(
                f"Error(s) in loading state_dict for {self._get_name()}:\n\t" + "\n\t".join(msgs)
            )
        return _IncompatibleKeys(missing, unexpected)

    # -- dtype / device moves ------------------------------------------------------------------
    def to(
        self,
        device=None,
        dtype=None,
        blocking: bool | None = None,
        non_blocking: bool | None = None,
    ):
        """Move every parameter and buffer to ``device`` and/or cast it to ``dtype`` in place
        (Parameters keep their identity)."""
        dev, dt = _parse_to_args(device, dtype)
        _cast_all(self, dt, floating_only=False, device=dev)
        return self

    def astype(self, dtype=None):
        """Cast every parameter and buffer to ``dtype`` in place (as Paddle documents it; Paddle
        3.3.1 itself only records the dtype, a known bug: PaddlePaddle/Paddle#76614)."""
        if dtype is None:
            return self
        dt = _dt.to_dtype(dtype)
        _cast_all(self, dt, floating_only=False)
        for sub in self.sublayers(include_self=True):
            sub.__dict__["_dtype"] = dt
        return self

    def cpu(self):
        return LayerStateMixin.to(self, device="cpu")

    def cuda(self, device=None):
        return LayerStateMixin.to(self, device=device if device is not None else "gpu")

    def xpu(self, device=None):
        """Move to an XPU: there is none here, so (as a Paddle build without XPU) a device
        index or None raises ValueError; anything else TypeError."""
        if device is None or (isinstance(device, int) and not isinstance(device, bool)):
            raise ValueError("(InvalidArgument) use wrong place, Please check.")
        raise TypeError(f"device must be int, paddle.XPUPlace or None, got {type(device)}")

    def get_extra_state(self) -> Any:
        """Paddle's placeholder: always raises RuntimeError (a subclass overrides it)."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
        )

    @property
    def _modules(self):
        """The sublayers dict (Paddle's torch-style alias of ``_sub_layers``)."""
        return self._sub_layers

    @property
    def _non_persistent_buffers_set(self) -> set:
        """Names of the buffers registered with ``persistable=False``."""
        return self._non_persistable_buffer_names_set

    # last in the class body: these names shadow builtins (``float``, ``type``) from here on
    float = _float_cast("float32")
    float16 = _float_cast("float16")
    bfloat16 = _float_cast("bfloat16")
    half = _all_cast("float16")
    double = _all_cast("float64")

    def type(self, dst_type: Any):
        _cast_all(self, _dt.to_dtype(dst_type), floating_only=False)
        return self
