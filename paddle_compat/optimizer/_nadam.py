"""paddle.optimizer.NAdam: Adam with Nesterov momentum and a momentum-decay schedule."""

from __future__ import annotations

import jax.numpy as jnp

from ._adam import check_ranges
from ._fused import adam_moments, const, moment_dtype
from ._optimizer import Optimizer

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam (Dozat): ``mu_t = beta1 * (1 - 0.5 * 0.96**(t*momentum_decay))``; the state keeps
    ``0.96**t`` (``momentum_decay_pow``), ``beta2**t`` and the product of the ``mu_t``."""

    def __init__(
        self,
        learning_rate=0.002,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1.0e-8,
        momentum_decay: float = 0.004,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
    ) -> None:
        check_ranges(learning_rate, beta1, beta2, epsilon)
        if not 0.0 <= momentum_decay:
            raise ValueError(
                f"Invalid momentum_decay value: {momentum_decay}, expect momentum_decay >= 0."
            )
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "nadam"
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._momentum_decay = momentum_decay
        self._default_dict = {
            "beta1": beta1,
            "beta2": beta2,
            "epsilon": epsilon,
            "momentum_decay": momentum_decay,
        }

    def _acc_specs(self, param):
        dt = moment_dtype(param)
        return [
            ("momentum_decay_pow", 1.0, None, dt),
            ("beta2_pow", 1.0, None, dt),
            ("mu_product", 1.0, None, dt),
            ("moment1", 0.0, None, dt),
            ("moment2", 0.0, None, dt),
        ]

    def _hyper(self, param, group):
        d = self._default_dict
        return tuple(
            float(group.get(k, d[k])) for k in ("beta1", "beta2", "epsilon", "momentum_decay")
        )

    @staticmethod
    def _rule(p, g, states, lr, hp):
        b1, b2, eps, psi = hp
        dt = p.dtype
        one, half, c96 = const(1, dt), const(0.5, dt), const(0.96, dt)
        mdp, b2p, mup, m1, m2 = states
        mdp = mdp * c96
        b2p = b2p * const(b2, dt)
        mu_t = const(b1, dt) * (one - half * jnp.power(mdp, const(psi, dt)))
        mu_next = const(b1, dt) * (one - half * jnp.power(mdp * c96, const(psi, dt)))
        mup = mup * mu_t
        m1, m2 = adam_moments(m1, m2, g, b1, b2, dt)
        m_hat = mu_next * m1 / (one - mup * mu_next) + (one - mu_t) * g / (one - mup)
        v_hat = m2 / (one - b2p)
        p = p - lr * m_hat / (jnp.sqrt(v_hat) + const(eps, dt))
        return p, [mdp, b2p, mup, m1, m2]
