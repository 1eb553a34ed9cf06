"""Convolutions on CPU where XLA's own is slow: few channels, small maps, groups, 3-D.

XLA:CPU runs a convolution through one generic kernel that is fast for wide layers and slow
for narrow ones (a grayscale or RGB input layer, a depthwise layer, LeNet-size nets), and far
slower still where a map is smaller than the kernel (a ResNet's last stage at CIFAR or 64x64
input), and slowest of all for grouped convolutions (40-130x) and the input gradient of
strided 3-D ones (50x). Six lowerings take those cases; everything else stays
``lax.conv_general_dilated``:

- a 1x1 convolution without padding: a matrix product over channels;
- a depthwise convolution (groups == in_channels): a sum over the kernel's taps of a strided
  window of x times a per-channel weight, with its own gradients (``_depthwise_bwd``: one
  variadic reduce for the weight, a flipped tap sum for the input);
- a convolution with few input channels (groups 1): a custom VJP whose forward is a sum of
  broadcast products, one per (tap, input channel), when there are at most 27 of them (an RGB
  3x3 or a one-channel 5x5 layer), and whose input gradient is a sum over taps of one small
  product over output channels each; its weight gradient is XLA's. Not inside a larger
  program that also differentiates it (a to_static train step, a deferred segment recording
  gradients; ``conv1d``/``conv2d`` are ``train_form`` ops): there it stays XLA's convolution,
  as XLA copies the products into the loops of the gradient and of a following pool's strided
  windows (a CIFAR CNN's compiled train step, 3->8 and 8->16 3x3 convs with 2x2 pools at batch
  64: 12.9-14.3 ms with them, 7.6-9.7 ms with XLA's; a VGG-style block 62 -> 57 ms). Eager
  kernels and forward-only programs (Paddle's exported CNNs: 2-4x faster) keep them;
- a convolution (groups 1) whose input or output is smaller than the kernel along some axis, or
  whose output has few positions over a wide contraction: the kernel's windows stacked on a
  tap axis and contracted with the weight in one matrix product ("im2col"); its gradients are
  that product's and the windows' (pads and slices), with no convolution left in them;
- a grouped convolution (1 < groups < in_channels): the same windows with the groups as the
  product's batch axis, up to 4096 output positions, else one XLA convolution per group;
- any other 3-D convolution: XLA's forward and weight gradient, its input gradient by col2im
  (the transposed convolution's lowering below).

Each is checked against XLA's generic convolution in ``tests/test_conv_lowering.py``.
"""

from __future__ import annotations

import functools
import itertools
import math

import jax
import jax.numpy as jnp

from ..._core import trace_state
from ..._core.dtype import HALF

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
# Windows and one matrix product, forward + both gradients, measured on the 2-core CPU (ms, XLA's
# conv -> this): a map smaller than the kernel, 8x512->512 3x3 at 2x2 137 -> 3.1, 16x256 at 2x2
# 22 -> 1.7, 8x512 at 1x1 10.5 -> 1.2; an output smaller than the kernel, 8x256->512 s2 4x4 (its
# input gradient) 19 -> 1.4; few positions over a wide contraction, 1x512 7x7 14 -> 5.2,
# 1x256 14x14 6.3 -> 5.0, 4x256 7x7 6.4 -> 4.4, 8x256 4x4 5.7 -> 5.0. From about 400 positions
# XLA's is as fast or faster (8x512 7x7 35 vs 33, 8x256 14x14 30 vs 47), and with narrow
# contractions too (1x64 7x7 0.21 vs 0.26).
_MAX_PATCH_POSITIONS, _MIN_PATCH_TERMS = 256, 1024
# Grouped convolutions (groups < channels), forward + both gradients, 3x3 (ms, XLA's grouped
# conv -> one XLA conv per group -> windows with the groups as the product's batch axis):
# 8x64 g4 at 32x32 210 -> 5.5 -> 32; 8x64 g16 at 32x32 643 -> 13.8 -> 39; 8x128 g32 at 16x16
# 604 -> 6.7 -> 4.2; 1x128 g32 at 56x56 937 -> 16.6 -> 7.2; 8x256 g32 s2 at 8x8 80 -> 1.1 ->
# 0.65. Windows win up to about 4096 output positions (one op, where a split is one per group).
_MAX_GROUPED_WINDOW_POSITIONS = 4096
# 3-D convolutions otherwise keep XLA's forward and weight gradient but take the input gradient
# as col2im: XLA's input gradient of a strided 3-D convolution is its slow path (2x32->64
# 3x3x3 s2 at 8x16x16: 52.6 -> 1.0 ms; stride 1, 2x16->32 at 16x32x32: 47 -> 23 ms). In 2-D
# XLA's is as fast (8x64->128 s2 at 16x16: 0.84 vs 0.90 ms), so 2-D keeps it.


