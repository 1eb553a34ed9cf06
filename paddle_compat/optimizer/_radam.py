"""paddle.optimizer.RAdam: Adam with a rectified adaptive learning rate."""

from __future__ import annotations

import jax.numpy as jnp

from ._adam import check_ranges
from ._fused import adam_moments, const, moment_dtype
from ._optimizer import Optimizer

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam (Liu et al.): plain momentum SGD while the variance estimate is unreliable
    (``rho_t <= 5``), rectified Adam after. The state keeps ``beta1**t``, ``beta2**t`` and
    ``rho = t * beta2**t / (1 - beta2**t)`` (full parameter shape, like Paddle)."""

    def __init__(
        self,
        learning_rate=0.001,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1.0e-8,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
    ) -> None:
        check_ranges(learning_rate, beta1, beta2, epsilon)
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "radam"
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _acc_specs(self, param):
        dt = moment_dtype(param)
        return [
            ("beta1_pow", 1.0, None, dt),
            ("beta2_pow", 1.0, None, dt),
            ("rho", 1.0, None, dt),
            ("moment1", 0.0, None, dt),
            ("moment2", 0.0, None, dt),
        ]

    def _hyper(self, param, group):
        d = self._default_dict
        return tuple(float(group.get(k, d[k])) for k in ("beta1", "beta2", "epsilon"))

    @staticmethod
    def _rule(p, g, states, lr, hp):
        b1, b2, eps = hp
        dt = p.dtype
        one, two = const(1, dt), const(2, dt)
        b1p, b2p, rho, m1, m2 = states
        t = rho * (one - b2p) / b2p + one  # the step count, recovered from the state
        b1p = b1p * const(b1, dt)
        b2p = b2p * const(b2, dt)
        rho = t * b2p / (one - b2p)
        m1, m2 = adam_moments(m1, m2, g, b1, b2, dt)
        m_hat = m1 / (one - b1p)
        rho_inf = two / (one - const(b2, dt)) - one
        rho_t = rho_inf - two * rho
        four = const(4, dt)
        rect = jnp.sqrt(
            jnp.abs(
                (rho_t - four)
                * (rho_t - two)
                * rho_inf
                / ((rho_inf - four) * (rho_inf - two) * rho_t)
            )
        )
        adaptive = jnp.sqrt(one - b2p) / (jnp.sqrt(m2) + const(eps, dt))
        step = jnp.where(rho_t > const(5, dt), m_hat * rect * adaptive, m_hat)
        return p - lr * step, [b1p, b2p, rho, m1, m2]
