"""Paddle's CPU ``standard_gamma`` sampler on the host, bit for bit.

Paddle's CPU kernel draws each element in turn from the global ``mt19937_64`` engine with
Marsaglia and Tsang's (2000) rejection method, in the element's float type:

- ``alpha < 1`` is boosted first: one uniform ``u``, scale ``(1 - u) ** (1 / alpha)``,
  ``alpha + 1`` (``alpha == 0`` draws nothing and gives 0);
- ``d = alpha - 1/3`` (``1/3`` is a float32 constant), ``c = 1 / sqrt(9 d)``; repeat: a
  standard normal ``x`` (redrawn while ``y = 1 + c x <= 0``), ``v = y**3``, a uniform
  ``u' = 1 - u``; accept ``scale * d * v`` when ``u' < 1 - 0.0331 x**4`` (the squeeze) or
  ``log u' < x**2 / 2 + d (1 - v + log v)``;
- every normal comes from a fresh ``std::normal_distribution`` (the polar method's second
  value is dropped), every uniform is one ``generate_canonical`` draw;
- the result is at least the float type's smallest normal number.

The walk is vectorized: for a chunk of draws, the polar method's outcome and the squeeze test
are computed for every position at once; a short Python loop then only follows positions
(element by element, as the kernel consumes draws), and the samples are computed for all
elements at once from the positions it found. The rare log test runs per element.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math
import struct

import numpy as np

from . import libm
from .mt19937 import MT19937_64

_F32_REDRAW = -1.0 + 2.0**-25  # float32: fl(c * x) <= -1 exactly when c * x <= this


def _log(x: np.ndarray) -> np.ndarray:
    return libm.logf(x) if x.dtype == np.float32 else libm.log(x)


@functools.cache
def _libm(name: str):
    """The platform libm's float32 function ``name`` (the one Paddle's kernel calls), or None."""
    try:
        fn = getattr(ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6"), name)
    except (OSError, AttributeError):
        return None
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float] * (2 if name == "powf" else 1)
    return fn


def _log1(x: float, st: type) -> float:
    """libm ``logf``/``log`` of one value."""
    if st is np.float64:
        return math.log(x) if x > 0 else float(_log(np.array([x]))[0])
    logf = _libm("logf")
    return logf(x) if logf is not None else float(_log(np.array([x], st))[0])


def _libm_pow(base: float, exponent: float) -> float:
    """``math.pow`` (libm's ``pow``) with C's inf/nan instead of Python's errors."""
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf
    except ValueError:
        return math.nan


def _pow(base: np.ndarray, exponent: np.ndarray, st: type) -> np.ndarray:
    """Elementwise libm ``powf``/``pow``: glibc's powf is not correctly rounded, so it is called
    itself (without a C libm: the float64 power, rounded)."""
    powf = (_libm("powf") if st is np.float32 else None) or _libm_pow
    vals = [powf(b, e) for b, e in zip(base.tolist(), exponent.tolist(), strict=True)]
    with np.errstate(over="ignore"):
        return np.array(vals, np.float64).astype(st)


class _Chunk:
    """``m`` canonical draws and, for a normal starting at each position ``p``: the position
    after its accepted pair (``end[p]``, -1 when the chunk has none) and its value; for that
    normal followed by the uniform at ``end[p]``, the squeeze test; and ``fast[p]``, the
    position after the uniform when the squeeze accepts a normal of at least -2 (for any
    ``c < 0.49`` that needs no redraw), else -1."""

    def __init__(self, engine: MT19937_64, st: type, m: int):
        one = st(1)
        self.u = u = engine.canonical(m, st)
        self.m = m
        # C++ computes 2 * u - 1 in double and narrows it: one rounding to st is the same
        w = st(2) * u - st(1)
        x, y = w[:-1], w[1:]
        r2 = x * x + y * y
        ok = (r2 <= 1) & (r2 != 0)
        safe = np.where(ok, r2, st(0.5))  # rejected pairs: any value, never read
        value = y * np.sqrt(st(-2) * _log(safe) / safe)
        end = np.full(m, -1, np.int64)
        normal = np.zeros(m, st)
        for parity in (0, 1):
            idx = np.arange(parity, m - 1, 2)
            cand = np.where(ok[idx], np.arange(len(idx)), len(idx))
            nxt = np.minimum.accumulate(cand[::-1])[::-1]
            found = nxt < len(idx)
            end[idx[found]] = idx[nxt[found]] + 2
            normal[idx[found]] = value[idx[nxt[found]]]
        has_uniform = (end >= 0) & (end < m)
        self.end = np.where(has_uniform, end, -1)
        self.normal = normal
        u_next = one - u[np.where(has_uniform, end, 0)]
        xx = normal * normal
        self.squeeze = (u_next < one - st(np.float32(0.0331)) * xx * xx) & has_uniform
        self.fast = np.where(self.squeeze & (normal >= -2), end + 1, -1).tolist()
        # log u' of the log test (where the squeeze fails): it depends on the draw only
        tested = np.flatnonzero(has_uniform & ~self.squeeze)
        self.log_u = np.zeros(m, st)
        self.log_u[tested] = _log(one - u[self.end[tested]])


_F32 = struct.Struct("f")


def _round32(v: float) -> float:
    """A double rounded to float32 (a float32 operation on float32 values is the double
    result rounded once)."""
    try:
        return _F32.unpack(_F32.pack(v))[0]
    except OverflowError:  # beyond float32's range: inf, as C's conversion
        return float(np.float32(v))


def _log_test(x, log_u, d, c, st: type) -> bool:
    """The second acceptance test, ``log u' < x**2 / 2 + d (1 - v + log v)`` in st (on
    Python floats, each operation rounded to st)."""
    r = _round32 if st is np.float32 else float
    x, d, c = float(x), float(d), float(c)
    y = r(1.0 + r(c * x))
    v = r(r(y * y) * y)
    rhs = r(r(0.5 * r(x * x)) + r(d * r(r(1.0 - v) + _log1(v, st))))
    return float(log_u) < rhs


def _slow(chunk: _Chunk, p: int, c: float, d: float, st: type) -> tuple[int, int]:
    """One element's attempts from position ``p`` (redraws and the log test): (the accepted
    normal's position, the position after its uniform), or (-1, -1) when the chunk ends."""
    end, normal, squeeze = chunk.end, chunk.normal, chunk.squeeze
    redraw = _F32_REDRAW if st is np.float32 else -1.0
    while True:
        while True:  # a normal with 1 + c x > 0
            if p >= chunk.m or end[p] < 0:
                return -1, -1
            if not c * float(normal[p]) <= redraw:
                break
            p = int(end[p])
        q = int(end[p])  # the uniform's position
        if squeeze[p] or _log_test(normal[p], chunk.log_u[p], st(d), st(c), st):
            return p, q + 1
        p = q + 1


def _walk(chunk: _Chunk, lo: int, kind, c, d, st: type, pre, at) -> tuple[int, int]:
    """Follow the kernel's draws for elements ``lo, lo + 1, ...`` from the chunk's start.
    ``kind``: 0 alpha 0 (no draws); 1/2 ``c < 0.49`` (the fast table applies) without/with the
    boost; 3/4 other ``c`` without/with it. ``pre[i]`` is the boost uniform's position,
    ``at[i]`` the accepted normal's. Returns (the first element not done for lack of draws,
    the position it starts at)."""
    fast, m = chunk.fast, chunk.m
    s = 0
    for i in range(lo, len(kind)):
        k = kind[i]
        if k == 0:
            continue
        p = s
        if k == 2 or k == 4:
            if p >= m:
                return i, s
            pre[i] = p
            p += 1
        if k < 3 and p < m:
            f = fast[p]
            if f > 0:
                at[i] = p
                s = f
                continue
        p, f = _slow(chunk, p, c[i], d[i], st)
        if p < 0:
            return i, s
        at[i] = p
        s = f
    return len(kind), s


def standard_gamma_array(engine: MT19937_64, alpha: np.ndarray) -> np.ndarray:
    """Gamma(alpha, 1) samples of float32 or float64 ``alpha`` (same shape and dtype), drawn
    element by element in C order as Paddle's CPU kernel does."""
    alpha = np.asarray(alpha)
    st = np.float64 if alpha.dtype == np.float64 else np.float32
    a = alpha.astype(st).ravel()
    n = a.size
    one = st(1)
    small = a < one
    zero = a == 0
    boosted = np.where(small, a + one, a)
    d = boosted - st(np.float32(1) / np.float32(3))
    with np.errstate(invalid="ignore", divide="ignore"):
        c = one / np.sqrt(st(9) * d)
    kind = np.where(c < 0.49, 1, 3) + small
    kind = np.where(zero, 0, kind).tolist()
    pre = np.full(n, -1, np.int64)
    at = np.full(n, -1, np.int64)
    out = np.zeros(n, st)
    c_l, d_l = c.tolist(), d.tolist()
    i, grow = 0, 1
    while i < n:
        m = min(5 * (n - i) + 64, 1 << 20) * grow  # more when the last chunk finished nothing
        chunk = _Chunk(engine, st, m)
        j, s = _walk(chunk, i, kind, c_l, d_l, st, pre, at)
        engine.give_back(m - s)
        grow = 2 * grow if j == i else 1
        done = np.arange(i, j)
        done = done[~zero[done]]
        with np.errstate(over="ignore", invalid="ignore"):
            y = one + c[done] * chunk.normal[at[done]]
            v = y * y * y
            scale = np.ones(len(done), st)
            boost = small[done]
            if boost.any():
                k = done[boost]
                scale[boost] = _pow(one - chunk.u[pre[k]], one / a[k], st)
            out[done] = scale * d[done] * v
        i = j
    tiny = np.finfo(st).tiny
    return np.where(out > tiny, out, tiny).reshape(alpha.shape)
