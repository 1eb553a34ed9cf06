"""Make ``import paddle`` (at any depth) resolve to paddle_compat's module objects."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

ALIAS = "paddle"
TARGET = "paddle_compat"


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target_name: str):
        self.target_name = target_name

    def create_module(self, spec):
        module = importlib.import_module(self.target_name)
        self._real_spec = module.__spec__
        # submodules the package imported itself answer to the alias too: importing one of them
        # as paddle.X.Y later must not rebind the package attribute Y (paddle.tensor.einsum is
        # the op, the module is paddle.tensor.einsum in sys.modules only)
        prefix = self.target_name + "."
        # (a copy: another thread may import meanwhile, and list(sys.modules.items()) makes a
        # tuple per entry, which can start a garbage collection that lets that thread run)
        for name, mod in sys.modules.copy().items():
            if name.startswith(prefix):
                sys.modules.setdefault(ALIAS + name[len(TARGET) :], mod)
        return module

    def exec_module(self, module):
        module.__spec__ = self._real_spec  # the import system overwrote it with the alias spec


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``paddle.X.Y`` as the already-importable ``paddle_compat.X.Y``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != ALIAS and not fullname.startswith(ALIAS + "."):
            return None
        real = TARGET + fullname[len(ALIAS) :]
        try:
            real_spec = importlib.util.find_spec(real)
        except (ImportError, ValueError):
            return None
        if real_spec is None:
            return None
        spec = importlib.machinery.ModuleSpec(
            fullname,
            _AliasLoader(real),
            is_package=real_spec.submodule_search_locations is not None,
        )
        return spec


_finder = _AliasFinder()


def install() -> None:
    """Route ``import paddle`` to paddle_compat, even where real Paddle is installed."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    import paddle_compat

    for name in [n for n in list(sys.modules) if n.startswith(ALIAS + ".") or n == ALIAS]:
        mod = sys.modules[name]
        if not getattr(mod, "__name__", "").startswith(TARGET):
            del sys.modules[name]
    sys.modules[ALIAS] = paddle_compat
    for name, mod in sys.modules.copy().items():
        if name.startswith(TARGET + "."):
            sys.modules[ALIAS + name[len(TARGET) :]] = mod
