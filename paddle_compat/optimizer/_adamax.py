"""paddle.optimizer.Adamax: Adam with the infinity norm."""

from __future__ import annotations

import jax.numpy as jnp

from ._adam import check_betas
from ._fused import const, moment_dtype, scalar
from ._optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax: ``u = max(beta2*u + eps, |g|)``; ``param -= lr/(1-beta1^t) * m / u``."""

    def __init__(
        self,
        learning_rate=0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-8,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
    ) -> None:
        check_betas(learning_rate, beta1, beta2, epsilon)
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "adamax"
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _acc_specs(self, param):
        dt = moment_dtype(param)
        return [
            ("moment", 0.0, None, dt),
            ("inf_norm", 0.0, None, dt),
            ("beta1_pow_acc", self._beta1, [1], None),
        ]

    def _hyper(self, param, group):
        d = self._default_dict
        return (
            float(group.get("beta1", d["beta1"])),
            float(group.get("beta2", d["beta2"])),
            float(group.get("epsilon", d["epsilon"])),
        )

    @staticmethod
    def _rule(p, g, states, lr, hp):
        b1, b2, eps = hp
        dt = p.dtype
        m, u, b1p = states
        one = const(1, dt)
        m = const(b1, dt) * m + (one - const(b1, dt)) * g
        u = jnp.maximum(const(b2, dt) * u + const(eps, dt), jnp.abs(g))
        lr_t = lr / (one - scalar(b1p).astype(dt))
        p = p - lr_t * m / u
        return p, [m, u, b1p * const(b1, b1p.dtype)]
