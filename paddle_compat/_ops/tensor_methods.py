"""Tensor methods and properties that are not ops of their own, and Paddle's alias names.

``ALIASES`` is metadata for ops registered elsewhere: extra ``paddle.*`` names, extra Tensor
method names, an in-place variant when the op has none, and in-place alias names
(``clamp_`` for ``clip_``). It is applied at import, before the registry generates the
namespaces and methods (``_ops/__init__``). ``INPLACE_ALIASES`` feeds ``paddle_compat._api_extra``.
"""

from __future__ import annotations

import numpy as np

from .._core import autograd
from .._core import dtype as _dt
from .._core.registry import REGISTRY, call_op
from .._core.tensor import Tensor
from . import (  # noqa: F401 - register the ops the aliases below refer to
    attribute,
    creation,
    manip_extra,
    manipulation,
    manipulation_gather,
    math,
    math_extra,
    math_misc,
    reduction,
)
from ._methods import _method, make_inplace

# op -> (paddle.* names, Tensor method names, in-place name if none yet, in-place aliases)
ALIASES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str | None, tuple[str, ...]]] = {
    "equal": (("eq",), ("eq",), "equal_", ()),
    "not_equal": (("ne",), ("ne",), "not_equal_", ()),
    "less_than": (("lt",), ("lt", "less"), "less_than_", ("less_",)),
    "less_equal": (("le",), ("le",), "less_equal_", ()),
    "greater_than": (("gt",), ("gt", "greater"), "greater_than_", ()),
    "greater_equal": (("ge",), ("ge",), "greater_equal_", ()),
    "logical_and": ((), (), "logical_and_", ()),
    "logical_or": ((), (), "logical_or_", ()),
    "logical_xor": ((), (), "logical_xor_", ()),
    "logical_not": ((), (), "logical_not_", ()),
    "bitwise_and": ((), (), "bitwise_and_", ()),
    "bitwise_or": ((), (), "bitwise_or_", ()),
    "bitwise_xor": ((), (), "bitwise_xor_", ()),
    "bitwise_not": (("bitwise_invert",), ("bitwise_invert",), "bitwise_not_",
                    ("bitwise_invert_",)),
    "bitwise_left_shift": ((), (), "bitwise_left_shift_", ()),
    "bitwise_right_shift": ((), (), "bitwise_right_shift_", ()),
    "concat": (("cat", "concatenate"), (), None, ()),
    "clip": (("clamp",), ("clamp",), None, ("clamp_",)),
    "divide": (("true_divide",), ("div", "true_divide"), None, ("div_",)),
    "multiply": ((), ("mul",), None, ("mul_",)),
    "subtract": ((), ("sub",), None, ("sub_",)),
    "remainder": ((), ("mod", "floor_mod"), None, ("mod_", "floor_mod_")),
    "neg": ((), (), "neg_", ()),
    "frac": ((), (), "frac_", ()),
    "digamma": ((), (), "digamma_", ()),
    "lgamma": ((), (), "lgamma_", ()),
    "erfinv": ((), (), "erfinv_", ()),
    "logit": ((), (), "logit_", ()),
    "addmm": ((), ("addmm",), "addmm_", ()),
    "outer": (("ger",), (), None, ()),
    "tril": ((), (), "tril_", ()),
    "triu": ((), (), "triu_", ()),
    "take_along_axis": (("take_along_dim",), ("take_along_dim",), None, ()),
    "as_complex": ((), ("view_as_complex",), None, ()),
    "as_real": ((), ("view_as_real",), None, ()),
    "diag": ((), ("diag",), None, ()),
    "broadcast_tensors": ((), ("broadcast_tensors",), None, ()),
    "scatter_nd": ((), ("scatter_nd",), None, ()),
    "shard_index": ((), ("shard_index",), None, ()),
    "permute": (("permute",), (), None, ()),
    "block_diag": ((), ("block_diag",), None, ()),
    "polar": ((), ("polar",), None, ()),
    "atleast_1d": ((), ("atleast_1d",), None, ()),
    "atleast_2d": ((), ("atleast_2d",), None, ()),
    "atleast_3d": ((), ("atleast_3d",), None, ()),
}

# in-place alias name -> the function (also exported as paddle.<name>)
INPLACE_ALIASES: dict[str, object] = {}

# Tensor-only in-place methods backed by private ops (x.fill_(v), x.zero_(), ...)
_TENSOR_INPLACE = ("_fill", "_zero", "_fill_diagonal", "fill_diagonal_tensor")


