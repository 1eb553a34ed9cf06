"""paddle.optimizer.Rprop: resilient backpropagation (per-element step sizes from gradient
signs; the optimizer's learning rate only initializes the step sizes)."""

from __future__ import annotations

import jax.numpy as jnp

from ._fused import const
from ._optimizer import Optimizer

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop: a step size grows by ``etas[1]`` while the gradient keeps its sign, shrinks by
    ``etas[0]`` (and the step is skipped) when it flips, clipped to ``learning_rate_range``;
    ``param -= step_size * sign(grad)``."""

    def __init__(
        self,
        learning_rate=0.001,
        learning_rate_range=(1e-5, 50),
        parameters=None,
        etas=(0.5, 1.2),
        grad_clip=None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if not 0.0 < learning_rate_range[0] <= learning_rate <= learning_rate_range[1]:
            raise ValueError(
                "'0.0 < learning_rate_range[0] <= learning_rate <= "
                "learning_rate_range[1]' must be true"
            )
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("'0.0 < etas[0] < 1.0 < etas[1]' must be true")
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=0.0,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "rprop"
        self._initial_learning_rate = learning_rate
        self._multi_precision = multi_precision
        self._learning_rate_range = [learning_rate_range]
        self._etas = [etas]
        self._sign = True

    def _acc_specs(self, param):
        dt = param._value.dtype
        return [
            ("prevs", 0.0, None, dt),
            ("learning_rates", float(self._initial_learning_rate), None, dt),
        ]

    def _hyper(self, param, group):
        (lo, hi), (eta_minus, eta_plus) = self._learning_rate_range[0], self._etas[0]
        return (float(lo), float(hi), float(eta_minus), float(eta_plus))

    @staticmethod
    def _rule(p, g, states, lr, hp):
        lo, hi, eta_minus, eta_plus = hp
        dt = p.dtype
        prev, rates = states
        prod = g * prev
        zero = const(0, dt)
        rates = jnp.where(
            prod > zero,
            rates * const(eta_plus, dt),
            jnp.where(prod < zero, rates * const(eta_minus, dt), rates),
        )
        rates = jnp.clip(rates, const(lo, dt), const(hi, dt))
        g = jnp.where(prod < zero, zero, g)
        return p - rates * jnp.sign(g), [g, rates]
