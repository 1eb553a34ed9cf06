"""``paddle.linalg``: linear-algebra ops (generated from the op registry)."""

from ._core.registry import REGISTRY as _REGISTRY
from ._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.linalg"))

# ops that Paddle also exposes here but that live in other categories
for _n in ("matmul", "diagonal", "matrix_transpose"):
    if _n not in globals() and _n in _REGISTRY:
        globals()[_n] = _REGISTRY[_n]
del _n
