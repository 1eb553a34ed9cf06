"""``paddle.distribution.Normal``: the normal (Gaussian) distribution, real or complex."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["Normal"]


def _dtype_str(t: Tensor) -> str:
    return str(t.dtype).replace("paddle.", "")


def _broadcast_shape(a: Tensor, b: Tensor) -> list[int]:
    """The shape of ``a + b`` (computed without an op; incompatible shapes raise as ``+``)."""
    try:
        return list(np.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    except ValueError:
        return list((a + b).shape)


def _float_params(dist: Distribution, a, b) -> tuple[Tensor, Tensor, object]:
    """Paddle's conversion of two real parameters given as numbers, lists or numpy arrays:
    broadcast float32 Tensors, cast to the first float32/float64 numpy array's dtype."""
    dtype = "float32"
    if isinstance(a, np.ndarray) and str(a.dtype) in ("float32", "float64"):
        dtype = a.dtype
    elif isinstance(b, np.ndarray) and str(b.dtype) in ("float32", "float64"):
        dtype = b.dtype
    ta, tb = dist._to_tensor(a, b)
    if str(dtype) != _dtype_str(ta):
        ta, tb = paddle.cast(ta, dtype), paddle.cast(tb, dtype)
    return ta, tb, dtype


class Normal(Distribution):
    """The normal distribution ``N(loc, scale**2)``; a complex ``loc`` gives the complex
    normal with density ``exp(-|x - loc|**2 / scale**2) / (pi * scale**2)``."""

    def __init__(self, loc, scale, name: str | None = None) -> None:
        self.all_arg_is_float = False
        self.name = name if name is not None else "Normal"
        self.dtype = "float32"
        self._complex_gaussian = False
        if isinstance(loc, int):
            loc = float(loc)
        if isinstance(scale, int):
            scale = float(scale)
        if isinstance(loc, tuple | list):
            loc = np.array(loc)
            if loc.dtype == np.float64:
                loc = loc.astype("float32")
            if loc.dtype == np.complex128:
                loc = loc.astype("complex64")
        if isinstance(scale, tuple | list):
            scale = np.array(scale, dtype=np.float32)

        complex_loc = (
            isinstance(loc, complex)
            or (isinstance(loc, np.ndarray) and loc.dtype in (np.complex64, np.complex128))
            or (self._validate_args(loc) and loc.is_complex())
        )
        if complex_loc:
            self._init_complex(loc, scale)
        elif self._validate_args(loc, scale):
            self.loc, self.scale = loc, scale
            self.dtype = _dtype_str(loc)
        else:
            self.all_arg_is_float = isinstance(loc, float) and isinstance(scale, float)
            self.loc, self.scale, self.dtype = _float_params(self, loc, scale)
        super().__init__(self.loc.shape)

    def _init_complex(self, loc, scale) -> None:
        self._complex_gaussian = True
        self.all_arg_is_float = isinstance(loc, complex) and isinstance(scale, float)
        if isinstance(loc, np.ndarray):
            part = "float32" if loc.dtype == np.complex64 else "float64"
            loc = paddle.complex(paddle.to_tensor(loc.real, part), paddle.to_tensor(loc.imag, part))
        elif isinstance(loc, complex):
            loc = paddle.complex(
                paddle.to_tensor(loc.real, "float32"), paddle.to_tensor(loc.imag, "float32")
            )
        if isinstance(scale, np.ndarray):
            scale = paddle.to_tensor(scale, dtype=scale.dtype)
        elif isinstance(scale, float):
            scale = paddle.to_tensor(scale, dtype="float32")
        self.loc, self.scale = loc, scale
        self.dtype = _dtype_str(loc)

    @property
    def mean(self) -> Tensor:
        """The mean: ``loc``."""
        return self.loc

    @property
    def variance(self) -> Tensor:
        """The variance: ``scale ** 2``."""
        return self.scale.pow(2)

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> Tensor:
        """Samples of shape ``shape + batch_shape`` (``loc + scale * eps``; as in Paddle,
        gradients reach Tensor parameters); a nonzero ``seed`` fixes the draws."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        shape = list(shape)
        output_shape = shape + _broadcast_shape(self.loc, self.scale)
        eps = paddle.tensor.random.gaussian(output_shape, 0.0, 1.0, seed, self.dtype)
        if _dtype_str(self.scale) == str(self.dtype):  # zeros(shape) + scale: scale, broadcast
            out = eps * self.scale + self.loc
        else:
            out = eps * (paddle.zeros(output_shape, dtype=self.dtype) + self.scale) + self.loc
        if self.all_arg_is_float:
            return paddle.reshape(out, shape)
        return out

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """Reparameterized samples ``loc + eps * scale`` of shape ``shape + batch_shape``."""
        if not isinstance(shape, Iterable):
            raise TypeError("sample shape must be Iterable object.")
        shape = self._extend_shape(tuple(shape))
        eps = paddle.normal(mean=0j if self._complex_gaussian else 0.0, shape=list(shape))
        return self.loc + eps * self.scale

    def entropy(self) -> Tensor:
        """Differential entropy: ``0.5 + 0.5 log(2 pi) + log(scale)`` (complex:
        ``1 + log(pi) + 2 log(scale)``), of the batch shape."""
        batch_shape = _broadcast_shape(self.loc, self.scale)
        if self._complex_gaussian:
            zero = paddle.full(batch_shape, 0.0, self.scale.dtype)
            return (1.0 + zero) + (math.log(math.pi) + 2.0 * paddle.log(self.scale + zero))
        if _dtype_str(self.scale) != str(self.dtype):
            zero = paddle.full(batch_shape, 0.0, self.dtype)
            return (0.5 + zero) + (0.5 * math.log(2 * math.pi) + paddle.log(self.scale + zero))
        # Paddle's (0.5 + zeros) + (c + log(scale + zeros)), with the zeros left out
        out = 0.5 + (0.5 * math.log(2 * math.pi) + paddle.log(self.scale))
        return out if list(out.shape) == batch_shape else paddle.broadcast_to(out, batch_shape)

    def log_prob(self, value: Tensor) -> Tensor:
        """Log density of ``value``."""
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        log_scale = paddle.log(self.scale)
        diff = value - self.loc
        if self._complex_gaussian:
            return -1.0 * (diff.conj() * diff) / var - (2.0 * log_scale + math.log(math.pi))
        return -1.0 * (diff * diff) / (2.0 * var) - (log_scale + math.log(math.sqrt(2.0 * math.pi)))

    def probs(self, value: Tensor) -> Tensor:
        """Density of ``value``."""
        value = self._check_values_dtype_in_probs(self.loc, value)
        var = self.scale * self.scale
        diff = value - self.loc
        if self._complex_gaussian:
            return paddle.exp(-1.0 * (diff.conj() * diff) / var) / (math.pi * var)
        return paddle.exp(-1.0 * (diff * diff) / (2.0 * var)) / (
            math.sqrt(2 * math.pi) * self.scale
        )

    def kl_divergence(self, other: Normal) -> Tensor:
        """KL(self || other) in closed form (both real or both complex)."""
        if self._complex_gaussian != other._complex_gaussian:
            raise ValueError(
                "The kl divergence must be computed between two distributions in the same "
                "number field."
            )
        var_ratio = self.scale / other.scale
        var_ratio = var_ratio * var_ratio
        t1 = (self.loc - other.loc) / other.scale
        if self._complex_gaussian:
            t1 = t1.conj() * t1
            return var_ratio + t1 - 1.0 - paddle.log(var_ratio)
        t1 = t1 * t1
        return 0.5 * var_ratio + 0.5 * (t1 - 1.0 - paddle.log(var_ratio))


@register_kl(Normal, Normal)
def _kl_normal_normal(p: Normal, q: Normal) -> Tensor:
    return p.kl_divergence(q)
