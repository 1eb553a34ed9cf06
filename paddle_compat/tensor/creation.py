"""``paddle.tensor.creation`` (generated from the op registry)."""

from .._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.tensor.creation"))
from .._core.tensor_api import create_tensor  # noqa: E402, F401  (also a Tensor attribute)
