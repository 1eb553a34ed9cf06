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
Each element's draw count depends on its draws, so the elements are walked in order over a
chunk of uniforms. Parameters shared by many elements (binomial; poisson below a rate of 12)
get tables computed with numpy for every start position of the chunk (the sample and where
the next element starts), so the walk only looks them up; other elements run the scalar
samplers (Devroye's poisson always does).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct

import numpy as np

from . import libm
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


class _OutOfDraws(Exception):
    """A scalar sampler reached the end of the walk's chunk of draws."""


class _ChunkReader:
    """The uniforms of a chunk from a position on, for the scalar samplers."""

    def __init__(self, values: list[float], at: int):
        self.values, self.at = values, at

    def __call__(self) -> float:
        if self.at >= len(self.values):
            raise _OutOfDraws
        self.at += 1
        return self.values[self.at - 1]


def _walk(engine, dtype, plan, tables, scalar, expected: float) -> list:
    """Draw each element's sample in order, as the kernel does, from chunks of uniforms.
    ``plan[i]``: -1 no draws (``scalar(i, None)`` gives the value), a table group ``g >= 0``,
    or -2 the scalar sampler ``scalar(i, reader)``. ``tables(u)`` gives, per group and for
    every chunk position ``s``, the position after the element's draws (-1 past the chunk) and
    its value. ``expected``: about how many draws an element takes."""
    n = len(plan)
    out: list = [0] * n
    i, grow = 0, 1
    while i < n:
        m = (int(expected * (n - i) * 1.1) + 64) * grow
        raw = engine.draw(m)
        u = canonical(raw, dtype)
        nexts, values = tables(u)
        floats = None
        s, start = 0, i
        while i < n:
            g = plan[i]
            if g >= 0:
                nx = nexts[g][s] if s < m else -1
                if nx < 0:
                    break
                out[i] = values[g][s]
                s = nx
            elif g == -1:
                out[i] = scalar(i, None)
            else:
                if floats is None:
                    floats = u.astype(np.float64).tolist()
                reader = _ChunkReader(floats, s)
                try:
                    out[i] = scalar(i, reader)
                except _OutOfDraws:
                    break
                s = reader.at
            i += 1
        engine.give_back(m - s)
        grow = 2 * grow if i == start else 1
    return out


def _sequential(engine, dtype, n: int, scalar) -> np.ndarray:
    """``scalar(i, uniforms)`` for each element in turn (uniforms drawn 256 at a time)."""
    uni = _Uniforms(engine, dtype)
    try:
        return np.array([scalar(i, uni) for i in range(n)], np.int64)
    finally:
        uni.close()


def _groups(count: np.ndarray, prob: np.ndarray, ok: np.ndarray, least: int):
    """Unique (count, prob) pairs among the elements marked ``ok`` that have at least
    ``least`` elements: (their pairs, each element's group or -2)."""
    key = count.astype(np.complex128) + 1j * prob.astype(np.complex128)
    plan = np.full(key.shape, -2, np.int64)
    if not ok.any():
        return [], plan
    uniq, inverse, counts = np.unique(key[ok], return_inverse=True, return_counts=True)
    keep = counts >= least
    ids = np.cumsum(keep) - 1
    plan[ok] = np.where(keep[inverse], ids[inverse], -2)
    return [(float(z.real), float(z.imag)) for z in uniq[keep]], plan


def binomial_array(engine, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """Paddle's CPU ``binomial`` of float32/float64 ``count`` and ``prob`` (broadcast, same
    dtype): int64 samples. Parameters shared by many elements get tables over the chunk's
    draws (each start position's sample and next position, vectorized); the rest run the
    scalar samplers in turn."""
    count, prob = np.broadcast_arrays(np.asarray(count), np.asarray(prob))
    m = _Math(prob.dtype == np.float32)
    n_flat, p_flat = count.ravel().astype(np.float64), prob.ravel().astype(np.float64)
    trivial = (n_flat <= 0) | (p_flat <= 0) | (p_flat >= 1)
    limit = 2.0**24  # the tables' sums and counts stay exact below this
    ok = ~trivial & (n_flat < limit) & np.isfinite(n_flat) & ~np.isnan(p_flat)
    least = max(32, len(n_flat) // 10)  # a table costs about as much as this many scalars
    params, plan = _groups(n_flat, p_flat, ok, least)
    plan[trivial] = -1
    kinds = [_binomial_kind(n, p, m) for n, p in params]
    n_l, p_l = n_flat.tolist(), p_flat.tolist()

    def scalar(i, reader):
        return _binomial_one(n_l[i], p_l[i], reader, m)

    def tables(u):
        nexts, values = [], []
        for (n, _), (btrs, q, flip) in zip(params, kinds, strict=True):
            nx, x = (_btrs_table if btrs else _inversion_table)(n, q, u, m)
            nexts.append(nx.tolist())
            values.append((int(n) - x if flip else x).tolist())
        return nexts, values

    if not params:  # no tables: the plain loop over a stream of uniforms
        return _sequential(engine, prob.dtype, len(n_flat), scalar).reshape(prob.shape)
    mean = n_flat * np.minimum(p_flat, 1 - p_flat)  # inversion takes X + 1 draws, BTRS ~2.3
    expected = float(np.mean(np.where(trivial, 0, np.where(mean < 10, mean + 1, 2.4))))
    out = _walk(engine, prob.dtype, plan.tolist(), tables, scalar, max(expected, 0.1))
    return np.array(out, np.int64).reshape(prob.shape)


def _binomial_kind(n: float, p: float, m: _Math) -> tuple[bool, float, bool]:
    """(whether BTRS runs, the probability it runs with, whether the result is n - X)."""
    if p <= 0.5:
        return m.r(n * p) >= 10.0, p, False
    q = m.r(1.0 - p)
    return m.r(n * q) >= 10.0, q, True


def _log_array(x: np.ndarray) -> np.ndarray:
    """libm logf (float32 ``x``) or log (float64) of an array: -inf at 0, nan below, as C's."""
    good = (x > 0) & np.isfinite(x)
    safe = np.where(good, x, x.dtype.type(1))
    out = libm.logf(safe) if x.dtype == np.float32 else libm.log(safe)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(good, out, np.log(x))


# The tables compute in the float type: a float32 operation on float32 values is the double
# result rounded once, which is what the scalar samplers' ``m.r`` does.


def _inversion_table(n: float, p: float, u: np.ndarray, m: _Math):
    """Inversion from every start position: geometric waiting times ``ceil(log u / log q)``
    are summed until they pass n, so the draw that ends an element is found by a search in
    their running sums (exact integers: each time is capped at n + 1)."""
    ft = u.dtype.type
    with np.errstate(divide="ignore", invalid="ignore"):
        geom = _log_array(u) / ft(m.log1p(-p))
    cap = math.floor(n) + 1
    waits = np.where(np.isfinite(geom), np.minimum(np.ceil(geom), cap), cap).astype(np.int64)
    sums = np.concatenate([[0], np.cumsum(waits)])
    end = np.searchsorted(sums, sums[:-1] + n, side="right")  # one past the ending draw
    resolved = end <= len(u)
    return np.where(resolved, end, -1), np.where(resolved, end - 1 - np.arange(len(u)), 0)


def _stirling_tail_array(k: np.ndarray) -> np.ndarray:
    """``_stirling_tail`` of integer-valued ``k >= 0`` in its float type."""
    ft = k.dtype.type
    kp1 = k + ft(1)
    kp1sq = (kp1 * kp1).astype(np.float64)
    series = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / kp1.astype(np.float64)
    table = np.array(_TAIL, ft)[np.minimum(k, 9).astype(np.int64)]
    return np.where(k <= 9, table, series.astype(ft))


def _btrs_table(n: float, p: float, u: np.ndarray, m: _Math):
    """BTRS from every start position: an attempt takes two draws, so an element's sample is
    the first accepted attempt of its start's parity."""
    rs, ft = m.r, u.dtype.type
    stddev = rs(math.sqrt(rs(rs(n * p) * rs(1.0 - p))))
    b = rs(1.15 + 2.53 * stddev)
    a = rs(-0.0873 + 0.0248 * b + 0.01 * p)
    c = rs(rs(n * p) + 0.5)
    v_r = rs(0.92 - 4.2 / b)
    ratio = rs(p / rs(1.0 - p))
    alpha = rs((2.83 + 5.1 / b) * stddev)
    mode = math.floor(rs(rs(n + 1.0) * p))
    nm1 = rs(rs(n - mode) + 1.0)
    head = (mode + 0.5) * m.log(rs(rs(mode + 1.0) / rs(ratio * nm1)))
    tails = _stirling_tail(int(mode), m) + _stirling_tail(int(n - mode), m)
    with np.errstate(all="ignore"):
        x = u[:-1] - ft(0.5)
        v = u[1:]
        us = ft(0.5) - np.abs(x)
        k = np.floor((ft(rs(2.0 * a)) / us + ft(b)) * x + ft(c))
        valid = np.isfinite(k) & (k >= 0) & ~(k > ft(n))
        quick = (us >= 0.07) & (v <= v_r)
        k = np.where(valid, k, ft(0))
        v2 = _log_array(v * ft(alpha) / (ft(a) / (us * us) + ft(b)))
        nk1 = (ft(n) - k) + ft(1)
        k64 = k.astype(np.float64)
        bound = head + (ft(rs(n + 1.0)) * _log_array(ft(nm1) / nk1)).astype(np.float64)
        bound += (k64 + 0.5) * _log_array(ft(ratio) * nk1 / (k + ft(1))).astype(np.float64)
        bound += tails
        bound -= _stirling_tail_array(k).astype(np.float64)
        bound -= _stirling_tail_array(np.trunc(n - k64).astype(ft)).astype(np.float64)
        accept = valid & (quick | (v2 <= bound.astype(ft)))
    return _first_accepted(accept, k.astype(np.int64), 2)


def _first_accepted(accept: np.ndarray, value: np.ndarray, width: int):
    """Per start position of a chunk of ``len(accept) + width - 1`` draws: attempts of
    ``width`` draws run at the start, start + width, ...; the position after the first
    accepted one (-1 when none is in the chunk) and its value."""
    total = len(accept) + width - 1
    nxt = np.full(total, -1, np.int64)
    val = np.zeros(total, np.int64)
    for phase in range(width):
        idx = np.arange(phase, len(accept), width)
        cand = np.where(accept[idx], np.arange(len(idx)), len(idx))
        first = np.minimum.accumulate(cand[::-1])[::-1]
        found = first < len(idx)
        at = idx[first[found]]
        nxt[idx[found]] = at + width
        val[idx[found]] = value[at]
    return nxt, val


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


def _product_table(mean: float, u: np.ndarray):
    """``_poisson_product`` from every start position: the running products of the uniforms
    from each start, all starts at once, until they fall to exp(-mean)."""
    thr = math.exp(-mean)
    nxt = np.full(len(u), -1, np.int64)
    val = np.zeros(len(u), np.int64)
    at, prod, k = np.arange(len(u)), u.copy(), 0
    while len(at):
        done = prod <= thr
        nxt[at[done]] = at[done] + k + 1
        val[at[done]] = k
        k += 1
        more = ~done & (at + k < len(u))  # past the chunk: left at -1
        at, prod = at[more], prod[more]
        prod *= u[at + k]
    return nxt, val


def poisson_array(engine, rates: np.ndarray) -> np.ndarray:
    """Paddle's CPU ``poisson`` of float32/float64 ``rates``: int64 counts. Rates below 12
    shared by many elements get tables over the chunk's draws (each start position's count
    and next position, vectorized); the rest run the scalar samplers in turn."""
    flat = np.asarray(rates, np.float64).ravel()
    ok = flat < 12  # nan: the scalar sampler, as before
    least = max(32, len(flat) // 10)  # a table costs about as much as this many scalars
    means, plan = _groups(flat, np.zeros_like(flat), ok, least)
    rate_l = flat.tolist()

    def scalar(i, reader):
        r = rate_l[i]
        return (_poisson_devroye if r >= 12 else _poisson_product)(r, reader)

    def tables(u):
        pairs = [_product_table(mean, u.astype(np.float64)) for mean, _ in means]
        return [nx.tolist() for nx, _ in pairs], [x.tolist() for _, x in pairs]

    if not means:  # no tables: the plain loop over a stream of uniforms
        uni = _Uniforms(engine, np.float64)
        try:
            out = [(_poisson_devroye if r >= 12 else _poisson_product)(r, uni) for r in rate_l]
        finally:
            uni.close()
        return np.array(out, np.int64).reshape(np.shape(rates))
    expected = float(np.mean(np.where(flat < 12, np.maximum(flat, 0) + 1, 3.5)))
    out = _walk(engine, np.float64, plan.tolist(), tables, scalar, expected)
    return np.array(out, np.int64).reshape(np.shape(rates))
