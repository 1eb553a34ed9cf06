"""``paddle.distribution.StudentT``: Student's t distribution with location and scale."""

from __future__ import annotations

import math
from collections.abc import Sequence

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .gamma import Gamma

__all__ = ["StudentT"]


class StudentT(Distribution):
    """Student's t distribution of ``df`` degrees of freedom, shifted by ``loc`` and scaled
    by ``scale``; samples are ``loc + scale * z / sqrt(chi2 / df)``."""

    def __init__(
        self,
        df: float | Tensor,
        loc: float | Tensor,
        scale: float | Tensor,
        name: str | None = None,
    ) -> None:
        self.name = name if name is not None else "StudentT"
        self.df, self.loc, self.scale = self._broadcast_all(df, loc, scale)
        if not self._check_nonnegative(self.df):
            raise ValueError("Every element of input parameter `df` should be nonnegative.")
        if not self._check_nonnegative(self.scale):
            raise ValueError("Every element of input parameter `scale` should be nonnegative.")
        super().__init__(self.df.shape)
        self._chi2 = Gamma(0.5 * self.df, paddle.full_like(self.df, 0.5))

    def _check_nonnegative(self, value: Tensor) -> Tensor:
        return (value >= 0.0).all()

    @property
    def mean(self) -> Tensor:
        """``loc`` where ``df > 1``, else nan."""
        return paddle.where(
            self.df > 1.0, self.loc, paddle.full_like(self.loc, fill_value=float("nan"))
        )

    @property
    def variance(self) -> Tensor:
        """``scale**2 df / (df - 2)`` where ``df > 2``, inf where ``1 < df <= 2``, else nan."""
        df = self.df.clone().detach()
        var = paddle.where(
            self.df > 2.0,
            self.scale.pow(2) * df / (df - 2),
            paddle.full_like(df, fill_value=float("nan")),
        )
        infinite = (self.df <= 2.0).logical_and(self.df > 1.0)
        return paddle.where(infinite, paddle.full_like(var, fill_value=float("inf")), var)

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape``: a standard normal, then the chi-squared
        draws (as in Paddle, gradients reach ``loc``, ``scale`` and ``df``)."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        z = paddle.normal(shape=list(self._extend_shape(shape)))
        chi2 = self._chi2.sample(shape)
        return self.loc + self.scale * (z * paddle.rsqrt(chi2 / self.df))

    def entropy(self) -> Tensor:
        """Differential entropy."""
        df = self.df
        lbeta = paddle.lgamma(0.5 * df) + math.lgamma(0.5) - paddle.lgamma(0.5 * (df + 1))
        return (
            self.scale.log()
            + 0.5 * (df + 1) * (paddle.digamma(0.5 * (df + 1)) - paddle.digamma(0.5 * df))
            + 0.5 * df.log()
            + lbeta
        )

    def log_prob(self, value: Tensor) -> Tensor:
        """Log density of ``value``."""
        value = self._check_values_dtype_in_probs(self.df, value)
        df = self.df
        y = (value - self.loc) / self.scale
        log_norm = (
            self.scale.log()
            + 0.5 * df.log()
            + 0.5 * math.log(math.pi)
            + paddle.lgamma(0.5 * df)
            - paddle.lgamma(0.5 * (df + 1.0))
        )
        return -0.5 * (df + 1.0) * paddle.log1p(y**2.0 / df) - log_norm

    def prob(self, value: Tensor) -> Tensor:
        """Density of ``value``."""
        return paddle.exp(self.log_prob(value))
