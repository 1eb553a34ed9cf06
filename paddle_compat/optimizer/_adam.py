"""paddle.optimizer.Adam, with Paddle's numerics: ``(1 - beta)`` evaluated in the parameter's
dtype, per-parameter ``beta1_pow``/``beta2_pow`` accumulators (shape [1]) for the bias
correction, and epsilon scaled by ``sqrt(1 - beta2_pow)``."""

from __future__ import annotations

import jax.numpy as jnp

from .._core.tensor import Tensor
from ._fused import adam_moments, const, moment_dtype, scalar
from ._optimizer import Optimizer

__all__ = ["Adam"]


def check_betas(learning_rate, beta1, beta2, epsilon) -> None:
    """Adam/AdamW/Adamax argument checks (asserts for None, then the ranges)."""
    assert learning_rate is not None
    assert beta1 is not None
    assert beta2 is not None
    assert epsilon is not None
    if not isinstance(beta1, Tensor) and not 0 <= beta1 < 1:
        raise ValueError("Invalid value of beta1, expect beta1 in [0,1).")
    if not isinstance(beta2, Tensor) and not 0 <= beta2 < 1:
        raise ValueError("Invalid value of beta2, expect beta2 in [0,1).")
    if not isinstance(epsilon, Tensor) and not 0 <= epsilon:
        raise ValueError("Invalid value of epsilon, expect epsilon >= 0.")


def check_ranges(learning_rate, beta1, beta2, epsilon) -> None:
    """NAdam/RAdam argument checks."""
    if isinstance(learning_rate, float | int) and not 0.0 <= learning_rate:
        raise ValueError(f"Invalid learning rate: {learning_rate}, expect learning_rate >= 0.")
    if not 0.0 <= epsilon:
        raise ValueError(f"Invalid epsilon value: {epsilon}, expect epsilon >= 0.")
    if not 0.0 <= beta1 < 1.0:
        raise ValueError(f"Invalid beta1: {beta1}, expect 0. <= beta1 < 1.0.")
    if not 0.0 <= beta2 < 1.0:
        raise ValueError(f"Invalid beta2: {beta2}, expect 0. <= beta2 < 1.0.")


def as_float(v) -> float:
    """A hyperparameter given as float or 1-element Tensor (read on the host)."""
    return float(v.item(0) if isinstance(v, Tensor) else v)


def adam_moments_specs(opt, param) -> list:
    """Adam-style accumulators: moments in float32 for fp16/bf16 parameters, beta pows [1]."""
    dt = moment_dtype(param)
    specs = [("moment1", 0.0, None, dt), ("moment2", 0.0, None, dt)]
    if getattr(opt, "_amsgrad", False):
        specs.append(("moment2_max", 0.0, None, dt))
    b1 = 0.9 if isinstance(opt._beta1, Tensor) else opt._beta1
    b2 = 0.999 if isinstance(opt._beta2, Tensor) else opt._beta2
    specs += [("beta1_pow_acc", b1, [1], dt), ("beta2_pow_acc", b2, [1], dt)]
    return specs


def adam_hyper(opt, group) -> tuple:
    """(beta1, beta2, epsilon, amsgrad) of ``group`` (falling back to ``opt``'s defaults)."""
    d = opt._default_dict
    return (
        as_float(group.get("beta1", d["beta1"])),
        as_float(group.get("beta2", d["beta2"])),
        as_float(group.get("epsilon", d["epsilon"])),
        bool(opt._amsgrad),
    )


def adam_update(p, g, states, lr, b1, b2, eps, amsgrad):
    """One Adam step as Paddle's kernel computes it; returns (param, states)."""
    dt = p.dtype
    one = const(1, dt)
    if amsgrad:
        m1, m2, m2max, b1p, b2p = states
    else:
        m1, m2, b1p, b2p = states
    m1, m2 = adam_moments(m1, m2, g, b1, b2, dt)
    b1p_, b2p_ = scalar(b1p), scalar(b2p)
    lr_t = lr * jnp.sqrt(one - b2p_) / (one - b1p_)
    denom_src = m2
    if amsgrad:
        m2max = jnp.maximum(m2max, m2)
        denom_src = m2max
    p = p - lr_t * (m1 / (jnp.sqrt(denom_src) + const(eps, dt) * jnp.sqrt(one - b2p_)))
    b1p = b1p * const(b1, b1p.dtype)
    b2p = b2p * const(b2, b2p.dtype)
    new = [m1, m2, m2max, b1p, b2p] if amsgrad else [m1, m2, b1p, b2p]
    return p, new


class Adam(Optimizer):
    """Adam (Kingma & Ba) with Paddle's bias-correction and epsilon placement."""

    def __init__(
        self,
        learning_rate=0.001,
        beta1=0.9,
        beta2=0.999,
        epsilon=1e-8,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        lazy_mode: bool = False,
        multi_precision: bool = False,
        use_multi_tensor: bool = False,
        amsgrad: bool = False,
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
        self.type = "adam"
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._use_multi_tensor = use_multi_tensor
        self._amsgrad = amsgrad
        self._default_dict = {
            "beta1": beta1,
            "beta2": beta2,
            "epsilon": epsilon,
            "lazy_mode": lazy_mode,
        }

    def _acc_specs(self, param):
        return adam_moments_specs(self, param)

    def _hyper(self, param, group):
        return adam_hyper(self, group)

    @staticmethod
    def _rule(p, g, states, lr, hp):
        b1, b2, eps, amsgrad = hp
        return adam_update(p, g, states, lr, b1, b2, eps, amsgrad)
