"""Deformable convolution (v1, and v2 with a modulation mask) and its Layer, plus
``ConvNormActivation`` (conv -> norm -> activation), which Paddle also defines in
paddle.vision.ops.

deform_conv2d samples ``x`` bilinearly at each kernel tap shifted by a learned offset (zero
outside the map), multiplies by the mask, then contracts the sampled columns with the weight as
a grouped convolution does. Gradients flow to x, offset, mask, weight and bias.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ...nn import BatchNorm2D, Conv2D, Layer, ReLU, Sequential
from ...nn.initializer import Normal
from ._common import FLOATS, VISION, retrieve_error

__all__ = ["deform_conv2d", "DeformConv2D", "ConvNormActivation"]


def _two(v, name: str) -> tuple[int, int]:
    if isinstance(v, int):
        return v, v
    v = [int(i) for i in v]
    if len(v) == 1:
        return v[0], v[0]
    if len(v) != 2:
        raise ValueError(f"The {name}'s length must be 2. Received: {v}")
    return v[0], v[1]


def _from_half(a, dt):
    """Paddle casts float16 offset, weight and mask to x's dtype on CPU."""
    return a.astype(dt) if a is not None and a.dtype == jnp.float16 else a


def _bad(msg: str) -> ValueError:
    return ValueError(f"(InvalidArgument) {msg}")


