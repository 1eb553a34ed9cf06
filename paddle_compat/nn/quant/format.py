"""paddle.nn.quant.format: the layers of a converted (inference) quantized model."""

from quant import ConvertibleQuantedLayer, LinearDequanter, LinearQuanter, LinearQuanterDequanter

__all__ = ["ConvertibleQuantedLayer", "LinearDequanter", "LinearQuanter", "LinearQuanterDequanter"]
