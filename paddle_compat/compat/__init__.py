"""``paddle.compat``: torch-style functions (``dim`` arguments, named-tuple results) and the
``torch`` import proxy (``paddle.enable_compat``). Each function is built from paddle ops;
Paddle-style keywords (``x``, ``axis``) are refused with a pointer to the Paddle API."""

from __future__ import annotations

import random as _random
from typing import NamedTuple

from .._core import dtype as _dt
from .._core.random import seed as _seed
from .._core.registry import call_op
from .._core.tensor import Tensor
from . import nn, proxy  # noqa: F401
from ._forbid import forbid_keywords
from .proxy import (  # noqa: F401
    disable_torch_proxy,
    enable_torch_proxy,
    extend_torch_proxy_blocked_modules,
    use_torch_proxy_guard,
)

# torch-style dtype shorthands
b1, u1, i1, i2, i4, i8 = _dt.bool_, _dt.uint8, _dt.int8, _dt.int16, _dt.int32, _dt.int64
f2, f4, f8, bf = _dt.float16, _dt.float32, _dt.float64, _dt.bfloat16


class SortRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class MinMaxRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class MedianRetType(NamedTuple):
    values: Tensor
    indices: Tensor


class SlogdetResult(NamedTuple):
    sign: Tensor
    logabsdet: Tensor


@forbid_keywords("paddle.compat.sort", "paddle.sort", "x", "axis")
def sort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False, out=None):
    """Sorted values and their indices along ``dim`` (a SortRetType)."""
    values = call_op("sort", input, dim, descending, stable)
    indices = call_op("argsort", input, dim, descending, stable)
    return _fill_out(SortRetType(values, indices), out)


def _fill_out(result, out):
    if out is None:
        return result
    from .._core.autograd import rebind_inplace

    for o, r in zip(out if isinstance(out, tuple | list) else (out,), result):
        rebind_inplace(o, r)
    return result


def _min_max(name: str, reduce: str, arg: str, elementwise: str):
    public = f"paddle.compat.{name}"

    @forbid_keywords(public, f"paddle.{name}", "x", "axis")
    def fn(input: Tensor, *args, out=None, **kwargs):
        usage = (
            f"Invalid arguments for `{public}`:\n{{why}}Got: ({{got}}), but expect one of:\n"
            f" - (input: paddle.Tensor) for reduce_{name} on all dims.\n"
            f" - (input: paddle.Tensor, other: paddle.Tensor) for elementwise {name}imum.\n"
            f" - (input: paddle.Tensor, dim: int, keepdim: bool = False) for reduce_{name} "
            "along the given dim."
        )
        got = ", ".join(
            ["paddle.Tensor input"]
            + [type(a).__name__ for a in args]
            + [f"{k}={type(v).__name__}" for k, v in kwargs.items()]
        )
        other = kwargs.pop("other", None)
        dim = kwargs.pop("dim", None)
        keepdim = kwargs.pop("keepdim", False)
        if kwargs or len(args) > 2:
            raise TypeError(usage.format(why="", got=got))
        if args:
            first = args[0]
            if isinstance(first, Tensor):
                other = first
            elif isinstance(first, int) and not isinstance(first, bool):
                dim = first
            else:
                why = (
                    f"The second input must be int or Tensor or implicit None in compat.{name}, "
                    f"but received {type(first)}.\n"
                )
                raise TypeError(usage.format(why=why, got=got))
            if len(args) == 2:
                keepdim = args[1]
        if other is not None:
            if dim is not None:
                raise TypeError(usage.format(why="", got=got))
            return call_op(elementwise, input, other)
        if dim is None:
            return call_op(reduce, input)
        values = call_op(reduce, input, dim, bool(keepdim))
        indices = call_op(arg, input, dim, bool(keepdim))
        return _fill_out(MinMaxRetType(values, indices), out)

    fn.__name__ = name
    fn.__doc__ = (
        f"torch-style {name}: of all elements; ``(input, other)`` elementwise; "
        f"``(input, dim, keepdim=False)`` a MinMaxRetType of values and indices."
    )
    return fn


max = _min_max("max", "max", "argmax", "maximum")  # noqa: A001
min = _min_max("min", "min", "argmin", "minimum")  # noqa: A001


def _median(name: str):
    @forbid_keywords(f"paddle.compat.{name}", f"paddle.{name}", "x", "axis")
    def fn(input: Tensor, dim: int | None = None, keepdim: bool = False, *, out=None):
        if dim is None:
            return call_op(name, input, None, False, "min")
        values, indices = call_op(name, input, dim, keepdim, "min")
        return _fill_out(MedianRetType(values, indices), out)

    fn.__name__ = name
    fn.__doc__ = (
        f"torch-style {name}: the lower median of all elements, or along ``dim`` a "
        "MedianRetType of values and indices."
    )
    return fn


median = _median("median")
nanmedian = _median("nanmedian")


@forbid_keywords("paddle.compat.split", "paddle.split", "x", "axis", "num_or_sections")
def split(tensor: Tensor, split_size_or_sections, dim: int = 0) -> tuple:
    """torch-style split: an int is the size of each piece (the last may be smaller); a list
    gives the sizes."""
    if isinstance(split_size_or_sections, int):
        n = tensor.shape[dim]
        size = split_size_or_sections
        if size <= 0:
            raise ValueError(f"split_size_or_sections must be positive, but got {size}")
        sections = [size] * (n // size) + ([n % size] if n % size else [])
    else:
        sections = list(split_size_or_sections)
    return tuple(call_op("split", tensor, sections, dim))


@forbid_keywords("paddle.compat.unique", "paddle.unique", "x", "axis")
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """torch-style unique (the result is sorted either way, as in Paddle)."""
    return call_op(
        "unique",
        input,
        return_inverse=return_inverse,
        return_counts=return_counts,
        axis=dim,
    )


def slogdet(x: Tensor, out=None) -> SlogdetResult:
    """The sign and log of the absolute value of the determinant (a SlogdetResult)."""
    r = call_op("slogdet", x)
    res = SlogdetResult(r[0], r[1])
    return _fill_out(res, out)


def equal(input: Tensor, other: Tensor) -> bool:
    """True when the Tensors have the same shape and equal values."""
    if list(input.shape) != list(other.shape):
        return False
    return bool(call_op("equal_all", input, other))


def seed() -> int:
    """Seed the generator with a random 64-bit-range number and return it (torch.seed)."""
    s = _random.SystemRandom().randrange(1 << 50)
    _seed(s)
    return s


__all__ = [
    "equal",
    "slogdet",
    "sort",
    "split",
    "min",
    "max",
    "unique",
    "median",
    "nanmedian",
    "seed",
]
