"""Paddle's CPU samplers on the host, bit for bit: libstdc++'s distributions over the
``MT19937_64`` stream, vectorized with numpy.

- ``canonical``: ``std::generate_canonical`` (one 64-bit draw, rounded to the float type, over
  2**64, kept below 1).
- ``uniform``: ``std::uniform_real_distribution``: ``(high - low) * canonical + low``.
- ``normal``: ``std::normal_distribution`` (Marsaglia's polar method; each accepted pair gives
  two values, y first; a call's unused second value is dropped).
- ``integers``: ``std::uniform_int_distribution`` (Lemire's multiply-shift with rejection).
- ``permutation``: ``std::shuffle`` (two swap positions per draw while n**2 fits in 64 bits).
Paddle draws float16/bfloat16 samples in float32 and casts them.
"""

from __future__ import annotations

import math

import numpy as np

from . import dtype as _dt
from . import libm
from .host_memory import aligned_empty
from .mt19937 import MT19937_64

_MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


def uniform(engine: MT19937_64, n: int, low: float, high: float, dtype) -> np.ndarray:
    """n samples of ``uniform_real_distribution<dtype>(low, high)``."""
    dt = np.dtype(dtype).type
    return engine.canonical(n, dt, dt(high) - dt(low), dt(low))


def log(x: np.ndarray) -> np.ndarray:
    """libm log of a float32 or float64 array (as Paddle's samplers call it)."""
    return libm.logf(x) if x.dtype == np.float32 else libm.log(x)


_CHUNK_PAIRS = 1 << 17  # pairs drawn from the engine at a time (one large draw is cheapest)
_SUB_PAIRS = 1 << 13  # pairs transformed at a time: temporaries stay in cache and are reused


def normal(engine: MT19937_64, n: int, mean: float, std: float, dtype) -> np.ndarray:
    """n samples of ``normal_distribution<dtype>(mean, std)`` (one distribution per call):
    the polar method on pairs of uniforms, each accepted pair giving two samples."""
    dt = np.dtype(dtype).type
    pairs_needed = (n + 1) // 2
    out = aligned_empty(2 * pairs_needed, dt)  # a parameter takes it over without a copy
    got = 0
    while got < pairs_needed:
        k = int(min(pairs_needed - got, _CHUNK_PAIRS) / 0.785) + 8
        u = engine.canonical(2 * k, dt)
        for lo in range(0, k, _SUB_PAIRS):
            # C++ evaluates 2.0 * u - 1.0 in double and narrows it: for a float32 u of at
            # least 2**-29 the double result is exact, below that both round to -1, so one
            # float32 rounding of 2 * u - 1 is the same number
            sub = u[2 * lo : 2 * min(k, lo + _SUB_PAIRS)]
            x = dt(2) * sub[0::2] - dt(1)
            y = dt(2) * sub[1::2] - dt(1)
            r2 = x * x + y * y
            take = np.flatnonzero((r2 <= 1) & (r2 != 0))[: pairs_needed - got]
            x, y, r2 = x[take], y[take], r2[take]
            mult = np.sqrt(dt(-2) * log(r2) / r2)
            out[2 * got : 2 * (got + len(take)) : 2] = y * mult
            out[2 * got + 1 : 2 * (got + len(take)) : 2] = x * mult
            got += len(take)
            if got == pairs_needed:  # hand back the draws after the last pair used
                engine.give_back(2 * (k - 1 - (lo + int(take[-1]))))
                break
    out = out[:n]
    out *= dt(std)
    out += dt(mean)
    return out


