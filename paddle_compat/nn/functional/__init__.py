"""paddle.nn.functional: generated from the op registry (namespace "paddle.nn.functional")."""

import importlib as _importlib
import pkgutil as _pkgutil

for _m in sorted(m.name for m in _pkgutil.iter_modules(__path__)):
    _importlib.import_module(f"{__name__}.{_m}")

from ..._ops._methods import namespace as _namespace  # noqa: E402

globals().update(_namespace("paddle.nn.functional"))

from ..attention.sdpa import sdp_kernel  # noqa: E402,F401
