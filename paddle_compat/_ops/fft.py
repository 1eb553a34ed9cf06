"""``paddle.fft``: discrete Fourier transforms on XLA's FFT (``jnp.fft``).

Every transform is one of Paddle's three kernels: complex-to-complex (``fft``, ``ifft``,
``fftn``...; real and integer inputs go through the real-to-complex kernel with both halves),
real-to-complex (``rfft``, ``ihfft``: the one-sided half) and complex-to-real (``irfft``,
``hfft``). The Hermitian pair is the real pair run the other way: ``hfft`` is ``irfft`` of the
conjugate with the dual normalization, ``ihfft`` the conjugate of ``rfft``.
Dtypes as in Paddle: float32 -> complex64, float64 -> complex128, integers -> the default float
dtype's complex; float16, bool and (for the real kernels) complex inputs are refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core.dtype import DTypeLike
from .._core.registry import op
from .._core.tensor import Tensor

_NS = ("paddle.fft",)
_NORMS = ("forward", "backward", "ortho")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
_COMPLEX_OF = {np.dtype("float32"): np.complex64, np.dtype("float64"): np.complex128}
_KERNEL_TYPES = {
    "fft_c2c": "complex128, complex64",
    "fft_r2c": "float64, float32",
    "fft_c2r": "complex128, complex64",
}


# -- argument checks (Paddle's messages) ------------------------------------------------------
def _check_norm(norm) -> None:
    if not isinstance(norm, str) or norm not in _NORMS:
        raise ValueError(f"Unexpected norm: {norm}. Norm should be forward, backward or ortho")


def _no_bool(v, what: str) -> None:
    if isinstance(v, bool):  # Paddle passes it on and its kernel call rejects it
        raise TypeError(f"(InvalidType) {what} must be an int or a list of int, but got bool")


def _check_n(n) -> None:
    _no_bool(n, "n")
    if not isinstance(n, int):
        raise ValueError(f"Invalid FFT argument n({n}), it should be an integer.")
    if n <= 0:
        raise ValueError(f"Invalid FFT argument n({n}), it should be positive.")


def _check_axis(ndim: int, axis) -> int:
    _no_bool(axis, "axis")
    if not isinstance(axis, int):
        raise ValueError(f"Invalid FFT axis ({axis}), it should be an integer.")
    if not -ndim <= axis < ndim:
        raise ValueError(f"Invalid FFT axis ({axis}), it should be in range [-{ndim}, {ndim})")
    return axis % ndim


def _check_shape(ndim: int, s) -> list[int]:
    if not isinstance(s, Sequence):
        raise ValueError(f"Invalid FFT argument s({s}), it should be a sequence of integers.")
    s = list(s)
    if len(s) > ndim:
        raise ValueError(
            "Length of FFT argument s should not be larger than the rank of input. "
            f"Received s: {s}, rank of x: {ndim}"
        )
    for size in s:
        if not isinstance(size, int) or size <= 0:
            raise ValueError(f"FFT sizes {s} contains invalid value ({size})")
    return s


def _check_axes(ndim: int, axes) -> list[int]:
    if not isinstance(axes, Sequence):
        raise ValueError(f"Invalid FFT axes ({axes}), it should be a sequence of integers.")
    axes = list(axes)
    if len(axes) > ndim:
        raise ValueError(
            "Length of fft axes should not be larger than the rank of input. "
            f"Received, len of axes: {len(axes)}, rank of x: {ndim}"
        )
    for a in axes:
        if not isinstance(a, int) or not -ndim <= a < ndim:
            raise ValueError(
                f"FFT axes {axes} contains invalid value ({a}), it should be in range "
                f"[-{ndim}, {ndim})"
            )
    out = [a % ndim for a in axes]
    if len(set(out)) != len(out):  # Paddle 3.3.1 aborts the process here
        raise ValueError(f"FFT axes {axes} contains repeated axes.")
    return out


def _plan_1d(x, n, axis, norm):
    """(s, axes) of a 1-D transform, checked in Paddle's order."""
    _check_norm(norm)
    a = _check_axis(x.ndim, -1 if axis is None else axis)
    if n is not None:
        _check_n(n)
    return (None if n is None else [n]), [a]


