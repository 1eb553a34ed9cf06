"""paddle.optimizer.Momentum: heavy-ball or Nesterov momentum; L2 weight decay is applied inside
the update (``grad*rescale + coeff*param``), other regularizers are added to the gradient."""

from __future__ import annotations

from ..regularizer import L2Decay
from ._fused import const
from ._optimizer import Optimizer

__all__ = ["Momentum"]


def _l2_coeff(decay) -> tuple[str, float]:
    if isinstance(decay, L2Decay):
        return "l2_decay", float(decay._coeff)
    if isinstance(decay, float):
        return "l2_decay", decay
    return "", 0.0


class Momentum(Optimizer):
    """Momentum SGD: ``v = mu*v + g``; ``p -= lr*v`` (or ``lr*(g + mu*v)`` with Nesterov)."""

    def __init__(
        self,
        learning_rate=0.001,
        momentum: float = 0.9,
        parameters=None,
        use_nesterov: bool = False,
        weight_decay=None,
        grad_clip=None,
        multi_precision: bool = False,
        rescale_grad: float = 1.0,
        use_multi_tensor: bool = False,
        name: str | None = None,
    ) -> None:
        if learning_rate is None:
            raise ValueError("learning_rate is not set")
        if momentum is None:
            raise ValueError("momentum is not set")
        if isinstance(weight_decay, int) and not isinstance(weight_decay, bool):
            weight_decay = float(weight_decay)

        def fused_l2(decay):
            return isinstance(decay, L2Decay | float)

        if isinstance(parameters, list) and parameters and isinstance(parameters[0], dict):
            for group in parameters:
                decay = group["weight_decay"] if "weight_decay" in group else weight_decay
                method, coeff = _l2_coeff(decay)
                group["regularization_method"] = method
                group["regularization_coeff"] = coeff
                group["weight_decay"] = None if fused_l2(decay) else decay
        super().__init__(
            learning_rate=learning_rate,
            parameters=parameters,
            weight_decay=None if fused_l2(weight_decay) else weight_decay,
            grad_clip=grad_clip,
            name=name,
        )
        self.type = "momentum"
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)
        self._regularization_method, self._regularization_coeff = _l2_coeff(weight_decay)
        self._multi_precision = multi_precision
        self._rescale_grad = rescale_grad
        self._use_multi_tensor = use_multi_tensor
        self._default_dict = {
            "momentum": momentum,
            "use_nesterov": use_nesterov,
            "rescale_grad": rescale_grad,
            "regularization_method": self._regularization_method,
            "regularization_coeff": self._regularization_coeff,
        }

    def _acc_specs(self, param):
        return [("velocity", 0.0, None, None)]

    def _grad_regularizer(self, param, group):
        if isinstance(getattr(param, "regularizer", None), L2Decay):
            return None  # applied inside the momentum update
        return super()._grad_regularizer(param, group)

    _param_dependent_hyper = True

    def _hyper(self, param, group):
        d = self._default_dict
        method = group.get("regularization_method", d["regularization_method"])
        coeff = group.get("regularization_coeff", d["regularization_coeff"])
        reg = getattr(param, "regularizer", None)
        if isinstance(reg, L2Decay):
            method, coeff = "l2_decay", float(reg._coeff)
        elif reg is not None:
            method, coeff = "", 0.0
        return (
            float(group.get("momentum", d["momentum"])),
            bool(group.get("use_nesterov", d["use_nesterov"])),
            float(coeff) if method == "l2_decay" else None,
            float(group.get("rescale_grad", d["rescale_grad"])),
        )

    @staticmethod
    def _rule(p, g, states, lr, hp):
        mu, nesterov, l2, rescale = hp
        dt = p.dtype
        if rescale != 1.0:
            g = g * const(rescale, dt)
        if l2 is not None:
            g = g + const(l2, dt) * p
        v = const(mu, dt) * states[0] + g
        if nesterov:
            return p - (g + v * const(mu, dt)) * lr, [v]
        return p - lr * v, [v]
