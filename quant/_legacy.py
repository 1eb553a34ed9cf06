"""The older quantization entry points that users' scripts still call:
``QuantConfig(activate_quantizer=..., weight_bits=..., activation_bits=...)`` and
``paddle.jit.transform.quant_aware_train(model, quant_config)``, both mapped onto the QAT flow
(``FakeQuanterWithAbsMaxObserver`` quanters). Neither form exists in Paddle 3.3.1."""

from __future__ import annotations

from typing import Any

__all__ = ["legacy_factories", "quant_aware_train"]

_LEGACY_KEYS = {
    "activate_quantizer",
    "weight_bits",
    "activation_bits",
    "moving_rate",
    "weight_quantize_type",
    "activation_quantize_type",
    "quantizable_layer_type",
}


def legacy_factories(activation, weight, legacy: dict[str, Any]):
    """(activation, weight) factories for the keyword form of QuantConfig."""
    from ._quanters import FakeQuanterWithAbsMaxObserver

    unknown = sorted(set(legacy) - _LEGACY_KEYS)
    if unknown:
        raise TypeError(f"QuantConfig.__init__() got an unexpected keyword argument '{unknown[0]}'")
    for key in ("weight_quantize_type", "activation_quantize_type"):
        kind = legacy.get(key)
        if kind is not None and "abs_max" not in kind:
            raise ValueError(f"QuantConfig: {key}={kind!r} is not supported (abs_max kinds only)")
    rate = float(legacy.get("moving_rate", 0.9))
    wbits = int(legacy.get("weight_bits", 8))
    abits = int(legacy.get("activation_bits", 8))
    for name, bits in (("weight_bits", wbits), ("activation_bits", abits)):
        if not 2 <= bits <= 16:
            raise ValueError(f"QuantConfig: {name} must be in [2, 16], got {bits}")
    if not _given(weight):
        weight = FakeQuanterWithAbsMaxObserver(moving_rate=rate, bit_length=wbits)
    if not _given(activation):
        activation = (
            FakeQuanterWithAbsMaxObserver(moving_rate=rate, bit_length=abits)
            if legacy.get("activate_quantizer", True)
            else None
        )
    return activation, weight


def _given(v) -> bool:
    from ._config import _MISSING

    return v is not _MISSING


def quant_aware_train(model, quant_config=None, inplace: bool = True):
    """Prepare ``model`` for quantization-aware training (= ``QAT(quant_config).quantize``),
    in place by default so scripts that ignore the return value keep working; the model is
    put in training mode first. Returns the quantized model."""
    from ._config import QuantConfig
    from ._qat import QAT

    if quant_config is None:
        quant_config = QuantConfig(activate_quantizer=True)
    if not model.training:
        model.train()
    return QAT(quant_config).quantize(model, inplace=inplace)
