"""glibc's ``logf`` and ``log`` on numpy arrays, bit for bit: Paddle's normal sampler takes the
log of each accepted pair, and its float32 result depends on libm's rounding.

``logf`` is glibc's (since 2.28) single-precision algorithm, evaluated in float64 exactly as the
C code does. The algorithm and its table come from Arm's optimized-routines (``math/logf.c``,
``math/logf_data.c``; Copyright (c) 2017-2024, Arm Limited; MIT License), the code glibc ships.
``log`` (float64) is numpy's log where an extended-precision log shows the result is not near a
rounding tie, and Python's ``math.log`` (the platform libm) for the rest.
"""

from __future__ import annotations

import math

import numpy as np

_TABLE = np.array(
    [
        float.fromhex(s)
        for s in """
    0x1.661ec79f8f3bep+0 -0x1.57bf7808caadep-2 0x1.571ed4aaf883dp+0 -0x1.2bef0a7c06ddbp-2
    0x1.49539f0f010bp+0 -0x1.01eae7f513a67p-2 0x1.3c995b0b80385p+0 -0x1.b31d8a68224e9p-3
    0x1.30d190c8864a5p+0 -0x1.6574f0ac07758p-3 0x1.25e227b0b8eap+0 -0x1.1aa2bc79c81p-3
    0x1.1bb4a4a1a343fp+0 -0x1.a4e76ce8c0e5ep-4 0x1.12358f08ae5bap+0 -0x1.1973c5a611cccp-4
    0x1.0953f419900a7p+0 -0x1.252f438e10c1ep-5 0x1p+0 0x0p+0
    0x1.e608cfd9a47acp-1 0x1.aa5aa5df25984p-5 0x1.ca4b31f026aap-1 0x1.c5e53aa362eb4p-4
    0x1.b2036576afce6p-1 0x1.526e57720db08p-3 0x1.9c2d163a1aa2dp-1 0x1.bc2860d22477p-3
    0x1.886e6037841edp-1 0x1.1058bc8a07ee1p-2 0x1.767dcf5534862p-1 0x1.4043057b6ee09p-2
    """.split()
    ]
).reshape(16, 2)
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_POLY = [float.fromhex(s) for s in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2")]
_POLY.append(float.fromhex("-0x1.ffffef20a4123p-2"))


_T_INVC = np.ascontiguousarray(_TABLE[:, 0])
_T_LOGC = np.ascontiguousarray(_TABLE[:, 1])


def logf(x: np.ndarray) -> np.ndarray:
    """glibc ``logf`` of positive finite float32 values (the sampler's only inputs). The bit
    arithmetic runs on uint32 (wrapping as the C code's does), the polynomial in float64."""
    x = np.asarray(x, np.float32)
    bits = x.view(np.uint32)
    sub = bits < 0x00800000  # subnormal: normalize it
    if sub.any():
        bits = bits.copy()
        bits[sub] = (x[sub] * np.float32(2.0**23)).view(np.uint32) - np.uint32(23 << 23)
    tmp = bits - np.uint32(0x3F330000)
    i = (tmp >> np.uint32(19)) & np.uint32(15)
    k = tmp.view(np.int32) >> np.int32(23)
    z = (bits - (tmp & np.uint32(0xFF800000))).view(np.float32).astype(np.float64)
    r = z * _T_INVC.take(i) - 1
    y0 = _T_LOGC.take(i) + k * _LN2
    r2 = r * r
    y = _POLY[1] * r + _POLY[2]
    y = _POLY[0] * r2 + y
    y = y * r2 + (y0 + r)
    return np.where(x.view(np.uint32) == 0x3F800000, np.float32(0), y.astype(np.float32))


_EXTENDED = np.finfo(np.longdouble).nmant >= 63


def log(x: np.ndarray) -> np.ndarray:
    """libm ``log`` of positive float64 values (correctly rounded except near ties, where
    glibc's 0.52-ulp result is asked for directly)."""
    x = np.asarray(x, np.float64)
    if not _EXTENDED:
        return np.array([math.log(v) for v in x.tolist()], np.float64)
    wide = np.log(x.astype(np.longdouble))
    out = wide.astype(np.float64)
    ulp = np.spacing(np.abs(out)).astype(np.longdouble)
    off = np.abs((wide - out.astype(np.longdouble)) / np.where(ulp == 0, 1, ulp))
    near = np.flatnonzero(off > 0.45)
    if near.size:
        out[near] = [math.log(v) for v in x[near].tolist()]
    return out
