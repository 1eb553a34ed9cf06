"""Generate the public op namespaces, Tensor methods, in-place variants and operators from the
op registry: the one place where this happens."""

from __future__ import annotations

import inspect

from .._core import amp_state, autograd
from .._core.autograd import rebind_inplace
from .._core.dtype import is_inexact_np
from .._core.registry import REGISTRY, OpDef, call_op
from .._core.tensor import Tensor
from .indexing import getitem, setitem

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
    if opname == "multiply":  # a float or complex Tensor times a Python number: Paddle's scale

        def method(self, other):
            if type(other) in (int, float) and is_inexact_np(self._val.dtype):
                return call_op("_mul_scalar", self, other)
            return call_op(opname, other, self) if reverse else call_op(opname, self, other)

        return method
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


def make_inplace(od: OpDef, name: str | None = None):
    """``x.op_(...)``: compute ``op`` then rebind x's array and autograd history to the result."""
    name = name or od.inplace[0]

    signature = od.inplace_signature
    if signature is not None and any(p.kind in _VARIADIC for p in signature.parameters.values()):
        signature = None  # shown only: the call goes to the op as it is (its prebind)

    def inplace(*args, **kwargs):
        if signature is not None:
            args, kwargs = _bind_inplace(signature, name, args, kwargs)
        x, args, kwargs = _inplace_target(od, name, args, kwargs)
        if not x.stop_gradient and x._node is None and autograd.is_grad_enabled():
            raise ValueError(
                f"(InvalidArgument) Leaf Tensor (shape {x.shape}) that doesn't stop gradient "
                f"can't use inplace strategy ({name})."
            )
        state = amp_state.set_current(None)  # Paddle's in-place ops are not auto-cast
        try:
            return rebind_inplace(x, call_op(od, x, *args, **kwargs))
        finally:
            amp_state.set_current(state)

    inplace.__name__ = name
    inplace.__doc__ = f"In-place version of ``{od.name}``."
    inplace.__wrapped__ = _InplaceSignature(od)
    return inplace


_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _bind_inplace(signature, name: str, args: tuple, kwargs: dict):
    """(args, kwargs) of the op for a call bound to the in-place variant's own signature
    (``op(inplace_signature=...)``): the Tensor by position, the rest by keyword, without the
    ``name``/``out`` Paddle's in-place variants ignore."""
    for k in kwargs:
        if k not in signature.parameters:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{name}(): {e}") from None
    values = dict(bound.arguments)
    first = next(iter(signature.parameters))
    x = values.pop(first)
    values.pop("name", None)
    values.pop("out", None)
    return (x,), values


def _inplace_target(od: OpDef, name: str, args: tuple, kwargs: dict):
    """(the Tensor an in-place call writes, the other args, kwargs): the first argument, by
    position or by its own name; Paddle's in-place functions refuse ``input=``/``other=``
    unless the op says ``inplace_keywords``."""
    for k in ("input", "other"):
        if k in kwargs and not od.inplace_keywords:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    if args:
        return args[0], args[1:], kwargs
    first = od.params[0]
    key = (
        first if first in kwargs else next((k for k in kwargs if od.aliases.get(k) == first), None)
    )
    if key is None:
        raise TypeError(f"{name}() missing 1 required positional argument: '{first}'")
    kwargs = dict(kwargs)
    return kwargs.pop(key), (), kwargs


class _InplaceSignature:
    """Behind an in-place variant's ``__wrapped__``: ``inspect.signature`` shows the op's
    public signature without ``out`` (as Paddle's in-place functions have none), computed on
    first read."""

    def __init__(self, od: OpDef):
        self.od = od

    def __call__(self, *args, **kwargs):
        return call_op(self.od, *args, **kwargs)

    @property
    def __signature__(self):
        own = self.od.inplace_signature
        if own is not None:
            return own
        sig = self.od.__signature__
        return sig.replace(parameters=[p for n, p in sig.parameters.items() if n != "out"])


def _method(od: OpDef, name: str):
    def method(self, *args, **kwargs):
        return call_op(od, self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = od.__doc__
    method.__wrapped__ = od  # inspect.signature(paddle.Tensor.add) is the op's, as in Paddle
    return method


def namespace(ns: str) -> dict:
    """{public name: callable} for every op registered in namespace ``ns``: its name, extra
    names and in-place variants. ``paddle.tensor`` is ``paddle``'s ops and those of its
    submodules (``top_p_sampling`` is in ``paddle.tensor`` only, as in Paddle);
    ``paddle.tensor.<m>`` has the ops whose ``tensor_modules`` name ``m``."""
    whole = ns == "paddle.tensor"
    if whole:
        ns = "paddle"
    sub = ns.removeprefix("paddle.tensor.") if ns.startswith("paddle.tensor.") else None
    out = {}
    for od in REGISTRY.values():
        if whole and od.tensor_modules and not od.namespaces:
            found = True
        else:
            found = ns in od.namespaces if sub is None else sub in od.tensor_modules
        if found:
            for n in (od.name, *od.extra_names):
                out[n] = od
            for n in od.inplace:
                out[n] = make_inplace(od, n)
    return out


def tensor_methods() -> dict:
    """{Tensor attribute: function} generated from the registry: op methods, their in-place
    variants and Python operators. Two ops claiming one name is an error."""
    out: dict = {}
    owner: dict = {}

    def put(name, fn, od):
        if name in owner and owner[name] is not od:
            raise ValueError(f"Tensor.{name} claimed by ops {owner[name].name!r} and {od.name!r}")
        owner[name] = od
        out[name] = fn

    for od in REGISTRY.values():
        for m in od.methods:
            put(m, _method(od, m), od)
        if od.tensor_inplace:
            for n in od.inplace:
                put(n, make_inplace(od, n), od)
    for dunder, (name, rev) in _OPERATORS.items():
        out[dunder] = _binary(name, rev)
    for dunder, name in _UNARY.items():
        out[dunder] = lambda self, _n=name: call_op(_n, self)
    out["__eq__"] = _eq("equal")
    out["__ne__"] = _eq("not_equal")
    out["__getitem__"], out["__setitem__"] = getitem, setitem
    return out


def install_tensor_methods() -> None:
    """Attach the generated methods to ``Tensor``; names the class defines itself stay."""
    own = {k for c in Tensor.__mro__[:-1] for k in vars(c)}
    for name, fn in tensor_methods().items():
        if name not in own or name.startswith("__"):
            setattr(Tensor, name, fn)
