"""``paddle.tensor``: every ``paddle.*`` op, and Paddle's category modules ``paddle.tensor.math``,
``.manipulation``, ... (generated from the op registry; ``tensor_modules`` on each op); as in
Paddle 3.3 the module is also callable: ``paddle.tensor(data)`` creates a Tensor."""

import importlib as _importlib
import pkgutil as _pkgutil
import sys as _sys
import types as _types

for _m in sorted(m.name for m in _pkgutil.iter_modules(__path__)):
    _importlib.import_module(f"{__name__}.{_m}")

from .._ops._methods import namespace as _namespace  # noqa: E402

globals().update(_namespace("paddle.tensor"))  # as in Paddle, paddle.tensor.einsum is the op
from ..signal import istft, stft  # noqa: E402, F401  (Paddle's paddle.tensor has them too)
from .array import array_length, array_read, array_write, create_array  # noqa: E402, F401
from .creation import create_tensor  # noqa: E402, F401


class CallableTensorModule(_types.ModuleType):
    """The class of this module: ``paddle.tensor(data, dtype=None, device=None,
    requires_grad=False, pin_memory=False)`` is ``paddle.as_tensor``, while
    ``paddle.tensor.math`` etc. stay submodules."""

    def __call__(self, data, dtype=None, device=None, requires_grad=False, pin_memory=False):
        from .._api_extra import as_tensor

        return as_tensor(data, dtype, device, requires_grad, pin_memory)


_sys.modules[__name__].__class__ = CallableTensorModule
