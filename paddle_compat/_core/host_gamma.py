"""Paddle's CPU ``standard_gamma`` sampler on the host, bit for bit.

Paddle's CPU kernel draws each element in turn from the global ``mt19937_64`` engine with
Marsaglia and Tsang's (2000) rejection method, in the element's float type:

- ``alpha < 1`` is boosted first: one uniform ``u``, scale ``(1 - u) ** (1 / alpha)``,
  ``alpha + 1`` (``alpha == 0`` draws nothing and gives 0);
- ``d = alpha - 1/3`` (``1/3`` is a float32 constant), ``c = 1 / sqrt(9 d)``; repeat: a
  standard normal ``x`` (redrawn while ``1 + c x <= 0``), ``v = (1 + c x) ** 3``, a uniform
  ``u' = 1 - u``, accept ``d v`` when ``u' < 1 - 0.0331 x**4`` or
  ``log u' < x**2 / 2 + d (1 - v + log v)``;
- every normal comes from a fresh ``std::normal_distribution`` (the polar method's second
  value is dropped), every uniform is one ``generate_canonical`` draw;
- the result is at least the float type's smallest normal number.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math

import numpy as np

from . import libm
from .mt19937 import MT19937_64

_CHUNK = 256  # draws fetched at a time; unused ones go back to the engine


class _Draws:
    """The engine's canonical floats, read one at a time, with the polar method's outcome for
    a pair starting at each position computed for a whole chunk at once."""

    def __init__(self, engine: MT19937_64, st: type):
        self.engine, self.st = engine, st
        self.u = np.empty(0, st)
        self.j = 0

    def _refill(self, need: int) -> None:
        self.engine.give_back(len(self.u) - self.j)
        st = self.st
        self.u = self.engine.canonical(max(_CHUNK, need), st)
        self.j = 0
        # C++ computes 2 * u - 1 in double and narrows it: one rounding to st is the same
        w = st(2) * self.u - st(1)
        x, y = w[:-1], w[1:]
        r2 = x * x + y * y
        ok = (r2 <= 1) & (r2 != 0)
        self.ok = ok.tolist()
        safe = np.where(ok, r2, st(0.5))  # rejected pairs: any value, never read
        self.normal_at = (y * np.sqrt(st(-2) * _log(safe) / safe)).tolist()
        self.uniform_at = self.u.tolist()

    def uniform(self) -> float:
        if self.j >= len(self.u):
            self._refill(1)
        self.j += 1
        return self.uniform_at[self.j - 1]

    def normal(self) -> float:
        while True:
            if self.j + 2 > len(self.u):
                self._refill(2)
            p = self.j
            self.j += 2
            if self.ok[p]:
                return self.normal_at[p]

    def close(self) -> None:
        self.engine.give_back(len(self.u) - self.j)
        self.u = np.empty(0, self.st)
        self.j = 0


def _log(x: np.ndarray) -> np.ndarray:
    return libm.logf(x) if x.dtype == np.float32 else libm.log(x)


@functools.cache
def _libm_powf():
    """The platform libm's ``powf`` (the one Paddle's kernel calls), or None."""
    try:
        fn = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6").powf
    except (OSError, AttributeError):
        return None
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]
    return fn


def _pow(base, exponent, st: type):
    """libm ``powf``/``pow`` of two st scalars: glibc's powf is not correctly rounded near
    ties, so it is called itself (without a C libm: the float64 power, rounded)."""
    powf = _libm_powf() if st is np.float32 else None
    if powf is not None:
        return st(powf(float(base), float(exponent)))
    return st(math.pow(float(base), float(exponent)))


def _one(alpha, draws: _Draws, st: type):
    """One sample of Gamma(alpha, 1) in the float type ``st`` (numpy scalar arithmetic, so
    every operation rounds as the C++ kernel's does)."""
    one = st(1)
    scale = one
    a = st(alpha)
    if a < one:
        if a == 0:
            return st(0)
        u = st(draws.uniform())
        scale = scale * _pow(one - u, one / a, st)
        a = a + one
    d = a - st(np.float32(1) / np.float32(3))
    c = one / np.sqrt(st(9) * d)
    k = st(np.float32(0.0331))
    while True:
        while True:
            x = st(draws.normal())
            y = one + c * x
            if y > 0:
                break
        v = y * y * y
        u = one - st(draws.uniform())
        xx = x * x
        if u < one - k * xx * xx:
            return scale * d * v
        logs = _log(np.array([u, v], st))
        if logs[0] < st(0.5) * xx + d * (one - v + logs[1]):
            return scale * d * v


def standard_gamma_array(engine: MT19937_64, alpha: np.ndarray) -> np.ndarray:
    """Gamma(alpha, 1) samples of float32 or float64 ``alpha`` (same shape and dtype), drawn
    element by element in C order as Paddle's CPU kernel does."""
    alpha = np.asarray(alpha)
    st = np.float64 if alpha.dtype == np.float64 else np.float32
    flat = alpha.astype(st).ravel()
    out = np.empty(flat.size, st)
    draws = _Draws(engine, st)
    try:
        for i, a in enumerate(flat.tolist()):
            out[i] = _one(a, draws, st)
    finally:
        draws.close()
    return np.maximum(out, np.finfo(st).tiny).reshape(alpha.shape)
