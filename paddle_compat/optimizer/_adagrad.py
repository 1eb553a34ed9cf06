"""paddle.optimizer.Adagrad: ``moment += g*g``; ``param -= lr * g / (sqrt(moment) + eps)``."""

from __future__ import annotations

import jax.numpy as jnp

from ._fused import const
from ._optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad: per-element learning rates from the accumulated squared gradients."""

    def __init__(
        self,
        learning_rate,
        epsilon: float = 1.0e-6,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
        initial_accumulator_value: float = 0.0,
    ) -> None:
        assert learning_rate is not None
        assert epsilon is not None
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "adagrad"
        self._epsilon = epsilon
        self.initial_accumulator_value = initial_accumulator_value
        self._default_dict = {
            "epsilon": epsilon,
            "initial_accumulator_value": initial_accumulator_value,
        }

    def _acc_specs(self, param):
        return [("moment", self.initial_accumulator_value, None, None)]

    def _hyper(self, param, group):
        return (float(group.get("epsilon", self._default_dict["epsilon"])),)

    @staticmethod
    def _rule(p, g, states, lr, hp):
        (eps,) = hp
        m = states[0] + g * g
        return p - lr * g / (jnp.sqrt(m) + const(eps, p.dtype)), [m]
