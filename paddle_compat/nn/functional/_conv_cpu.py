"""Convolutions on CPU where XLA's own is slow: few channels.

XLA:CPU runs a convolution through one generic kernel that is fast for wide layers and slow
for narrow ones (a grayscale or RGB input layer, a depthwise layer, LeNet-size nets). Three
lowerings take those cases; everything else stays ``lax.conv_general_dilated``:

- a 1x1 convolution without padding: a matrix product over channels;
- a depthwise convolution (groups == in_channels): a sum over the kernel's taps of a strided
  window of x times a per-channel weight;
- a convolution with few input channels (groups 1): a custom VJP whose forward is a sum of
  broadcast products, one per (tap, input channel), when there are at most 27 of them (an RGB
  3x3 or a one-channel 5x5 layer), and whose input gradient is a sum over taps of one small
  product over output channels each; its weight gradient is XLA's.

Each is checked against XLA's generic convolution in ``tests/test_conv_lowering.py``.
"""

from __future__ import annotations

import functools
import itertools
import math

import jax
import jax.numpy as jnp

# The broadcast forward, measured on the 2-core CPU (batch 16 unless named; terms = input
# channels x taps): 3->8 3x3 16x16 362 -> 66 us, 3->64 3x3 32x32 1148 -> 591 us, 3->16 3x3 s2
# 224x224 14.9 -> 8.1 ms, 1->6 5x5 batch 64 28x28 3.45 -> 0.46 ms. Alone, a few more terms with
# few output channels win too (4->4 3x3 107 -> 26 us), but inside whole programs they lost
# badly (Paddle's exported 8-channel ResNet at batch 16: 0.28 -> 3.1 ms), so the limit is 27.
_MAX_FORWARD_TERMS = 27
# Input gradient alone: LeNet's 6->16 5x5 at batch 64 2.9 -> 0.75 ms, 3->16 3x3 32x32 5.0 ->
# 0.9 ms, 8->32 3x3 56x56 4.4 -> 2.2 ms, 16->64 3x3 32x32 8.8 -> 5.6 ms; from 32 input
# channels, or 7x7 kernels, XLA's own is as fast or faster.
_MAX_CHANNELS, _MAX_TAPS = 16, 25


def lower(x, weight, stride, pads, dilation, groups: int, cl: bool):
    """``x`` convolved with ``weight`` (same dtype; ``pads`` explicit pairs) by a CPU lowering,
    or ``None`` where XLA's own convolution is the faster one."""
    nsp = x.ndim - 2
    c_in = x.shape[-1 if cl else 1]
    kernel = weight.shape[2:]
    if groups == 1 and set(kernel) == {1} and set(pads) == {(0, 0)}:
        return _pointwise(x, weight, stride, cl, nsp)
    if groups > 1 and groups == c_in:
        return _depthwise_taps(x, weight, stride, pads, dilation, cl)
    spatial = x.shape[1:-1] if cl else x.shape[2:]
    if (
        groups == 1
        and nsp <= 2
        and c_in <= _MAX_CHANNELS
        and math.prod(kernel) <= _MAX_TAPS
        and all(isinstance(n, int) for n in spatial)  # not a symbolic size (jit.save)
    ):
        return _few_channels(x, weight, stride, pads, dilation, cl)
    return None


def _pointwise(x, weight, stride, cl, nsp):
    """A 1x1 convolution without padding as a matrix product over channels (strides pick every
    s-th position first): ``x[n*hw, c] @ w.T`` channels-last, ``w @ x[n, c, hw]`` (batched)
    channels-first. On CPU XLA runs it with no layout transposes: EfficientNet-B0's eager
    forward measured 36 -> 29 ms, its first compile 5.5 -> 4.3 s; as a matmul rather than an
    einsum the backward compiles 2-3x faster (no transposes around the products)."""
    if any(s != 1 for s in stride):
        sp = slice(1, 1 + nsp) if cl else slice(2, 2 + nsp)
        window = [slice(None)] * x.ndim
        window[sp] = [slice(None, None, s) for s in stride]
        x = x[tuple(window)]
    w = weight.reshape(weight.shape[:2])
    o, c = w.shape
    if cl:  # explicit sizes: an empty batch has no -1 to infer
        rows = math.prod(x.shape[:-1])
        return jnp.matmul(x.reshape(rows, c), w.T).reshape(x.shape[:-1] + (o,))
    n = x.shape[0]
    y = jnp.matmul(w, x.reshape(n, c, math.prod(x.shape[2:])))
    return y.reshape((n, o) + x.shape[2:])


def _spatial_axes(x, cl) -> list[int]:
    return list(range(1, x.ndim - 1)) if cl else list(range(2, x.ndim))


