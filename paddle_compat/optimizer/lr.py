"""paddle.optimizer.lr: learning-rate schedulers."""

from ._lr import (  # noqa: F401
    CosineAnnealingDecay,
    CosineAnnealingWarmRestarts,
    CyclicLR,
    ExponentialDecay,
    InverseTimeDecay,
    LambdaDecay,
    LinearLR,
    LinearWarmup,
    LRScheduler,
    MultiplicativeDecay,
    MultiStepDecay,
    NaturalExpDecay,
    NoamDecay,
    OneCycleLR,
    PiecewiseDecay,
    PolynomialDecay,
    ReduceOnPlateau,
    StepDecay,
    __all__,  # noqa: F401
)
