"""paddle.quantization: QuantConfig, QAT, PTQ, quanters and observers (re-exported from the
``quant`` package)."""

from quant import (
    PTQ,
    QAT,
    BaseObserver,
    BaseQuanter,
    QuantConfig,
    quanter,
)
from quant import quant_aware_train as quant_aware_train  # the older entry point

from . import (  # noqa: F401
    base_observer,
    base_quanter,
    config,
    factory,
    observers,
    ptq,
    qat,
    quanters,
    quantize,
    wrapper,
)

__all__ = ["QuantConfig", "BaseQuanter", "BaseObserver", "quanter", "QAT", "PTQ"]
