"""Paddle's CPU ``binomial`` and ``poisson`` kernels on the host, bit for bit, so seeded
``paddle.binomial``/``paddle.poisson`` (and the distributions built on them) give real
Paddle's numbers.

Each kernel walks its elements in order, drawing from the global ``mt19937_64`` engine:

- binomial: in the probability's float type, the inversion method (geometric waiting times)
  when ``n * min(p, 1 - p) < 10``, else Hormann's BTRS with Paddle's Stirling tail table;
  C++'s promotions to double where the code mixes double literals are followed;
- poisson: libstdc++'s ``poisson_distribution<int>`` (a product of uniforms below a mean of
  12, Devroye's rejection method from 12 on, with its own cached normal pair).

The math functions are the platform libm's (as Paddle's kernels call them), through ctypes.
These samplers are sequential Python loops (each element's draw count depends on its draws).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct

import numpy as np

from .mt19937 import canonical

__all__ = ["binomial_array", "poisson_array"]

_libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")


def _fn(name: str, ctype):
    f = getattr(_libm, name)
    f.restype, f.argtypes = ctype, [ctype]
    return f


_logf = _fn("logf", ctypes.c_float)
_log1pf = _fn("log1pf", ctypes.c_float)
_lgamma = _fn("lgamma", ctypes.c_double)
_pack, _unpack = struct.Struct("f").pack, struct.Struct("f").unpack


def _f32(v: float) -> float:
    """``v`` rounded to float32 (float32 arithmetic is the double result rounded once)."""
    return _unpack(_pack(v))[0]


class _Uniforms:
    """``std::uniform_real_distribution<T>(0, 1)`` draws from the engine, taken in chunks; the
    unused rest of the last chunk is handed back by ``close``."""

    def __init__(self, engine, dtype, chunk: int = 256):
        self._engine, self._dtype, self._chunk = engine, dtype, chunk
        self._buf: list[float] = []
        self._j = 0

    def __call__(self) -> float:
        if self._j == len(self._buf):
            raw = self._engine.draw(self._chunk)
            self._buf = canonical(raw, self._dtype).astype(np.float64).tolist()
            self._j = 0
        v = self._buf[self._j]
        self._j += 1
        return v

    def close(self) -> None:
        if self._buf:
            self._engine.give_back(len(self._buf) - self._j)
            self._buf, self._j = [], 0


class _Math:
    """Float-type arithmetic: float64 is Python's; float32 rounds each result once."""

    def __init__(self, single: bool):
        self.single = single
        self.r = _f32 if single else float
        self.log = _logf if single else math.log
        self.log1p = _log1pf if single else math.log1p


_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)


def _stirling_tail(k: int, m: _Math) -> float:
    """The Stirling series' remainder of log(k!) in the float type."""
    if k <= 9:
        return m.r(_TAIL[k])
    kp1sq = m.r(float((k + 1) * (k + 1)))
    return m.r((1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1))


def _floor(v: float) -> int | float:
    """``std::floor`` that keeps an infinity (the callers then reject it)."""
    return math.floor(v) if math.isfinite(v) else v


def _btrs(n: float, p: float, uni: _Uniforms, m: _Math) -> int:
    """Hormann's transformed rejection with squeeze; ``r`` marks where C++ narrows to T."""
    r, log = m.r, m.log
    stddev = r(math.sqrt(r(r(n * p) * r(1.0 - p))))
    b = r(1.15 + 2.53 * stddev)
    a = r(-0.0873 + 0.0248 * b + 0.01 * p)
    c = r(r(n * p) + 0.5)
    v_r = r(0.92 - 4.2 / b)
    ratio = r(p / r(1.0 - p))
    alpha = r((2.83 + 5.1 / b) * stddev)
    mode = math.floor(r(r(n + 1.0) * p))
    while True:
        u = r(uni() - 0.5)
        v = uni()
        us = r(0.5 - abs(u))
        k = _floor(r(r(r(r(r(2.0 * a) / us) + b) * u) + c))
        if not math.isfinite(k) or k < 0 or r(float(k)) > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = log(r(r(v * alpha) / r(r(a / r(us * us)) + b)))
        nk1 = r(r(n - r(float(k))) + 1.0)
        nm1 = r(r(n - mode) + 1.0)
        bound = (mode + 0.5) * log(r(r(mode + 1.0) / r(ratio * nm1)))
        bound += r(r(n + 1.0) * log(r(nm1 / nk1)))
        bound += (k + 0.5) * log(r(r(ratio * nk1) / r(float(k + 1))))
        bound += _stirling_tail(int(mode), m) + _stirling_tail(int(n - mode), m)
        bound = bound - _stirling_tail(k, m) - _stirling_tail(int(n - k), m)
        if v <= r(bound):
            return k


def _inversion(n: float, p: float, uni: _Uniforms, m: _Math) -> int:
    """Counts geometric waiting times until their sum passes n."""
    r = m.r
    logq = m.log1p(-p)
    total, count = 0.0, 0
    while True:
        geom = r(m.log(uni()) / logq)
        total = r(total + (math.ceil(geom) if math.isfinite(geom) else geom))
        if total > n:
            return count
        count += 1


