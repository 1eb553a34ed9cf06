"""Linear algebra, part 1: norms and distances, products (cross, mv, multi_dot, matrix_power,
vecdot), transposes (t, matrix_transpose), trace, cov/corrcoef. Decompositions and solvers are in linalg_decomp.py."""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp

from .._core import dtype as _dt
from .._core import views
from .._core.dtype import DTypeLike
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor
from .search import check_axis

_BOTH = ("paddle", "paddle.linalg")
_LINALG = ("paddle.linalg",)
FLOATS = ("float32", "float64", "complex64", "complex128")
_HALF_FLOATS = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
_MATRIX_P = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def check_square(x, name: str) -> None:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(
            f"(InvalidArgument) {name} expects (batches of) square matrices, but the input has "
            f"shape {list(x.shape)}."
        )


def _sqrt_safe(s):
    """sqrt with a zero (not NaN) gradient at 0, for norms of zero vectors."""
    zero = s == 0
    return jnp.where(zero, 0.0, jnp.sqrt(jnp.where(zero, 1.0, s))).astype(s.dtype)


def vector_norm_impl(x, p, axes, keepdim):
    """p-norm over ``axes`` (None: all). p may be inf, -inf, 0 or any float."""
    # |x| as x * sign(x) for real x: the gradient at 0 is 0, as in Paddle (JAX's abs gives 1)
    a = jnp.abs(x) if jnp.iscomplexobj(x) else x * jnp.sign(x)
    if x.size == 0:
        return jnp.zeros(jnp.sum(a, axis=axes, keepdims=keepdim).shape, a.dtype)
    if p == math.inf:
        return jnp.max(a, axis=axes, keepdims=keepdim)
    if p == -math.inf:
        return jnp.min(a, axis=axes, keepdims=keepdim)
    if p == 0:
        return jnp.sum((a != 0).astype(a.dtype), axis=axes, keepdims=keepdim)
    if p == 1:
        return jnp.sum(a, axis=axes, keepdims=keepdim)
    if p == 2:
        return _sqrt_safe(jnp.sum(a * a, axis=axes, keepdims=keepdim))
    return jnp.sum(a**p, axis=axes, keepdims=keepdim) ** (1.0 / p)


def _axes(axis, ndim, name):
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = tuple(check_axis(int(a), ndim, name) for a in axes)
    if len(set(out)) != len(out) or len(out) > builtins.max(ndim, 1):
        raise ValueError(
            f"(InvalidArgument) {name}: the axes {list(axes)} repeat or exceed the tensor's "
            f"rank {ndim}."
        )
    return out


def _matrix_norm_impl(x, p, axes, keepdim):
    if p not in _MATRIX_P:
        raise ValueError(
            f"just support p value 'fro','nuc',1,-1,inf,-inf,2,-2 if axis is 2D, found {p}"
        )
    return jnp.linalg.norm(x, ord=p, axis=axes, keepdims=keepdim)


def _cast(x, dtype):
    return x if dtype is None else x.astype(_dt.to_dtype(dtype).np)


@op(
    "norm",
    dtypes=_HALF_FLOATS,
    kernel="p_norm",
    namespaces=_BOTH,
    aliases={"A": "x", "ord": "p", "dim": "axis"},
)
def norm(
    x: jax.Array,
    p: float | str | None = None,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    out: Tensor | None = None,
    dtype: DTypeLike | None = None,
    name: str | None = None,
) -> jax.Array:
    """Vector or matrix norm (Frobenius by default; a 2-axis ``axis`` selects a matrix norm)."""
    x = _cast(x, dtype)
    if axis is None:
        if p == "nuc":
            if x.ndim != 2:
                raise ValueError(
                    f"except axis type int or list (length of list == 2), found {x.ndim}"
                )
            return _matrix_norm_impl(x, p, (0, 1), keepdim)
        if isinstance(p, str) and p != "fro":
            raise ValueError(f"except axis type int or list (length of list == 2), found {x.ndim}")
        r = vector_norm_impl(x, 2 if p in (None, "fro") else p, None, False)
        return r.reshape((1,) * x.ndim) if keepdim else r
    if isinstance(axis, int) and p == "nuc":
        raise TypeError("norm: p='nuc' needs a list of 2 axes, got an int axis")
    axes = _axes(axis, x.ndim, "norm")
    if len(axes) == 2:
        return _matrix_norm_impl(x, 2 if p is None else p, axes, keepdim)
    if isinstance(p, str):
        if p != "fro" or len(axes) > 2:
            raise ValueError(
                f"except axis type int or list (length of list == 2), found {len(axes)}"
            )
        p = 2
    return vector_norm_impl(x, 2 if p is None else p, axes, keepdim)


