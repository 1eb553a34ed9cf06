"""Convolution layers: Conv1D/2D/3D (weight [out, in / groups, *k], Normal(0, sqrt(2 / (in *
prod(k)))) by default) and Conv1D/2D/3DTranspose (weight [in, out / groups, *k],
XavierUniform by default)."""

from __future__ import annotations

import math

from .. import functional as F
from .._layer import Layer
from ..initializer import Normal
from ._base import dtype_name, ntuple

__all__ = [
    "Conv1D",
    "Conv2D",
    "Conv3D",
    "Conv1DTranspose",
    "Conv2DTranspose",
    "Conv3DTranspose",
    "Conv1d",
    "Conv2d",
    "Conv3d",
]

_FORMATS = {1: ("NCL", "NLC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _as_list(v, n: int, name: str) -> list[int]:
    """kernel_size/stride/dilation: an int or n ints."""
    if not isinstance(v, int) and len(v) not in (1, n):
        raise ValueError(f"The {name}'s length must be {n}. Received: {list(v)}")
    return ntuple(v, n)


def _update_padding(padding, n: int, data_format: str):
    """Paddle's (``_padding_algorithm``, ``_updated_padding``) of a conv layer: "SAME"/"VALID"
    with zeros, else "EXPLICIT" with one pad per spatial axis, or [lo0, hi0, lo1, hi1, ...] when
    some axis is padded asymmetrically."""
    if isinstance(padding, str):
        algo = padding.upper()
        if algo not in ("SAME", "VALID"):
            raise ValueError(f"Unknown padding: '{algo}'. It can only be 'SAME' or 'VALID'.")
        return algo, [0] * n
    if isinstance(padding, int):
        return "EXPLICIT", [padding] * n
    pads = list(padding)
    if pads and all(isinstance(p, list | tuple) for p in pads) and len(pads) == n + 2:
        cl = data_format[-1] == "C"
        spatial, other = (pads[1:-1], pads[:: n + 1]) if cl else (pads[2:], pads[:2])
        if any(list(p) != [0, 0] for p in other):
            raise ValueError(
                f"Non-zero padding({padding}) in the batch or channel dimensions is not supported."
            )
        pads = [int(v) for p in spatial for v in p]
    if len(pads) == 2 * n and all(isinstance(p, int) for p in pads):
        return "EXPLICIT", pads[0::2] if pads[0::2] == pads[1::2] else pads
    if len(pads) == n and all(isinstance(p, int) for p in pads):
        return "EXPLICIT", pads
    raise ValueError(f"In valid padding: {padding}")


class _ConvNd(Layer):
    _nsp = 2
    _transposed = False

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        padding_mode="zeros",
        weight_attr=None,
        bias_attr=None,
        data_format=None,
        output_padding=0,
        bias=True,
        dtype=None,
    ):
        super().__init__(dtype=dtype_name(dtype))
        n = self._nsp
        if data_format is None:
            data_format = _FORMATS[n][0]
        if data_format not in _FORMATS[n]:
            raise ValueError(f"data_format must be one of {_FORMATS[n]}, but got {data_format}")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(
                f"padding_mode must be one of zeros, reflect, replicate, circular, "
                f"but got {padding_mode}"
            )
        if padding_mode != "zeros" and not isinstance(padding, int):
            raise TypeError(
                "when padding_mode in ['reflect', 'replicate', 'circular'], type of "
                "padding must be int"
            )
        if groups <= 0:
            raise ValueError(f"groups must be greater than 0, but got {groups}")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups.")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = _as_list(kernel_size, n, "kernel_size")
        self._stride = _as_list(stride, n, "stride")
        self._dilation = _as_list(dilation, n, "dilation")
        self._padding, self._padding_mode = padding, padding_mode
        if padding_mode != "zeros":
            self._padding_algorithm, self._updated_padding = "EXPLICIT", [0] * n
            self._reversed_padding_repeated_twice = [padding] * (2 * n)
        elif n > 1:  # Paddle's Conv1D/Conv1DTranspose check their padding at the first call
            self._padding_algorithm, self._updated_padding = _update_padding(
                padding, n, data_format
            )
        self._groups, self._data_format = groups, data_format
        self.output_padding = output_padding
        # attributes Paddle's conv layers carry (model code reads some of them)
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._channel_dim = 1 if data_format.startswith("NC") else n + 1
        depthwise = n == 2 and in_channels == groups != 1 and out_channels % in_channels == 0
        self._op_type = f"{'depthwise_' if depthwise else ''}conv{n}d"
        self._use_cudnn, self._device = False, None
        if self._transposed:
            shape = [in_channels, out_channels // groups, *self._kernel_size]
            init = None
        else:
            shape = [out_channels, in_channels // groups, *self._kernel_size]
            fan = in_channels * math.prod(self._kernel_size)
            init = Normal(0.0, (2.0 / fan) ** 0.5 if fan else math.inf)
        self.weight = self.create_parameter(
            shape, attr=weight_attr, dtype=self._dtype, default_initializer=init
        )
        if not bias:
            bias_attr = False
        self.bias = self.create_parameter(
            [out_channels], attr=bias_attr, dtype=self._dtype, is_bias=True
        )

    def _input(self, x):
        """Non-zero padding modes pad the input explicitly, then convolve without padding."""
        if self._padding_mode == "zeros":
            return x, self._padding
        pads = [self._padding] * (2 * self._nsp)
        return F.pad(x, pads, mode=self._padding_mode, data_format=self._data_format), 0

    def extra_repr(self) -> str:
        n = self._nsp
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * n:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._padding_mode != "zeros":
            s += f", padding_mode={self._padding_mode}"
        if self.output_padding != 0:
            s += f", output_padding={self.output_padding}"
        if self._dilation != [1] * n:
            s += f", dilation={self._dilation}"
        if self._groups != 1:
            s += f", groups={self._groups}"
        return s + f", data_format={self._data_format}"


class _Conv(_ConvNd):
    _fn = None

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        *,
        bias: bool = True,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
        weight_attr=None,
        bias_attr=None,
        data_format=None,
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            padding_mode,
            weight_attr,
            bias_attr,
            data_format,
            bias=bias,
            dtype=dtype,
        )

    def forward(self, x):
        x, padding = self._input(x)
        return type(self)._fn(
            x,
            self.weight,
            self.bias,
            stride=self._stride,
            padding=padding,
            dilation=self._dilation,
            groups=self._groups,
            data_format=self._data_format,
        )


class Conv1D(_Conv):
    """1-D convolution over [N, C, L] (or NLC) inputs."""

    _nsp, _fn = 1, staticmethod(F.conv1d)


class Conv2D(_Conv):
    """2-D convolution over [N, C, H, W] (or NHWC) inputs."""

    _nsp, _fn = 2, staticmethod(F.conv2d)


class Conv3D(_Conv):
    """3-D convolution over [N, C, D, H, W] (or NDHWC) inputs."""

    _nsp, _fn = 3, staticmethod(F.conv3d)


class _ConvTranspose(_ConvNd):
    _transposed = True
    _fn = None

    def forward(self, x, output_size=None):
        return type(self)._fn(
            x,
            self.weight,
            self.bias,
            stride=self._stride,
            padding=self._padding,
            output_padding=self.output_padding,
            dilation=self._dilation,
            groups=self._groups,
            output_size=output_size,
            data_format=self._data_format,
        )


class Conv1DTranspose(_ConvTranspose):
    """1-D transposed convolution; weight [in, out / groups, k]."""

    _nsp, _fn = 1, staticmethod(F.conv1d_transpose)

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        dilation=1,
        weight_attr=None,
        bias_attr=None,
        data_format="NCL",
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            "zeros",
            weight_attr,
            bias_attr,
            data_format,
            output_padding,
        )


class Conv2DTranspose(_ConvTranspose):
    """2-D transposed convolution; weight [in, out / groups, kh, kw]."""

    _nsp, _fn = 2, staticmethod(F.conv2d_transpose)

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        dilation=1,
        groups=1,
        weight_attr=None,
        bias_attr=None,
        data_format="NCHW",
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            "zeros",
            weight_attr,
            bias_attr,
            data_format,
            output_padding,
        )


class Conv3DTranspose(_ConvTranspose):
    """3-D transposed convolution; weight [in, out / groups, kd, kh, kw]."""

    _nsp, _fn = 3, staticmethod(F.conv3d_transpose)

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        dilation=1,
        groups=1,
        weight_attr=None,
        bias_attr=None,
        data_format="NCDHW",
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            "zeros",
            weight_attr,
            bias_attr,
            data_format,
            output_padding,
        )


Conv1d, Conv2d, Conv3d = Conv1D, Conv2D, Conv3D