def _apply_aliases() -> None:
    for name, (names, methods, inplace, inplace_aliases) in ALIASES.items():
        od = REGISTRY[name]
        if name in names:  # an op kept out of paddle.* on purpose: publish it
            od.namespaces = (*od.namespaces, "paddle")
            names = tuple(n for n in names if n != name)
        od.extra_names = tuple(dict.fromkeys((*od.extra_names, *names)))
        if inplace and od.inplace is None:
            od.inplace = inplace
        for m in methods:
            if od.method is None and m == name:
                od.method = name  # generated with the others by install_tensor_methods
            elif not hasattr(Tensor, m):
                setattr(Tensor, m, _method(od))
        for a in inplace_aliases:
            fn = make_inplace(od)
            fn.__name__ = a
            INPLACE_ALIASES[a] = fn
            if not hasattr(Tensor, a):
                setattr(Tensor, a, fn)
    for name in _TENSOR_INPLACE:
        od = REGISTRY[name]
        if not hasattr(Tensor, od.inplace):
            setattr(Tensor, od.inplace, make_inplace(od))


# -- dtype conversions: x.float(), x.long(), ... -----------------------------------------------
_CASTS = {
    "bfloat16": "bfloat16", "bool": "bool", "byte": "uint8", "uint8": "uint8", "char": "int8",
    "int8": "int8", "short": "int16", "int16": "int16", "int": "int32", "int32": "int32",
    "long": "int64", "int64": "int64", "half": "float16", "float16": "float16",
    "float": "float32", "float32": "float32", "double": "float64", "float64": "float64",
    "cfloat": "complex64", "complex64": "complex64", "cdouble": "complex128",
    "complex128": "complex128",
}


def _cast_method(name: str, dtype: str):
    def method(self) -> Tensor:
        return call_op("cast", self, dtype)

    method.__name__ = name
    method.__doc__ = f"``x.{name}()``: cast to {dtype}."
    return method


def _new_method(name: str, creator: str, filled: bool):
    if filled:
        def method(self, size, fill_value, dtype=None, device=None, requires_grad=False,
                   pin_memory=False, name=None) -> Tensor:
            out = call_op(creator, size, fill_value, dtype=dtype or self.dtype)
            out.stop_gradient = not requires_grad
            return out
    else:
        def method(self, size, dtype=None, device=None, requires_grad=False,
                   pin_memory=False, name=None) -> Tensor:
            out = call_op(creator, size, dtype=dtype or self.dtype)
            out.stop_gradient = not requires_grad
            return out
    method.__name__ = name
    method.__doc__ = f"``x.{name}(size)``: a new Tensor with x's dtype (``paddle.{creator}``)."
    return method


def type_as(self, other: Tensor) -> Tensor:
    """Cast to ``other``'s dtype."""
    return call_op("cast", self, other.dtype)


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
    with autograd.no_grad():
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
        if isinstance(a, Tensor):
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
        from .._core.place import device_from_spec, to_jax_device

        dev = device_from_spec(device) if isinstance(device, str) else to_jax_device(device)
        if dev not in self._value.devices():
            out = out._to_device(dev)
    if dtype is not None and _dt.to_dtype(dtype) != out.dtype:
        out = call_op("cast", out, dtype)
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
    "requires_grad": property(_get_requires_grad, _set_requires_grad,
                              doc="``not stop_gradient`` (settable)."),
    "device": property(_device, doc="The device as a string ('cpu', 'gpu:0')."),
    "is_cuda": property(_is_cuda, doc="True for Tensors on a GPU."),
    "itemsize": property(lambda self: self._value.dtype.itemsize,
                         doc="Bytes per element."),
    "layout": property(lambda self: "NCHW", doc="Paddle reports 'NCHW' for dense Tensors."),
    "offset": property(lambda self: 0, doc="Storage offset (always 0 here)."),
    "inplace_version": property(lambda self: self._version,
                                doc="How many times the Tensor was modified in place."),
    "grad_fn": property(lambda self: self._node, doc="The autograd node that made x, or None."),
    "grad_": property(lambda self: self.grad, doc="Same as ``grad``."),
    "placements": property(lambda self: None, doc="None for a non-distributed Tensor."),
    "process_mesh": property(lambda self: None, doc="None for a non-distributed Tensor."),
    "num_shard": property(lambda self: None, doc="None for a non-distributed Tensor."),
}

_METHODS = {
    "type_as": type_as, "requires_grad_": requires_grad_, "apply": apply, "apply_": apply_,
    "to": to, "get_device": get_device, "gradient": gradient, "is_tensor": is_tensor,
}


def install() -> None:
    _apply_aliases()
    for name, dtype in _CASTS.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, _cast_method(name, dtype))
    for name, creator, filled in (("new_empty", "empty", False), ("new_zeros", "zeros", False),
                                  ("new_ones", "ones", False), ("new_full", "full", True)):
        if not hasattr(Tensor, name):
            setattr(Tensor, name, _new_method(name, creator, filled))
    for name, fn in _METHODS.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, fn)
    for name, prop in _PROPERTIES.items():
        if not hasattr(Tensor, name):
            setattr(Tensor, name, prop)


install()
