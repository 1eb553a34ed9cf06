"""Pooling layers over paddle.nn.functional pools (arguments kept as given, like Paddle's repr)."""

from __future__ import annotations

from .. import functional as F
from .._layer import Layer

__all__ = [
    "MaxPool1D",
    "MaxPool2D",
    "MaxPool3D",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "AdaptiveAvgPool1D",
    "AdaptiveAvgPool2D",
    "AdaptiveAvgPool3D",
    "AdaptiveMaxPool1D",
    "AdaptiveMaxPool2D",
    "AdaptiveMaxPool3D",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "LPPool1D",
    "LPPool2D",
    "LPPool1d",
    "LPPool2d",
    "MaxUnPool1D",
    "MaxUnPool2D",
    "MaxUnPool3D",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
]


class _Pool(Layer):
    def extra_repr(self) -> str:
        return f"kernel_size={self.ksize}, stride={self.stride}, padding={self.padding}"


class MaxPool1D(_Pool):
    """Max over sliding windows of L (optionally with the argmax mask)."""

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.name = return_mask, ceil_mode, name

    def forward(self, input):  # noqa: A002
        return F.max_pool1d(
            input, self.ksize, self.stride, self.padding, self.return_mask, self.ceil_mode
        )


class _MaxPoolNd(_Pool):
    _fn = None
    _default_format = "NCHW"

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        return_mask: bool = False,
        ceil_mode: bool = False,
        data_format: str | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.return_mask, self.ceil_mode, self.name = return_mask, ceil_mode, name
        self.data_format = data_format or self._default_format

    def forward(self, x):
        return type(self)._fn(
            x,
            self.ksize,
            self.stride,
            self.padding,
            self.return_mask,
            self.ceil_mode,
            self.data_format,
        )


class MaxPool2D(_MaxPoolNd):
    """Max over sliding windows of H, W."""

    _fn, _default_format = staticmethod(F.max_pool2d), "NCHW"


class MaxPool3D(_MaxPoolNd):
    """Max over sliding windows of D, H, W."""

    _fn, _default_format = staticmethod(F.max_pool3d), "NCDHW"


class AvgPool1D(_Pool):
    """Mean over sliding windows of L."""

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        exclusive: bool = True,
        ceil_mode: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.exclusive, self.ceil_mode, self.name = exclusive, ceil_mode, name

    def forward(self, x):
        return F.avg_pool1d(
            x, self.ksize, self.stride, self.padding, self.exclusive, self.ceil_mode
        )


class _AvgPoolNd(_Pool):
    _fn = None
    _default_format = "NCHW"

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        exclusive: bool = True,
        divisor_override=None,
        data_format: str | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.exclusive, self.divisor = ceil_mode, exclusive, divisor_override
        self.data_format, self.name = data_format or self._default_format, name

    def forward(self, x):
        return type(self)._fn(
            x,
            self.ksize,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.exclusive,
            self.divisor,
            self.data_format,
        )


class AvgPool2D(_AvgPoolNd):
    """Mean over sliding windows of H, W."""

    _fn, _default_format = staticmethod(F.avg_pool2d), "NCHW"


class AvgPool3D(_AvgPoolNd):
    """Mean over sliding windows of D, H, W."""

    _fn, _default_format = staticmethod(F.avg_pool3d), "NCDHW"


class AdaptiveAvgPool1D(Layer):
    """Mean over ``output_size`` adaptive bins of L."""

    def __init__(self, output_size, name: str | None = None) -> None:
        super().__init__()
        self.output_size, self.name = output_size, name

    def forward(self, input):  # noqa: A002
        return F.adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class _AdaptiveAvgNd(Layer):
    _fn = None
    _default_format = "NCHW"

    def __init__(
        self, output_size, data_format: str | None = None, name: str | None = None
    ) -> None:
        super().__init__()
        # Paddle's 2-D/3-D adaptive pools keep private names (its 1-D ones public names)
        self._output_size, self._name = output_size, name
        self._data_format = data_format or self._default_format

    @property
    def output_size(self):
        return self._output_size

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._data_format)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}"


