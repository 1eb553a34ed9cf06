"""paddle.optimizer.AdamW: Adam with decoupled weight decay, ``param -= lr*coeff*param`` applied
before the Adam update (skipped for parameters rejected by ``apply_decay_param_fun``)."""

from __future__ import annotations

from collections.abc import Callable

from .._core.tensor import Tensor
from ._adam import adam_hyper, adam_moments_specs, adam_update, as_float, check_betas
from ._fused import const
from ._optimizer import Optimizer

__all__ = ["AdamW"]


class AdamW(Optimizer):
    """AdamW (Loshchilov & Hutter): decoupled weight decay (default coefficient 0.01)."""

    _group_decay_is_regularizer = False

    def __init__(
        self,
        learning_rate=0.001,
        beta1=0.9,
        beta2=0.999,
        epsilon=1e-8,
        parameters=None,
        weight_decay=0.01,
        use_lowprecision_moment: bool = False,
        lr_ratio: Callable | None = None,
        apply_decay_param_fun: Callable[[str], bool] | None = None,
        grad_clip=None,
        lazy_mode: bool = False,
        multi_precision: bool = False,
        amsgrad: bool = False,
        name: str | None = None,
    ) -> None:
        check_betas(learning_rate, beta1, beta2, epsilon)
        if not isinstance(weight_decay, int | float | Tensor) or isinstance(weight_decay, bool):
            raise TypeError("weight_decay should be int, float or Tensor.")
        if lr_ratio is not None:
            assert callable(lr_ratio)
        self._weight_decay = as_float(weight_decay)
        self._default_dict = {
            "weight_decay": self._weight_decay,
            "beta1": beta1,
            "beta2": beta2,
            "epsilon": epsilon,
            "lazy_mode": lazy_mode,
            "grad_clip": grad_clip,
        }
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=None,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "adamw"
        self._params_name = set()
        self._apply_decay_param_fun = apply_decay_param_fun
        self._use_lowprecision_moment = use_lowprecision_moment
        self._lr_ratio = lr_ratio
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lazy_mode = lazy_mode
        self._multi_precision = multi_precision
        self._amsgrad = amsgrad
        self.regularization = None

    def __str__(self) -> str:
        return " ".join(["Weight Decay, params:", ",".join(self._params_name)])

    def _acc_specs(self, param):
        return adam_moments_specs(self, param)

    _param_dependent_hyper = True

    def _hyper(self, param, group):
        d = self._default_dict
        with_decay = not (
            self._apply_decay_param_fun is not None and not self._apply_decay_param_fun(param.name)
        )
        ratio = 1.0 if self._lr_ratio is None else float(self._lr_ratio(param))
        return (
            *adam_hyper(self, group),
            as_float(group.get("weight_decay", d["weight_decay"])),
            with_decay,
            ratio,
        )

    @staticmethod
    def _rule(p, g, states, lr, hp):
        b1, b2, eps, amsgrad, coeff, with_decay, ratio = hp
        if ratio != 1.0:
            lr = lr * const(ratio, lr.dtype)
        if with_decay:
            p = p - lr * const(coeff, p.dtype) * p
        return adam_update(p, g, states, lr, b1, b2, eps, amsgrad)
