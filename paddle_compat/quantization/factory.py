"""paddle.quantization.factory."""

from quant import ClassWithArguments, ObserverFactory, QuanterFactory, quanter

__all__ = ["ClassWithArguments", "ObserverFactory", "QuanterFactory", "quanter"]