class AdaptiveAvgPool2D(_AdaptiveAvgNd):
    """Mean over adaptive bins of H, W."""

    _fn, _default_format = staticmethod(F.adaptive_avg_pool2d), "NCHW"


class AdaptiveAvgPool3D(_AdaptiveAvgNd):
    """Mean over adaptive bins of D, H, W."""

    _fn, _default_format = staticmethod(F.adaptive_avg_pool3d), "NCDHW"


class AdaptiveMaxPool1D(Layer):
    """Max over adaptive bins of L."""

    def __init__(self, output_size, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__()
        self.output_size, self.return_mask, self.name = output_size, return_mask, name

    def forward(self, x):
        return F.adaptive_max_pool1d(x, self.output_size, self.return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}, return_mask={self.return_mask}"


class _AdaptiveMax(Layer):
    _fn = None

    def __init__(self, output_size, return_mask: bool = False, name: str | None = None) -> None:
        super().__init__()
        self._output_size, self._return_mask, self._name = output_size, return_mask, name

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._return_mask)

    def extra_repr(self) -> str:
        return f"output_size={self._output_size}, return_mask={self._return_mask}"


class AdaptiveMaxPool2D(_AdaptiveMax):
    """Max over adaptive bins of H, W."""

    _fn = staticmethod(F.adaptive_max_pool2d)


class AdaptiveMaxPool3D(_AdaptiveMax):
    """Max over adaptive bins of D, H, W."""

    _fn = staticmethod(F.adaptive_max_pool3d)


AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d = (
    AdaptiveAvgPool1D,
    AdaptiveAvgPool2D,
    AdaptiveAvgPool3D,
)
AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d = (
    AdaptiveMaxPool1D,
    AdaptiveMaxPool2D,
    AdaptiveMaxPool3D,
)


class _LPPool(_Pool):
    _fn = None
    _default_format = "NCHW"
    _stride_defaults_to_kernel = True

    def __init__(
        self,
        norm_type: float,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        data_format: str | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.norm_type = float(norm_type)
        self.ksize, self.padding, self.ceil_mode = kernel_size, padding, ceil_mode
        if stride is None and self._stride_defaults_to_kernel:
            stride = kernel_size
        self.stride = stride
        self.data_format, self.name = data_format or self._default_format, name

    def forward(self, x):
        return type(self)._fn(
            x,
            self.norm_type,
            self.ksize,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.data_format,
        )

    def extra_repr(self) -> str:
        return f"norm_type={self.norm_type}, " + super().extra_repr()


class LPPool1D(_LPPool):
    """(sum of x^p over windows of L)^(1/p)."""

    _fn, _default_format = staticmethod(F.lp_pool1d), "NCL"
    _stride_defaults_to_kernel = False


class LPPool2D(_LPPool):
    """(sum of x^p over windows of H, W)^(1/p)."""

    _fn, _default_format = staticmethod(F.lp_pool2d), "NCHW"


class _MaxUnPool(Layer):
    _fn = None
    _default_format = "NCHW"

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        data_format: str | None = None,
        output_size=None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.ksize, self.stride, self.padding = kernel_size, stride, padding
        self.data_format = data_format or self._default_format
        self.output_size, self.name = output_size, name

    def forward(self, x, indices, output_size=None):
        return type(self)._fn(
            x,
            indices,
            self.ksize,
            self.stride,
            self.padding,
            self.data_format,
            output_size or self.output_size,
        )

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxUnPool1D(_MaxUnPool):
    """Inverse of MaxPool1D at the returned indices."""

    _fn, _default_format = staticmethod(F.max_unpool1d), "NCL"


class MaxUnPool2D(_MaxUnPool):
    """Inverse of MaxPool2D at the returned indices."""

    _fn, _default_format = staticmethod(F.max_unpool2d), "NCHW"


class MaxUnPool3D(_MaxUnPool):
    """Inverse of MaxPool3D at the returned indices."""

    _fn, _default_format = staticmethod(F.max_unpool3d), "NCDHW"


LPPool1d, LPPool2d = LPPool1D, LPPool2D
MaxUnpool1d, MaxUnpool2d, MaxUnpool3d = MaxUnPool1D, MaxUnPool2D, MaxUnPool3D
