"""``paddle.audio.functional.window``: ``get_window`` and the window functions behind it.

Windows depend only on static arguments (a length and shape parameters), so they are computed
on the host with numpy in the requested dtype, following Paddle's formulas step by step (the
same operations in the same precision), and returned as Tensors. ``paddle.hann_window`` and its
siblings (which Paddle defines in this module) are re-exported from the ``paddle.*`` ops."""

from __future__ import annotations

import math

import numpy as np

import paddle_compat as paddle

from ..._core import dtype as _dt

# Paddle defines these in this module; here they are the ``paddle.*`` ops
hann_window = paddle.hann_window
hamming_window = paddle.hamming_window
blackman_window = paddle.blackman_window
bartlett_window = paddle.bartlett_window
kaiser_window = paddle.kaiser_window


def _np_dtype(dtype) -> np.dtype:
    return np.dtype(_dt.to_dtype(dtype).np)


def _guard(m) -> bool:
    """Paddle's length check; True when the window is all ones (length 0 or 1)."""
    if int(m) != m or m < 0:
        raise ValueError("Window length M must be a non-negative integer")
    return m <= 1


def _extended(m: int, sym: bool) -> tuple[int, bool]:
    """A periodic window is a symmetric one of length m + 1 with its last point dropped."""
    return (m, False) if sym else (m + 1, True)


def _ones(m: int, dt) -> np.ndarray:
    return np.ones((int(m),), dt)


def _general_cosine(m, coeffs, sym, dt) -> np.ndarray:
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    phase = np.linspace(-math.pi, math.pi, m).astype(dt)
    w = np.zeros((m,), dt)
    for k, a in enumerate(coeffs):
        w = w + np.asarray(a, dt) * np.cos(np.asarray(k, dt) * phase)
    return w[:-1] if trunc else w


def _general_hamming(m, alpha, sym, dt):
    return _general_cosine(m, [alpha, 1.0 - alpha], sym, dt)


def _hann(m, sym=True, dt=np.float64):
    return _general_hamming(m, 0.5, sym, dt)


def _hamming(m, sym=True, dt=np.float64):
    return _general_hamming(m, 0.54, sym, dt)


def _blackman(m, sym=True, dt=np.float64):
    return _general_cosine(m, [0.42, 0.50, 0.08], sym, dt)


def _nuttall(m, sym=True, dt=np.float64):
    return _general_cosine(m, [0.3635819, 0.4891775, 0.1365995, 0.0106411], sym, dt)


