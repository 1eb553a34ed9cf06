"""InputSpec: the shape/dtype of a to_static input; None or -1 marks a dynamic dimension.

Behaviour measured from Paddle 3.3.1: ``shape`` must be a list or tuple of Python ints/None
(None and negative sizes become -1; it is stored as a tuple); a ``str`` or ``numpy.dtype``
dtype is converted to a paddle dtype with numpy's meaning (``"float"`` is float64), any other
dtype object (``np.float32``, ``float``, a paddle dtype) is kept as given. ``batch``/``unbatch``
change the spec in place and return it. Specs are equal when shape, dtype, name and
stop_gradient are; the hash leaves out the name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._core import dtype as _dt

if TYPE_CHECKING:
    from collections.abc import Sequence

    ShapeLike = Sequence[int | None]
    DTypeLike = str | np.dtype | type | _dt.DType


def _convert_dtype(dtype):
    if isinstance(dtype, str):
        try:
            return _dt.to_dtype(np.dtype(dtype))
        except TypeError:
            try:  # names numpy does not know: bfloat16, float8_*
                return _dt.to_dtype(dtype)
            except TypeError:
                raise TypeError(f"data type {dtype!r} not understood") from None
    if isinstance(dtype, np.dtype):
        return _dt.to_dtype(dtype)
    return dtype


class InputSpec:
    """Describes one input of a to_static function or Layer."""

    def __init__(
        self,
        shape: ShapeLike,
        dtype: DTypeLike = "float32",
        name: str | None = None,
        stop_gradient: bool = False,
    ) -> None:
        self.shape = self._verify(shape)
        self.dtype = _convert_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None) -> InputSpec:
        """A spec with the Tensor's shape and dtype; the name defaults to the Tensor's."""
        from .._core.tensor import Tensor

        if not isinstance(tensor, Tensor):
            raise ValueError(
                f"Input `tensor` should be a Tensor, but received {type(tensor).__name__}."
            )
        return cls(list(tensor.shape), tensor.dtype, name or tensor.name)

    @classmethod
    def from_numpy(cls, ndarray, name=None) -> InputSpec:
        """A spec with the array's shape and dtype."""
        return cls(list(ndarray.shape), ndarray.dtype, name)

    def batch(self, batch_size) -> InputSpec:
        """Prepend ``batch_size`` (an int, or a list/tuple holding one) to the shape."""
        if isinstance(batch_size, list | tuple):
            if len(batch_size) != 1:
                raise ValueError(
                    f"Length of batch_size: {batch_size} shall be 1, but received "
                    f"{len(batch_size)}."
                )
            batch_size = batch_size[0]
        elif not isinstance(batch_size, int):
            raise TypeError(
                f"type(batch_size) shall be `int`, but received {type(batch_size).__name__}."
            )
        self.shape = (batch_size, *self.shape)
        return self

    def unbatch(self) -> InputSpec:
        """Drop the first dimension."""
        if len(self.shape) == 0:
            raise ValueError("Not support to unbatch a InputSpec when len(shape) == 0.")
        self.shape = self.shape[1:]
        return self

    def _verify(self, shape) -> tuple:
        if not isinstance(shape, list | tuple):
            raise TypeError(
                "Type of `shape` in InputSpec should be one of (tuple, list), but received "
                f"{type(shape).__name__}."
            )
        out = []
        for i, d in enumerate(shape):
            if d is not None and not isinstance(d, int):
                raise ValueError(
                    f"shape[{i}] should be an `int`, but received `{type(d).__name__}`:{d}."
                )
            out.append(-1 if d is None or d < 0 else d)
        return tuple(out)

    def _create_feed_layer(self):
        """The static-graph data variable for this spec (``paddle.static.data``)."""
        from .. import static

        return static.data(self.name, list(self.shape), self.dtype)

    def _paddle_dtype(self):
        """The spec's dtype as a paddle dtype (also for ``np.float32``-style dtypes)."""
        return _dt.to_dtype(self.dtype)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
            f"stop_gradient={self.stop_gradient})"
        )

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and all(
            _same(getattr(self, a), getattr(other, a))
            for a in ("shape", "dtype", "name", "stop_gradient")
        )

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.stop_gradient))


def _same(a, b) -> bool:
    if isinstance(a, _dt.DType) != isinstance(b, _dt.DType):
        return False  # paddle.float32 != np.float32, as in Paddle
    return bool(a == b)
