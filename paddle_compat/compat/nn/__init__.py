"""``paddle.compat.nn``: torch-style layers (``Linear`` with a [out, in] weight,
``Softmax(dim)``, ``Unfold``, ``AvgPool1d/2d/3d``, ``MultiheadAttention``)."""

from __future__ import annotations

import math

from ... import nn as _nn
from ...nn import functional as _F
from . import functional


class Linear(_nn.Layer):
    """``y = x @ weight.T + bias`` with weight [out_features, in_features], initialized as
    torch does (kaiming-uniform weight, uniform(+-1/sqrt(in_features)) bias)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = self.create_parameter([out_features, in_features], dtype=dtype)
        self.bias = (
            self.create_parameter([out_features], dtype=dtype, is_bias=True) if bias else None
        )
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1]
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            _nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return functional.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Softmax(_nn.Layer):
    """Softmax along ``dim`` (torch's implicit dim when None)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return functional.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Unfold(_nn.Unfold):
    """``paddle.nn.Unfold`` with torch's argument names and order."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilations=dilation, paddings=padding, strides=stride)


def _avg_pool(n: int):
    fn = getattr(_F, f"avg_pool{n}d")

    class AvgPool(_nn.Layer):
        def __init__(
            self,
            kernel_size,
            stride=None,
            padding=0,
            ceil_mode=False,
            count_include_pad=True,
            divisor_override=None,
        ):
            super().__init__()
            self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
            self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
            self.divisor_override = divisor_override

        def forward(self, input):
            kw = {"ceil_mode": self.ceil_mode, "exclusive": not self.count_include_pad}
            if n > 1:
                kw["divisor_override"] = self.divisor_override
            return fn(input, self.kernel_size, self.stride, self.padding, **kw)

    AvgPool.__name__ = AvgPool.__qualname__ = f"AvgPool{n}D"
    AvgPool.__doc__ = f"torch-style {n}-D average pooling (``count_include_pad``)."
    return AvgPool


AvgPool1D = AvgPool1d = _avg_pool(1)
AvgPool2D = AvgPool2d = _avg_pool(2)
AvgPool3D = AvgPool3d = _avg_pool(3)

from .transformer import MultiheadAttention  # noqa: E402  (uses Linear above)

__all__ = [
    "Unfold",
    "Linear",
    "Softmax",
    "AvgPool1D",
    "AvgPool2D",
    "AvgPool3D",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "MultiheadAttention",
]
