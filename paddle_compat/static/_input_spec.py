"""InputSpec: the shape/dtype of a to_static input; None or -1 marks a dynamic dimension."""

from __future__ import annotations

from .._core import dtype as _dt


class InputSpec:
    """Describes one input of a to_static function or Layer."""

    def __init__(self, shape, dtype="float32", name=None, stop_gradient=False):
        if isinstance(shape, int):
            shape = [shape]
        self.shape = tuple(-1 if d is None else int(d) for d in shape)
        self.dtype = _dt.to_dtype(dtype)
        self.name = name
        self.stop_gradient = stop_gradient

    @classmethod
    def from_tensor(cls, tensor, name=None) -> InputSpec:
        return cls(tensor.shape, tensor.dtype, name or tensor.name)

    @classmethod
    def from_numpy(cls, ndarray, name=None) -> InputSpec:
        return cls(ndarray.shape, ndarray.dtype, name)

    def batch(self, batch_size) -> InputSpec:
        self.shape = (int(batch_size), *self.shape)
        return self

    def unbatch(self) -> InputSpec:
        self.shape = self.shape[1:]
        return self

    def __repr__(self) -> str:
        return (
            f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
            f"stop_gradient={self.stop_gradient})"
        )

    def __eq__(self, other) -> bool:
        return isinstance(other, InputSpec) and (self.shape, self.dtype, self.name) == (
            other.shape,
            other.dtype,
            other.name,
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.name))
