"""paddle.optimizer.Lamb: layer-wise adaptive moments (trust ratio ``||p|| / ||r||``)."""

from __future__ import annotations

from collections.abc import Callable

import jax.numpy as jnp

from ._fused import adam_moments, const, moment_dtype, scalar
from ._optimizer import Optimizer

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """LAMB (You et al.): Adam direction plus weight decay, scaled per parameter by the trust
    ratio when decay is on (or ``always_adapt``)."""

    def __init__(
        self,
        learning_rate=0.001,
        lamb_weight_decay: float = 0.01,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-6,
        parameters=None,
        grad_clip=None,
        exclude_from_weight_decay_fn: Callable | None = None,
        multi_precision: bool = False,
        always_adapt: bool = False,
        name: str | None = None,
    ) -> None:
        assert learning_rate is not None
        assert beta1 is not None
        assert beta2 is not None
        assert epsilon is not None
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=None,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "lamb"
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lamb_weight_decay = lamb_weight_decay
        self._exclude_from_weight_decay_fn = exclude_from_weight_decay_fn
        self._default_dict = {
            "beta1": beta1,
            "beta2": beta2,
            "epsilon": epsilon,
            "lamb_weight_decay": lamb_weight_decay,
            "exclude_from_weight_decay_fn": exclude_from_weight_decay_fn,
        }
        self._multi_precision = multi_precision
        self.always_adapt = always_adapt

    def _acc_specs(self, param):
        dt = moment_dtype(param)
        return [
            ("moment1", 0.0, None, dt),
            ("moment2", 0.0, None, dt),
            ("beta1_pow_acc", self._beta1, [1], dt),
            ("beta2_pow_acc", self._beta2, [1], dt),
        ]

    _param_dependent_hyper = True

    def _hyper(self, param, group):
        d = self._default_dict
        exclude = group.get("exclude_from_weight_decay_fn", d["exclude_from_weight_decay_fn"])
        wd = float(group.get("lamb_weight_decay", d["lamb_weight_decay"]))
        if exclude is not None and exclude(param):
            wd = 0.0
        return (
            wd,
            float(group.get("beta1", d["beta1"])),
            float(group.get("beta2", d["beta2"])),
            float(group.get("epsilon", d["epsilon"])),
            bool(self.always_adapt),
        )

    @staticmethod
    def _rule(p, g, states, lr, hp):
        wd, b1, b2, eps, always_adapt = hp
        dt = p.dtype
        one = const(1, dt)
        m1, m2, b1p, b2p = states
        m1, m2 = adam_moments(m1, m2, g, b1, b2, dt)
        m1h = m1 / (one - scalar(b1p))
        m2h = m2 / (one - scalar(b2p))
        r = m1h / (jnp.sqrt(m2h) + const(eps, dt)) + const(wd, dt) * p
        if wd > 0 or always_adapt:
            pn = jnp.sqrt(jnp.sum(p * p))
            rn = jnp.sqrt(jnp.sum(r * r))
            ratio = jnp.where((pn > 0) & (rn > 0), pn / rn, one)
        else:
            ratio = one
        p = p - lr * ratio * r
        return p, [m1, m2, b1p * const(b1, b1p.dtype), b2p * const(b2, b2p.dtype)]
