"""``paddle.incubate.nn.FusedLinear``: a Linear whose matmul and bias add Paddle fuses into one
GPU kernel (``fused_gemm_epilogue``; Paddle's CPU build has none). Here XLA fuses the same
computation on every device."""

from __future__ import annotations

from ...nn import Layer
from ...nn import functional as F
from ...nn._layers._base import default_dtype_name


class FusedLinear(Layer):
    """``y = x @ W + b`` with ``W`` of shape [in_features, out_features], or
    [out_features, in_features] used transposed when ``transpose_weight``."""

    def __init__(
        self,
        in_features: int,
        out_features: int,
        weight_attr=None,
        bias_attr=None,
        transpose_weight: bool = False,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=default_dtype_name())
        shape = [out_features, in_features] if transpose_weight else [in_features, out_features]
        self.weight = self.create_parameter(shape, attr=weight_attr, dtype=self._dtype)
        self.bias = self.create_parameter(
            [out_features], attr=bias_attr, dtype=self._dtype, is_bias=True
        )
        self.transpose_weight, self.name = transpose_weight, name

    def forward(self, input):  # noqa: A002 - Paddle's name
        w = self.weight.T if self.transpose_weight else self.weight
        return F.linear(input, w, self.bias)
