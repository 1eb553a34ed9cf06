"""``paddle.tensor.ops`` (generated from the op registry)."""

from .._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.tensor.ops"))
