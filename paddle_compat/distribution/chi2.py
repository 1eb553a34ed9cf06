"""``paddle.distribution.Chi2``: the chi-squared distribution, ``Gamma(df / 2, 1 / 2)``."""

from __future__ import annotations

import paddle_compat as paddle

from .._core.tensor import Tensor
from .gamma import Gamma
from .normal import _dtype_str

__all__ = ["Chi2"]


class Chi2(Gamma):
    """The chi-squared distribution with ``df`` degrees of freedom (positive)."""

    def __init__(self, df: float | Tensor) -> None:
        if self._validate_args(df):
            self.df = df
            self.dtype = _dtype_str(df)
        else:
            [self.df] = self._to_tensor(df)
            self.dtype = paddle.get_default_dtype()
        self.rate = paddle.full_like(self.df, 0.5)
        if not paddle.all(self.df > 0):
            raise ValueError("The arg of `df` must be positive.")
        super().__init__(self.df * 0.5, self.rate)
