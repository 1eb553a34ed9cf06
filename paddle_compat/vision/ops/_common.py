"""Shared by the paddle.vision.ops files: the decorators that register detection ops, host reads
for the ops whose output shapes depend on values, and Paddle's wording for its errors."""

from __future__ import annotations

import functools
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as _dt
from ..._core import trace_state
from ..._core.op_signature import public_signature
from ..._core.registry import op
from ..._core.tensor import Tensor, to_device

VISION = dict(namespaces=("paddle.vision.ops",), method=None)
_PRIVATE = dict(namespaces=(), method=None)
FLOATS = ("float32", "float64")


def vision_op(
    name: str,
    tensors: tuple[str, ...],
    *,
    no_grad: tuple[str, ...] = (),
    check: Callable[[dict, str], None] | None = None,
    dtypes: tuple[str, ...] | None = FLOATS,
    differentiable: bool = True,
):
    """Register ``fn`` (a plain function over jax arrays) as the private kernel
    ``_vision_<name>`` plus the public composite op ``name``, which first runs ``check`` on the
    bound arguments (Paddle's Python-side checks and the ones that read values such as
    ``boxes_num``; a check reads a value only when it is concrete), then detaches the ``no_grad``
    inputs (Paddle's kernels give boxes and labels no gradient, so their ``.grad`` stays None)."""

    def deco(fn):
        private = op(f"_vision_{name}", tensors=tensors, differentiable=differentiable, **_PRIVATE)
        if no_grad:  # also under a JAX trace (to_static, compiled segments): no gradient there

            @functools.wraps(fn)
            def fn_stopped(**kw):
                for n in no_grad:
                    if kw.get(n) is not None:
                        kw[n] = jax.lax.stop_gradient(kw[n])
                return fn(**kw)

            kernel = private(fn_stopped)
        else:
            kernel = private(fn)

        def public(**kw):
            if check is not None:
                check(kw, name)
            for n in no_grad:
                t = kw.get(n)
                if isinstance(t, Tensor) and not t.stop_gradient:
                    kw[n] = t.detach()
            if "name" in kw:
                kw["name"] = None  # never part of the kernel's compile key
            return kernel(**kw)

        public.__signature__ = public_signature(fn)  # Tensors in, as users call it
        public.__doc__ = fn.__doc__
        public.__name__ = public.__qualname__ = name
        public.__module__ = fn.__module__  # annotations resolve in the defining file
        return op(name, composite=True, dtypes=dtypes, **VISION)(public)

    return deco


def require_tensors(kw: dict, names: tuple[str, ...], op_name: str) -> None:
    """Paddle's error for a non-Tensor where its kernel takes a Tensor."""
    for i, n in enumerate(names):
        if not isinstance(kw.get(n), Tensor):
            raise ValueError(
                f"(InvalidArgument) {op_name}(): argument '{n}' (position {i}) must be Tensor, "
                f"but got {type(kw.get(n)).__name__}"
            )


def host_op(name: str, **kw):
    """A public op computed on the host (numpy): its output shape depends on input values."""
    return op(name, composite=True, differentiable=False, **VISION, **kw)


def concrete(t) -> np.ndarray | None:
    """The value of ``t`` for a check, or None while tracing (the check is skipped then)."""
    if not isinstance(t, Tensor):
        return None if t is None else np.asarray(t)
    v = t._value
    return None if isinstance(v, jax.core.Tracer) else np.asarray(v)


def host(t, what: str) -> np.ndarray:
    """The concrete value of ``t`` for an op computed on the host; under ``to_static`` a clear
    error that names the op (its output shape depends on the values)."""
    if not isinstance(t, Tensor):
        return np.asarray(t)
    if isinstance(t._value, jax.core.Tracer):
        raise trace_state.DataDependentError(
            f"paddle.vision.ops.{what} has a data-dependent output shape, so it cannot run "
            f"inside paddle.jit.to_static (input shape {list(t._value.shape)}): call it outside "
            f"the compiled function, or use paddle.jit.to_static(..., full_graph=False)."
        )
    return np.asarray(trace_state.read(t))


def to_tensor(a, dtype=None) -> Tensor:
    a = np.asarray(a)
    return Tensor(to_device(np.asarray(a) if dtype is None else a.astype(dtype)))


def dtype_name(d) -> str:
    return _dt.to_dtype(d).name


def retrieve_error(want, have) -> ValueError:
    """Paddle's error when a kernel reads an input in another dtype than the one it holds."""
    return ValueError(
        f"(InvalidArgument) The type of data we are trying to retrieve ({dtype_name(want)}) "
        f"does not match the type of data ({dtype_name(have)}) currently contained in the "
        f"container."
    )


def same_dtype(want, *arrays) -> None:
    for a in arrays:
        if a is not None and a.dtype != want:
            raise retrieve_error(want, a.dtype)


def kernel_dtype(x, allowed: tuple[str, ...], kernel: str) -> None:
    """Paddle's RuntimeError for a dtype the kernel is not registered for."""
    name = dtype_name(x.dtype)
    if name not in allowed:
        raise RuntimeError(
            f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of kernel "
            f"`{kernel}` is not registered. Selected wrong DataType `{name}`. Paddle support "
            f"following DataTypes: {', '.join(reversed(allowed))}."
        )


def ieee(f, *args, dtype=None):
    """``f(*args)`` rounded once to ``dtype`` (default: the first argument's), as C rounds
    each operation. Under jit XLA may fuse a multiply and an add into one FMA or keep excess
    precision, which moves values that sit exactly on a pixel boundary (a sample at y = -1.0, a
    bin edge at 3 * (2 / 3)) to the other side; for float32 the operation runs in float64
    (exact for + - *, correctly rounded for /) and ``reduce_precision`` rounds it, which XLA
    keeps. Used where such values decide which pixels are read."""
    dt = jnp.dtype(dtype or jnp.asarray(args[0]).dtype)
    if dt != jnp.float32:
        return f(*(jnp.asarray(a, dt) for a in args))
    r = f(*(jnp.asarray(a).astype(jnp.float64) for a in args))
    return jax.lax.reduce_precision(r, exponent_bits=8, mantissa_bits=23).astype(dt)


def c_round(v):
    """C's ``round``: halves away from zero (jnp.round rounds them to even)."""
    t = jnp.trunc(v)
    return jnp.where(jnp.abs(v - t) == 0.5, t + jnp.sign(v), jnp.round(v))


def pair(output_size) -> tuple[int, int]:
    """Paddle's ``output_size``: an int or a (h, w) pair."""
    if isinstance(output_size, int):
        return output_size, output_size
    h, w = output_size
    return int(h), int(w)


def sigmoid(x):
    """Paddle's detection kernels' ``1.0 / (1.0 + exp(-x))``: exp in x's dtype, the rest in
    double, rounded once."""
    e = jnp.exp(-x)
    return (1.0 / (1.0 + e.astype(jnp.float64))).astype(x.dtype)