def lower(x, weight, stride, pads, dilation, groups: int, cl: bool):
    """``x`` convolved with ``weight`` (same dtype; ``pads`` explicit pairs) by a CPU lowering,
    or ``None`` where XLA's own convolution is the faster one."""
    how = route(x.shape, weight.shape, stride, pads, dilation, groups, cl)
    if how == "pointwise":
        return _pointwise(x, weight, stride, cl, x.ndim - 2)
    if how == "depthwise":
        return _depthwise_taps(x, weight, stride, pads, dilation, cl)
    if how == "few_channels":
        if trace_state.in_train_program():
            return None  # in a differentiated program: XLA's (see the module docstring)
        return _few_channels(x, weight, stride, pads, dilation, cl)
    if how == "windows":
        return _windows_product(x, weight, stride, pads, dilation, cl)
    if how == "grouped_windows":
        return _windows_product(x, weight, stride, pads, dilation, cl, groups)
    if how == "grouped_split":  # one XLA convolution per group
        conv = functools.partial(_lax_conv, stride=stride, pads=pads, dilation=dilation, cl=cl)
        return _per_group(conv, x, weight, groups, cl)
    if how == "col2im_input_grad":
        args = (tuple(stride), tuple(map(tuple, pads)), tuple(dilation), cl)
        return _col2im_input_grad(x, weight, *args)
    return None


