"""paddle.optimizer.Adadelta."""

from __future__ import annotations

import jax.numpy as jnp

from ._fused import const
from ._optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta: ``E[g^2] = rho*E[g^2] + (1-rho)*g^2``;
    ``u = -g * sqrt((E[dx^2] + eps) / (E[g^2] + eps))``; ``E[dx^2] = rho*E[dx^2] + (1-rho)*u^2``;
    ``param += lr * u``."""

    def __init__(
        self,
        learning_rate=0.001,
        epsilon: float = 1.0e-6,
        rho: float = 0.95,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if epsilon is None:
            raise ValueError("epsilon is not set.")
        if rho is None:
            raise ValueError("rho is not set.")
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "adadelta"
        self._epsilon = epsilon
        self._rho = rho
        self._default_dict = {"epsilon": epsilon, "rho": rho}

    def _acc_specs(self, param):
        return [("_avg_squared_grad", 0.0, None, None), ("_avg_squared_update", 0.0, None, None)]

    def _hyper(self, param, group):
        d = self._default_dict
        return (float(group.get("epsilon", d["epsilon"])), float(group.get("rho", d["rho"])))

    @staticmethod
    def _rule(p, g, states, lr, hp):
        eps, rho = hp
        dt = p.dtype
        r, one, e = const(rho, dt), const(1, dt), const(eps, dt)
        eg, ex = states
        eg = r * eg + (one - r) * g * g
        upd = -jnp.sqrt((ex + e) / (eg + e)) * g
        ex = r * ex + (one - r) * upd * upd
        return p + lr * upd, [eg, ex]
