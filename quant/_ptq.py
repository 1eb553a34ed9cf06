"""PTQ: post-training quantization (observers calibrate scales, then convert)."""

from __future__ import annotations

from paddle_compat.nn import Layer

from ._config import QuantConfig
from ._quantize import Quantization

__all__ = ["PTQ"]


class PTQ(Quantization):
    """Post-training quantization: ``quantize`` inserts observers (the model's outputs are
    unchanged), run calibration batches through it, then ``convert`` quantizes the weights to
    integers with the observed scales.

    Example::

        ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver()))
        observed = ptq.quantize(model.eval())
        for x in calibration_batches:
            observed(x)
        infer_model = ptq.convert(observed)
    """

    def __init__(self, config: QuantConfig) -> None:
        super().__init__(config)

    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """The model (a copy unless ``inplace``) with observers; must be in eval mode."""
        if model.training:
            raise AssertionError(
                "Post-Training Quantization should not work on training "
                "models. Please set evaluation mode by model.eval()."
            )
        return self._prepare(model, inplace)
