"""paddle.optimizer.ASGD: averaged SGD over the last ``batch_num`` gradients."""

from __future__ import annotations

import jax.numpy as jnp

from ._optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD: keeps the last ``batch_num`` gradients (``y``) and their running sum (``d``);
    ``param -= lr * d / min(m, batch_num)`` where ``m`` counts the steps."""

    def __init__(
        self,
        learning_rate=0.001,
        batch_num: int = 1,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        multi_precision: bool = False,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate should not be none")
        if batch_num is None:
            raise ValueError("batch_num should not be none")
        if not 0 < batch_num:
            raise ValueError("batch_num should be greater than 0")
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "asgd"
        self._multi_precision = multi_precision
        self._n = batch_num

    def _acc_specs(self, param):
        dt = param._value.dtype
        return [
            ("d", 0.0, None, dt),
            ("y", 0.0, [self._n, *param.shape], dt),
            ("m", 0, [1], jnp.int64),
        ]

    def _hyper(self, param, group):
        return (int(self._n),)

    @staticmethod
    def _rule(p, g, states, lr, hp):
        (n,) = hp
        d, ys, m = states
        i = m[0] % n
        d = d - ys[i] + g
        ys = ys.at[i].set(g)
        m = m + 1
        denom = jnp.minimum(m[0], n).astype(p.dtype)
        return p - lr * d / denom, [d, ys, m]
