"""``paddle.distribution``: probability distributions, transforms and KL divergences, written
with public Paddle ops (autograd and ``to_static`` work through them). Sampling draws from
Paddle's random stream, so seeded samples equal real Paddle's on CPU."""

from .distribution import Distribution
from .exponential_family import ExponentialFamily
from .kl import kl_divergence, register_kl

__all__ = ["Distribution", "ExponentialFamily", "kl_divergence", "register_kl"]