def route(x_shape, w_shape, stride, pads, dilation, groups: int, cl: bool) -> str | None:
    """Which lowering a convolution of these shapes takes: ``"pointwise"``, ``"depthwise"``,
    ``"grouped_windows"``, ``"grouped_split"``, ``"few_channels"``, ``"windows"``,
    ``"col2im_input_grad"``, or ``None`` (XLA's own)."""
    nsp = len(x_shape) - 2
    c_in = x_shape[-1 if cl else 1]
    kernel = w_shape[2:]
    if groups == 1 and set(kernel) == {1} and set(pads) == {(0, 0)}:
        return "pointwise"
    if groups > 1 and groups == c_in:
        return "depthwise"
    spatial = x_shape[1:-1] if cl else x_shape[2:]
    if not all(isinstance(n, int) for n in spatial):
        return None  # a symbolic size (jit.save)
    extent = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    out = [(n + lo + hi - e) // s + 1 for n, (lo, hi), e, s in zip(spatial, pads, extent, stride)]
    positions = x_shape[0] * math.prod(out) if isinstance(x_shape[0], int) else None
    if groups > 1:  # XLA's grouped convolution is 40-130x slower than either of these
        if positions is not None and positions <= _MAX_GROUPED_WINDOW_POSITIONS:
            return "grouped_windows"
        return "grouped_split"
    if nsp <= 2 and c_in <= _MAX_CHANNELS and math.prod(kernel) <= _MAX_TAPS:
        return "few_channels"
    if any(n < e for n, e in zip(spatial, extent)) or any(o < e for o, e in zip(out, extent)):
        return "windows"  # a map smaller than the kernel: XLA's slowest case
    if positions is not None and positions <= _MAX_PATCH_POSITIONS:
        if c_in * math.prod(kernel) >= _MIN_PATCH_TERMS:
            return "windows"
    if nsp == 3:
        return "col2im_input_grad"
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


def spatial_axes(x, cl) -> list[int]:
    return list(range(1, x.ndim - 1)) if cl else list(range(2, x.ndim))


def tap_windows(x, kernel, stride, pads, dilation, cl, fill=0):
    """``(tap, window)`` for each of the kernel's taps: the strided slice of ``x`` padded with
    ``fill`` that the tap reads, one per output position. (``lax`` calls, not numpy-style
    indexing: a 5x5 kernel is 25 windows, and the lighter calls halve the time to trace it.)"""
    sp = spatial_axes(x, cl)
    widths = [(0, 0, 0)] * x.ndim
    for a, (lo, hi) in zip(sp, pads):
        widths[a] = (lo, hi, 0)
    x = jax.lax.pad(x, jnp.asarray(fill, x.dtype), widths)
    out = [
        (x.shape[a] - d * (k - 1) - 1) // s + 1 for a, k, s, d in zip(sp, kernel, stride, dilation)
    ]
    for tap in itertools.product(*(range(k) for k in kernel)):
        start, limit, step = [0] * x.ndim, list(x.shape), [1] * x.ndim
        for a, i, o, s, d in zip(sp, tap, out, stride, dilation):
            start[a], limit[a], step[a] = i * d, i * d + (o - 1) * s + 1, s
        yield tap, jax.lax.slice(x, start, limit, step)


def place_tap(part, tap, axes, stride, dilation, lows, sizes):
    """A tap's values at the output positions (``part``) put back where the tap reads: along
    each of ``axes``, output position o goes to ``i * d - lo + o * s`` of an axis of ``sizes``
    (tap index i, dilation d, stride s, ``lows`` lo); zeros elsewhere (the transpose of a
    ``tap_windows`` window)."""
    config = [(0, 0, 0)] * part.ndim
    for a, i, s, d, lo, n in zip(axes, tap, stride, dilation, lows, sizes):
        first = i * d - lo  # where the tap's first output lands
        config[a] = (first, n - 1 - first - (part.shape[a] - 1) * s, s - 1)
    return jax.lax.pad(part, jnp.zeros((), part.dtype), config)


def _channel_shape(x, cl, n: int) -> list[int]:
    shape = [1] * x.ndim
    shape[-1 if cl else 1] = n
    return shape


def _depthwise_taps(x, weight, stride, pads, dilation, cl):
    """A depthwise convolution (groups == in_channels) as a sum over the kernel's taps of a
    strided window of x times a per-channel weight. XLA's CPU convolution is slow for grouped
    convolutions (measured, 96 channels 112x112 3x3: 35 ms forward, 55 ms with backward; this
    form 0.5 ms and, with ``_depthwise_bwd``'s gradients, 2.3 ms)."""
    ch = x.ndim - 1 if cl else 1
    mult = weight.shape[0] // x.shape[ch]
    if mult > 1:  # output channel o reads input channel o // mult
        x = jnp.repeat(x, mult, axis=ch)
    return _depthwise(x, weight, tuple(stride), tuple(map(tuple, pads)), tuple(dilation), cl)


def _tap_sum(x, weight, stride, pads, dilation, cl):
    """Sum over the kernel's taps of each tap's window of ``x`` times its per-channel weight
    (``weight`` [C, 1, *kernel], one output channel per channel of ``x``)."""
    ch = x.ndim - 1 if cl else 1
    o = weight.shape[0]
    taps = jax.lax.reshape(weight, (o, math.prod(weight.shape[2:])))  # [O, taps], row-major
    y = None
    windows = tap_windows(x, weight.shape[2:], stride, pads, dilation, cl)
    for t, (_, window) in enumerate(windows):
        w = jax.lax.reshape(jax.lax.slice(taps, (0, t), (o, t + 1)), (o,))
        term = jax.lax.mul(window, jax.lax.broadcast_in_dim(w, window.shape, (ch,)))
        y = term if y is None else jax.lax.add(y, term)
    return y


def _conv_vjp(forward, backward):
    """``forward(x, weight, stride, pads, dilation, cl)`` as a custom VJP whose
    ``backward(stride, pads, dilation, cl, (x, weight), g)`` gives both gradients."""
    fn = jax.custom_vjp(forward, nondiff_argnums=(2, 3, 4, 5))
    fn.defvjp(lambda x, weight, *geometry: (forward(x, weight, *geometry), (x, weight)), backward)
    return fn


def _depthwise_bwd(stride, pads, dilation, cl, res, g):
    """The weight gradient as ONE variadic reduce of every tap's window times ``g`` (JAX's
    transpose is one reduction per tap: 25 loops for a 5x5 kernel), the input gradient as the
    same tap sum over ``g`` dilated by the stride and padded, with the kernel flipped (JAX's:
    one padded copy per tap). EfficientNet-B0's depthwise layers, forward + backward at batch
    1 (ms, before -> after): 240ch 28x28 5x5 3.1 -> 0.7, 144ch 56x56 5x5 19.3 -> 1.4, 96ch
    112x112 3x3 18.3 -> 2.3, 144ch 56x56 5x5 s2 4.7 -> 1.1; compiled 3x faster (52 -> 6
    fusions for a 5x5). Float16/bfloat16 products are summed in float32."""
    x, weight = res
    kernel = weight.shape[2:]
    sp = spatial_axes(x, cl)
    acc = jnp.float32 if x.dtype in HALF else x.dtype
    prods = [
        (window * g).astype(acc) for _, window in tap_windows(x, kernel, stride, pads, dilation, cl)
    ]
    zero = jnp.zeros((), acc)
    axes = tuple(a for a in range(x.ndim) if a != (x.ndim - 1 if cl else 1))
    sums = jax.lax.reduce(prods, [zero] * len(prods), _add_each, axes)
    d_weight = jnp.stack(sums, axis=1).reshape(weight.shape).astype(weight.dtype)
    config = [(0, 0, 0)] * g.ndim
    for a, k, s, d, (lo, _) in zip(sp, kernel, stride, dilation, pads):
        extent = d * (k - 1) + 1
        config[a] = (extent - 1 - lo, x.shape[a] - (g.shape[a] - 1) * s - 1 + lo, s - 1)
    spread = jax.lax.pad(g, jnp.zeros((), g.dtype), config)
    flipped = jax.lax.rev(weight, tuple(range(2, weight.ndim)))
    no_pads = ((0, 0),) * len(sp)
    d_x = _tap_sum(spread, flipped, (1,) * len(sp), no_pads, dilation, cl)
    return d_x, d_weight


def _add_each(a, b):
    return [u + v for u, v in zip(a, b)]


_depthwise = _conv_vjp(_tap_sum, _depthwise_bwd)


def _windows_product(x, weight, stride, pads, dilation, cl, groups: int = 1):
    """The convolution as one matrix product: the kernel's windows of ``x`` stacked on a tap
    axis, [.., G, C/G, taps], contracted over (channel, tap) with the weight laid out
    [G, O/G, C/G, taps], the groups G as the product's batch axis (one group: the same
    program as without it, measured)."""
    windows = [w for _, w in tap_windows(x, weight.shape[2:], stride, pads, dilation, cl)]
    o, cg = weight.shape[:2]
    g, taps = groups, len(windows)
    w = jax.lax.reshape(weight, (g, o // g, cg, taps))
    if cl:  # [N, *out, G, C/G, taps] -> [G, N, *out, O/G] -> [N, *out, O]
        p = jnp.stack(windows, axis=-1)
        p = jax.lax.reshape(p, p.shape[:-2] + (g, cg, taps))
        nd = p.ndim
        y = jax.lax.dot_general(p, w, (((nd - 2, nd - 1), (2, 3)), ((nd - 3,), (0,))))
        y = jnp.moveaxis(y, 0, -2)
        return jax.lax.reshape(y, y.shape[:-2] + (o,))
    p = jnp.stack(windows, axis=2)  # [N, C, taps, *out] -> [N, G, C/G, taps, *out]
    p = jax.lax.reshape(p, (p.shape[0], g, cg, taps) + p.shape[3:])
    y = jax.lax.dot_general(w, p, (((2, 3), (2, 3)), ((0,), (1,))))  # [G, O/G, N, *out]
    y = jnp.moveaxis(y, 2, 0)
    return jax.lax.reshape(y, (y.shape[0], o) + y.shape[3:])


def _per_group(fn, x, weight, groups: int, cl: bool):
    """``fn(x_g, weight_g)`` for each group (a block of ``x``'s channels and of ``weight``'s
    first axis), concatenated on the channel axis."""
    ch = x.ndim - 1 if cl else 1
    pairs = zip(jnp.split(x, groups, axis=ch), jnp.split(weight, groups, axis=0))
    return jnp.concatenate([fn(a, b) for a, b in pairs], axis=ch)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4, 5))
def _col2im_input_grad(x, weight, stride, pads, dilation, cl):
    """XLA's convolution and weight gradient, with the input gradient as the transposed
    convolution of the output gradient by col2im (``_col2im``)."""
    return _lax_conv(x, weight, stride, pads, dilation, cl)


def _col2im_input_grad_fwd(x, weight, stride, pads, dilation, cl):
    return _lax_conv(x, weight, stride, pads, dilation, cl), (x, weight)


def _col2im_input_grad_bwd(stride, pads, dilation, cl, res, g):
    x, weight = res
    sizes = list(x.shape[1:-1] if cl else x.shape[2:])
    dx = _col2im(g, weight, stride, pads, dilation, sizes, cl)
    _, weight_vjp = jax.vjp(lambda w: _lax_conv(x, w, stride, pads, dilation, cl), weight)
    return dx, weight_vjp(g)[0]


_col2im_input_grad.defvjp(_col2im_input_grad_fwd, _col2im_input_grad_bwd)


def lower_transpose(x, weight, stride, pads, opad, out_sizes, dilation, groups: int, cl: bool):
    """The transposed convolution of ``x`` by ``weight`` ([in, out/g, *k]; Paddle's ``pads``
    and ``output_padding``; ``out_sizes`` the output's spatial sizes) by a CPU lowering, or
    ``None`` for XLA's convolution of the stride-dilated input. Groups 1 unless named; ms for
    forward / input grad / weight grad on the 2-core CPU, XLA's -> this:

    - groups > 1 with a stride: one transposed convolution per group, by these rules (forward
      + backward, 8x64->32 g4 4x4 s2 at 16x16: 18.4 -> 7.9, Paddle 6.1);
    - an input smaller than the kernel: col2im (one product over input channels for every
      (output channel, tap), each tap's plane placed by ``lax.pad`` and summed) for the
      forward and, by its derivative, both gradients (8x512->256 4x4 s2 at 2x2: 31 / 35 / 41
      -> 4.5 / 6.8 / 5.6; 1x512 4x4 at 1x1: 8.0 / 27 / 11 -> 0.9 / 1.0 / 2.7);
    - stride 1 (any groups): a plain convolution with the flipped kernel, by ``lower``'s rules;
    - strided: XLA's forward, the input gradient from ``lower`` (a plain strided convolution
      of the output gradient), the weight gradient from col2im: XLA's weight gradient of an
      input-dilated convolution is its slow path (8x64->32 4x4 s2 at 16x16: 36 -> 9.8;
      8x128->64 at 8x8: 32 -> 4.7; 8x64->32 2x2 s2: 10.3 -> 1.9). col2im's own input gradient
      is slower there (2.9 -> 11.5)."""
    from ._conv import transpose_pads, transposed_kernel  # (``_conv`` imports this module)

    sp = spatial_axes(x, cl)
    if not all(isinstance(x.shape[a], int) for a in sp):
        return None  # a symbolic size (jit.save)
    kernel = weight.shape[2:]
    if groups == 1 and any(x.shape[a] < d * (k - 1) + 1 for a, k, d in zip(sp, kernel, dilation)):
        return _col2im(x, weight, stride, pads, dilation, out_sizes, cl)
    if all(s == 1 for s in stride):
        conv_pads = transpose_pads(pads, dilation, kernel, opad)
        if all(lo >= 0 and hi >= 0 for lo, hi in conv_pads):
            w = transposed_kernel(weight, groups)
            return lower(x, w, stride, conv_pads, dilation, groups, cl)
        return None
    if groups != 1:  # one transposed convolution per group (XLA's grouped one is its slowest)
        one = functools.partial(
            lower_transpose,
            stride=stride,
            pads=pads,
            opad=opad,
            out_sizes=out_sizes,
            dilation=dilation,
            groups=1,
            cl=cl,
        )
        return _per_group(one, x, weight, groups, cl)
    return _strided_transpose(
        x, weight, tuple(stride), tuple(map(tuple, pads)), tuple(opad), tuple(dilation), cl
    )


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3, 4, 5, 6))
def _strided_transpose(x, weight, stride, pads, opad, dilation, cl):
    from ._conv import transpose_by_dilation

    return transpose_by_dilation(x, weight, stride, pads, opad, dilation, 1, cl)