def _mul128(u: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The high and low 64-bit words of u * r (uint64 arrays), from 32-bit limbs."""
    a_lo, a_hi = u & _MASK32, u >> _S32
    r_lo, r_hi = r & _MASK32, r >> _S32
    ll, lh, hl, hh = a_lo * r_lo, a_lo * r_hi, a_hi * r_lo, a_hi * r_hi
    mid = (ll >> _S32) + (lh & _MASK32) + (hl & _MASK32)
    hi = hh + (lh >> _S32) + (hl >> _S32) + (mid >> _S32)
    return hi, (mid << _S32) | (ll & _MASK32)


def _bounded(engine: MT19937_64, ranges: np.ndarray) -> np.ndarray:
    """One ``uniform_int_distribution(0, r - 1)`` value per entry of ``ranges``, in order:
    the high word of draw * r, redrawn while the low word is below (2**64 - r) % r."""
    ranges = np.asarray(ranges, np.uint64)
    out = np.empty(len(ranges), np.uint64)
    i = 0
    while i < len(ranges):
        r = ranges[i:]
        hi, lo = _mul128(engine.draw(len(r)), r)
        bad = np.flatnonzero(lo < (np.uint64(0) - r) % r)
        if bad.size == 0:
            out[i:] = hi
            break
        j = int(bad[0])  # draw j is rejected (consumed); later draws go back to the engine
        out[i : i + j] = hi[:j]
        engine.give_back(len(r) - j - 1)
        i += j
    return out


def integers(engine: MT19937_64, n: int, low: int, high: int) -> np.ndarray:
    """n samples of ``uniform_int_distribution(low, high - 1)`` as int64."""
    span = int(high) - int(low)
    v = _bounded(engine, np.full(n, span, np.uint64))
    return v.astype(np.int64) + np.int64(low)


def permutation(engine: MT19937_64, n: int) -> np.ndarray:
    """``std::shuffle`` of 0..n-1 (int64)."""
    a = list(range(n))
    if n < 2:
        return np.array(a, np.int64)
    if n * n >= 1 << 64:  # one swap position per draw
        js = _bounded(engine, np.arange(2, n + 1, dtype=np.uint64)).tolist()
        for i, j in zip(range(1, n), js, strict=True):
            a[i], a[j] = a[j], a[i]
        return np.array(a, np.int64)
    i = 1
    if n % 2 == 0:  # an odd number of swaps: the first one alone
        j = int(_bounded(engine, np.array([2], np.uint64))[0])
        a[1], a[j] = a[j], a[1]
        i = 2
    spans = np.arange(i + 1, n, 2, dtype=np.uint64)  # swap range of each pair's first element
    xs = _bounded(engine, spans * (spans + np.uint64(1))).tolist()
    for sr, x in zip(spans.tolist(), xs, strict=True):
        p1, p2 = divmod(x, sr + 1)
        a[i], a[p1] = a[p1], a[i]
        a[i + 1], a[p2] = a[p2], a[i + 1]
        i += 2
    return np.array(a, np.int64)


# -- arrays of a Paddle dtype (what the eager ops and initializers use) ----------------------------
def _target(dtype_name: str) -> tuple[np.dtype, type]:
    """(numpy dtype of the result, float type Paddle samples in: float64 for float64/complex128,
    else float32; float16/bfloat16 are cast from float32 samples)."""
    target = _dt.to_dtype(dtype_name).np
    wide = dtype_name in ("float64", "complex128")
    return target, (np.float64 if wide else np.float32)


def _size(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _attr(v: float) -> float:
    """Paddle passes float parameters to its kernels as float32 attributes."""
    return float(np.float32(v))


def uniform_array(engine, shape, dtype_name: str, low: float, high: float) -> np.ndarray:
    """Paddle's ``uniform`` kernel: complex results take n real parts, then n imaginary parts."""
    target, st = _target(dtype_name)
    n, lo, hi = _size(shape), _attr(low), _attr(high)
    if np.issubdtype(target, np.complexfloating):
        re = uniform(engine, n, lo, hi, st)
        out = re + 1j * uniform(engine, n, lo, hi, st)
    else:
        out = uniform(engine, n, lo, hi, st)
    return out.astype(target, copy=False).reshape(shape)


def normal_array(engine, shape, dtype_name: str, mean, std: float) -> np.ndarray:
    """Paddle's ``gaussian`` kernel: complex results interleave (real, imaginary) samples, each
    with std / sqrt(2) (``mean`` may be complex: its parts are the two means)."""
    target, st = _target(dtype_name)
    n = _size(shape)
    if np.issubdtype(target, np.complexfloating):
        m = complex(mean)
        z = normal(engine, 2 * n, 0.0, _attr(std / np.sqrt(2.0)), st)
        out = (z[0::2] + st(m.real)) + 1j * (z[1::2] + st(m.imag))
    else:
        out = normal(engine, n, _attr(mean), _attr(std), st)
    return out.astype(target, copy=False).reshape(shape)


def integer_array(engine, shape, dtype_name: str, low: int, high: int) -> np.ndarray:
    """Paddle's ``randint`` kernel (``uniform_int_distribution``)."""
    return (
        integers(engine, _size(shape), low, high).astype(_dt.to_dtype(dtype_name).np).reshape(shape)
    )


def bernoulli_array(engine, probs: np.ndarray, dtype_name: str) -> np.ndarray:
    """Paddle's ``bernoulli`` kernel: 1 where a uniform sample is below the probability."""
    target, st = _target(dtype_name)
    p = np.asarray(probs, st)
    u = uniform(engine, p.size, 0.0, 1.0, st).reshape(p.shape)
    return (u < p).astype(target)


def _lower_bound(cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Per row of ``cum`` (rows, k), the binary search of Paddle's kernel for each of the
    row's uniforms ``u`` (rows, s): the first index whose value is not below the uniform,
    probing ``left + (right - left) // 2`` as the kernel does (its answer on unsorted rows,
    e.g. with nans, included), vectorized over all rows and uniforms."""
    rows, k = cum.shape
    flat = np.append(cum.ravel(), cum.dtype.type(0))  # a finished search may probe index k
    start = (np.arange(rows, dtype=np.int64) * k)[:, None]
    left = np.broadcast_to(start, u.shape).copy()  # indices into flat
    right = left + k
    for _ in range(k.bit_length()):  # each probe halves the interval; an empty one stays
        mid = (left + right) >> 1
        below = flat[mid] < u
        below &= right > left
        np.copyto(left, mid + 1, where=below)
        np.copyto(right, mid, where=~below)
    return left - start


def _count_below(cum: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``_lower_bound`` for rows of finite sorted values: how many values of the row are below
    each uniform. Short rows are compared with each uniform at once; a few long rows take numpy's searchsorted each; many take one searchsorted on
    (row, value) keys: int64 ``row << 32 | float32 bits`` (nonnegative float32 values order as
    their bits), or complex128 ``row + value * 1j`` (complex numbers sort by real part, then
    imaginary part)."""
    rows, k = cum.shape
    if k * u.shape[1] <= 1024:  # small rows: compare with every value
        return (cum[:, None, :] < u[:, :, None]).sum(axis=2, dtype=np.int64)
    if rows <= 64:
        return np.stack([np.searchsorted(c, q, side="left") for c, q in zip(cum, u, strict=True)])
    row = np.arange(rows, dtype=np.int64)[:, None]
    if cum.dtype == np.float32:  # + 0 turns -0.0 into 0.0
        keys = (cum + np.float32(0)).view(np.int32) + (row << 32)
        queries = u.view(np.int32) + (row << 32)
    else:
        keys = np.empty(cum.shape, np.complex128)
        keys.real, keys.imag = row, cum
        queries = np.empty(u.shape, np.complex128)
        queries.real, queries.imag = row, u
    found = np.searchsorted(keys.ravel(), queries.ravel(), side="left").reshape(u.shape)
    return found - row * k


def multinomial_array(engine, probs: np.ndarray, num_samples: int, replacement: bool):
    """Paddle's CPU ``multinomial``: per row, the running sums of the probabilities over their
    total (the last one set to 1); each sample is the first category whose value is not below
    a uniform. Without replacement the drawn category's share is then taken from it and the
    ones after it, and all are divided by what is left (1 - share). The rows' uniforms come in
    row order, so one draw serves all rows."""
    st = np.float64 if probs.dtype == np.float64 else np.float32
    rows = np.asarray(probs, st).reshape(-1, probs.shape[-1])
    n_rows, k = rows.shape
    u = uniform(engine, n_rows * num_samples, 0.0, 1.0, st).reshape(n_rows, num_samples)
    with np.errstate(all="ignore"):  # inf weights: the kernel's nans, without warnings
        cum = np.cumsum(rows, axis=-1, dtype=st)
        cum /= cum[:, -1:]
        cum[:, -1] = 1
        if replacement:
            ordered = np.isfinite(cum).all() and (np.diff(cum, axis=1) >= 0).all()
            found = (_count_below if ordered else _lower_bound)(cum, u)
            return found.reshape(probs.shape[:-1] + (num_samples,))
        out = np.empty(u.shape, np.int64)
        at, cols = np.arange(n_rows), np.arange(k)
        after = np.empty(cum.shape, bool)
        for s in range(num_samples):
            ids = _lower_bound(cum, u[:, s : s + 1])[:, 0]
            out[:, s] = ids
            if s == num_samples - 1:
                break
            before = np.where(ids > 0, cum[at, ids - 1], st(0))
            share = (cum[at, ids] - before)[:, None]
            np.greater_equal(cols, ids[:, None], out=after)
            np.subtract(cum, share, out=cum, where=after)
            cum /= st(1) - share
            cum[:, -1] = 1
    return out.reshape(probs.shape[:-1] + (num_samples,))


def exponential_array(engine, shape, dtype_name: str, lam: float) -> np.ndarray:
    """Paddle's ``exponential_``: (-1 / lam) * log(1 - u)."""
    target, st = _target(dtype_name)
    u = uniform(engine, _size(shape), 0.0, 1.0, st)
    return ((st(-1) / st(_attr(lam))) * log(st(1) - u)).astype(target).reshape(shape)


def geometric_array(engine, shape, dtype_name: str, p: float) -> np.ndarray:
    """Paddle's ``geometric_``: log(u) / log(1 - p) (not rounded to integers)."""
    target, st = _target(dtype_name)
    u = uniform(engine, _size(shape), 0.0, 1.0, st)
    q = log(np.array([st(1) - st(_attr(p))], st))[0]
    return (log(u) / q).astype(target).reshape(shape)


def log_normal_array(engine, shape, dtype_name: str, mean: float, std: float) -> np.ndarray:
    """exp of Paddle's normal samples. Paddle's float32 exp is its own vectorized one; this
    exp is correctly rounded, so about 1 value in 10 differs from Paddle's by one ulp."""
    target, _ = _target(dtype_name)
    z = normal_array(engine, shape, dtype_name, mean, std)
    return np.exp(z.astype(np.float64)).astype(target)


def random_array(engine, shape, dtype_name: str, low: int, high: int) -> np.ndarray:
    """Paddle's ``random_(from, to)``: the low 32 bits of a draw modulo the range, plus from
    (all 64 bits when the range needs them)."""
    span = int(high) - int(low)
    u = engine.draw(_size(shape))
    bits = u if span > 0xFFFFFFFF else u & _MASK32
    v = (bits % np.uint64(span)).astype(np.int64) + np.int64(low)
    return v.astype(_dt.to_dtype(dtype_name).np).reshape(shape)


_GILES_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087)
_GILES_CENTRAL += (-0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773)
_GILES_TAIL += (-0.0076224613, 0.00943887047, 1.00167406, 2.83297682)


