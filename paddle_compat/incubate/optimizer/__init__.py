"""paddle.incubate.optimizer: LookAhead, ModelAverage and the deprecated LBFGS alias.
Paddle's static-graph and distributed optimizers here (PipelineOptimizer,
RecomputeOptimizer, GradientMergeOptimizer, LarsMomentumOptimizer, DistributedFusedLamb) are
not provided."""

from .lbfgs import LBFGS
from .lookahead import LookAhead  # noqa: F401
from .modelaverage import ModelAverage  # noqa: F401

__all__ = ["LBFGS"]
