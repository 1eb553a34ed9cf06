"""paddle.quantization.config."""

from quant import DEFAULT_QAT_LAYER_MAPPINGS, QuantConfig, SingleLayerConfig

__all__ = ["DEFAULT_QAT_LAYER_MAPPINGS", "QuantConfig", "SingleLayerConfig"]