def _plan_nd(x, s, axes, norm, kind: str):
    """(s, axes) of an n-D transform: axes default to the last len(s) (or all); the c2c kernel
    sorts them, the real kernels sort all but the last (the halved) axis."""
    _check_norm(norm)
    ndim = x.ndim
    if s is not None:
        s = _check_shape(ndim, s)
    if axes is None:
        axes = list(range(ndim - len(s), ndim)) if s is not None else list(range(ndim))
    else:
        axes = _check_axes(ndim, axes)
        keep = len(axes) if kind == "c2c" else len(axes) - 1
        order = sorted(range(keep), key=lambda i: axes[i]) + list(range(keep, len(axes)))
        if s is not None and len(s) != len(axes):
            raise ValueError(
                f"Length of s ({len(s)}) and length of axes ({len(axes)}) does not match."
            )
        axes = [axes[i] for i in order]
        s = None if s is None else [s[i] for i in order]
    if not axes:
        raise ValueError(f"The rank of the input ({ndim}) should >= 1")
    return s, axes


def _check_2d(x, s, axes) -> None:
    if x.ndim < 2:
        raise ValueError(f"The rank of the input ({x.ndim}) should >= 2")
    if s is not None and (not isinstance(s, Sequence) or len(s) != 2):
        raise ValueError(f"Invalid FFT argument s ({s}), it should be a sequence of 2 integers.")
    if axes is not None and (not isinstance(axes, Sequence) or len(axes) != 2):
        raise ValueError(
            f"Invalid FFT argument axes ({axes}), it should be a sequence of 2 integers."
        )


# -- the three kernels ------------------------------------------------------------------------
def _no_kernel(kernel: str, dtype_name: str) -> RuntimeError:
    return RuntimeError(
        f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dtype_name}) of kernel "
        f"`{kernel}` is not registered. Selected wrong DataType `{dtype_name}`. Paddle support "
        f"following DataTypes: {_KERNEL_TYPES[kernel]}."
    )


def _is_int(x) -> bool:
    return jnp.issubdtype(x.dtype, jnp.integer)


def _is_cplx(x) -> bool:
    return jnp.issubdtype(x.dtype, jnp.complexfloating)


def _real_input(x):
    """x for the r2c kernel: integers become the default float dtype."""
    if _is_int(x):
        x = x.astype(_dt.default_float().np)
    if x.dtype not in _COMPLEX_OF:
        raise _no_kernel("fft_r2c", _dt.to_dtype(x.dtype).name)
    return x


def _complex_input(x, kernel: str):
    """x for the c2c / c2r kernels: integers (c2c only) and float32/64 become complex."""
    if _is_int(x):
        if kernel == "fft_c2r":  # Paddle casts to the default float dtype, then has no kernel
            raise _no_kernel(kernel, _dt.default_float().name)
        x = x.astype(_COMPLEX_OF[np.dtype(_dt.default_float().np)])
    elif x.dtype in _COMPLEX_OF:
        x = x.astype(_COMPLEX_OF[x.dtype])
    if not _is_cplx(x):
        raise _no_kernel(kernel, _dt.to_dtype(x.dtype).name)
    return x


def _tup(v):
    return None if v is None else tuple(v)


def _empty_spectrum(x, s, axes, onesided: bool):
    """The zero spectrum of an empty transform axis (XLA refuses a 0-point FFT; Paddle
    returns zeros), or None when every transformed axis has points."""
    if s is not None or all(x.shape[a] for a in axes):
        return None
    shape = list(x.shape)
    if onesided:
        shape[axes[-1]] = shape[axes[-1]] // 2 + 1
    return jnp.zeros(shape, _COMPLEX_OF.get(x.dtype, x.dtype))


