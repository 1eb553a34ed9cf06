"""Tensor attributes and complex numbers: rank, shape, is_empty, is_complex /
is_floating_point / is_integer, real, imag, conj, angle, complex, polar, as_complex, as_real
(view_as_complex / view_as_real)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core import dtype as _dt
from .._core import trace_state, views
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor, to_device


def _name(a) -> str:
    return _dt.to_dtype(a.dtype).name


def _no_kernel(what, a, supported="complex64, complex128"):
    return RuntimeError(
        f"(NotFound) The kernel of {what} for dtype {_name(a)} is not "
        f"registered. Supported dtypes: {supported}."
    )


# -- attributes -------------------------------------------------------------------------------
def known_tensor(value, dtype) -> Tensor:
    """A Tensor of a value known without running the program (from shapes): under to_static it
    is a constant, and control flow on it stays Python (as on ``x.shape``). With a symbolic dim
    (``jit.save``'s dynamic dims) it is computed in the program instead."""
    if any(not isinstance(d, int | np.integer) for d in np.ravel(np.asarray(value, object))):
        return Tensor(jnp.asarray(value, dtype))
    with jax.ensure_compile_time_eval():
        out = Tensor(to_device(np.asarray(value, dtype=np.dtype(dtype)), owned=True))
    trace_state.note_static(out)
    return out


@op("rank", differentiable=False, method=True, composite=True)
def rank(input: Tensor) -> Tensor:  # noqa: A002
    """Number of dims as an int32 0-d Tensor."""
    return known_tensor(input._value.ndim, jnp.int32)


@op("shape", differentiable=False, method=None, composite=True)
def shape(input: Tensor) -> Tensor:  # noqa: A002
    """The shape as a 1-D int64 Tensor."""
    dims = tuple(input._value.shape)
    return known_tensor(dims if dims else np.zeros((0,), np.int64), jnp.int64)


@op("is_empty", tensor_modules=("logic",), differentiable=False, aliases=NO_TORCH_KEYWORDS)
def is_empty(x: jax.Array, name: str | None = None) -> jax.Array:
    """0-d bool Tensor: True when x has no elements."""
    return jnp.asarray(x.size == 0)


def _tensor_arg(x, what):
    if not isinstance(x, Tensor):
        raise TypeError(f"Expected Tensor, but received type of x: {type(x)} ({what})")
    return x.dtype


@op("is_complex", composite=True)
def is_complex(x: Tensor) -> bool:
    """True for complex64/complex128 Tensors."""
    return _dt.is_complex(_tensor_arg(x, "is_complex"))


@op("is_floating_point", composite=True)
def is_floating_point(x: Tensor) -> bool:
    """True for floating-point Tensors."""
    return _dt.is_floating(_tensor_arg(x, "is_floating_point"))


@op("is_integer", composite=True, aliases=NO_TORCH_KEYWORDS)
def is_integer(x: Tensor) -> bool:
    """True for integer Tensors (bool is not an integer)."""
    return _dt.is_integer(_tensor_arg(x, "is_integer"))


# -- complex ----------------------------------------------------------------------------------
def _is_cplx(x) -> bool:
    return jnp.issubdtype(x.dtype, jnp.complexfloating)


@op("real", aliases=NO_TORCH_KEYWORDS, view=lambda vals, x: views.complex_part_view(False))
def real(x: jax.Array, name: str | None = None) -> jax.Array:
    """Real part of a complex Tensor."""
    if not _is_cplx(x):
        raise _no_kernel("real", x)
    return jnp.real(x)


@op("imag", aliases=NO_TORCH_KEYWORDS, view=lambda vals, x: views.complex_part_view(True))
def imag(x: jax.Array, name: str | None = None) -> jax.Array:
    """Imaginary part of a complex Tensor."""
    if not _is_cplx(x):
        raise _no_kernel("imag", x)
    return jnp.imag(x)


@op("conj", tensor_modules=("math",), aliases=NO_TORCH_KEYWORDS)
def conj(x: jax.Array, name: str | None = None) -> jax.Array:
    """Complex conjugate (real Tensors are returned unchanged)."""
    return jnp.conj(x) if _is_cplx(x) else x


@op("angle", tensor_modules=("math",), aliases=NO_TORCH_KEYWORDS)
def angle(x: jax.Array, name: str | None = None) -> jax.Array:
    """Argument of each element; for real numbers pi where x < 0, else 0 (-0.0 too), in x's
    dtype."""
    if not (_is_cplx(x) or jnp.issubdtype(x.dtype, jnp.floating)):
        raise _no_kernel("angle", x, "float32, float64, complex64, complex128")
    if _is_cplx(x):
        return jnp.angle(x)
    return jnp.where(x < 0, jnp.asarray(np.pi, x.dtype), jnp.zeros((), x.dtype))


def _pair(a, b, what, an, bn):
    for t in (a, b):
        if t.dtype not in (jnp.float32, jnp.float64):
            raise _no_kernel(what, t, "float32, float64")
    if a.dtype != b.dtype:
        raise ValueError(
            f"(InvalidArgument) {what}: {an} ({_name(a)}) and {bn} ({_name(b)}) "
            "must have the same dtype."
        )
    return jnp.broadcast_arrays(a, b)


@op("complex", tensor_modules=("creation",), tensors=("real", "imag"), method=None)
def complex(
    real: jax.Array, imag: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:  # noqa: A001
    """Complex Tensor from real and imaginary parts (broadcast together)."""
    r, i = _pair(real, imag, "complex", "real", "imag")
    return jax_complex(r, i)


@op("polar", tensor_modules=("creation",), tensors=("abs", "angle"))
def polar(
    abs: jax.Array, angle: jax.Array, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:  # noqa: A002
    """Complex Tensor abs * exp(i * angle)."""
    a, t = _pair(abs, angle, "polar", "abs", "angle")
    return jax_complex(a * jnp.cos(t), a * jnp.sin(t))


def jax_complex(r, i):
    return lax.complex(r, i)


@op(
    "as_complex",
    tensor_modules=("manipulation",),
    aliases=NO_TORCH_KEYWORDS,
    view=lambda vals, x: views.as_complex_view(),
)
def as_complex(x: jax.Array, name: str | None = None) -> jax.Array:
    """[..., 2] real Tensor -> [...] complex Tensor (last dim = real, imaginary)."""
    if x.ndim == 0 or x.shape[-1] != 2:
        raise ValueError(
            f"(InvalidArgument) as_complex: the last dim of x must be 2, but got "
            f"shape {list(x.shape)}."
        )
    if x.dtype not in (jnp.float32, jnp.float64):
        raise _no_kernel("as_complex", x, "float32, float64")
    return jax_complex(x[..., 0], x[..., 1])


@op(
    "as_real",
    tensor_modules=("manipulation",),
    aliases=NO_TORCH_KEYWORDS,
    view=lambda vals, x: views.as_real_view(),
)
def as_real(x: jax.Array, name: str | None = None) -> jax.Array:
    """[...] complex Tensor -> [..., 2] real Tensor."""
    if not _is_cplx(x):
        raise _no_kernel("as_real", x)
    return jnp.stack([jnp.real(x), jnp.imag(x)], axis=-1)


@op("view_as_complex", tensor_modules=("manipulation",), composite=True)
def view_as_complex(input: Tensor) -> Tensor:  # noqa: A002
    """``as_complex(input)`` (PyTorch's name and argument)."""
    return as_complex(input)


@op("view_as_real", tensor_modules=("manipulation",), composite=True)
def view_as_real(input: Tensor) -> Tensor:  # noqa: A002
    """``as_real(input)`` (PyTorch's name and argument)."""
    return as_real(input)
