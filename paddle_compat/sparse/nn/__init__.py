"""``paddle.sparse.nn``: activation layers over sparse Tensors' stored values; convolution,
max pooling and batch norm layers over COO Tensors (channels last)."""

from __future__ import annotations

from ...nn import Layer
from .._norm import BatchNorm, SyncBatchNorm
from . import functional


class ReLU(Layer):
    """``sparse.nn.functional.relu`` as a Layer."""

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return functional.relu(x)


class ReLU6(Layer):
    """``sparse.nn.functional.relu6`` as a Layer."""

    def __init__(self, name=None):
        super().__init__()

    def forward(self, x):
        return functional.relu6(x)


class LeakyReLU(Layer):
    """``sparse.nn.functional.leaky_relu`` as a Layer."""

    def __init__(self, negative_slope: float = 0.01, name=None):
        super().__init__()
        self._negative_slope = negative_slope

    def forward(self, x):
        return functional.leaky_relu(x, self._negative_slope)


class Softmax(Layer):
    """``sparse.nn.functional.softmax`` as a Layer."""

    def __init__(self, axis: int = -1, name=None):
        super().__init__()
        self._axis = axis

    def forward(self, x):
        return functional.softmax(x, self._axis)


class _ConvNd(Layer):
    """Sparse conv layers: weight [*kernel, C_in, C_out] drawn from N(0, 2 / (kernel volume *
    C_in)) unless ``weight_attr`` says otherwise, bias [C_out] of zeros."""

    _nsp = 3
    _subm = False

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        padding_mode: str = "zeros",
        key: str | None = None,
        weight_attr=None,
        bias_attr=None,
        data_format: str | None = None,
        backend: str | None = None,
    ) -> None:
        import math

        from ...nn._layers.conv import _update_padding
        from ...nn.initializer import Normal
        from ...utils.layers_utils import convert_to_list

        super().__init__()
        n = self._nsp
        data_format = data_format or ("NDHWC" if n == 3 else "NHWC")
        assert weight_attr is not False, "weight_attr should not be False in Conv."
        self._param_attr, self._bias_attr = weight_attr, bias_attr
        self._groups, self._in_channels, self._out_channels = groups, in_channels, out_channels
        self._data_format, self._key, self._backend = data_format, key, backend
        assert padding_mode == "zeros", "Currently, only support padding_mode='zeros'"
        assert groups == 1, "Currently, only support groups=1"
        assert backend in (None, "igemm"), (
            "The value of 'backend' in Conv3D should be None or 'igemm'."
        )
        fmt = "NDHWC" if n == 3 else "NHWC"
        if data_format != fmt:
            raise ValueError(
                f"data_format must be one of {{'{fmt}'}}, but got data_format='{data_format}'"
            )
        self._stride = convert_to_list(stride, n, "stride")
        self._dilation = convert_to_list(dilation, n, "dilation")
        self._kernel_size = convert_to_list(kernel_size, n, "kernel_size")
        self._padding, self._padding_mode = padding, padding_mode
        self._padding_algorithm, self._updated_padding = _update_padding(padding, n, fmt)
        std = (2.0 / (math.prod(self._kernel_size) * in_channels)) ** 0.5
        self.weight = self.create_parameter(
            shape=[*self._kernel_size, in_channels, out_channels],
            attr=weight_attr,
            default_initializer=Normal(0.0, std),
        )
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels], is_bias=True)

    def forward(self, x):
        from .._conv import sparse_conv

        return sparse_conv(
            x,
            self.weight,
            self.bias,
            self._stride,
            self._updated_padding,
            self._dilation,
            self._groups,
            self._data_format,
            self._nsp,
            self._subm,
        )

    def extra_repr(self) -> str:
        n = self._nsp
        s = f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}"
        if self._stride != [1] * n:
            s += f", stride={self._stride}"
        if self._padding != 0:
            s += f", padding={self._padding}"
        if self._dilation != [1] * n:
            s += f", dilation={self._dilation}"
        return s + f", data_format={self._data_format}"


class Conv3D(_ConvNd):
    """3-D convolution of a COO Tensor [N, D, H, W, C] (``functional.conv3d``)."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        padding_mode: str = "zeros",
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NDHWC",
    ) -> None:
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            padding_mode, None, weight_attr, bias_attr, data_format,
        )  # fmt: skip


class Conv2D(_ConvNd):
    """2-D convolution of a COO Tensor [N, H, W, C] (``functional.conv2d``)."""

    _nsp = 2

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        padding_mode: str = "zeros",
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NHWC",
    ) -> None:
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            padding_mode, None, weight_attr, bias_attr, data_format,
        )  # fmt: skip


class SubmConv3D(_ConvNd):
    """Submanifold 3-D convolution (``functional.subm_conv3d``): the output sites are the
    input's. ``backend='igemm'`` gives the same numbers."""

    _subm = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        padding_mode: str = "zeros",
        key: str | None = None,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NDHWC",
        backend: str | None = None,
    ) -> None:
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            padding_mode, key, weight_attr, bias_attr, data_format, backend,
        )  # fmt: skip


class SubmConv2D(_ConvNd):
    """Submanifold 2-D convolution (``functional.subm_conv2d``): the output sites are the
    input's. ``backend='igemm'`` gives the same numbers."""

    _nsp = 2
    _subm = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        padding_mode: str = "zeros",
        key: str | None = None,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NHWC",
        backend: str | None = None,
    ) -> None:
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
            padding_mode, key, weight_attr, bias_attr, data_format, backend,
        )  # fmt: skip


class MaxPool3D(Layer):
    """``functional.max_pool3d`` as a Layer (``return_mask`` is accepted and unused, as in
    Paddle)."""

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        data_format: str = "NDHWC",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode = return_mask, ceil_mode
        self.data_format, self.name = data_format, name

    def forward(self, x):
        return functional.max_pool3d(
            x, self.ksize, self.stride, self.padding, self.ceil_mode, self.data_format
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


__all__ = [
    "BatchNorm",
    "Conv2D",
    "Conv3D",
    "LeakyReLU",
    "MaxPool3D",
    "ReLU",
    "ReLU6",
    "Softmax",
    "SubmConv2D",
    "SubmConv3D",
    "SyncBatchNorm",
    "functional",
]