def c2c(x, s, axes, norm, forward):
    x = _complex_input(x, "fft_c2c")
    empty = _empty_spectrum(x, s, axes, False)
    if empty is not None:
        return empty
    f = jnp.fft.fftn if forward else jnp.fft.ifftn
    return f(x, _tup(s), _tup(axes), norm)


def _real_dc(h, axis: int, n: int):
    """The one-sided spectrum with +0 imaginary parts at the DC and Nyquist terms (exact zeros
    for a real signal; Paddle's kernel sets them, so they print as Paddle's do)."""
    k = np.arange(h.shape[axis]).reshape([-1] + [1] * (h.ndim - 1 - axis))
    mask = (k == 0) | (k * 2 == n)
    return jax.lax.complex(jnp.real(h), jnp.where(mask, 0, jnp.imag(h)))


def _two_sided(half, n: int, axes):
    """The full spectrum of a real signal from its one-sided half along ``axes[-1]`` (length
    ``n``): the missing terms are conj(half) at the mirrored indices of every axis."""
    last = axes[-1]
    mirror = jnp.conj(half)
    for a in axes[:-1]:
        mirror = jnp.roll(jnp.flip(mirror, a), 1, a)
    tail = jnp.take(mirror, np.arange(n - half.shape[last], 0, -1), axis=last)
    return jnp.concatenate([half, tail], axis=last)


def r2c(x, s, axes, norm, forward, onesided):
    """Paddle's r2c kernel: the one-sided spectrum (conjugated for the inverse direction), and
    for ``onesided=False`` its Hermitian completion."""
    x = _real_input(x)
    empty = _empty_spectrum(x, s, axes, onesided)
    if empty is not None:
        return empty
    n = x.shape[axes[-1]] if s is None else s[-1]
    h = jnp.fft.rfft(x, n, axes[-1], norm if forward else _DUAL[norm])
    h = _real_dc(h if forward else jnp.conj(h), axes[-1], n)  # the last axis first, as Paddle
    if len(axes) > 1:
        f = jnp.fft.fftn if forward else jnp.fft.ifftn
        h = f(h, None if s is None else tuple(s[:-1]), tuple(axes[:-1]), norm)
    return h if onesided else _two_sided(h, n, axes)


def c2r(x, s, axes, norm, forward):
    x = _complex_input(x, "fft_c2r")
    n = 2 * (x.shape[axes[-1]] - 1) if s is None else s[-1]
    if n < 0:
        raise ValueError(f"(InvalidArgument) Invalid fft n-point ({n}).")
    if forward:
        return jnp.fft.irfftn(jnp.conj(x), _tup(s), _tup(axes), _DUAL[norm])
    return jnp.fft.irfftn(x, _tup(s), _tup(axes), norm)


def _any(x, s, axes, norm, forward):
    """fft / ifft family: real and integer inputs take the two-sided r2c kernel."""
    if _is_int(x) or jnp.issubdtype(x.dtype, jnp.floating):
        return r2c(x, s, axes, norm, forward, False)
    return c2c(x, s, axes, norm, forward)


_KERNEL = {
    "fft": lambda x, s, a, nm: _any(x, s, a, nm, True),
    "ifft": lambda x, s, a, nm: _any(x, s, a, nm, False),
    "rfft": lambda x, s, a, nm: r2c(x, s, a, nm, True, True),
    "ihfft": lambda x, s, a, nm: r2c(x, s, a, nm, False, True),
    "irfft": lambda x, s, a, nm: c2r(x, s, a, nm, False),
    "hfft": lambda x, s, a, nm: c2r(x, s, a, nm, True),
}
_KIND = {"fft": "c2c", "ifft": "c2c", "rfft": "r2c", "ihfft": "r2c", "irfft": "c2r", "hfft": "c2r"}


