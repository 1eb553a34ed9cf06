"""paddle.optimizer.RMSProp (optionally centered, with momentum)."""

from __future__ import annotations

import jax.numpy as jnp

from ._fused import const
from ._optimizer import Optimizer

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """RMSProp: ``ms = rho*ms + (1-rho)*g^2``; ``mom = momentum*mom + lr*g/sqrt(ms + eps)``
    (``ms - mg^2`` when centered); ``param -= mom``."""

    def __init__(
        self,
        learning_rate,
        rho: float = 0.95,
        epsilon: float = 1.0e-6,
        momentum: float = 0.0,
        centered: bool = False,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        if rho is None:
            raise ValueError("rho is not set.")
        if epsilon is None:
            raise ValueError("epsilon is not set.")
        if momentum is None:
            raise ValueError("momentum is not set.")
        if not 0.0 <= epsilon:
            raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")
        if not 0.0 <= momentum:
            raise ValueError("Invalid value of momentum, expect momentum >= 0.")
        if not 0.0 <= rho:
            raise ValueError("Invalid value of rho, expect rho >= 0.")
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "rmsprop"
        self._rho = rho
        self._epsilon = epsilon
        self._momentum = momentum
        self._centered = centered
        self._default_dict = {
            "rho": rho,
            "epsilon": epsilon,
            "momentum": momentum,
            "centered": centered,
        }

    def _acc_specs(self, param):
        return [
            ("momentum", 0.0, None, None),
            ("mean_square", 0.0, None, None),
            ("mean_grad", 0.0, None, None),
        ]

    def _hyper(self, param, group):
        d = self._default_dict
        return (
            float(group.get("rho", d["rho"])),
            float(group.get("epsilon", d["epsilon"])),
            float(group.get("momentum", d["momentum"])),
            bool(group.get("centered", d["centered"])),
        )

    @staticmethod
    def _rule(p, g, states, lr, hp):
        rho, eps, momentum, centered = hp
        dt = p.dtype
        mom, ms, mg = states
        r, one = const(rho, dt), const(1, dt)
        ms = r * ms + (one - r) * g * g
        if centered:
            mg = r * mg + (one - r) * g
            denom = jnp.sqrt(ms - mg * mg + const(eps, dt))
        else:
            denom = jnp.sqrt(ms + const(eps, dt))
        mom = const(momentum, dt) * mom + lr * g / denom
        return p - mom, [mom, ms, mg]
