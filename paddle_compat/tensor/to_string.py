"""``paddle.tensor.to_string`` (generated from the op registry)."""

from .._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.tensor.to_string"))
from .._core.tensor_repr import set_printoptions  # noqa: E402, F401  (not an op)