@op(
    "vector_norm",
    dtypes=_HALF_FLOATS,
    kernel="p_norm",
    namespaces=_LINALG,
    method=None,
    aliases={"ord": "p", "dim": "axis"},
)
def vector_norm(
    x: jax.Array,
    p: float = 2.0,
    axis: int | Sequence[int] | None = None,
    keepdim: bool = False,
    name: str | None = None,
    *,
    dtype: DTypeLike | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """Vector p-norm over ``axis`` (all axes when None)."""
    if isinstance(p, str):
        raise ValueError(f"only valid p type is int and float, found {type(p)}")
    x = _cast(x, dtype)
    return vector_norm_impl(x, p, _axes(axis, x.ndim, "vector_norm"), keepdim)


@op("matrix_norm", amp="black", dtypes=_HALF_FLOATS, namespaces=_LINALG, method=None)
def matrix_norm(
    x: jax.Array,
    p: float | str = "fro",
    axis: Sequence[int] = [-2, -1],  # noqa: B006 (Paddle's default, never mutated)
    keepdim: bool = False,
    name: str | None = None,
) -> jax.Array:
    """Matrix norm ('fro', 'nuc', +-1, +-2, +-inf) over the two axes in ``axis``."""
    if isinstance(axis, int):
        raise TypeError("matrix_norm: axis must be a list of 2 ints, got an int")
    axes = _axes(axis, x.ndim, "matrix_norm")
    if len(axes) != 2:
        raise ValueError(f"matrix_norm: axis must have 2 entries, got {list(axis)}")
    return _matrix_norm_impl(x, p, axes, keepdim)


@op("dist", amp="black", tensors=("x", "y"), promote=("x", "y"), aliases=NO_TORCH_KEYWORDS)
def dist(x: jax.Array, y: jax.Array, p: float = 2, name: str | None = None) -> jax.Array:
    """p-norm of ``x - y`` (broadcast) over all entries."""
    try:
        shape = jnp.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError(
            f"(InvalidArgument) Broadcast dimension mismatch: x {list(x.shape)} and "
            f"y {list(y.shape)}."
        ) from None
    d = jnp.broadcast_to(x, shape) - jnp.broadcast_to(y, shape)
    return vector_norm_impl(d, float(p), None, False)


@op("cdist", tensors=("x", "y"), aliases=NO_TORCH_KEYWORDS)
def cdist(
    x: jax.Array,
    y: jax.Array,
    p: float = 2.0,
    compute_mode: str = "use_mm_for_euclid_dist_if_necessary",
    name: str | None = None,
) -> jax.Array:
    """Pairwise p-norm distances between the rows of x [..., P, M] and y [..., R, M]."""
    if x.ndim < 2 or y.ndim < 2:
        raise AssertionError(
            f"The x and y must be at least 2-dimensional, got ranks {x.ndim} and {y.ndim}."
        )
    if x.shape[-1] != y.shape[-1]:
        raise AssertionError(
            f"The x and y must have same last dimension, got {x.shape[-1]} and {y.shape[-1]}."
        )
    d = x[..., :, None, :] - y[..., None, :, :]
    return vector_norm_impl(d, float(p), (d.ndim - 1,), False)


@op(
    "cross",
    tensors=("x", "y"),
    promote=("x", "y"),
    namespaces=_BOTH,
    aliases={"dim": "axis", **NO_TORCH_KEYWORDS},
)
def cross(x: jax.Array, y: jax.Array, axis: int = 9, name: str | None = None) -> jax.Array:
    """Cross product of 3-vectors along ``axis`` (default: the first axis of size 3)."""
    if x.shape != y.shape:
        raise ValueError(
            f"(InvalidArgument) The 'shape' of Input(X) should be equal to the 'shape' of "
            f"Input(Y). But received {list(x.shape)} and {list(y.shape)}."
        )
    if axis == 9:
        axis = next((i for i, s in enumerate(x.shape) if s == 3), None)
        if axis is None:
            raise ValueError(f"(InvalidArgument) cross: no axis of size 3 in {list(x.shape)}.")
    axis = check_axis(axis, x.ndim, "cross")
    if x.shape[axis] != 3:
        raise ValueError(
            f"(InvalidArgument) Input(X/Y).dims()[dim] should be equal to 3. But received "
            f"{x.shape[axis]}."
        )
    return jnp.cross(x, y, axis=axis)


@op("t", inplace="t_", view=lambda vals, x: views.permute_view(range(x.ndim)[::-1]))
def t(input: jax.Array, name: str | None = None) -> jax.Array:
    """Transpose of a tensor with at most 2 dimensions (0-D and 1-D are returned as is)."""
    x = input
    if x.ndim > 2:
        raise ValueError(
            f"Input(input) only support N-D (N<=2) tensor, but received length of "
            f"Input(input) is {x.ndim}. Perhaps you can use paddle.transpose() instead."
        )
    return x.T if x.ndim == 2 else x


def _check_mv(vals):
    for pos, arg in enumerate(("x", "vec")):
        if not isinstance(vals[arg], Tensor):
            raise ValueError(
                f"(InvalidArgument) mv(): argument '{arg}' (position {pos}) must be Tensor, "
                f"but got {type(vals[arg]).__name__}"
            )


@op(
    "mv",
    tensors=("x", "vec"),
    dtypes=("float32", "float64"),
    check=_check_mv,
    aliases=NO_TORCH_KEYWORDS,
)
def mv(x: jax.Array, vec: jax.Array, name: str | None = None) -> jax.Array:
    """Matrix-vector product of a [M, N] matrix and an [N] vector (same float dtype)."""
    for a, what, rank in ((x, "X", 2), (vec, "Vec", 1)):
        if a.ndim != rank:
            raise ValueError(
                f"(InvalidArgument) The rank of input {what} should be {rank}, but is {a.ndim}"
            )
    if x.shape[1] != vec.shape[0]:
        raise ValueError(
            "(InvalidArgument) X's second dimension is expected to be equal to Vec's first "
            f"dimension, but received X'shape = {list(x.shape)}, Vec's shape = "
            f"{list(vec.shape)}"
        )
    if x.dtype != vec.dtype:
        raise ValueError(
            "(InvalidArgument) The type of data we are trying to retrieve "
            f"({_dt.to_dtype(vec.dtype).name}) does not match the type of data "
            f"({_dt.to_dtype(x.dtype).name}) currently contained in the container."
        )
    return jnp.matmul(x, vec, precision="highest")


@op("matrix_transpose", namespaces=_BOTH, aliases=NO_TORCH_KEYWORDS)
def matrix_transpose(x: jax.Array, name: str | None = None) -> jax.Array:
    """Swap the last two dims (x needs at least 2)."""
    if x.ndim < 2:
        raise ValueError(f"Tensor.ndim({x.ndim}) is required to be greater than or equal to 2.")
    return jnp.swapaxes(x, -1, -2)


@op("trace", tensor_modules=("math",))
def trace(
    x: jax.Array, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None
) -> jax.Array:
    """Sum of the diagonal (shifted by ``offset``) of the 2-D slices over axis1/axis2."""
    if x.ndim < 2:
        raise IndexError(
            f"(OutOfRange) Input(x)'s dim is out of range (expected at least 2, but got {x.ndim})."
        )
    a1, a2 = check_axis(axis1, x.ndim, "trace"), check_axis(axis2, x.ndim, "trace")
    if a1 == a2:
        raise ValueError(f"(InvalidArgument) The dimensions should not be identical {a1} vs {a2}.")
    return jnp.trace(x, offset=offset, axis1=a1, axis2=a2)


@op("multi_dot", namespaces=_LINALG)
def multi_dot(x: Sequence[jax.Array], name: str | None = None) -> jax.Array:
    """Chained matrix product of a list of tensors (first/last may be 1-D vectors)."""
    if len(x) < 2:
        raise ValueError(
            f"(InvalidArgument) The number of input tensors in multi_dot op should > 1, "
            f"got {len(x)}."
        )
    if len({a.dtype for a in x}) != 1:
        raise ValueError(
            "(InvalidArgument) multi_dot: all input tensors must have the same data type, got "
            + ", ".join(_dt.to_dtype(a.dtype).name for a in x)
        )
    for a, b in zip(x[:-1], x[1:]):
        if a.shape[-1] != b.shape[0]:
            raise ValueError(
                f"(InvalidArgument) multi_dot: the input matrices do not meet the multiplication "
                f"requirements: {list(a.shape)} @ {list(b.shape)}."
            )
    return jnp.linalg.multi_dot(list(x))


@op("matrix_power", dtypes=FLOATS, namespaces=_LINALG)
def matrix_power(x: jax.Array, n: int, name: str | None = None) -> jax.Array:
    """x raised to the integer power n (negative n uses the inverse)."""
    check_square(x, "matrix_power")
    return jnp.linalg.matrix_power(x, int(n))


@op(
    "vecdot",
    tensors=("x", "y"),
    promote=("x", "y"),
    namespaces=_BOTH,
    method=None,
    aliases=NO_TORCH_KEYWORDS,
)
def vecdot(x: jax.Array, y: jax.Array, axis: int = -1, name: str | None = None) -> jax.Array:
    """Dot product of vectors along ``axis`` (conjugating x), broadcast over other axes."""
    return jnp.sum(jnp.conj(x) * y, axis=axis)


@op("cov", tensors=("x", "fweights", "aweights"), namespaces=_LINALG)
def cov(
    x: jax.Array,
    rowvar: bool = True,
    ddof: bool = True,
    fweights: jax.Array | None = None,
    aweights: jax.Array | None = None,
    name: str | None = None,
) -> jax.Array:
    """Covariance matrix of the variables in the rows (or columns) of ``x``."""
    if not _dt.is_inexact_np(x.dtype):
        raise TypeError(
            f"(InvalidType) cov supports floating-point and complex tensors, got "
            f"{_dt.to_dtype(x.dtype).name}."
        )
    if aweights is not None:
        aweights = aweights.astype(x.dtype)
    return jnp.cov(
        x, rowvar=rowvar, ddof=1 if ddof else 0, fweights=fweights, aweights=aweights
    ).astype(x.dtype)


@op("corrcoef", namespaces=_LINALG)
def corrcoef(x: jax.Array, rowvar: bool = True, name: str | None = None) -> jax.Array:
    """Pearson correlation coefficients of the rows (or columns) of ``x``."""
    return jnp.clip(jnp.corrcoef(x, rowvar=rowvar), -1, 1).astype(x.dtype)


_FP8 = ("float8_e4m3fn", "float8_e5m2")
_GEMM_ACTS = {
    "identity": lambda v: v,
    "relu": jax.nn.relu,
    "gelu": lambda v: jax.nn.gelu(v, approximate=False),
}


@op(
    "fp8_fp8_half_gemm_fused",
    tensors=("x", "y", "bias"),
    dtypes=_FP8,
    namespaces=_LINALG,
    method=None,
    differentiable=False,
    aliases=NO_TORCH_KEYWORDS,
)
def fp8_fp8_half_gemm_fused(
    x: jax.Array,
    y: jax.Array,
    transpose_x: bool = False,
    transpose_y: bool = False,
    bias: jax.Array | None = None,
    scale: float = 1.0,
    output_dtype: str = "float16",
    act: str = "identity",
    name: str | None = None,
) -> jax.Array:
    """``act(scale * (x @ y) + bias)`` of float8 matrices (either one transposed first when
    asked), accumulated in float32 and returned as ``output_dtype`` (float16 or bfloat16).

    Paddle runs this only on GPUs (its CPU build raises "kernel not registered"); here it runs
    on every device. ``act`` is "identity", "relu" or "gelu" (the exact, erf form)."""
    if str(y.dtype) not in _FP8:
        raise RuntimeError(
            "(NotFound) The kernel `fp8_fp8_half_gemm_fused` takes float8_e4m3fn or "
            f"float8_e5m2 for y, but received {y.dtype}."
        )
    if output_dtype not in ("float16", "bfloat16"):
        raise ValueError("The output_dtype must be float16 or bfloat16")
    if act not in _GEMM_ACTS:
        raise ValueError(f"act must be one of {list(_GEMM_ACTS)}, but received {act!r}.")
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(
            f"x and y must have rank 2 or more, but received shapes {list(x.shape)} and "
            f"{list(y.shape)}."
        )
    a, b = x.astype(jnp.float32), y.astype(jnp.float32)
    a = jnp.swapaxes(a, -1, -2) if transpose_x else a
    b = jnp.swapaxes(b, -1, -2) if transpose_y else b
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"the inner dimensions differ: x gives {a.shape[-1]} and y gives {b.shape[-2]} "
            f"(transpose_x={transpose_x}, transpose_y={transpose_y})."
        )
    out = jnp.matmul(a, b, precision=jax.lax.Precision.HIGHEST) * jnp.float32(scale)
    if bias is not None:
        out = out + bias.astype(jnp.float32)
    return _GEMM_ACTS[act](out).astype(_dt.to_dtype(output_dtype).np)