def _bartlett(m, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    n = np.arange(m, dtype=dt)
    mm = np.asarray(m, dt)
    rise = 2.0 * n / (mm - 1)
    w = np.where(n <= (mm - 1) / 2.0, rise, 2.0 - rise)
    return w[:-1] if trunc else w


def _kaiser(m, beta, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    beta = np.asarray(beta, dt)
    n = np.arange(m, dtype=dt)
    half = (np.asarray(m, dt) - 1) / 2.0
    arg = beta * np.sqrt(1 - ((n - half) / half) ** 2.0)
    w = (np.i0(arg) / np.i0(beta)).astype(dt)
    return w[:-1] if trunc else w


def _gaussian(m, std, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    n = np.arange(m, dtype=dt) - (m - 1.0) / 2.0
    w = np.exp(-(n**2) / (2 * std * std))
    return w[:-1] if trunc else w


def _general_gaussian(m, p, sig, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    n = np.arange(m, dtype=dt) - (m - 1.0) / 2.0
    w = np.exp(-0.5 * np.abs(n / sig) ** (2 * p))
    return w[:-1] if trunc else w


def _exponential(m, center=None, tau=1.0, sym=True, dt=np.float64):
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    center = (m - 1) / 2 if center is None else center
    w = np.exp(-np.abs(np.arange(m, dtype=dt) - center) / tau)
    return w[:-1] if trunc else w


def _triang(m, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    n = np.arange(1, (m + 1) // 2 + 1, dtype=dt)
    if m % 2 == 0:
        half = (2 * n - 1.0) / m
        w = np.concatenate([half, half[::-1]])
    else:
        half = 2 * n / (m + 1.0)
        w = np.concatenate([half, half[-2::-1]])
    return w[:-1] if trunc else w


def _bohman(m, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    fac = np.abs(np.linspace(-1, 1, m).astype(dt)[1:-1])
    inner = (1 - fac) * np.cos(math.pi * fac) + 1.0 / math.pi * np.sin(math.pi * fac)
    w = np.concatenate([np.zeros(1, dt), inner, np.zeros(1, dt)])
    return w[:-1] if trunc else w


def _cosine(m, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    w = np.sin(math.pi / m * (np.arange(m, dtype=dt) + 0.5))
    return w[:-1] if trunc else w


def _tukey(m, alpha=0.5, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    if alpha <= 0:
        return _ones(m, dt)
    if alpha >= 1.0:  # Paddle returns its default-dtype (float64) Hann window here
        return _hann(m, sym=sym, dt=np.float64)
    m, trunc = _extended(m, sym)
    n = np.arange(m, dtype=dt)
    width = int(alpha * (m - 1) / 2.0)
    n1, n2, n3 = n[: width + 1], n[width + 1 : m - width - 1], n[m - width - 1 :]
    w1 = 0.5 * (1 + np.cos(math.pi * (-1 + 2.0 * n1 / alpha / (m - 1))))
    w3 = 0.5 * (1 + np.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (m - 1))))
    w = np.concatenate([w1, np.ones(n2.shape, dt), w3])
    return w[:-1] if trunc else w


def _taylor(m, nbar=4, sll=30, norm=True, sym=True, dt=np.float64):
    if _guard(m):
        return _ones(m, dt)
    m, trunc = _extended(m, sym)
    b = 10 ** (sll / 20)
    a = math.log(b + math.sqrt(b**2 - 1)) / math.pi
    s2 = nbar**2 / (a**2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar, dtype=dt)
    signs = np.where(np.arange(nbar - 1) % 2 == 0, 1, -1).astype(dt)
    m2 = ma * ma
    fm = np.empty((nbar - 1,), dt)
    for i in range(len(ma)):
        numer = signs[i] * np.prod(1 - m2[i] / s2 / (a**2 + (ma - 0.5) ** 2))
        denom = 2 * np.prod(1 - m2[i] / m2[:i]) * np.prod(1 - m2[i] / m2[i + 1 :])
        fm[i] = numer / denom

    def series(n):
        return 1 + 2 * (fm[None, :] @ np.cos(2 * math.pi * ma[:, None] * (n - m / 2.0 + 0.5) / m))

    w = series(np.arange(m, dtype=dt))
    if norm:
        w = w * (1.0 / series(np.asarray((m - 1) / 2, dt)))
    w = w.squeeze().astype(dt)
    return w[:-1] if trunc else w


_WINDOWS = {
    "hamming": _hamming,
    "hann": _hann,
    "kaiser": _kaiser,
    "bartlett": _bartlett,
    "nuttall": _nuttall,
    "gaussian": _gaussian,
    "general_gaussian": _general_gaussian,
    "exponential": _exponential,
    "triang": _triang,
    "bohman": _bohman,
    "blackman": _blackman,
    "cosine": _cosine,
    "tukey": _tukey,
    "taylor": _taylor,
    "general_cosine": _general_cosine,
    "general_hamming": _general_hamming,
}
_NEEDS_PARAMS = ("gaussian", "exponential", "kaiser")


def get_window(window, win_length: int, fftbins: bool = True, dtype: str = "float64"):
    """The window named by ``window`` (a name, or a tuple of a name and its parameters) with
    ``win_length`` points; periodic when ``fftbins`` (for spectral analysis)."""
    if isinstance(window, tuple):
        name, params = window[0], tuple(window[1:])
    elif isinstance(window, str):
        if window in _NEEDS_PARAMS:
            raise ValueError(f"The '{window}' window needs one or more parameters -- pass a tuple.")
        name, params = window, ()
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    func = _WINDOWS.get(name) if isinstance(name, str) else None
    if func is None:
        raise ValueError("Unknown window type.")
    w = func(win_length, *params, sym=not fftbins, dt=_np_dtype(dtype))
    return paddle.to_tensor(np.ascontiguousarray(w))


__all__ = ["get_window"]