# -- public transforms ------------------------------------------------------------------------
_1D_DOC = {
    "fft": "1-D discrete Fourier transform along ``axis`` (``n``: crop or zero-pad to n).",
    "ifft": "1-D inverse discrete Fourier transform along ``axis``.",
    "rfft": "1-D FFT of a real Tensor: the n // 2 + 1 non-negative frequencies.",
    "irfft": "Inverse of ``rfft``: a real signal of length n (default 2 * (m - 1)).",
    "hfft": "FFT of a Hermitian-symmetric signal given by its first half: a real spectrum.",
    "ihfft": "Inverse of ``hfft``: the first n // 2 + 1 terms of the inverse FFT of real x.",
}


def _make_1d(kind: str):
    def f(
        x: jax.Array,
        n: int | None = None,
        axis: int = -1,
        norm: str = "backward",
        name: str | None = None,
        *,
        out: Tensor | None = None,
    ) -> jax.Array:
        s, axes = _plan_1d(x, n, axis, norm)
        if s is not None and _KIND[kind] == "c2r":
            s = [n]
        return _KERNEL[kind](x, s, axes, norm)

    f.__doc__ = _1D_DOC[kind]
    return f


def _make_nd(kind: str, two: bool):
    def f(
        x: jax.Array,
        s: Sequence[int] | None = None,
        axes: Sequence[int] | None = (-2, -1) if two else None,
        norm: str = "backward",
        name: str | None = None,
        *,
        out: Tensor | None = None,
    ) -> jax.Array:
        if two:
            _check_2d(x, s, axes)
        s, axes = _plan_nd(x, s, axes, norm, _KIND[kind])
        return _KERNEL[kind](x, s, axes, norm)

    what = "2-D (over ``axes``, the last two by default)" if two else "N-D (over ``axes``)"
    f.__doc__ = f"{what} version of ``paddle.fft.{kind}``; ``s`` crops or zero-pads each axis."
    return f


_OPTS = dict(namespaces=_NS, method=None)
for _k in _KIND:
    op(_k, aliases={"dim": "axis"}, **_OPTS)(_make_1d(_k))
    op(f"{_k}2", aliases={"dim": "axes"}, **_OPTS)(_make_nd(_k, True))
    op(f"{_k}n", aliases={"dim": "axes"}, **_OPTS)(_make_nd(_k, False))