def _check(x, offset, weight, mask, stride, padding, dilation, dg, groups):
    """Paddle's shape checks; returns the output size."""
    if x.ndim != 4:
        raise _bad(f"Conv input should be 4-D tensor, get {x.ndim}")
    if weight.ndim != 4:
        raise _bad(f"Filter should be 4-D tensor, get {weight.ndim}")
    if offset.ndim != 4:
        raise _bad(f"Offset should be 4-D tensor, get {offset.ndim}")
    if groups < 1 or dg < 1:
        raise _bad(f"groups ({groups}) and deformable_groups ({dg}) must be positive")
    if x.shape[1] != weight.shape[1] * groups:
        raise _bad(
            f"The number of input channels should be equal to filter channels * groups. The "
            f"difference is [{x.shape[1]}]: [{weight.shape[1] * groups}]"
        )
    if weight.shape[0] % groups:
        raise _bad(
            f"The number of output channels should be divided by groups. But received "
            f"output channels: {weight.shape[0]}, groups: {groups}"
        )
    if x.shape[1] % dg:
        raise _bad(
            f"The number of input channels ({x.shape[1]}) should be divided by "
            f"deformable_groups ({dg})"
        )
    kh, kw = weight.shape[2:]
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    ho = (x.shape[2] + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    wo = (x.shape[3] + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    if ho <= 0 or wo <= 0:
        raise _bad(f"The output size [{ho}, {wo}] of deformable_conv must be positive")
    if offset.shape[0] != x.shape[0]:
        raise _bad(
            f"Input(Offset) should have the same batch size as Input(Input). The difference "
            f"is [{offset.shape[0]}]: [{x.shape[0]}]"
        )
    if offset.shape[2] != ho:
        raise _bad(
            f"output height must equal to offset map height. The difference is [{ho}]: "
            f"[{offset.shape[2]}]"
        )
    if offset.shape[3] != wo:
        raise _bad(
            f"output width must equal to offset map width. The difference is [{wo}]: "
            f"[{offset.shape[3]}]"
        )
    if offset.shape[1] % (kh * kw) or offset.shape[1] != 2 * dg * kh * kw:
        raise _bad(
            f"offset filter must divide deformable group size. But received "
            f"[{offset.shape[1]}]: [{2 * dg * kh * kw}]"
        )
    if mask is not None:
        if mask.ndim != 4 or mask.shape[0] != x.shape[0] or mask.shape[2:] != (ho, wo):
            raise _bad(
                f"Input(Mask) should be [{x.shape[0]}, {dg * kh * kw}, {ho}, {wo}], got "
                f"{list(mask.shape)}"
            )
        if mask.shape[1] != dg * kh * kw:
            raise _bad(
                f"mask filter must divide deformable group size. But received "
                f"[{mask.shape[1]}]: [{dg * kh * kw}]"
            )
    return ho, wo


def _sample(x, hh, ww, dg: int):
    """Bilinear samples of x [N, C, H, W] at (hh, ww) [N, dg, K, Ho, Wo] (zero outside the
    map) -> [N, dg, C / dg, K, Ho, Wo]."""
    n, c, h, w = x.shape
    dt = x.dtype
    inside = (hh > -1) & (ww > -1) & (hh < h) & (ww < w)
    h0 = jnp.floor(hh.astype(jnp.float32)).astype(jnp.int64)
    w0 = jnp.floor(ww.astype(jnp.float32)).astype(jnp.int64)
    lh, lw = hh - h0.astype(dt), ww - w0.astype(dt)
    flat = x.reshape(n, dg, c // dg, h * w)
    shape = hh.shape
    out = jnp.zeros((n, dg, c // dg) + shape[2:], dt)
    for dy, dx, wt in (
        (0, 0, (1 - lh) * (1 - lw)),
        (0, 1, (1 - lh) * lw),
        (1, 0, lh * (1 - lw)),
        (1, 1, lh * lw),
    ):
        yi, xi = h0 + dy, w0 + dx
        ok = inside & (yi >= 0) & (yi <= h - 1) & (xi >= 0) & (xi <= w - 1)
        idx = jnp.clip(yi, 0, h - 1) * w + jnp.clip(xi, 0, w - 1)
        vals = jnp.take_along_axis(flat, idx.reshape(n, dg, 1, -1), axis=3)
        vals = vals.reshape((n, dg, c // dg) + shape[2:])
        out = out + jnp.where(ok, wt, 0)[:, :, None] * vals
    return out


@op(
    "deform_conv2d",
    tensors=("x", "offset", "weight", "bias", "mask"),
    dtypes=FLOATS,
    kernel="deformable_conv",
    **VISION,
)
def deform_conv2d(
    x: jax.Array,
    offset: jax.Array,
    weight: jax.Array,
    bias: jax.Array | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    deformable_groups: int = 1,
    groups: int = 1,
    mask: jax.Array | None = None,
) -> jax.Array:
    """Deformable convolution of ``x`` [N, C, H, W]: offset [N, 2 * dg * kh * kw, Ho, Wo]
    holds (dy, dx) per deformable group and tap; ``mask`` [N, dg * kh * kw, Ho, Wo] (v2) scales
    each sample. weight [M, C / groups, kh, kw]; returns [N, M, Ho, Wo]."""
    stride, padding = _two(stride, "stride"), _two(padding, "padding")
    dilation = _two(dilation, "dilation")
    dt = x.dtype
    offset, weight, mask = (_from_half(a, dt) for a in (offset, weight, mask))
    for a in (offset, weight, mask):
        if a is not None and a.dtype != dt:
            raise retrieve_error(dt, a.dtype)
    dg = deformable_groups
    ho, wo = _check(x, offset, weight, mask, stride, padding, dilation, dg, groups)
    n, c, h, w = x.shape
    m, _, kh, kw = weight.shape
    k = kh * kw
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    taps_h = np.repeat(np.arange(kh) * dh, kw)  # tap t = i * kw + j
    taps_w = np.tile(np.arange(kw) * dw, kh)
    base_h = (np.arange(ho) * sh - ph)[None, :, None] + taps_h[:, None, None]  # [K, Ho, 1]
    base_w = (np.arange(wo) * sw - pw)[None, None, :] + taps_w[:, None, None]  # [K, 1, Wo]
    off = offset.reshape(n, dg, k, 2, ho, wo)
    hh = jnp.asarray(base_h, dt) + off[:, :, :, 0]
    ww = jnp.asarray(base_w, dt) + off[:, :, :, 1]
    cols = _sample(x, hh, ww, dg)  # [N, dg, C / dg, K, Ho, Wo]
    if mask is not None:
        cols = cols * mask.reshape(n, dg, 1, k, ho, wo)
    cols = cols.reshape(n, groups, (c // groups) * k, ho * wo)
    wmat = weight.reshape(groups, m // groups, (c // groups) * k)
    out = jnp.einsum("gok,ngkl->ngol", wmat, cols, precision=jax.lax.Precision.HIGHEST)
    out = out.reshape(n, m, ho, wo)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1).astype(dt)
    return out


class DeformConv2D(Layer):
    """``deform_conv2d`` with its weight [out, in / groups, kh, kw] (Normal(0, sqrt(2 / (in *
    kh * kw))) by default) and bias; forward(x, offset, mask=None)."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        deformable_groups: int = 1,
        groups: int = 1,
        weight_attr=None,
        bias_attr=None,
    ) -> None:
        super().__init__()
        assert weight_attr is not False, "weight_attr should not be False in Conv."
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._deformable_groups, self._groups = deformable_groups, groups
        self._in_channels, self._out_channels = in_channels, out_channels
        self._channel_dim = 1
        self._stride = list(_two(stride, "stride"))
        self._dilation = list(_two(dilation, "dilation"))
        self._kernel_size = list(_two(kernel_size, "kernel_size"))
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups.")
        self._padding = list(_two(padding, "padding"))
        shape = [out_channels, in_channels // groups, *self._kernel_size]
        std = (2.0 / (int(np.prod(self._kernel_size)) * in_channels)) ** 0.5
        self.weight = self.create_parameter(
            shape=shape, attr=weight_attr, default_initializer=Normal(0.0, std)
        )
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels], is_bias=True)

    def forward(self, x, offset, mask=None):
        return deform_conv2d(
            x,
            offset,
            self.weight,
            self.bias,
            self._stride,
            self._padding,
            self._dilation,
            self._deformable_groups,
            self._groups,
            mask,
        )


class ConvNormActivation(Sequential):
    """Conv2D -> norm layer -> activation; padding defaults to (kernel_size - 1) // 2 *
    dilation and the conv has a bias only without a norm layer."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size=3,
        stride=1,
        padding=None,
        groups: int = 1,
        norm_layer=BatchNorm2D,
        activation_layer=ReLU,
        dilation: int = 1,
        bias: bool | None = None,
    ) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [
            Conv2D(
                in_channels,
                out_channels,
                kernel_size,
                stride,
                padding,
                dilation=dilation,
                groups=groups,
                bias_attr=bias,
            )
        ]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            layers.append(activation_layer())
        super().__init__(*layers)
