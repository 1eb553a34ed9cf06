"""paddle.quantization.config."""

from quant import QuantConfig, SingleLayerConfig
from quant._config import DEFAULT_QAT_LAYER_MAPPINGS

__all__ = ["DEFAULT_QAT_LAYER_MAPPINGS", "QuantConfig", "SingleLayerConfig"]