def _tap_windows(x, kernel, stride, pads, dilation, cl):
    """``(tap, window)`` for each of the kernel's taps: the strided slice of the padded ``x``
    that the tap multiplies, one per output position. (``lax`` calls, not numpy-style indexing:
    a 5x5 kernel is 25 windows, and the lighter calls halve the time to trace it.)"""
    sp = _spatial_axes(x, cl)
    widths = [(0, 0, 0)] * x.ndim
    for a, (lo, hi) in zip(sp, pads):
        widths[a] = (lo, hi, 0)
    x = jax.lax.pad(x, jnp.zeros((), x.dtype), widths)
    out = [
        (x.shape[a] - d * (k - 1) - 1) // s + 1 for a, k, s, d in zip(sp, kernel, stride, dilation)
    ]
    for tap in itertools.product(*(range(k) for k in kernel)):
        start, limit, step = [0] * x.ndim, list(x.shape), [1] * x.ndim
        for a, i, o, s, d in zip(sp, tap, out, stride, dilation):
            start[a], limit[a], step[a] = i * d, i * d + (o - 1) * s + 1, s
        yield tap, jax.lax.slice(x, start, limit, step)


def _channel_shape(x, cl, n: int) -> list[int]:
    shape = [1] * x.ndim
    shape[-1 if cl else 1] = n
    return shape


def _depthwise_taps(x, weight, stride, pads, dilation, cl):
    """A depthwise convolution (groups == in_channels) as a sum over the kernel's taps of a
    strided window of x times a per-channel weight. XLA's CPU convolution is slow for grouped
    convolutions (measured, 96 channels 112x112 3x3: 35 ms forward, 55 ms with backward; this
    form 0.5 ms and 14 ms)."""
    ch = x.ndim - 1 if cl else 1
    mult = weight.shape[0] // x.shape[ch]
    if mult > 1:  # output channel o reads input channel o // mult
        x = jnp.repeat(x, mult, axis=ch)
    o = weight.shape[0]
    taps = jax.lax.reshape(weight, (o, math.prod(weight.shape[2:])))  # [O, taps], row-major
    y = None
    windows = _tap_windows(x, weight.shape[2:], stride, pads, dilation, cl)
    for t, (_, window) in enumerate(windows):
        w = jax.lax.reshape(jax.lax.slice(taps, (0, t), (o, t + 1)), (o,))
        term = jax.lax.mul(window, jax.lax.broadcast_in_dim(w, window.shape, (ch,)))
        y = term if y is None else jax.lax.add(y, term)
    return y


def _broadcast_terms(x, weight, stride, pads, dilation, cl):
    """The convolution as a sum of one broadcast product per (tap, input channel): a single
    fused loop, for a kernel of few taps over few channels."""
    ch = x.ndim - 1 if cl else 1
    shape = _channel_shape(x, cl, weight.shape[0])
    y = None
    for tap, window in _tap_windows(x, weight.shape[2:], stride, pads, dilation, cl):
        for c in range(x.shape[ch]):
            plane = jax.lax.slice_in_dim(window, c, c + 1, axis=ch)
            term = plane * weight[(slice(None), c) + tap].reshape(shape)
            y = term if y is None else y + term
    return y


def _lax_conv(x, weight, stride, pads, dilation, cl):
    from ._conv import _dims  # (``_conv`` imports this module)

    return jax.lax.conv_general_dilated(
        x, weight, stride, pads, rhs_dilation=dilation, dimension_numbers=_dims(x.ndim - 2, cl)
    )


def _few_channels_forward(x, weight, stride, pads, dilation, cl):
    if x.shape[-1 if cl else 1] * math.prod(weight.shape[2:]) <= _MAX_FORWARD_TERMS:
        return _broadcast_terms(x, weight, stride, pads, dilation, cl)
    return _lax_conv(x, weight, stride, pads, dilation, cl)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4, 5))
def _few_channels(x, weight, stride, pads, dilation, cl):
    """A convolution (groups 1) of few input channels; see the module docstring."""
    return _few_channels_forward(x, weight, stride, pads, dilation, cl)


def _few_channels_fwd(x, weight, stride, pads, dilation, cl):
    return _few_channels_forward(x, weight, stride, pads, dilation, cl), (x, weight)


def _few_channels_bwd(stride, pads, dilation, cl, res, g):
    x, weight = res
    _, weight_vjp = jax.vjp(lambda w: _lax_conv(x, w, stride, pads, dilation, cl), weight)
    sp = _spatial_axes(x, cl)
    padded = [x.shape[a] + lo + hi for a, (lo, hi) in zip(sp, pads)]
    spec = "...o,oc->...c" if cl else "no...,oc->nc..."
    zero = jnp.zeros((), g.dtype)
    dx = None
    for tap in itertools.product(*(range(k) for k in weight.shape[2:])):
        part = jnp.einsum(spec, g, weight[(slice(None), slice(None)) + tap])
        config = [(0, 0, 0)] * x.ndim
        for a, i, d, s, n in zip(sp, tap, dilation, stride, padded):
            last = i * d + s * (g.shape[a] - 1)  # where this tap's last output reads
            config[a] = (i * d, n - 1 - last, s - 1)
        part = jax.lax.pad(part, zero, config)
        dx = part if dx is None else dx + part
    crop = [slice(None)] * x.ndim
    for a, (lo, _) in zip(sp, pads):
        crop[a] = slice(lo, lo + x.shape[a])
    return dx[tuple(crop)], weight_vjp(g)[0]


_few_channels.defvjp(_few_channels_fwd, _few_channels_bwd)
