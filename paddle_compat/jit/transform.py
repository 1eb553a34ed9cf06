"""paddle.jit.transform: the older ``quant_aware_train`` entry point (not in Paddle 3.3.1),
an alias of the QAT flow (the ``quant`` package is imported on first call)."""

from __future__ import annotations

__all__ = ["quant_aware_train"]


def quant_aware_train(model, quant_config=None, inplace: bool = True):
    """Prepare ``model`` for quantization-aware training, like
    ``paddle.quantization.QAT(quant_config).quantize(model, inplace=True)``; returns it."""
    from quant import quant_aware_train as _qat

    return _qat(model, quant_config, inplace=inplace)
