"""``paddle.distribution``: probability distributions, transforms and KL divergences, written
with public Paddle ops (autograd and ``to_static`` work through them). Sampling draws from
Paddle's random stream, so seeded samples equal real Paddle's on CPU."""

import importlib

from .distribution import Distribution
from .exponential_family import ExponentialFamily
from .kl import kl_divergence, register_kl

# public name -> the module (Paddle's file name) that defines it, imported on first use
_WHERE = {
    "Bernoulli": "bernoulli",
    "Beta": "beta",
    "Binomial": "binomial",
    "Categorical": "categorical",
    "Cauchy": "cauchy",
    "Chi2": "chi2",
    "ContinuousBernoulli": "continuous_bernoulli",
    "Dirichlet": "dirichlet",
    "Exponential": "exponential",
    "Gamma": "gamma",
    "Geometric": "geometric",
    "Gumbel": "gumbel",
    "Independent": "independent",
    "Laplace": "laplace",
    "LKJCholesky": "lkj_cholesky",
    "LogNormal": "lognormal",
    "Multinomial": "multinomial",
    "MultivariateNormal": "multivariate_normal",
    "Normal": "normal",
    "Poisson": "poisson",
    "StudentT": "student_t",
    "TransformedDistribution": "transformed_distribution",
    "Uniform": "uniform",
    "Transform": "transform",
    "AbsTransform": "transform",
    "AffineTransform": "transform",
    "ChainTransform": "transform",
    "ExpTransform": "transform",
    "IndependentTransform": "transform",
    "PowerTransform": "transform",
    "ReshapeTransform": "transform",
    "SigmoidTransform": "transform",
    "SoftmaxTransform": "transform",
    "StackTransform": "transform",
    "StickBreakingTransform": "transform",
    "TanhTransform": "transform",
}

__all__ = ["Distribution", "ExponentialFamily", "kl_divergence", "register_kl", *_WHERE]


# Paddle's submodules, attributes of paddle.distribution as soon as it is imported
_MODULES = {"constraint", "variable", "transform", "kl", "distribution", "exponential_family"}


def __getattr__(name):
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    if name in _MODULES or name in _WHERE.values():
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'paddle.distribution' has no attribute '{name}'")
