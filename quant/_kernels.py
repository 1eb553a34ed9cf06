"""The quantization kernels: plain functions over jax arrays registered as private ops (no
``paddle.*`` names, no Tensor methods), shared by quanters, observers, converted layers and the
weight-only functions."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from paddle_compat._core.seams import op

_PRIVATE = dict(namespaces=(), method=None)


def qrange(bits: int) -> tuple[int, int]:
    """(qmin, qmax) of signed ``bits``-bit integers: (-2^(b-1), 2^(b-1) - 1)."""
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def round_away(x):
    """Round half away from zero (Paddle's fake-quant kernels)."""
    return jnp.sign(x) * jnp.floor(jnp.abs(x) + 0.5)


def _acc_dtype(dtype):
    return jnp.float32 if jnp.dtype(dtype).itemsize < 4 else dtype


# -- QAT: fake quantization with a straight-through gradient ----------------------------------
@op("_quant_fake_qdq", tensors=("x", "scale"), **_PRIVATE)
def fake_qdq(x, scale, bit_length=8):
    """Fake quant-dequant with an abs-max scale: round(clip(x / s, -1, 1) * bnt) * s / bnt
    (halves away from zero); the gradient passes straight through to ``x``."""
    bnt = float((1 << (bit_length - 1)) - 1)
    s = jax.lax.stop_gradient(scale).astype(_acc_dtype(x.dtype)).reshape(())
    xa = x.astype(s.dtype)
    s_safe = jnp.where(s > 0, s, jnp.ones_like(s))
    q = round_away(jnp.clip(xa, -s, s) / s_safe * bnt)
    y = jnp.where(s > 0, q * s / bnt, jnp.zeros_like(xa)).astype(x.dtype)
    # forward: exactly y (x - x == 0); backward: identity (straight-through estimator)
    return x - jax.lax.stop_gradient(x) + jax.lax.stop_gradient(y)


@op("_quant_ma_absmax_update", tensors=("x", "state", "accum"), differentiable=False, **_PRIVATE)
def ma_absmax_update(x, state, accum, moving_rate):
    """Moving-average abs-max: state = r * state + 1, accum = r * accum + max|x|,
    scale = accum / state."""
    r = jnp.asarray(moving_rate, state.dtype)
    absmax = jnp.max(jnp.abs(x)).astype(state.dtype) if x.size else jnp.zeros((), state.dtype)
    new_state = r * state + 1
    new_accum = r * accum + absmax
    return new_accum / new_state, new_state, new_accum


# -- PTQ observers ----------------------------------------------------------------------------
@op("_quant_absmax_update", tensors=("cur", "x"), differentiable=False, **_PRIVATE)
def absmax_update(cur, x):
    """max(cur, max|x|) as a 0-d float32."""
    m = jnp.max(jnp.abs(x)).astype(jnp.float32) if x.size else jnp.zeros((), jnp.float32)
    return jnp.maximum(cur.astype(jnp.float32), m)


@op("_quant_group_absmax", tensors=("w",), differentiable=False, **_PRIVATE)
def group_absmax(w, group_size):
    """Abs-max of a [k, n] weight per group of ``group_size`` rows: shape [ceil(k/gs), n]
    (one group, [1, n], when ``group_size`` is -1 or k <= group_size)."""
    k = w.shape[0]
    wa = jnp.abs(w.reshape(k, -1)).astype(jnp.float32)
    if group_size <= 0 or k <= group_size:
        return jnp.max(wa, axis=0, keepdims=True)
    g = -(-k // group_size)
    pad = g * group_size - k
    if pad:
        wa = jnp.pad(wa, ((0, pad), (0, 0)))
    return jnp.max(wa.reshape(g, group_size, -1), axis=1)


# -- converted layers: linear quantize / dequantize -------------------------------------------
def _bcast_scale(x, scales, quant_axis):
    """Scales shaped to broadcast against ``x``: per tensor (size 1), per channel along
    ``quant_axis`` (1-D) or per group of rows along axis 0 (2-D [groups, n])."""
    s = scales.astype(jnp.float32)
    if s.size == 1:
        return s.reshape(())
    if s.ndim >= 2:  # group-wise over axis 0
        g = s.shape[0]
        rows = x.shape[0]
        gs = -(-rows // g)
        s = jnp.repeat(s, gs, axis=0)[:rows]
        return s.reshape(s.shape[:1] + x.shape[1:])
    axis = quant_axis if quant_axis is not None and quant_axis >= 0 else x.ndim - 1
    shape = [1] * x.ndim
    shape[axis] = s.shape[0]
    return s.reshape(shape)


@op("_quant_linear_quant", tensors=("x", "scales", "zero_point"), differentiable=False, **_PRIVATE)
def linear_quant(x, scales, zero_point=None, bit_length=8, quant_axis=None):
    """x -> clip(round(x / s * bnt) + zp, qmin, qmax) (halves to even), as float."""
    qmin, qmax = qrange(bit_length)
    s = _bcast_scale(x, scales, quant_axis)
    q = jnp.round(x.astype(jnp.float32) / s * qmax)
    if zero_point is not None:
        q = q + _bcast_scale(x, zero_point, quant_axis)
    return jnp.clip(q, qmin, qmax).astype(x.dtype)


@op("_quant_linear_dequant", tensors=("q", "scales", "zero_point"), **_PRIVATE)
def linear_dequant(
    q, scales, zero_point=None, bit_length=8, quant_axis=None, out_dtype=None, packed_rows=None
):
    """(q - zp) * s / bnt; ``q`` may be int8 (or int4 packed two per byte along axis 0 when
    ``packed_rows`` is the unpacked row count)."""
    _, qmax = qrange(bit_length)
    if packed_rows is not None:
        q = unpack_int4(q, packed_rows)
    dt = out_dtype or (q.dtype if jnp.issubdtype(q.dtype, jnp.floating) else jnp.float32)
    qf = q.astype(jnp.float32)
    if zero_point is not None:
        qf = qf - _bcast_scale(qf, zero_point, quant_axis)
    return (qf * _bcast_scale(qf, scales, quant_axis) / qmax).astype(dt)


# -- int4 packing (two signed nibbles per int8 byte, along axis 0) ----------------------------
def pack_int4(q):
    """int values in [-8, 7], shape [r, ...] -> int8 [ceil(r/2), ...]: row 2i in the low nibble,
    row 2i+1 in the high nibble."""
    q = q.astype(jnp.int8)
    if q.shape[0] % 2:
        q = jnp.concatenate([q, jnp.zeros((1,) + q.shape[1:], jnp.int8)], axis=0)
    lo = q[0::2] & jnp.int8(0x0F)
    hi = jnp.left_shift(q[1::2], jnp.int8(4))
    return (lo | hi).astype(jnp.int8)


def unpack_int4(p, rows: int):
    """Inverse of ``pack_int4``: int8 [ceil(r/2), ...] -> int8 [r, ...] (sign-extended)."""
    lo = jnp.right_shift(jnp.left_shift(p, jnp.int8(4)), jnp.int8(4))
    hi = jnp.right_shift(p, jnp.int8(4))
    q = jnp.stack([lo, hi], axis=1).reshape((p.shape[0] * 2,) + p.shape[1:])
    return q[:rows]
