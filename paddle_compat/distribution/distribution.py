"""``paddle.distribution.Distribution``: the base class every distribution derives from.

It holds the batch and event shapes and Paddle's shared helpers (argument conversion,
broadcasting, logits/probabilities). Distributions are written with public Paddle ops, so
their results carry autograd history and trace under ``to_static`` like any other code.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor

__all__ = ["Distribution"]


def _dtype_name(t: Tensor) -> str:
    return str(t.dtype).replace("paddle.", "")


class Distribution:
    """The abstract base of probability distributions: ``batch_shape`` indexes independent
    distributions, ``event_shape`` is the shape of one sample of one of them."""

    def __init__(self, batch_shape: Sequence[int] = (), event_shape: Sequence[int] = ()) -> None:
        self._batch_shape = (
            batch_shape if isinstance(batch_shape, tuple) else tuple(int(d) for d in batch_shape)
        )
        self._event_shape = (
            event_shape if isinstance(event_shape, tuple) else tuple(int(d) for d in event_shape)
        )
        super().__init__()

    @property
    def batch_shape(self) -> tuple[int, ...]:
        """The shape of the batch of independent distributions."""
        return self._batch_shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        """The shape of one sample of one distribution of the batch."""
        return self._event_shape

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape + event_shape`` (no gradient)."""
        raise NotImplementedError

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterized samples: gradients flow to the parameters."""
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def kl_divergence(self, other: Distribution) -> Tensor:
        """KL(self || other); the distributions with a closed form override it (the base
        raises NotImplementedError, as Paddle's)."""
        raise NotImplementedError

    def prob(self, value: Tensor) -> Tensor:
        """The probability (density) of ``value``: ``exp(log_prob(value))``."""
        return paddle.exp(self.log_prob(value))

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def probs(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    # ------------------------------------------------------------------ Paddle's helpers

    def _extend_shape(self, sample_shape: Sequence[int]) -> tuple[int, ...]:
        """``sample_shape + batch_shape + event_shape``."""
        return tuple(sample_shape) + self.batch_shape + self.event_shape

    def _validate_args(self, *args) -> bool:
        """True when every argument is a Tensor, False when none is; a mix raises."""
        tensors = [isinstance(a, Tensor) for a in args]
        if any(tensors) and not all(tensors):
            raise ValueError("if one argument is Tensor, all arguments should be Tensor")
        return any(tensors)

    @staticmethod
    def _check_arg_types(args) -> None:
        for a in args:
            if not isinstance(a, float | list | tuple | np.ndarray | Tensor):
                raise TypeError(
                    "Type of input args must be float, list, tuple, numpy.ndarray or Tensor, "
                    f"but received type {type(a)}"
                )

    def _to_tensor(self, *args) -> tuple[Tensor, ...]:
        """Python floats, lists, tuples, numpy arrays (and Tensors, as data) as new float32
        Tensors broadcast to one shape; each argument that is not float32/float64 is converted
        with Paddle's warning."""
        arrays = []
        for a in args:
            self._check_arg_types([a])
            arr = a.numpy() if isinstance(a, Tensor) else np.array(a)
            if arr.dtype not in (np.float32, np.float64):
                warnings.warn(
                    "data type of argument only support float32 and float64, your argument "
                    "will be convert to float32.",
                    stacklevel=3,
                )
            arrays.append(arr.astype("float32"))
        arrays = np.broadcast_arrays(*arrays)
        return tuple(paddle.to_tensor(np.array(a), "float32") for a in arrays)

    def _broadcast_all(self, *args) -> list[Tensor]:
        """The arguments broadcast against each other as Tensors: non-Tensors take the first
        Tensor's dtype (the default float dtype when there is none)."""
        self._check_arg_types(args)
        dtype = next((a.dtype for a in args if isinstance(a, Tensor)), None)
        dtype = dtype if dtype is not None else paddle.get_default_dtype()
        ts = [a if isinstance(a, Tensor) else paddle.to_tensor(a, dtype=dtype) for a in args]
        return paddle.broadcast_tensors(ts)

    def _check_values_dtype_in_probs(self, param: Tensor, value: Tensor) -> Tensor:
        """``value`` cast to ``param``'s dtype: always for a complex ``param``; for a float
        ``value`` of another float dtype with Paddle's warning; other values unchanged."""
        if paddle.is_complex(param):
            return value.astype(param.dtype)
        if _dtype_name(value) in ("float32", "float64") and value.dtype != param.dtype:
            warnings.warn(
                "dtype of input 'value' needs to be the same as parameters of distribution "
                "class. dtype of 'value' will be converted.",
                stacklevel=3,
            )
            return paddle.cast(value, param.dtype)
        return value

    def _probs_to_logits(self, probs, is_binary: bool = False) -> Tensor:
        """Logits from probabilities: ``log(p)``, or ``log(p) - log1p(-p)`` when binary (no
        clipping: 0 and 1 give infinities, as in Paddle)."""
        if is_binary:
            return paddle.log(probs) - paddle.log1p(-probs)
        return paddle.log(probs)

    def _logits_to_probs(self, logits, is_binary: bool = False) -> Tensor:
        """Probabilities from logits: ``sigmoid`` when binary, else ``softmax`` on the last
        axis."""
        if is_binary:
            return paddle.sigmoid(logits)
        return paddle.nn.functional.softmax(logits, axis=-1)