def _strided_transpose_fwd(x, weight, stride, pads, opad, dilation, cl):
    return _strided_transpose(x, weight, stride, pads, opad, dilation, cl), (x, weight)


def _strided_transpose_bwd(stride, pads, opad, dilation, cl, res, g):
    x, weight = res
    sp = spatial_axes(x, cl)
    # dx[c, h] = sum over (o, tap i) of g[o, s*h + d*i - lo] * w[c, o, i]: a plain convolution
    # of g by w read as [out=c, in=o, *k], padded (lo, whatever gives x's size)
    dx_pads = []
    for a, s, d, k, (lo, _) in zip(sp, stride, dilation, weight.shape[2:], pads):
        dx_pads.append((lo, (x.shape[a] - 1) * s + d * (k - 1) + 1 - g.shape[a] - lo))
    dx = None
    if all(lo >= 0 and hi >= 0 for lo, hi in dx_pads):
        dx = lower(g, weight, stride, dx_pads, dilation, 1, cl)
    if dx is None:
        dx = _lax_conv(g, weight, stride, dx_pads, dilation, cl)
    out_sizes = [g.shape[a] for a in sp]
    _, weight_vjp = jax.vjp(lambda w: _col2im(x, w, stride, pads, dilation, out_sizes, cl), weight)
    return dx, weight_vjp(g)[0]


