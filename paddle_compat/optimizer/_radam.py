"""paddle.optimizer.RAdam: Adam with a rectified adaptive learning rate."""

from __future__ import annotations

import jax.numpy as jnp

from ._fused import const
from ._optimizer import Optimizer

__all__ = ["RAdam"]

_LOW = (jnp.dtype(jnp.float16), jnp.dtype(jnp.bfloat16))


class RAdam(Optimizer):
    """RAdam (Liu et al.): plain momentum SGD while the variance estimate is unreliable
    (``rho_t <= 5``), rectified Adam after. The state keeps ``beta1**t``, ``beta2**t`` and
    ``rho = t * beta2**t / (1 - beta2**t)`` (full parameter shape, like Paddle)."""

    def __init__(self, learning_rate=0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1.0e-8, parameters=None, weight_decay=None, grad_clip=None,
                 name: str | None = None) -> None:
        if isinstance(learning_rate, float | int) and not 0.0 <= learning_rate:
            raise ValueError(
                f"Invalid learning rate: {learning_rate}, expect learning_rate >= 0.")
        if not 0.0 <= epsilon:
            raise ValueError(f"Invalid epsilon value: {epsilon}, expect epsilon >= 0.")
        if not 0.0 <= beta1 < 1.0:
            raise ValueError(f"Invalid beta1: {beta1}, expect 0. <= beta1 < 1.0.")
        if not 0.0 <= beta2 < 1.0:
            raise ValueError(f"Invalid beta2: {beta2}, expect 0. <= beta2 < 1.0.")
        super().__init__(learning_rate=learning_rate, parameters=parameters,
                         weight_decay=weight_decay, grad_clip=grad_clip, name=name)
        self.type = "radam"
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._default_dict = {"beta1": beta1, "beta2": beta2, "epsilon": epsilon}

    def _acc_specs(self, param):
        dt = jnp.float32 if jnp.dtype(param._value.dtype) in _LOW else None
        return [("beta1_pow", 1.0, None, dt), ("beta2_pow", 1.0, None, dt),
                ("rho", 1.0, None, dt), ("moment1", 0.0, None, dt), ("moment2", 0.0, None, dt)]

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
        m1 = const(b1, dt) * m1 + (one - const(b1, dt)) * g
        m2 = const(b2, dt) * m2 + (one - const(b2, dt)) * g * g
        m_hat = m1 / (one - b1p)
        rho_inf = two / (one - const(b2, dt)) - one
        rho_t = rho_inf - two * rho
        four = const(4, dt)
        rect = jnp.sqrt(jnp.abs((rho_t - four) * (rho_t - two) * rho_inf
                                / ((rho_inf - four) * (rho_inf - two) * rho_t)))
        adaptive = jnp.sqrt(one - b2p) / (jnp.sqrt(m2) + const(eps, dt))
        step = jnp.where(rho_t > const(5, dt), m_hat * rect * adaptive, m_hat)
        return p - lr * step, [b1p, b2p, rho, m1, m2]
