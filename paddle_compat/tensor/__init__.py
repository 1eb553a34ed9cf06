"""``paddle.tensor``: every ``paddle.*`` op, and Paddle's category modules ``paddle.tensor.math``,
``.manipulation``, ... (generated from the op registry; ``tensor_modules`` on each op)."""

import importlib as _importlib
import pkgutil as _pkgutil

for _m in sorted(m.name for m in _pkgutil.iter_modules(__path__)):
    _importlib.import_module(f"{__name__}.{_m}")

from .._ops._methods import namespace as _namespace  # noqa: E402

globals().update(_namespace("paddle.tensor"))  # as in Paddle, paddle.tensor.einsum is the op