_strided_transpose.defvjp(_strided_transpose_fwd, _strided_transpose_bwd)


def _col2im(x, weight, stride, pads, dilation, out_sizes, cl):
    """The transposed convolution (groups 1) as one product over input channels for every
    (output channel, tap), each tap's plane placed at its offset and stride and summed."""
    c, o = weight.shape[:2]
    kernel = weight.shape[2:]
    taps = math.prod(kernel)
    w = jax.lax.reshape(weight, (c, o * taps))
    if cl:  # [N, *in, C] . [C, O*taps] -> [N, *in, O, taps]
        parts = jax.lax.dot_general(x, w, (((x.ndim - 1,), (0,)), ((), ())))
        parts = jax.lax.reshape(parts, x.shape[:-1] + (o, taps))
    else:  # [C, O*taps] . [N, C, *in] -> [O, taps, N, *in]
        parts = jax.lax.dot_general(w, x, (((0,), (1,)), ((), ())))
        parts = jax.lax.reshape(parts, (o, taps, x.shape[0]) + x.shape[2:])
    lows = [lo for lo, _ in pads]
    y = None
    for t, tap in enumerate(itertools.product(*(range(k) for k in kernel))):
        if cl:
            part = jax.lax.index_in_dim(parts, t, axis=parts.ndim - 1, keepdims=False)
            axes = range(1, part.ndim - 1)
        else:
            part = jax.lax.index_in_dim(parts, t, axis=1, keepdims=False)
            axes = range(2, part.ndim)
        part = place_tap(part, tap, axes, stride, dilation, lows, out_sizes)
        y = part if y is None else y + part
    return y if cl else jnp.moveaxis(y, 0, 1)


