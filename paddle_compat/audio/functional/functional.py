"""``paddle.audio.functional``: mel scale conversions, filter banks, decibels and the DCT matrix.

``hz_to_mel`` / ``mel_to_hz`` / ``power_to_db`` take Tensors (differentiable, traceable) or
Python numbers. The matrices (``compute_fbank_matrix``, ``create_dct``, ``mel_frequencies``,
``fft_frequencies``) depend only on static arguments: they are computed on the host with numpy
in the requested dtype, with Paddle's operations in Paddle's order, and returned as Tensors."""

from __future__ import annotations

import math

import numpy as np

import paddle_compat as paddle

from ..._core import dtype as _dt
from ..._core.tensor import Tensor

# Slaney's mel scale: linear below 1 kHz, logarithmic above
_F_SP = 200.0 / 3  # Hz per mel in the linear part
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def _blend(above, log_part, linear):
    """Paddle's ``log_part * above + linear * (1 - above)`` (``above`` a 0/1 mask), as a
    select whose branches keep the other term times zero: a compiled program (XLA rewrites
    ``x * float(mask)`` into a select) still gives NaN where either term is NaN or Inf."""
    return paddle.where(above, log_part + linear * 0.0, log_part * 0.0 + linear)


def _np_dtype(dtype) -> np.dtype:
    return np.dtype(_dt.to_dtype(dtype).np)


def hz_to_mel(freq, htk: bool = False):
    """Frequencies in Hz to mels (Slaney's scale, or HTK's formula when ``htk``)."""
    is_tensor = isinstance(freq, Tensor)
    if htk:
        if is_tensor:
            return 2595.0 * paddle.log10(1.0 + freq / 700.0)
        return 2595.0 * math.log10(1.0 + freq / 700.0)
    linear = freq / _F_SP
    if is_tensor:
        log_part = _MIN_LOG_MEL + paddle.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
        return _blend(freq > _MIN_LOG_HZ, log_part, linear)
    if freq >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return linear


def mel_to_hz(mel, htk: bool = False):
    """Mels to frequencies in Hz (the inverse of ``hz_to_mel``)."""
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    linear = _F_SP * mel
    if isinstance(mel, Tensor):
        log_part = _MIN_LOG_HZ * paddle.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
        return _blend(mel > _MIN_LOG_MEL, log_part, linear)
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return linear


def _mel_to_hz_np(mel: np.ndarray, htk: bool) -> np.ndarray:
    """``mel_to_hz`` on a host array, in the array's dtype."""
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    linear = _F_SP * mel
    log_part = _MIN_LOG_HZ * np.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    above = (mel > _MIN_LOG_MEL).astype(mel.dtype)
    return log_part * above + linear * (1 - above)


def _mel_frequencies_np(n_mels, f_min, f_max, htk, dt) -> np.ndarray:
    lo, hi = hz_to_mel(f_min, htk=htk), hz_to_mel(f_max, htk=htk)
    with np.errstate(over="ignore", invalid="ignore"):
        return _mel_to_hz_np(np.linspace(lo, hi, int(n_mels)).astype(dt), htk)


def _fft_frequencies_np(sr, n_fft, dt) -> np.ndarray:
    return np.linspace(0, float(sr) / 2, int(1 + n_fft // 2)).astype(dt)


def mel_frequencies(
    n_mels: int = 64,
    f_min: float = 0.0,
    f_max: float = 11025.0,
    htk: bool = False,
    dtype: str = "float32",
) -> Tensor:
    """``n_mels`` frequencies (Hz) evenly spaced on the mel scale from ``f_min`` to ``f_max``."""
    return paddle.to_tensor(_mel_frequencies_np(n_mels, f_min, f_max, htk, _np_dtype(dtype)))


def fft_frequencies(sr: int, n_fft: int, dtype: str = "float32") -> Tensor:
    """The center frequency (Hz) of each of the ``1 + n_fft // 2`` FFT bins."""
    return paddle.to_tensor(_fft_frequencies_np(sr, n_fft, _np_dtype(dtype)))


def _fbank_np(sr, n_fft, n_mels, f_min, f_max, htk, norm, dt) -> np.ndarray:
    f_max = float(sr) / 2 if f_max is None else f_max
    fft_f = _fft_frequencies_np(sr, n_fft, dt)
    mel_f = _mel_frequencies_np(n_mels + 2, f_min, f_max, htk, dt)
    gaps = mel_f[1:] - mel_f[:-1]
    ramps = mel_f[:, None] - fft_f[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        rising = -ramps[:n_mels] / gaps[:n_mels, None]
        falling = ramps[2 : n_mels + 2] / gaps[1 : n_mels + 1, None]
        weights = np.maximum(np.zeros((), dt), np.minimum(rising, falling))
        if isinstance(norm, str) and norm == "slaney":
            weights = weights * (2.0 / (mel_f[2 : n_mels + 2] - mel_f[:n_mels]))[:, None]
    return weights.astype(dt)


def compute_fbank_matrix(
    sr: int,
    n_fft: int,
    n_mels: int = 64,
    f_min: float = 0.0,
    f_max: float | None = None,
    htk: bool = False,
    norm="slaney",
    dtype: str = "float32",
) -> Tensor:
    """The [n_mels, 1 + n_fft // 2] triangular mel filter bank (Slaney-normalized areas, or
    rows scaled to unit ``norm``-norm when ``norm`` is a number)."""
    weights = paddle.to_tensor(
        _fbank_np(sr, n_fft, n_mels, f_min, f_max, htk, norm, _np_dtype(dtype))
    )
    if not isinstance(norm, str) and isinstance(norm, int | float):
        weights = paddle.nn.functional.normalize(weights, p=norm, axis=-1)
    return weights


def power_to_db(
    spect: Tensor,
    ref_value: float = 1.0,
    amin: float = 1e-10,
    top_db: float | None = 80.0,
) -> Tensor:
    """A power spectrogram in decibels: ``10 * log10(max(spect, amin) / ref_value)``, clipped
    to ``top_db`` below its maximum when ``top_db`` is given."""
    if amin <= 0:
        raise Exception("amin must be strictly positive")
    if ref_value <= 0:
        raise Exception("ref_value must be strictly positive")
    ones = paddle.ones_like(spect)
    log_spec = 10.0 * paddle.log10(paddle.maximum(ones * amin, spect))
    log_spec = log_spec - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        if top_db < 0:
            raise Exception("top_db must be non-negative")
        log_spec = paddle.maximum(log_spec, ones * (log_spec.max() - top_db))
    return log_spec


def create_dct(n_mfcc: int, n_mels: int, norm="ortho", dtype: str = "float32") -> Tensor:
    """The [n_mels, n_mfcc] DCT-II matrix (orthonormal when ``norm='ortho'``)."""
    dt = _np_dtype(dtype)
    n = np.arange(n_mels, dtype=dt)
    k = np.arange(n_mfcc, dtype=dt)[:, None]
    dct = np.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    if norm is None:
        dct = dct * 2.0
    else:
        assert norm == "ortho"
        dct[0] = dct[0] * (1.0 / math.sqrt(2.0))
        dct = dct * math.sqrt(2.0 / float(n_mels))
    return paddle.to_tensor(np.ascontiguousarray(dct.T.astype(dt)))


__all__ = [
    "compute_fbank_matrix",
    "create_dct",
    "fft_frequencies",
    "hz_to_mel",
    "mel_frequencies",
    "mel_to_hz",
    "power_to_db",
]
