"""paddle.regularizer: weight-decay terms that optimizers add to a parameter's gradient."""

from __future__ import annotations

import jax.numpy as jnp

__all__ = ["L1Decay", "L2Decay"]


class WeightDecayRegularizer:
    """Base class of weight-decay regularizers: ``reg(param, grad)`` returns the term added to
    ``grad``."""

    def __call__(self, param, grad, block=None):
        raise NotImplementedError(
            "WeightDecayRegularizer is a base class; use paddle.regularizer.L1Decay or L2Decay."
        )

    def _term(self, p):
        """The decay term as a jax function of the parameter array (used inside the fused
        optimizer update); None for regularizers that only define ``__call__``."""
        return None

    def __str__(self) -> str:
        raise NotImplementedError


class L1Decay(WeightDecayRegularizer):
    """L1 weight decay: adds ``coeff * sign(param)`` to the gradient."""

    def __init__(self, coeff: float = 0.0) -> None:
        assert coeff is not None
        self._coeff = coeff

    def _term(self, p):
        return jnp.sign(p) * jnp.asarray(self._coeff, p.dtype)

    def __call__(self, param, grad, block=None):
        from ._core.tensor import Tensor

        return Tensor(self._term(param._value))

    def __str__(self) -> str:
        return f"L1Decay, coeff={self._coeff:f}"


class L2Decay(WeightDecayRegularizer):
    """L2 weight decay: adds ``coeff * param`` to the gradient."""

    def __init__(self, coeff: float = 0.0) -> None:
        assert coeff is not None
        self._coeff = coeff

    def _term(self, p):
        return p * jnp.asarray(self._coeff, p.dtype)

    def __call__(self, param, grad, block=None):
        from ._core.tensor import Tensor

        return Tensor(self._term(param._value))

    def __str__(self) -> str:
        return f"L2Decay, coeff={self._coeff:f}"
