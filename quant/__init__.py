"""quant: Paddle's quantization on JAX (see ../shared/DESIGN.md).

Public through ``paddle.quantization`` (QuantConfig, QAT, PTQ, quanters, observers) and
``paddle.nn.quant`` (weight-only int8/int4 and LLM.int8 matmuls, quantized layer wrappers).
The flow rewrites Layer trees from outside: ``nn.Linear``/``nn.Conv2D`` are never edited.
"""

from ._base import (
    BaseObserver,
    BaseQuanter,
    ClassWithArguments,
    ObserverFactory,
    QuanterFactory,
    quanter,
)
from ._config import DEFAULT_QAT_LAYER_MAPPINGS, QuantConfig, SingleLayerConfig
from ._functional_layers import (
    FloatFunctionalLayer,
    add,
    concat,
    divide,
    flatten,
    matmul,
    multiply,
    reshape,
    subtract,
    transpose,
)
from ._legacy import quant_aware_train
from ._observers import (
    AbsmaxObserver,
    AbsmaxObserverLayer,
    GroupWiseWeightObserver,
    GroupWiseWeightObserverLayer,
)
from ._ptq import PTQ
from ._qat import QAT
from ._quanters import FakeQuanterWithAbsMaxObserver, FakeQuanterWithAbsMaxObserverLayer
from ._quantize import Quantization
from ._weight_only import (
    WeightOnlyLinear,
    apply_per_channel_scale,
    llm_int8_linear,
    quantize_weight_only,
    weight_dequantize,
    weight_only_linear,
    weight_quantize,
)
from ._wrappers import (
    ConvertibleQuantedLayer,
    LinearDequanter,
    LinearQuanter,
    LinearQuanterDequanter,
    ObserveWrapper,
    QuantedConv2D,
    QuantedLinear,
    QuanterStub,
    Stub,
)

__all__ = [
    "DEFAULT_QAT_LAYER_MAPPINGS",
    "PTQ",
    "QAT",
    "AbsmaxObserver",
    "AbsmaxObserverLayer",
    "BaseObserver",
    "BaseQuanter",
    "ClassWithArguments",
    "ConvertibleQuantedLayer",
    "FakeQuanterWithAbsMaxObserver",
    "FakeQuanterWithAbsMaxObserverLayer",
    "FloatFunctionalLayer",
    "GroupWiseWeightObserver",
    "GroupWiseWeightObserverLayer",
    "LinearDequanter",
    "LinearQuanter",
    "LinearQuanterDequanter",
    "ObserveWrapper",
    "ObserverFactory",
    "QuantConfig",
    "QuantedConv2D",
    "QuantedLinear",
    "QuanterFactory",
    "QuanterStub",
    "Quantization",
    "SingleLayerConfig",
    "Stub",
    "WeightOnlyLinear",
    "add",
    "apply_per_channel_scale",
    "concat",
    "divide",
    "flatten",
    "llm_int8_linear",
    "matmul",
    "multiply",
    "quant_aware_train",
    "quanter",
    "quantize_weight_only",
    "reshape",
    "subtract",
    "transpose",
    "weight_dequantize",
    "weight_only_linear",
    "weight_quantize",
]