def _broadcast_terms(x, weight, stride, pads, dilation, cl):
    """The convolution as a sum of one broadcast product per (tap, input channel): a single
    fused loop, for a kernel of few taps over few channels."""
    ch = x.ndim - 1 if cl else 1
    shape = _channel_shape(x, cl, weight.shape[0])
    y = None
    for tap, window in tap_windows(x, weight.shape[2:], stride, pads, dilation, cl):
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


def _few_channels_bwd(stride, pads, dilation, cl, res, g):
    x, weight = res
    _, weight_vjp = jax.vjp(lambda w: _lax_conv(x, w, stride, pads, dilation, cl), weight)
    sp = spatial_axes(x, cl)
    padded = [x.shape[a] + lo + hi for a, (lo, hi) in zip(sp, pads)]
    spec = "...o,oc->...c" if cl else "no...,oc->nc..."
    dx = None
    for tap in itertools.product(*(range(k) for k in weight.shape[2:])):
        part = jnp.einsum(spec, g, weight[(slice(None), slice(None)) + tap])
        part = place_tap(part, tap, sp, stride, dilation, [0] * len(sp), padded)
        dx = part if dx is None else dx + part
    crop = [slice(None)] * x.ndim
    for a, (lo, _) in zip(sp, pads):
        crop[a] = slice(lo, lo + x.shape[a])
    return dx[tuple(crop)], weight_vjp(g)[0]


# a convolution (groups 1) of few input channels; see the module docstring
_few_channels = _conv_vjp(_few_channels_forward, _few_channels_bwd)
