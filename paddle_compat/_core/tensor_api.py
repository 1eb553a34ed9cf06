"""Tensor methods and properties that are not ops: dtype conversions (``x.float()``),
``new_*`` constructors, ``to``, ``type_as``, ``requires_grad`` and other torch-style names
Paddle 3.3 has. ``Tensor`` inherits them from ``TensorApiMixin``; op methods are generated
from the registry (``_ops/_methods.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import dtype as _dt

if TYPE_CHECKING:
    from .tensor import Tensor


def _call_op(name: str, *args, **kwargs):
    from .registry import call_op  # the registry imports Tensor, which inherits this mixin

    return call_op(name, *args, **kwargs)


# -- dtype conversions: x.float(), x.long(), ... -----------------------------------------------
_CASTS = {
    "bfloat16": "bfloat16",
    "bool": "bool",
    "byte": "uint8",
    "uint8": "uint8",
    "char": "int8",
    "int8": "int8",
    "short": "int16",
    "int16": "int16",
    "int": "int32",
    "int32": "int32",
    "long": "int64",
    "int64": "int64",
    "half": "float16",
    "float16": "float16",
    "float": "float32",
    "float32": "float32",
    "double": "float64",
    "float64": "float64",
    "cfloat": "complex64",
    "complex64": "complex64",
    "cdouble": "complex128",
    "complex128": "complex128",
}


def _cast_method(name: str, dtype: str):
    def method(self) -> Tensor:
        return _call_op("cast", self, dtype)

    method.__name__ = name
    method.__doc__ = f"``x.{name}()``: cast to {dtype}."
    return method


def _new_method(name: str, creator: str, filled: bool):
    if filled:

        def method(
            self,
            size,
            fill_value,
            dtype=None,
            device=None,
            requires_grad=False,
            pin_memory=False,
            name=None,
        ) -> Tensor:
            out = _call_op(creator, size, fill_value, dtype=dtype or self.dtype)
            out.stop_gradient = not requires_grad
            return out
    else:

        def method(
            self, size, dtype=None, device=None, requires_grad=False, pin_memory=False, name=None
        ) -> Tensor:
            out = _call_op(creator, size, dtype=dtype or self.dtype)
            out.stop_gradient = not requires_grad
            return out

    method.__name__ = name
    method.__doc__ = f"``x.{name}(size)``: a new Tensor with x's dtype (``paddle.{creator}``)."
    return method


def type_as(self, other: Tensor) -> Tensor:
    """Cast to ``other``'s dtype."""
    return _call_op("cast", self, other.dtype)


def requires_grad_(self, requires_grad: bool = True) -> Tensor:
    """Set ``stop_gradient = not requires_grad`` in place; returns the Tensor."""
    self.stop_gradient = not requires_grad
    return self


def _get_requires_grad(self) -> bool:
    return not self.stop_gradient


def _set_requires_grad(self, value: bool) -> None:
    self.stop_gradient = not value


def apply(self, func) -> Tensor:
    """``func(x)`` computed without gradient; refused on Tensors that require grad."""
    if not self.stop_gradient:
        raise RuntimeError("Cannot apply function on a tensor that required gradient.")
    from .autograd import no_grad

    with no_grad():
        return func(self)


def apply_(self, func) -> Tensor:
    """Like ``apply``, writing the result into x in place."""
    out = apply(self, func)
    self._set_value(out._value.astype(self._value.dtype).reshape(self._value.shape))
    return self


def _parse_to(args, kwargs):
    """Tensor.to(device), to(dtype), to(device, dtype), to(other), with keywords."""
    device, dtype = kwargs.get("device"), kwargs.get("dtype")
    for a in args:
        if isinstance(a, TensorApiMixin):
            dtype, device = a.dtype, a.place
        elif isinstance(a, bool):  # blocking / copy flags
            continue
        elif isinstance(a, str):
            try:
                dtype = _dt.to_dtype(a)
            except TypeError:
                device = a
        elif isinstance(a, _dt.DType | np.dtype) or a in (float, int, bool, complex):
            dtype = a
        else:
            device = a
    if "other" in kwargs:
        dtype, device = kwargs["other"].dtype, kwargs["other"].place
    return device, dtype


def to(self, *args, **kwargs) -> Tensor:
    """Move to a device and/or cast to a dtype (``x.to('cpu')``, ``x.to('float64')``,
    ``x.to(other)``); returns x itself when nothing changes."""
    device, dtype = _parse_to(args, kwargs)
    out = self
    if device is not None:
        from .place import device_from_spec, to_jax_device

        dev = device_from_spec(device) if isinstance(device, str) else to_jax_device(device)
        if dev not in self._value.devices():
            out = out._to_device(dev)
    if dtype is not None and _dt.to_dtype(dtype) != out.dtype:
        out = _call_op("cast", out, dtype)
    return out


def get_device(self) -> int:
    """-1 for CPU Tensors, else the GPU index."""
    p = self.place
    return p.get_device_id() if p.is_gpu_place() else -1


def gradient(self):
    """Deprecated Paddle API: the gradient as a numpy array (None when there is none)."""
    g = self.grad
    return None if g is None else g.numpy()


def is_tensor(self) -> bool:
    return True


def _device(self) -> str:
    p = self.place
    return f"gpu:{p.get_device_id()}" if p.is_gpu_place() else "cpu"


def _is_cuda(self) -> bool:
    return self.place.is_gpu_place()


_PROPERTIES = {
    "requires_grad": property(
        _get_requires_grad, _set_requires_grad, doc="``not stop_gradient`` (settable)."
    ),
    "device": property(_device, doc="The device as a string ('cpu', 'gpu:0')."),
    "is_cuda": property(_is_cuda, doc="True for Tensors on a GPU."),
    "itemsize": property(lambda self: self._value.dtype.itemsize, doc="Bytes per element."),
    "layout": property(lambda self: "NCHW", doc="Paddle reports 'NCHW' for dense Tensors."),
    "offset": property(lambda self: 0, doc="Storage offset (always 0 here)."),
    "inplace_version": property(
        lambda self: self._version, doc="How many times the Tensor was modified in place."
    ),
    "grad_fn": property(lambda self: self._node, doc="The autograd node that made x, or None."),
    "grad_": property(lambda self: self.grad, doc="Same as ``grad``."),
    "num_shard": property(lambda self: None, doc="None for a non-distributed Tensor."),
}

_METHODS = {
    "type_as": type_as,
    "requires_grad_": requires_grad_,
    "apply": apply,
    "apply_": apply_,
    "to": to,
    "get_device": get_device,
    "gradient": gradient,
    "is_tensor": is_tensor,
}


class TensorApiMixin:
    """Non-op Tensor methods and properties (see the module docstring)."""

    __slots__ = ()


for _name, _fn in _METHODS.items():
    setattr(TensorApiMixin, _name, _fn)
for _name, _prop in _PROPERTIES.items():
    setattr(TensorApiMixin, _name, _prop)
for _name, _dtype in _CASTS.items():
    setattr(TensorApiMixin, _name, _cast_method(_name, _dtype))
for _name, _creator, _filled in (
    ("new_empty", "empty", False),
    ("new_zeros", "zeros", False),
    ("new_ones", "ones", False),
    ("new_full", "full", True),
):
    setattr(TensorApiMixin, _name, _new_method(_name, _creator, _filled))
del _name
