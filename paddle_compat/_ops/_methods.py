"""Generate the public op namespaces, Tensor methods, in-place variants and operators from the
op registry: the one place where this happens."""

from __future__ import annotations

import weakref

from .._core import autograd
from .._core.registry import REGISTRY, OpDef, call_op
from .._core.tensor import Tensor

# operator -> (op name, reversed?)
_OPERATORS = {
    "__add__": ("add", False),
    "__radd__": ("add", True),
    "__sub__": ("subtract", False),
    "__rsub__": ("subtract", True),
    "__mul__": ("multiply", False),
    "__rmul__": ("multiply", True),
    "__truediv__": ("divide", False),
    "__rtruediv__": ("divide", True),
    "__floordiv__": ("floor_divide", False),
    "__rfloordiv__": ("floor_divide", True),
    "__mod__": ("remainder", False),
    "__rmod__": ("remainder", True),
    "__pow__": ("pow", False),
    "__rpow__": ("pow", True),
    "__matmul__": ("matmul", False),
    "__rmatmul__": ("matmul", True),
    "__lt__": ("less_than", False),
    "__le__": ("less_equal", False),
    "__gt__": ("greater_than", False),
    "__ge__": ("greater_equal", False),
    "__and__": ("bitwise_and", False),
    "__rand__": ("bitwise_and", True),
    "__or__": ("bitwise_or", False),
    "__ror__": ("bitwise_or", True),
    "__xor__": ("bitwise_xor", False),
    "__rxor__": ("bitwise_xor", True),
    "__lshift__": ("bitwise_left_shift", False),
    "__rshift__": ("bitwise_right_shift", False),
}
_UNARY = {"__neg__": "neg", "__abs__": "abs", "__invert__": "bitwise_not", "__pos__": "assign"}


def _binary(opname: str, reverse: bool):
    if reverse:

        def method(self, other):
            return call_op(opname, other, self)
    else:

        def method(self, other):
            return call_op(opname, self, other)

    return method


def _eq(opname):
    def method(self, other):
        if other is None:
            return opname == "not_equal"
        return call_op(opname, self, other)

    return method


def rebind_inplace(x: Tensor, out: Tensor) -> Tensor:
    """Make ``x`` hold ``out``'s array and autograd history (in-place semantics)."""
    x._set_value(out._value)
    x._node, x._out_idx = out._node, out._out_idx
    if out._node is not None:
        x.stop_gradient = False
        out._node.out_refs[out._out_idx] = weakref.ref(x)
    return x


def make_inplace(od: OpDef):
    """``x.op_(...)``: compute ``op`` then rebind x's array and autograd history to the result."""

    def inplace(x, *args, **kwargs):
        if not x.stop_gradient and x._node is None and autograd.is_grad_enabled():
            raise ValueError(
                f"(InvalidArgument) Leaf Tensor (shape {x.shape}) that doesn't stop gradient "
                f"can't use inplace strategy ({od.inplace})."
            )
        return rebind_inplace(x, call_op(od, x, *args, **kwargs))

    inplace.__name__ = od.inplace
    inplace.__doc__ = f"In-place version of ``{od.name}``."
    return inplace


def _method(od: OpDef):
    def method(self, *args, **kwargs):
        return call_op(od, self, *args, **kwargs)

    method.__name__ = od.method
    method.__doc__ = od.__doc__
    return method


def namespace(ns: str) -> dict:
    """{public name: callable} for every op registered in namespace ``ns``."""
    out = {}
    for od in REGISTRY.values():
        if ns in od.namespaces:
            for n in (od.name, *od.extra_names):
                out[n] = od
            if od.inplace:
                out[od.inplace] = make_inplace(od)
    return out


def install_tensor_methods() -> None:
    for od in REGISTRY.values():
        if od.method and not hasattr(Tensor, od.method):
            setattr(Tensor, od.method, _method(od))
        if od.inplace and od.method and not hasattr(Tensor, od.inplace):
            setattr(Tensor, od.inplace, make_inplace(od))
    for dunder, (name, rev) in _OPERATORS.items():
        if name in REGISTRY:
            setattr(Tensor, dunder, _binary(name, rev))
    for dunder, name in _UNARY.items():
        if name in REGISTRY:
            setattr(Tensor, dunder, lambda self, _n=name: call_op(_n, self))
    if "equal" in REGISTRY:
        Tensor.__eq__ = _eq("equal")
        Tensor.__ne__ = _eq("not_equal")