def _binomial_one(n: float, p: float, uni: _Uniforms, m: _Math) -> int:
    if n <= 0.0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return int(n)
    if p <= 0.5:
        sampler = _btrs if m.r(n * p) >= 10.0 else _inversion
        return sampler(n, p, uni, m)
    q = m.r(1.0 - p)
    sampler = _btrs if m.r(n * q) >= 10.0 else _inversion
    return int(n) - sampler(n, q, uni, m)


def binomial_array(engine, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Paddle's CPU ``binomial`` of float32/float64 ``count`` and ``prob`` (broadcast, same
    dtype): int64 samples."""
    count, prob = np.broadcast_arrays(np.asarray(count), np.asarray(prob))
    m = _Math(prob.dtype == np.float32)
    uni = _Uniforms(engine, prob.dtype)
    try:
        pairs = zip(count.ravel().tolist(), prob.ravel().tolist(), strict=True)
        out = [_binomial_one(n, p, uni, m) for n, p in pairs]
    finally:
        uni.close()
    return np.array(out, np.int64).reshape(prob.shape)


# libstdc++'s constants of Devroye's method (sqrt(pi / 2), pi / 4, 1 / 78, e^(1 / 78))
_SPI_2, _PI_4 = 1.2533141373155002, 0.7853981633974483
_1_78, _E_1_78 = 0.01282051282051282, 1.0129030479320018
_NAF = (1 - np.finfo(np.float64).eps) / 2
_INT_MAX_NAF = 2147483647 + _NAF


class _Normal64:
    """A ``std::normal_distribution<double>`` object: the polar method's pair, the second
    value kept for the next call."""

    def __init__(self, uni: _Uniforms):
        self._uni, self._saved = uni, None

    def __call__(self) -> float:
        if self._saved is not None:
            v, self._saved = self._saved, None
            return v
        while True:
            x, y = 2.0 * self._uni() - 1.0, 2.0 * self._uni() - 1.0
            r2 = x * x + y * y
            if r2 <= 1.0 and r2 != 0.0:
                break
        mult = math.sqrt(-2.0 * math.log(r2) / r2)
        self._saved = x * mult
        return y * mult


def _poisson_devroye(mean: float, uni: _Uniforms) -> int:
    """``poisson_distribution<int>`` for a mean of 12 or more (a fresh distribution)."""
    m = math.floor(mean)
    lm_thr, lfm, sm = math.log(mean), _lgamma(m + 1.0), math.sqrt(m)
    dx = math.sqrt(2 * m * math.log(32 * m / _PI_4))
    d = math.floor(max(6.0, min(m, dx)) + 0.5)
    cx = 2 * m + d
    scx, inv_cx = math.sqrt(cx / 2), 1 / cx
    c2b = math.sqrt(_PI_4 * cx) * math.exp(inv_cx)
    cb = 2 * cx * math.exp(-d * inv_cx * (1 + d / 2)) / d
    c1 = sm * _SPI_2
    c2 = c2b + c1
    c3 = c2 + 1
    c4 = c3 + 1
    c5 = c4 + _E_1_78
    c = cb + c5
    two_cx = 2 * (2 * m + d)
    normal = _Normal64(uni)
    while True:
        u = c * uni()
        e = -math.log(1.0 - uni())
        w = 0.0
        if u <= c1:
            n = normal()
            x = math.floor(-abs(n) * sm - 1)
            w = -n * n / 2
            if x < -m:
                continue
        elif u <= c2:
            n = normal()
            y = 1 + abs(n) * scx
            x = math.ceil(y)
            w = y * (2 - y) * inv_cx
            if x > d:
                continue
        elif u <= c3:
            x = -1.0
        elif u <= c4:
            x = 0.0
        elif u <= c5:
            x, w = 1.0, _1_78
        else:
            v = -math.log(1.0 - uni())
            y = d + v * two_cx / d
            x = math.ceil(y)
            w = -d * inv_cx * (1 + y / 2)
        reject = w - e - x * lm_thr > lfm - _lgamma(x + m + 1)
        if not reject and x + m < _INT_MAX_NAF:
            return int(x + m + _NAF)


def _poisson_product(mean: float, uni: _Uniforms) -> int:
    """``poisson_distribution<int>`` below a mean of 12: multiply uniforms until the product
    falls to exp(-mean)."""
    thr, prod, x = math.exp(-mean), 1.0, 0
    while True:
        prod *= uni()
        if prod <= thr:
            return x
        x += 1


def poisson_array(engine, rates: np.ndarray) -> np.ndarray:
    """Paddle's CPU ``poisson`` of float32/float64 ``rates``: int64 counts."""
    flat = np.asarray(rates, np.float64).ravel().tolist()
    uni = _Uniforms(engine, np.float64)
    try:
        out = [(_poisson_devroye if r >= 12 else _poisson_product)(r, uni) for r in flat]
    finally:
        uni.close()
    return np.array(out, np.int64).reshape(np.shape(rates))
