"""``paddle.distribution.Uniform``: the continuous uniform distribution on ``[low, high)``."""

from __future__ import annotations

from collections.abc import Sequence

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl
from .normal import _broadcast_shape, _dtype_str, _float_params

__all__ = ["Uniform"]


class Uniform(Distribution):
    """The uniform distribution with density ``1 / (high - low)`` on ``low < x < high``
    (``log_prob``/``probs`` treat both bounds as outside)."""

    def __init__(self, low, high, name: str | None = None) -> None:
        self.all_arg_is_float = False
        self.batch_size_unknown = False
        self.name = name if name is not None else "Uniform"
        self.dtype = "float32"
        if isinstance(low, int):
            low = float(low)
        if isinstance(high, int):
            high = float(high)
        if self._validate_args(low, high):
            self.low, self.high = low, high
            self.dtype = _dtype_str(low)
        else:
            self.all_arg_is_float = isinstance(low, float) and isinstance(high, float)
            self.low, self.high, self.dtype = _float_params(self, low, high)
        super().__init__(self.low.shape)

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> Tensor:
        """Samples of shape ``shape + batch_shape``: ``low + (high - low) * u`` (as in Paddle,
        gradients reach Tensor bounds); a nonzero ``seed`` fixes the draws."""
        shape = list(shape)
        output_shape = shape + _broadcast_shape(self.low, self.high)
        u = paddle.uniform(output_shape, dtype=self.dtype, min=0.0, max=1.0, seed=seed)
        width = self.high - self.low
        if _dtype_str(width) != str(self.dtype):  # Paddle's zeros(shape) + width promotes
            width = paddle.zeros(output_shape, dtype=self.dtype) + width
        out = u * width + self.low
        if self.all_arg_is_float:
            return paddle.reshape(out, shape)
        return out

    def _inside(self, value: Tensor) -> Tensor:
        lb = paddle.cast(self.low < value, value.dtype)
        ub = paddle.cast(value < self.high, value.dtype)
        return lb * ub

    def log_prob(self, value: Tensor) -> Tensor:
        """Log density: ``-log(high - low)`` inside, ``-inf`` outside."""
        value = self._check_values_dtype_in_probs(self.low, value)
        return paddle.log(self._inside(value)) - paddle.log(self.high - self.low)

    def probs(self, value: Tensor) -> Tensor:
        """Density: ``1 / (high - low)`` inside, 0 outside."""
        value = self._check_values_dtype_in_probs(self.low, value)
        return self._inside(value) / (self.high - self.low)

    def entropy(self) -> Tensor:
        """Differential entropy ``log(high - low)``."""
        return paddle.log(self.high - self.low)


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p: Uniform, q: Uniform) -> Tensor:
    # as in Paddle: Uniform has no closed form of its own, so this raises NotImplementedError
    return p.kl_divergence(q)