# -- Paddle's low-level kernels, public in paddle.fft (not in its __all__) ---------------------
@op("fft_c2c", **_OPTS)
def fft_c2c(
    x: jax.Array,
    n: int | None,
    axis: int | None,
    norm: str,
    forward: bool,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """The complex-to-complex kernel along one axis (real inputs are made complex)."""
    s, axes = _plan_1d(x, n, axis, norm)
    return c2c(x, s, axes, norm, forward)


@op("fft_r2c", **_OPTS)
def fft_r2c(
    x: jax.Array,
    n: int | None,
    axis: int | None,
    norm: str,
    forward: bool,
    onesided: bool,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """The real-to-complex kernel along one axis (``onesided``: only n // 2 + 1 terms)."""
    s, axes = _plan_1d(x, n, axis, norm)
    return r2c(x, s, axes, norm, forward, onesided)


@op("fft_c2r", **_OPTS)
def fft_c2r(
    x: jax.Array,
    n: int | None,
    axis: int | None,
    norm: str,
    forward: bool,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """The complex-to-real kernel along one axis (``n``: the real output's length)."""
    s, axes = _plan_1d(x, n, axis, norm)
    return c2r(x, s, axes, norm, forward)


@op("fftn_c2c", **_OPTS)
def fftn_c2c(
    x: jax.Array,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    norm: str,
    forward: bool,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """The complex-to-complex kernel over ``axes``."""
    s, axes = _plan_nd(x, s, axes, norm, "c2c")
    return c2c(x, s, axes, norm, forward)


@op("fftn_r2c", **_OPTS)
def fftn_r2c(
    x: jax.Array,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    norm: str,
    forward: bool,
    onesided: bool,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """The real-to-complex kernel over ``axes`` (the last one halved when ``onesided``)."""
    s, axes = _plan_nd(x, s, axes, norm, "r2c")
    return r2c(x, s, axes, norm, forward, onesided)


@op("fftn_c2r", **_OPTS)
def fftn_c2r(
    x: jax.Array,
    s: Sequence[int] | None,
    axes: Sequence[int] | None,
    norm: str,
    forward: bool,
    name: str | None = None,
    out: Tensor | None = None,
) -> jax.Array:
    """The complex-to-real kernel over ``axes`` (``s[-1]``: the last axis' real length)."""
    s, axes = _plan_nd(x, s, axes, norm, "c2r")
    return c2r(x, s, axes, norm, forward)


# -- frequencies and shifts -------------------------------------------------------------------
_FREQ_DTYPES = ("int32", "int64", "float32", "float64")


@op("_fftfreq", tensors=(), namespaces=(), method=None, differentiable=False)
def _fftfreq(n, d, dtype, onesided):
    """Sample frequencies on the host: Paddle's arange in ``dtype`` times 1 / (n * d)."""
    dt = _dt.to_dtype(dtype)
    if dt.name not in _FREQ_DTYPES:
        raise RuntimeError(
            f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dt.name}) of kernel "
            f"`arange_tensor` is not registered. Selected wrong DataType `{dt.name}`. Paddle "
            "support following DataTypes: int32, int64, float64, float32."
        )
    if onesided:
        idx = np.arange(0, n // 2 + 1)
    else:
        idx = np.roll(np.arange(-(n // 2), (n + 1) // 2), -(n // 2))
    res = dt if _dt.is_floating(dt) else _dt.default_float()
    val = np.asarray(1.0 / (n * d)).astype(res.np)
    return jnp.asarray(idx.astype(dt.np).astype(res.np) * val)


def _freq(n, d, dtype, requires_grad, onesided: bool):
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"(InvalidType) n must be an int, but got {type(n).__name__}")
    d = float(d.item()) if isinstance(d, Tensor) else float(d)
    if d * n == 0:
        raise ValueError("d or n should not be 0.")
    out = _fftfreq(n, d, _dt.default_float().name if dtype is None else dtype, onesided)
    out.stop_gradient = not requires_grad
    return out


@op("fftfreq", tensors=(), composite=True, **_OPTS)
def fftfreq(
    n: int,
    d: float = 1.0,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """Sample frequencies of an n-point FFT with sample spacing ``d``: [0, 1, ..., -1] / (n*d)."""
    return _freq(n, d, dtype, requires_grad, False)


@op("rfftfreq", tensors=(), composite=True, **_OPTS)
def rfftfreq(
    n: int,
    d: float = 1.0,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """The n // 2 + 1 non-negative sample frequencies of ``rfft``: [0, 1, ...] / (n * d)."""
    return _freq(n, d, dtype, requires_grad, True)


def _shift(x, axes, sign: int):
    axes = list(range(x.ndim)) if axes is None else [axes] if isinstance(axes, int) else axes
    axes = [_check_shift_axis(x.ndim, a) for a in axes]
    return jnp.roll(x, [sign * (x.shape[a] // 2) for a in axes], axes)


def _check_shift_axis(ndim: int, a) -> int:
    if not -ndim <= a < ndim:
        raise IndexError(
            f"(OutOfRange) The starting index {a} of slice is out of bounds in tensor 0-th axis, "
            f"it should be in the range of [-{ndim}, {ndim})."
        )
    return a % ndim


@op("fftshift", aliases={"dim": "axes"}, **_OPTS)
def fftshift(
    x: jax.Array, axes: int | Sequence[int] | None = None, name: str | None = None
) -> jax.Array:
    """Move the zero-frequency term to the centre of ``axes`` (all axes by default)."""
    return _shift(x, axes, 1)


@op("ifftshift", aliases={"dim": "axes"}, **_OPTS)
def ifftshift(
    x: jax.Array, axes: int | Sequence[int] | None = None, name: str | None = None
) -> jax.Array:
    """Inverse of ``fftshift``."""
    return _shift(x, axes, -1)
