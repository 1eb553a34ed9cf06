"""paddle.optimizer.lr: learning-rate schedulers."""

from ._lr import (  # noqa: F401
    ExponentialDecay,
    InverseTimeDecay,
    LambdaDecay,
    LinearWarmup,
    LRScheduler,
    MultiplicativeDecay,
    MultiStepDecay,
    NaturalExpDecay,
    NoamDecay,
    PiecewiseDecay,
    PolynomialDecay,
    StepDecay,
)
from ._lr import __all__ as _base_all
from ._lr_cyclic import (  # noqa: F401
    CosineAnnealingDecay,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    LinearLR,
    OneCycleLR,
    ReduceOnPlateau,
)
from ._lr_cyclic import __all__ as _cyclic_all

__all__ = [*_base_all, *_cyclic_all]
