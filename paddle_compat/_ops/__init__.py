"""Op implementations, one module per Paddle doc category. Importing this package registers
every op in ``paddle_compat._core.registry.REGISTRY``."""

import importlib
import pkgutil

for _m in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _m.startswith("_"):
        importlib.import_module(f"{__name__}.{_m}")

from ._methods import install_tensor_methods, namespace  # noqa: E402

__all__ = ["install_tensor_methods", "namespace"]
