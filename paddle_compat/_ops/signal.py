"""``paddle.signal``: frame, overlap_add, stft and istft (and ``Tensor.stft`` / ``istft``).

``frame`` is a gather and ``overlap_add`` a scatter-add with a static index grid; ``stft`` pads,
frames, windows and runs the r2c (or c2c) FFT kernel of ``fft.py`` in one compiled op; ``istft``
checks Paddle's Nonzero Overlap Add condition on the host (eagerly, as Paddle does) around one
compiled inverse op.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core.registry import op
from .._core.tensor import Tensor
from . import fft as _fft

_NS = ("paddle.signal",)


def _check_axis_hop(axis, hop_length) -> None:
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")
    if not isinstance(hop_length, int) or hop_length <= 0:
        raise ValueError(f"Unexpected hop_length: {hop_length}. It should be an positive integer.")


def _grid(frame_length: int, n_frames: int, hop_length: int) -> np.ndarray:
    """[frame_length, n_frames] sample indices: grid[i, j] = j * hop_length + i."""
    return np.arange(frame_length)[:, None] + hop_length * np.arange(n_frames)[None, :]


def frame_impl(x, frame_length: int, hop_length: int, axis: int):
    n = x.shape[axis]
    idx = _grid(frame_length, 1 + (n - frame_length) // hop_length, hop_length)
    return jnp.take(x, idx, axis=-1) if axis == -1 else jnp.take(x, idx.T, axis=0)


def overlap_add_impl(x, hop_length: int, axis: int):
    if axis == -1:
        fl, nf = x.shape[-2:]
        out = jnp.zeros((*x.shape[:-2], (nf - 1) * hop_length + fl), x.dtype)
        return out.at[..., _grid(fl, nf, hop_length)].add(x)
    nf, fl = x.shape[:2]
    out = jnp.zeros(((nf - 1) * hop_length + fl, *x.shape[2:]), x.dtype)
    return out.at[_grid(fl, nf, hop_length).T].add(x)


@op("frame", namespaces=_NS, method=None)
def frame(
    x: jax.Array, frame_length: int, hop_length: int, axis: int = -1, name: str | None = None
) -> jax.Array:
    """Slice ``x`` into overlapping frames along ``axis`` (-1: [..., frame_length, n_frames];
    0: [n_frames, frame_length, ...])."""
    if axis not in (0, -1):
        raise ValueError(f"Unexpected axis: {axis}. It should be 0 or -1.")
    if not isinstance(frame_length, int) or frame_length <= 0:
        raise ValueError(
            f"Unexpected frame_length: {frame_length}. It should be an positive integer."
        )
    _check_axis_hop(axis, hop_length)
    if x.ndim == 0:  # Paddle reads the 0-D shape's axis: IndexError
        raise IndexError("(OutOfRange) frame: x must have at least 1 dimension, but got 0.")
    if frame_length > x.shape[axis]:
        raise ValueError(
            "Attribute frame_length should be less equal than sequence length, "
            f"but got ({frame_length}) > ({x.shape[axis]})."
        )
    return frame_impl(x, frame_length, hop_length, axis)


@op("overlap_add", namespaces=_NS, method=None)
def overlap_add(
    x: jax.Array, hop_length: int, axis: int = -1, name: str | None = None
) -> jax.Array:
    """Sum overlapping frames back into a signal: the inverse layout of ``frame``."""
    _check_axis_hop(axis, hop_length)
    if x.ndim < 2:
        raise ValueError(
            "(InvalidArgument) Input(X) of OverlapAddOp should be a tensor which contains at "
            f"least 2 dimensions, but got rank {x.ndim}."
        )
    return overlap_add_impl(x, hop_length, axis)


def _padded_window(window, win_length: int, n_fft: int, dtype):
    w = jnp.ones((win_length,), dtype) if window is None else window
    left = (n_fft - win_length) // 2
    return jnp.pad(w, (left, n_fft - win_length - left))


def _check_window(window, win_length: int) -> None:
    if window is not None and (window.ndim != 1 or window.shape[0] != win_length):
        raise AssertionError(
            f"expected a 1D window tensor of size equal to win_length({win_length}), but got "
            f"window with shape paddle.Size({list(window.shape)})."
        )


@op("stft", namespaces=_NS, tensors=("x", "window"))
def stft(
    x: jax.Array,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: jax.Array | None = None,
    center: bool = True,
    pad_mode: str = "reflect",
    normalized: bool = False,
    onesided: bool | None = None,
    name: str | None = None,
) -> jax.Array:
    """Short-time Fourier transform of 1-D [seq] or 2-D [batch, seq] ``x``:
    [(batch,) n_fft // 2 + 1 (onesided) or n_fft, n_frames]."""
    rank = x.ndim
    if rank not in (1, 2):
        raise AssertionError(f"x should be a 1D or 2D real tensor, but got rank of x is {rank}")
    x = x[None] if rank == 1 else x
    hop_length = n_fft // 4 if hop_length is None else hop_length
    if not hop_length > 0:
        raise AssertionError(f"hop_length should be > 0, but got {hop_length}.")
    win_length = n_fft if win_length is None else win_length
    if not 0 < n_fft <= x.shape[-1]:
        raise AssertionError(f"n_fft should be in (0, seq_length({x.shape[-1]})], but got {n_fft}.")
    if not 0 < win_length <= n_fft:
        raise AssertionError(f"win_length should be in (0, n_fft({n_fft})], but got {win_length}.")
    _check_window(window, win_length)
    if window is not None and _fft._is_int(x) != _fft._is_int(window):
        raise TypeError(
            "(InvalidType) Type promotion only support calculations between floating-point "
            "numbers and between complex and real numbers. But got different data type x: "
            f"{_dt.to_dtype(x.dtype).name}, y: {_dt.to_dtype(window.dtype).name}."
        )
    if _fft._is_int(x):  # Paddle frames integers, then the r2c kernel makes them float
        x = x.astype(_dt.default_float().np)
        window = None if window is None else window.astype(x.dtype)
    w = _padded_window(window, win_length, n_fft, x.dtype)
    if center:
        if pad_mode not in ("constant", "reflect"):
            raise AssertionError(
                f'pad_mode should be "reflect" or "constant", but got "{pad_mode}".'
            )
        p = n_fft // 2
        x = jnp.pad(x, ((0, 0), (p, p)), mode=pad_mode)
    frames = jnp.swapaxes(frame_impl(x, n_fft, hop_length, -1), 1, 2) * w
    cplx = _fft._is_cplx(frames)
    onesided = not cplx if onesided is None else onesided
    if cplx and onesided:
        raise AssertionError("onesided should be False when input or window is a complex Tensor.")
    norm = "ortho" if normalized else "backward"
    if _fft._is_cplx(x):
        out = _fft.c2c(frames, None, [2], norm, True)
    else:
        out = _fft.r2c(frames, None, [2], norm, True, onesided)
    out = jnp.swapaxes(out, 1, 2)
    return out[0] if rank == 1 else out


def _istft_plan(x, n_fft, hop_length, win_length, window, onesided):
    rank = len(x.shape)
    if rank not in (2, 3):
        raise AssertionError(f"x should be a 2D or 3D complex tensor, but got rank of x is {rank}")
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    if not 0 < hop_length <= win_length:
        raise AssertionError(
            f"hop_length should be in (0, win_length({win_length})], but got {hop_length}."
        )
    if not 0 < win_length <= n_fft:
        raise AssertionError(f"win_length should be in (0, n_fft({n_fft})], but got {win_length}.")
    if int(np.prod(x.shape)) == 0:
        raise AssertionError("x should not be an empty tensor.")
    fft_size = x.shape[-2]
    want = n_fft // 2 + 1 if onesided else n_fft
    if fft_size != want:
        raise AssertionError(
            f"fft_size should be equal to "
            f"{'n_fft // 2 + 1' if onesided else 'n_fft'}({want}) when onesided is "
            f"{bool(onesided)}, but got {fft_size}."
        )
    _check_window(window, win_length)
    return hop_length, win_length


def _envelope(w, n_frames, hop_length, n_fft, center, length):
    """Overlap-added squared window, trimmed as istft trims its output."""
    sq = jnp.tile((w * w)[:, None], (1, n_frames))
    env = overlap_add_impl(sq, hop_length, -1)
    start = n_fft // 2 if center else 0
    if length is not None:
        return env[start : start + length]
    return env[start : env.shape[0] - start] if center else env


@op("_istft", namespaces=(), method=None, tensors=("x", "window"))
def _istft(x, n_fft, hop_length, win_length, window, center, normalized, onesided, length, rc):
    """The inverse STFT, after ``istft``'s checks: inverse FFT per frame, window, overlap-add,
    divided by the overlap-added squared window."""
    squeeze = x.ndim == 2
    x = x[None] if squeeze else x
    n_frames = x.shape[-1]
    wdt = np.float32 if x.dtype in (jnp.float32, jnp.complex64) else np.float64
    w = _padded_window(window, win_length, n_fft, wdt)
    frames = jnp.swapaxes(x, 1, 2)
    norm = "ortho" if normalized else "backward"
    if rc:
        if onesided:
            raise AssertionError(
                "onesided should be False when input(output of istft) or window is a complex "
                "Tensor."
            )
        out = _fft.c2c(frames, None, [2], norm, False)
    else:
        if _fft._is_cplx(w):
            raise AssertionError(
                "Data type of window should not be complex when return_complex is False."
            )
        if not onesided:
            frames = frames[:, :, : n_fft // 2 + 1]
        out = _fft.c2r(frames, None, [2], norm, False)
    out = overlap_add_impl(jnp.swapaxes(out * w, 1, 2), hop_length, -1)
    start = n_fft // 2 if center else 0
    if length is not None:
        out = out[:, start : start + length]
    elif center:
        out = out[:, start : out.shape[1] - start]
    out = out / _envelope(w, n_frames, hop_length, n_fft, center, length)
    return out[0] if squeeze else out


@op("istft", namespaces=_NS, composite=True)
def istft(
    x: Tensor,
    n_fft: int,
    hop_length: int | None = None,
    win_length: int | None = None,
    window: Tensor | None = None,
    center: bool = True,
    normalized: bool = False,
    onesided: bool = True,
    length: int | None = None,
    return_complex: bool = False,
    name: str | None = None,
) -> Tensor:
    """Inverse short-time Fourier transform: [(batch,) n_fft // 2 + 1 or n_fft, n_frames] ->
    [(batch,) seq] (``length``: trim or keep that many samples)."""
    hop, win = _istft_plan(x, n_fft, hop_length, win_length, window, onesided)
    wv = None if window is None else window._value
    if not isinstance(wv, jax.core.Tracer):
        wdt = np.float32 if x._value.dtype in (np.float32, np.complex64) else np.float64
        w = np.asarray(_padded_window(wv, win, n_fft, wdt))
        env = np.asarray(_envelope(w, x.shape[-1], hop, n_fft, center, length))
        if env.size and np.abs(env).min() < 1e-11:
            raise ValueError(
                "Abort istft because Nonzero Overlap Add (NOLA) condition failed. For more "
                "information about NOLA constraint please see `scipy.signal.check_NOLA`"
                "(https://docs.scipy.org/doc/scipy/reference/generated/scipy.signal."
                "check_NOLA.html)."
            )
    return _istft(x, n_fft, hop, win, window, center, normalized, onesided, length, return_complex)
