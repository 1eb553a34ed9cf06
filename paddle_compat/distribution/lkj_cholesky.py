"""``paddle.distribution.LKJCholesky``: the LKJ distribution (Lewandowski, Kurowicka and Joe,
2009) over lower Cholesky factors of ``dim x dim`` correlation matrices, sampled by the
"onion" or the "cvine" method."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Literal

import numpy as np

import paddle_compat as paddle

from .._core.tensor import Tensor
from .beta import Beta
from .distribution import Distribution

__all__ = ["LKJCholesky"]


def _mvlgamma(a: Tensor, p: int) -> Tensor:
    """The multivariate log gamma function of dimension ``p``."""
    j = paddle.arange(1, p + 1, dtype=a.dtype)
    terms = paddle.lgamma(a.unsqueeze(-1) + (1 - j) / 2)
    return (p * (p - 1) / 4) * paddle.log(paddle.to_tensor(math.pi, dtype=a.dtype)) + terms.sum(-1)


def _introsort_order(keys: list[int]) -> list[int]:
    """The positions of ``keys`` in the order libstdc++'s ``std::sort`` leaves them when it
    compares keys only (introsort: median-of-three quicksort down to runs of 16, heapsort
    past the depth limit, then insertion sort). Paddle's CPU ``argsort`` (unstable) is that
    sort, so equal keys come out in its order, not the original one."""
    a = [(k, i) for i, k in enumerate(keys)]

    def sift(first: int, hole: int, n: int, value) -> None:  # __adjust_heap + __push_heap
        top, child = hole, hole
        while child < (n - 1) // 2:
            child = 2 * (child + 1)
            if a[first + child][0] < a[first + child - 1][0]:
                child -= 1
            a[first + hole] = a[first + child]
            hole = child
        if n % 2 == 0 and child == (n - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole] = a[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and a[first + parent][0] < value[0]:
            a[first + hole] = a[first + parent]
            hole, parent = parent, (parent - 1) // 2
        a[first + hole] = value

    def heapsort(first: int, last: int) -> None:
        n = last - first
        for parent in range((n - 2) // 2, -1, -1):
            sift(first, parent, n, a[first + parent])
        while last - first > 1:
            last -= 1
            value, a[last] = a[last], a[first]
            sift(first, 0, last - first, value)

    def median_to_first(result: int, x: int, y: int, z: int) -> None:
        kx, ky, kz = a[x][0], a[y][0], a[z][0]
        if kx < ky:
            pick = y if ky < kz else (z if kx < kz else x)
        else:
            pick = x if kx < kz else (z if ky < kz else y)
        a[result], a[pick] = a[pick], a[result]

    def loop(first: int, last: int, depth: int) -> None:
        while last - first > 16:
            if depth == 0:
                heapsort(first, last)
                return
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            pivot, lo, hi = a[first][0], first + 1, last
            while True:
                while a[lo][0] < pivot:
                    lo += 1
                hi -= 1
                while pivot < a[hi][0]:
                    hi -= 1
                if not lo < hi:
                    break
                a[lo], a[hi] = a[hi], a[lo]
                lo += 1
            loop(lo, last, depth)
            last = lo

    def insert(i: int, lo: int) -> None:  # shift a[i] left while smaller (no guard below lo)
        value = a[i]
        while i > lo and value[0] < a[i - 1][0]:
            a[i] = a[i - 1]
            i -= 1
        a[i] = value

    n = len(a)
    if n > 1:
        loop(0, n, 2 * (n.bit_length() - 1))
        for i in range(1, n):
            insert(i, 0)
    return [i for _, i in a]


@functools.lru_cache(maxsize=64)
def _strict_lower_gather(batch: int, dim: int) -> np.ndarray:
    """Where each entry of ``batch`` matrices ``dim x dim`` reads from ``[0, *values]``: 0 on
    and above the diagonal; below it, Paddle's placement of ``values`` (``batch`` runs of the
    strictly lower entries, row by row), which pairs entries through its unstable argsort."""
    rows, cols = np.tril_indices(dim, -1)
    count = len(rows)
    # Paddle scatters value t to the t-th (batch, entry) pair of a key sort of batch indices
    order = _introsort_order([t % batch for t in range(batch * count)])
    index = np.zeros((batch, dim, dim), np.int64)
    for t, s in enumerate(order):
        b, e = s % batch, s // batch
        index[b, rows[e], cols[e]] = t + 1
    return index.reshape(-1)


def _vec_to_strict_tril(vec: Tensor, dim: int, sample_shape: tuple[int, ...]) -> Tensor:
    """``vec`` as the strictly lower triangles of matrices shaped
    ``sample_shape + (-1, dim, dim)``, placed as Paddle places them."""
    batch = vec.shape[0] // (dim * (dim - 1) // 2)
    padded = paddle.concat([paddle.zeros([1], dtype=vec.dtype), vec])
    index = paddle.to_tensor(_strict_lower_gather(batch, dim))
    gathered = paddle.index_select(padded, index, axis=0)
    return gathered.reshape([*sample_shape, batch // math.prod(sample_shape), dim, dim])


class LKJCholesky(Distribution):
    """LKJ distribution over Cholesky factors of correlation matrices with shape parameter
    ``concentration`` (a float, or a Tensor of batch shape). No mean, variance or entropy (as
    in Paddle)."""

    def __init__(
        self,
        dim: int = 2,
        concentration: float = 1.0,
        sample_method: Literal["onion", "cvine"] = "onion",
    ) -> None:
        if self._validate_args(concentration):
            self.concentration = concentration
            self.dtype = str(concentration.dtype).replace("paddle.", "")
        else:
            [self.concentration] = self._to_tensor(concentration)
            self.dtype = paddle.get_default_dtype()
        self.dim = dim
        if not self.dim >= 2:
            raise ValueError(f"Expected dim greater than or equal to 2. Found dim={dim}.")
        if not isinstance(self.dim, int):
            raise TypeError(f"Expected dim to be an integer. Found dim={dim}.")
        if not paddle.all(self.concentration > 0):
            raise ValueError("The arg of `concentration` must be positive.")
        self.sample_method = sample_method
        marginal = self.concentration + 0.5 * (self.dim - 2)
        offset = paddle.arange(self.dim - 1, dtype=self.concentration.dtype)
        if sample_method == "onion":
            offset = paddle.concat([paddle.zeros((1,), dtype=offset.dtype), offset])
            self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        elif sample_method == "cvine":
            # row i of the (dim-1) x (dim-1) lower triangle holds 0.5 * [0..i]
            _, cols = np.tril_indices(self.dim - 1)
            offset_tril = paddle.index_select(0.5 * offset, paddle.to_tensor(cols), axis=0)
            conc = marginal.unsqueeze(-1) - offset_tril
            self._beta = Beta(conc, conc)
        else:
            raise ValueError("`method` should be one of 'cvine' or 'onion'.")
        super().__init__(self.concentration.shape, (dim, dim))

    def _onion(self, sample_shape: Sequence[int]) -> Tensor:
        """The onion method: beta-distributed squared row norms times uniform directions."""
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u = paddle.randn(self._extend_shape(sample_shape), dtype=y.dtype).tril(-1)
        u = u / u.norm(axis=-1, keepdim=True)
        zero_row = paddle.zeros([*u.shape[:-2], 1, self.dim], dtype=u.dtype)
        u = paddle.concat([zero_row, u[..., 1:, :]], axis=-2)
        w = paddle.sqrt(y) * u
        tiny = paddle.finfo(w.dtype).tiny
        diag = paddle.clip(1 - paddle.sum(w**2, axis=-1), min=tiny).sqrt()
        return w + paddle.diag_embed(diag)

    def _cvine(self, sample_shape: Sequence[int]) -> Tensor:
        """The C-vine method: beta-distributed partial correlations turned into a factor."""
        beta_sample = self._beta.sample(sample_shape).unsqueeze(-1)
        partial = 2 * beta_sample - 1
        if self.dim == 2:
            partial = partial.unsqueeze(-2)
        size = self.dim * (self.dim - 1) // 2 * math.prod(sample_shape)
        if len(self.concentration.shape) != 0:
            size *= self.concentration.shape[-1]
        partial = partial.reshape((size,))
        partial = _vec_to_strict_tril(partial, self.dim, tuple(sample_shape))
        tiny = paddle.finfo(beta_sample.dtype).tiny
        r = paddle.clip(partial, min=-1 + tiny, max=1 - tiny)
        z1m_cumprod_sqrt = paddle.cumprod(paddle.sqrt(1 - r**2), dim=-1)
        pad = [0, 0] * (z1m_cumprod_sqrt.ndim - 1) + [1, 0]
        shifted = paddle.nn.functional.pad(
            z1m_cumprod_sqrt[..., :-1], pad=pad, mode="constant", value=1.0
        )
        r = r + paddle.eye(partial.shape[-2], partial.shape[-1])
        return r * shifted

    def sample(self, sample_shape: Sequence[int] = ()) -> Tensor:
        """Cholesky factors of shape ``sample_shape + batch_shape + (dim, dim)``."""
        if not isinstance(sample_shape, Sequence):
            raise TypeError("sample shape must be Sequence object.")
        if self.sample_method == "onion":
            res = self._onion(sample_shape)
        else:
            res = self._cvine(sample_shape)
        return res.reshape([*sample_shape, *self.concentration.shape, self.dim, self.dim])

    def log_prob(self, value: Tensor) -> Tensor:
        """The log density of Cholesky factors ``value`` (through their diagonals)."""
        diag = paddle.diagonal(value, offset=0, axis1=-1, axis2=-2)[..., 1:]
        order = paddle.arange(2, self.dim + 1, dtype=self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = paddle.sum(order * paddle.log(diag), axis=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = paddle.lgamma(alpha) * dm1
        numerator = _mvlgamma(alpha - 0.5, dm1)
        normalize = 0.5 * dm1 * math.log(math.pi) + numerator - denominator
        return unnormalized - normalize
