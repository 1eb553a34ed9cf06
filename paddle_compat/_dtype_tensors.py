"""PyTorch-style typed tensor constructors of Paddle 3.3 (``paddle.FloatTensor`` ...), as
measured on real Paddle 3.3.1: integers give an uninitialized Tensor of that shape, a list or
scalar is converted to the dtype, and a numpy array or Tensor keeps its own dtype."""

from __future__ import annotations

import numpy as np

from ._core.tensor import Tensor

_DTYPES = {
    "FloatTensor": "float32",
    "DoubleTensor": "float64",
    "HalfTensor": "float16",
    "BFloat16Tensor": "bfloat16",
    "ByteTensor": "uint8",
    "CharTensor": "int8",
    "ShortTensor": "int16",
    "IntTensor": "int32",
    "LongTensor": "int64",
    "BoolTensor": "bool",
}


class DtypeTensorFactory:
    """``paddle.<Kind>Tensor(*args, device=None)``: a Tensor of one dtype."""

    def __init__(self, name: str, dtype: str):
        self.__name__ = self.__qualname__ = name
        self.dtype = dtype

    def __call__(self, *args, device=None, **kwargs):
        import paddle_compat as paddle

        if not args:
            return paddle.empty([0], dtype=self.dtype)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return paddle.empty(list(args), dtype=self.dtype)
        if len(args) == 1:
            data = args[0]
            if isinstance(data, Tensor | np.ndarray):
                return paddle.to_tensor(data)
            if isinstance(data, list | tuple | float | int | bool | complex):
                return paddle.to_tensor(data, dtype=self.dtype)
        raise ValueError(
            "(InvalidArgument) We support construct Tensor from numpy value or "
            "tensor(Tensor or phi::DenseTensor) with python args and kwargs by this "
            "initializer, but the first argument should be PyArray or Tensor or "
            "phi::DenseTensor. Please check your input first and make sure you call the "
            "existed constructor."
        )

    def __repr__(self) -> str:
        return f"<class 'paddle.{self.__name__}'>"


FACTORIES = {name: DtypeTensorFactory(name, dt) for name, dt in _DTYPES.items()}
