"""``paddle.distribution.Categorical``: one of K categories, parameterized by ``logits``.

As in Paddle 3.3.1, ``sample`` draws from ``softmax(logits)`` while ``probs``/``log_prob`` read
``logits / logits.sum(-1)`` (Paddle treats the argument as unnormalized probabilities there),
and the constructor does not set ``batch_shape``/``event_shape`` (reading them raises
AttributeError, as in Paddle)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution, _dtype_name
from .kl import register_kl

__all__ = ["Categorical"]


class Categorical(Distribution):
    """Categorical distribution over the last axis of ``logits``; the leading axes index
    independent distributions."""

    def __init__(self, logits, name: str | None = None) -> None:
        self.name = name if name is not None else "Categorical"
        self.dtype = "float32"
        if self._validate_args(logits):
            self.logits = logits
            self.dtype = _dtype_name(logits)
        else:
            if isinstance(logits, np.ndarray) and str(logits.dtype) in ("float32", "float64"):
                self.dtype = str(logits.dtype)
            self.logits = self._to_tensor(logits)[0]
            if _dtype_name(self.logits) != self.dtype:
                self.logits = paddle.cast(self.logits, self.dtype)
        self._prob = self.logits / paddle.sum(self.logits, axis=-1, keepdim=True)

    def sample(self, shape: Sequence[int] = []) -> Tensor:  # noqa: B006 - Paddle's default
        """int64 category indices of shape ``shape + logits.shape[:-1]``, drawn with
        ``paddle.multinomial`` from ``softmax(logits)``."""
        num_samples = np.prod(np.array(shape))
        logits_shape = list(self.logits.shape)
        if len(logits_shape) > 1:
            sample_shape = shape + logits_shape[:-1]
            logits = paddle.reshape(
                self.logits, [int(np.prod(logits_shape[:-1])), logits_shape[-1]]
            )
        else:
            sample_shape = shape
            logits = self.logits
        index = paddle.multinomial(self._logits_to_probs(logits), num_samples, True)
        perm = list(range(index.ndim))
        perm.insert(0, perm.pop(-1))
        return paddle.reshape(paddle.transpose(index, perm), sample_shape)

    def kl_divergence(self, other: Categorical) -> Tensor:
        """KL(self || other) over the categories, keeping the last axis (size 1)."""
        logits = self.logits - paddle.max(self.logits, axis=-1, keepdim=True)
        other_logits = other.logits - paddle.max(other.logits, axis=-1, keepdim=True)
        e_logits, other_e_logits = paddle.exp(logits), paddle.exp(other_logits)
        z = paddle.sum(e_logits, axis=-1, keepdim=True)
        other_z = paddle.sum(other_e_logits, axis=-1, keepdim=True)
        prob = e_logits / z
        diff = logits - paddle.log(z) - other_logits + paddle.log(other_z)
        return paddle.sum(prob * diff, axis=-1, keepdim=True)

    def entropy(self) -> Tensor:
        """Shannon entropy (nats) of ``softmax(logits)``."""
        logits = self.logits - paddle.max(self.logits, axis=-1, keepdim=True)
        e_logits = paddle.exp(logits)
        z = paddle.sum(e_logits, axis=-1, keepdim=True)
        prob = e_logits / z
        return -paddle.sum(prob * (logits - paddle.log(z)), axis=-1)

    def probs(self, value: Tensor) -> Tensor:
        """Probabilities of the categories ``value``. A 1-D ``value`` is broadcast over the
        batch of distributions; otherwise its leading axes match ``logits``'."""
        if self._prob.ndim == 1:  # a single distribution
            return paddle.gather(self._prob, value.reshape([-1])).reshape(value.shape)
        if value.ndim == 1:
            index = paddle.reshape(value, [1] * (self._prob.ndim - 1) + [-1])
            return paddle.take_along_axis(self._prob, index, axis=-1)
        return paddle.take_along_axis(self._prob, value, axis=-1)

    def log_prob(self, value: Tensor) -> Tensor:
        """Log probabilities of the categories ``value`` (see ``probs``)."""
        return paddle.log(self.probs(value))


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p: Categorical, q: Categorical) -> Tensor:
    return p.kl_divergence(q)