def _erfinv(x: np.ndarray) -> np.ndarray:
    """Inverse erf, float32-accurate (M. Giles, "Approximating the erfinv function", 2010),
    refined by Newton steps on ``math.erf`` for float64."""
    x = np.asarray(x, np.float64)
    w = -np.log((1.0 - x) * (1.0 + x))
    central = w < 5.0
    wc, wt = w - 2.5, np.sqrt(w) - 3.0
    pc, pt = np.zeros_like(x), np.zeros_like(x)
    for c_central, c_tail in zip(_GILES_CENTRAL, _GILES_TAIL, strict=True):
        pc = pc * wc + c_central
        pt = pt * wt + c_tail
    return np.where(central, pc, pt) * x


def truncated_normal_array(engine, shape, dtype_name: str, mean, std, a, b) -> np.ndarray:
    """Paddle's ``truncated_gaussian_random``: one uniform draw in [FLT_MIN, 1) per value, mapped
    through the normal quantile between the cdfs of a and b. The draws are Paddle's; the inverse
    erf is float32-accurate, so values agree with Paddle's to about 1e-6, not bit for bit."""
    target, st = _target(dtype_name)
    n = _size(shape)
    u = uniform(engine, n, float(np.finfo(np.float32).tiny), 1.0, st).astype(np.float64)
    cdf_a = (1 + math.erf((a - mean) / std / math.sqrt(2))) / 2
    cdf_b = (1 + math.erf((b - mean) / std / math.sqrt(2))) / 2
    q = 2 * (cdf_a + (cdf_b - cdf_a) * u) - 1
    z = _erfinv(q)
    if st is np.float64:  # two Newton steps: erf(z) = q
        erf = np.frompyfunc(math.erf, 1, 1)
        for _ in range(2):
            z = z - (erf(z).astype(np.float64) - q) * (math.sqrt(math.pi) / 2) * np.exp(z * z)
    v = math.sqrt(2) * z * std + mean
    return v.astype(target).reshape(shape)
