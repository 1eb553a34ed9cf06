"""QAT: quantization-aware training (fake quant with straight-through gradients)."""

from __future__ import annotations

from paddle_compat.nn import Layer

from ._config import QuantConfig
from ._quantize import Quantization

__all__ = ["QAT"]


class QAT(Quantization):
    """Quantization-aware training: ``quantize`` replaces the configured layers with quantized
    wrappers whose quanters fake-quantize weights and activations in the forward pass (the
    gradient passes straight through); train as usual, then ``convert``.

    Example::

        q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        qat = QAT(QuantConfig(activation=q, weight=q))
        qmodel = qat.quantize(model)          # model in training mode
        ...train qmodel...
        infer_model = qat.convert(qmodel.eval())
    """

    def __init__(self, config: QuantConfig) -> None:
        super().__init__(config)

    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        """The model (a copy unless ``inplace``) with fake-quant wrappers; must be training."""
        if not model.training:
            raise AssertionError(
                "Quantization-Aware Training should work on training models. "
                "Please set training mode by model.train()."
            )
        return self._prepare(model, inplace)
