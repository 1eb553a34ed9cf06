"""``paddle.distributed``: a thin re-export of the ``parallel`` package.

``paddle.distributed.X`` is ``parallel.X`` for every name and submodule
(``paddle.distributed.fleet`` is the ``parallel.fleet`` module object, at any depth).
"""

import importlib as _importlib
import importlib.abc as _abc
import importlib.util as _util
import sys as _sys

import parallel as _parallel
from parallel import *  # noqa: F403
from parallel import __all__  # noqa: F401

_PREFIX = __name__ + "."


class _Loader(_abc.Loader):
    def __init__(self, real: str):
        self.real = real

    def create_module(self, spec):
        module = _importlib.import_module(self.real)
        self._spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self._spec


class _Finder(_abc.MetaPathFinder):
    """Finds ``paddle_compat.distributed.X.Y`` as the module ``parallel.X.Y``."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(_PREFIX):
            return None
        real = "parallel." + fullname[len(_PREFIX) :]
        try:
            real_spec = _util.find_spec(real)
        except (ImportError, ValueError):
            return None
        if real_spec is None:
            return None
        return _util.spec_from_loader(
            fullname, _Loader(real), is_package=real_spec.submodule_search_locations is not None
        )


if not any(isinstance(f, _Finder) for f in _sys.meta_path):
    _sys.meta_path.insert(0, _Finder())


def __getattr__(name):
    try:
        return getattr(_parallel, name)
    except AttributeError:
        pass
    try:
        return _importlib.import_module(f"{__name__}.{name}")
    except ImportError:
        raise AttributeError(f"module 'paddle.distributed' has no attribute '{name}'") from None
