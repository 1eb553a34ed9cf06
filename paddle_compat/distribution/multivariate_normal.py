"""``paddle.distribution.MultivariateNormal``: the normal distribution over vectors, given its
mean and one of its covariance, precision or lower Cholesky factor."""

from __future__ import annotations

import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp

import paddle_compat as paddle

from .._core.registry import op
from .._core.tensor import Tensor
from .distribution import Distribution
from .kl import register_kl

__all__ = ["MultivariateNormal"]


def _dtype_name(t: Tensor) -> str:
    return str(t.dtype).replace("paddle.", "")


def _swap_last(ndim: int) -> list[int]:
    perm = list(range(ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return perm


def _half_log_det(scale_tril: Tensor) -> Tensor:
    """log |det L| of lower Cholesky factors: the sum of the log diagonal."""
    return scale_tril.diagonal(axis1=-2, axis2=-1).log().sum(-1)


def _precision_to_scale_tril(precision: Tensor) -> Tensor:
    """The lower Cholesky factor of the inverse of ``precision``: with the flipped factor
    ``flip(P) = Lf Lf^T``, ``flip(Lf)^T`` is a lower factor of P's inverse's inverse, and
    solving against the identity inverts it."""
    lf = paddle.linalg.cholesky(paddle.flip(precision, (-2, -1)))
    l_inv = paddle.transpose(paddle.flip(lf, (-2, -1)), _swap_last(lf.ndim))
    eye = paddle.eye(precision.shape[-1], dtype=precision.dtype)
    return paddle.linalg.triangular_solve(l_inv, eye, upper=False)


def _batch_mahalanobis(scale_tril: Tensor, diff: Tensor) -> Tensor:
    """``|L^-1 diff|^2`` over the last axis; L's batch axes broadcast against diff's."""
    n = diff.shape[-1]
    batch = paddle.broadcast_shape(scale_tril.shape[:-2], diff.shape[:-1])
    lower = scale_tril.expand([*batch, n, n])
    rhs = diff.expand([*batch, n]).unsqueeze(-1)
    return paddle.linalg.triangular_solve(lower, rhs, upper=False).pow(2).sum([-2, -1])


@op("_mvn_log_density", tensors=("diff", "scale_tril"), namespaces=(), method=None)
def _mvn_log_density(diff: jax.Array, scale_tril: jax.Array) -> jax.Array:
    """``-(k log(2 pi) + |L^-1 diff|^2) / 2 - log|det L|`` in one kernel (log_prob's eager
    cost is the number of ops it runs)."""
    n = diff.shape[-1]
    batch = jnp.broadcast_shapes(scale_tril.shape[:-2], diff.shape[:-1])
    lower = jnp.broadcast_to(scale_tril, (*batch, n, n))
    rhs = jnp.broadcast_to(diff, (*batch, n))[..., None]
    z = jax.scipy.linalg.solve_triangular(lower, rhs, lower=True)
    m = jnp.sum(z * z, axis=(-2, -1))
    half_log_det = jnp.sum(jnp.log(jnp.diagonal(scale_tril, axis1=-2, axis2=-1)), axis=-1)
    return (-0.5 * (n * math.log(2 * math.pi) + m) - half_log_det).astype(diff.dtype)


class MultivariateNormal(Distribution):
    """Multivariate normal with mean ``loc`` and exactly one of ``covariance_matrix``,
    ``precision_matrix`` or ``scale_tril`` (cast to loc's dtype). A number ``loc`` becomes a
    1-element Tensor of the default dtype. The two matrix forms not given stay None."""

    def __init__(
        self,
        loc: float | Tensor,
        covariance_matrix: Tensor | None = None,
        precision_matrix: Tensor | None = None,
        scale_tril: Tensor | None = None,
    ):
        self.dtype = paddle.get_default_dtype()
        if isinstance(loc, float | int):
            loc = paddle.to_tensor([loc], dtype=self.dtype)
        else:
            self.dtype = _dtype_name(loc)
        if loc.dim() < 1:
            loc = loc.reshape((1,))
        self.covariance_matrix = None
        self.precision_matrix = None
        self.scale_tril = None
        given = [m is not None for m in (covariance_matrix, precision_matrix, scale_tril)]
        if sum(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        name, matrix = next(
            (n, m)
            for n, m in (
                ("scale_tril matrix", scale_tril),
                ("covariance_matrix", covariance_matrix),
                ("precision_matrix", precision_matrix),
            )
            if m is not None
        )
        if matrix.dim() < 2:
            raise ValueError(
                f"{name} must be at least two-dimensional, with optional leading batch dimensions"
            )
        matrix = paddle.cast(matrix, dtype=self.dtype)
        batch_shape = paddle.broadcast_shape(matrix.shape[:-2], loc.shape[:-1])
        expanded = matrix.expand([*batch_shape, matrix.shape[-2], matrix.shape[-1]])
        if scale_tril is not None:
            self.scale_tril = expanded
            self._unbroadcasted_scale_tril = matrix
        elif covariance_matrix is not None:
            self.covariance_matrix = expanded
            self._unbroadcasted_scale_tril = paddle.linalg.cholesky(matrix)
        else:
            self.precision_matrix = expanded
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(matrix)
        self.loc = loc.expand([*batch_shape, -1])
        super().__init__(batch_shape, self.loc.shape[-1:])

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return (
            paddle.square(self._unbroadcasted_scale_tril)
            .sum(-1)
            .expand(self._batch_shape + self._event_shape)
        )

    def sample(self, shape: Sequence[int] = ()) -> Tensor:
        """Samples of shape ``shape + batch_shape + event_shape`` (no gradient)."""
        with paddle.no_grad():
            return self.rsample(shape)

    def rsample(self, shape: Sequence[int] = ()) -> Tensor:
        """``loc + L @ eps`` with standard normal ``eps`` drawn in the default dtype (as
        Paddle's ``paddle.normal``) and cast to loc's dtype."""
        if not isinstance(shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        eps = paddle.cast(paddle.normal(shape=self._extend_shape(shape)), dtype=self.dtype)
        return self.loc + paddle.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(
            -1
        )

    def log_prob(self, value: Tensor) -> Tensor:
        if _dtype_name(value) != self.dtype:
            value = paddle.cast(value, dtype=self.dtype)
        return _mvn_log_density(value - self.loc, self._unbroadcasted_scale_tril)

    def prob(self, value: Tensor) -> Tensor:
        return paddle.exp(self.log_prob(value))

    def entropy(self) -> Tensor:
        k = self._event_shape[0]
        h = 0.5 * k * (1.0 + math.log(2 * math.pi)) + _half_log_det(self._unbroadcasted_scale_tril)
        return h.expand(self._batch_shape) if self._batch_shape else h

    def kl_divergence(self, other: MultivariateNormal) -> Tensor:
        """KL(self || other). As in Paddle, shapes are refused only when both the batch and
        the event shapes differ."""
        if self._batch_shape != other._batch_shape and self._event_shape != other._event_shape:
            raise ValueError(
                "KL divergence of two Multivariate Normal distributions should share the same "
                "`batch_shape` and `event_shape`."
            )
        l1, l2 = self._unbroadcasted_scale_tril, other._unbroadcasted_scale_tril
        perm = _swap_last(l1.ndim)
        cov1 = paddle.matmul(l1, l1.transpose(perm))
        cov2 = paddle.matmul(l2, l2.transpose(perm))
        trace = paddle.linalg.solve(cov2, cov1).diagonal(axis1=-2, axis2=-1).sum(-1)
        expectation = trace + _batch_mahalanobis(l2, self.loc - other.loc)
        return _half_log_det(l2) - _half_log_det(l1) + 0.5 * (expectation - self._event_shape[0])


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p: MultivariateNormal, q: MultivariateNormal) -> Tensor:
    return p.kl_divergence(q)
