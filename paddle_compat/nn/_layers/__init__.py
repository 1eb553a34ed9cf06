"""Layer classes, one module per Paddle doc category; each module lists its public names in
``__all__`` and they are re-exported from ``paddle.nn``."""

import importlib as _importlib
import pkgutil as _pkgutil

__all__ = []
for _m in sorted(m.name for m in _pkgutil.iter_modules(__path__)):
    _mod = _importlib.import_module(f"{__name__}.{_m}")
    for _n in getattr(_mod, "__all__", ()):
        globals()[_n] = getattr(_mod, _n)
        __all__.append(_n)
