"""``paddle.nn.SpectralNorm``: a layer that divides a weight-shaped input by its largest
singular value, estimated by power iteration from the Parameters ``weight_u``/``weight_v``
(drawn from N(0, 1) in Paddle's order, so ``paddle.seed`` gives Paddle's values; they are
not trainable and, as in Paddle's kernel, not updated by the forward)."""

from __future__ import annotations

from ..._core.registry import call_op
from .._layer import Layer
from ..initializer import Normal
from ._base import dtype_name

__all__ = ["SpectralNorm"]


class SpectralNorm(Layer):
    """``forward(weight) = weight / sigma(weight)`` over the matrix ``[shape[dim], -1]``."""

    def __init__(
        self,
        weight_shape,
        dim: int = 0,
        power_iters: int = 1,
        eps: float = 1e-12,
        dtype="float32",
    ) -> None:
        super().__init__()
        self._power_iters = power_iters
        self._eps = eps
        self._dim = dim
        self._dtype = dtype_name(dtype)
        self._weight_shape = list(weight_shape)
        h = self._weight_shape[dim]
        w = 1
        for i, s in enumerate(self._weight_shape):
            w *= s if i != dim else 1
        for name, n in (("weight_u", h), ("weight_v", w)):
            p = self.create_parameter([n], None, self._dtype, default_initializer=Normal(0.0, 1.0))
            p.stop_gradient = True
            setattr(self, name, p)

    def forward(self, x):
        out, _, _ = call_op(
            "_nn_spectral_norm",
            x,
            self.weight_u,
            self.weight_v,
            self._dim % len(x.shape),
            self._power_iters,
            self._eps,
            True,
        )
        return out
