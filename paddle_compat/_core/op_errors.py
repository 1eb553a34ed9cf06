"""How an op's failure reaches the user: Paddle-style messages naming the op and its inputs'
shapes and dtypes (``paddle_error``), the dtype check of ``op(dtypes=...)`` (``check_dtype``),
rank errors from shape arithmetic, and XLA's out-of-memory as Paddle's MemoryError."""

from __future__ import annotations

import re

import jax
import numpy as np

from . import deferred
from . import dtype as _dt
from .tensor import Tensor


def leaf_dtype(x) -> _dt.DType | None:
    if isinstance(x, Tensor):
        return x.dtype
    if isinstance(x, jax.Array | np.ndarray | np.generic | deferred.Pending):
        return _dt.to_dtype(x.dtype)
    return None


def check_dtype(x, allowed, kernel: str, error=RuntimeError, arg: str = "x") -> None:
    """Paddle's dtype check behind ``op(dtypes=...)``: RuntimeError (NotFound) when the kernel
    has no such dtype, TypeError (InvalidType) where Paddle's Python API checks first."""
    d = leaf_dtype(x)
    if d is None or d.name in allowed:
        return
    if error is TypeError:
        raise TypeError(
            f"(InvalidType) {kernel}: the dtype of '{arg}' must be one of the "
            f"supported types, but received {d.name}."
        )
    raise error(
        f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {d.name}) of kernel "
        f"`{kernel}` is not registered; supported data types: {', '.join(allowed)}."
    )


class RankError(Exception):
    """Python's "tuple index out of range" (or numpy's AxisError) from an op's shape arithmetic:
    an axis or a rank the inputs do not have, said in Paddle's words."""

    def __init__(self, e: Exception):
        text = str(e)
        if "tuple index" in text or not text:
            text = "an axis or dimension is out of range for the input's rank"
        super().__init__(text)


def out_of_memory(e: Exception) -> MemoryError | None:
    """XLA's RESOURCE_EXHAUSTED as Paddle's MemoryError, saying how many bytes were asked."""
    text = str(e)
    if "RESOURCE_EXHAUSTED" not in text:
        return None
    m = re.search(r"allocating (\d+) bytes", text)
    size = f"{int(m.group(1))} bytes ({int(m.group(1)) / 2**30:.1f} GiB)" if m else "an array"
    return MemoryError(
        f"(ResourceExhausted) Fail to alloc memory of {size}: the device is out of memory."
    )


_JAX_NAMES = re.compile(r"\b(jax\.numpy|jax\.lax|jax\.nn|jnp|lax)\.")


def paddle_error(key, inputs, e, cls=None):
    od = key[0]
    name = getattr(od, "name", None) or str(od)
    desc = ", ".join(
        f"{type(x).__name__}(shape={list(x.shape if isinstance(x, Tensor) else np.shape(x))}, "
        f"dtype={leaf_name(x)})"
        for x in inputs
    )
    msg = _JAX_NAMES.sub("", str(e).split("\n")[0]).rstrip(".")
    if msg.startswith("("):  # already a Paddle-style message from the op itself
        return (cls or type(e))(f"{msg}. Inputs: [{desc}]" if inputs else f"{msg}.")
    where = "" if name.startswith("_") else f"{name}: "  # private kernels: no internal name
    return (cls or type(e))(f"(InvalidArgument) {where}{msg}. Inputs: [{desc}]")


def leaf_name(x):
    d = leaf_dtype(x)
    return d.name if d is not None else type(x).__name__
