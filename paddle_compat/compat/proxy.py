"""``import torch`` answered by paddle-compat: ``paddle.enable_compat()`` puts a finder on
``sys.meta_path`` that makes ``torch`` and ``torch.<sub>`` modules proxies of ``paddle`` and
``paddle.<sub>``. A proxy's attribute is ``paddle.compat``'s torch-style override when there
is one (``torch.nn.Linear`` is ``paddle.compat.nn.Linear``, ``torch.nn.functional.softmax``
is ``paddle.compat.nn.functional.softmax``), else the paddle module's attribute
(``torch.sin is paddle.sin``).

``scope``: only modules under these names (imported after enabling) get the proxy when they
``import torch``; ``blocked_modules``: modules that never do (a real torch, if installed,
is what they import). Real torch modules imported before enabling are set aside and put back
by ``disable_compat``."""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings

_ENABLE_ATTR = "__enable_torch_proxy__"
_DISABLE_ATTR = "__disable_torch_proxy__"
BLOCKED_MODULES: set[str] = {"tvm_ffi"}
_REAL_TORCH: dict[str, types.ModuleType] = {}  # real torch modules set aside while enabled


def _within(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def _overrides() -> dict[str, object]:
    """{torch attribute path: paddle.compat object} from the ``__all__`` of the compat
    submodules (as in Paddle: ``torch.nn.Linear`` is ``paddle.compat.nn.Linear``, while the
    top-level ``torch.sort`` stays ``paddle.sort``), plus ``torch.relu``."""
    from ..nn import functional as paddle_F
    from . import nn as cnn
    from .nn import functional as cF

    out = {"torch.relu": paddle_F.relu}
    for prefix, mod in (("torch.nn", cnn), ("torch.nn.functional", cF)):
        for name in mod.__all__:
            out[f"{prefix}.{name}"] = getattr(mod, name)
    return out


class ProxyModule(types.ModuleType):
    """``torch.<path>``: attributes from ``paddle.compat`` overrides, else from the paddle
    module it stands for; submodules are proxies too."""

    def __init__(self, source: types.ModuleType, name: str):
        super().__init__(name)
        self.__dict__["_source"] = source
        self.__file__ = getattr(source, "__file__", None)
        if hasattr(source, "__path__"):
            self.__path__ = list(source.__path__)

    def __getattr__(self, attr: str):
        full = f"{self.__name__}.{attr}"
        table = _FINDER.overrides
        if full in table:
            return table[full]
        value = getattr(self._source, attr)
        if isinstance(value, types.ModuleType) and value.__name__.startswith("paddle_compat."):
            if full not in sys.modules:
                sys.modules[full] = ProxyModule(value, full)
            return sys.modules[full]
        return value


class _ProxyLoader(importlib.abc.Loader):
    def create_module(self, spec):
        src = "paddle_compat" + spec.name[len("torch") :]
        return ProxyModule(importlib.import_module(src), spec.name)

    def exec_module(self, module):
        pass


class _MarkingLoader(importlib.abc.Loader):
    """Runs a module's own loader after marking the module as in (or out of) scope."""

    def __init__(self, loader, attr: str):
        self._loader, self._attr = loader, attr

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        module.__dict__[self._attr] = True
        self._loader.exec_module(module)


def _caller_has(attr: str) -> bool:
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_globals.get(attr):
            return True
        frame = frame.f_back
    return False


class TorchProxyFinder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self.globally = True
        self.scope: set[str] = set()
        self.overrides: dict[str, object] = {}

    def _marked_spec(self, fullname, path, attr):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _MarkingLoader(spec.loader, attr)
        return spec

    def find_spec(self, fullname, path, target=None):
        if any(_within(fullname, m) for m in BLOCKED_MODULES):
            return self._marked_spec(fullname, path, _DISABLE_ATTR)
        if any(_within(fullname, m) for m in self.scope):
            return self._marked_spec(fullname, path, _ENABLE_ATTR)
        if not _within(fullname, "torch"):
            return None
        if _caller_has(_DISABLE_ATTR) or (not self.globally and not _caller_has(_ENABLE_ATTR)):
            real = _REAL_TORCH.get(fullname)
            if real is not None:
                return importlib.util.spec_from_loader(fullname, _CachedLoader(real))
            return None
        try:
            src = importlib.util.find_spec("paddle_compat" + fullname[len("torch") :])
        except ModuleNotFoundError:
            src = None
        if src is None:
            return None
        is_pkg = src.submodule_search_locations is not None
        return importlib.util.spec_from_loader(
            fullname, _ProxyLoader(), origin=src.origin, is_package=is_pkg
        )


class _CachedLoader(importlib.abc.Loader):
    def __init__(self, module):
        self._module = module

    def create_module(self, spec):
        return self._module

    def exec_module(self, module):
        pass


_FINDER = TorchProxyFinder()


def _scope(scope) -> set[str] | None:
    if scope is None:
        return None
    return {scope} if isinstance(scope, str) else set(scope)


def _drop_proxies() -> None:
    for name, mod in sys.modules.copy().items():
        if _within(name, "torch") and isinstance(mod, ProxyModule):
            del sys.modules[name]


def enable_torch_proxy(*, scope=None, blocked_modules=None, backend="torch", silent=False) -> None:
    """Make ``import torch`` give paddle (see the module docstring); ``scope`` limits it to
    imports made inside those modules. Also ``paddle.enable_compat``."""
    assert backend == "torch", f"Unsupported backend: {backend}"
    if blocked_modules is not None:
        extend_torch_proxy_blocked_modules(_scope(blocked_modules))
    scope = _scope(scope)
    _FINDER.overrides = _overrides()
    for name, mod in sys.modules.copy().items():  # set real torch aside
        if _within(name, "torch"):
            if not isinstance(mod, ProxyModule):
                _REAL_TORCH[name] = mod
            del sys.modules[name]
    warn = (lambda m: None) if silent else warnings.warn
    if _FINDER not in sys.meta_path:
        _FINDER.globally, _FINDER.scope = scope is None, scope or set()
    elif _FINDER.globally:
        if scope is not None:
            warn("PyTorch already enabled globally, scope modification ignored.")
    elif scope is None:
        warn("Enabling PyTorch compat globally, previous scope will be ignored.")
        _FINDER.globally = True
    else:
        if scope != _FINDER.scope:
            warn(
                f"Extending PyTorch compat scope, previous scope: {_FINDER.scope}, new scope: "
                f"{scope}."
            )
        _FINDER.scope |= scope
    # as Paddle: each call adds the finder again and disable_compat removes one, so after
    # enable_compat twice one disable_compat leaves ``import torch`` answered
    sys.meta_path.insert(0, _FINDER)


def disable_torch_proxy() -> None:
    """Stop answering ``import torch`` with paddle; real torch modules set aside come back.
    Also ``paddle.disable_compat``."""
    if _FINDER not in sys.meta_path:
        warnings.warn("torch compat is not installed.", stacklevel=2)
        return
    sys.meta_path.remove(_FINDER)
    _drop_proxies()
    sys.modules.update(_REAL_TORCH)


@contextlib.contextmanager
def use_torch_proxy_guard(*, enable: bool = True, scope=None, silent: bool = False):
    """Run a block with the proxy on (``enable``) or off, then restore the previous state.
    Also ``paddle.use_compat_guard``."""
    scope = _scope(scope)
    was_on = _FINDER in sys.meta_path
    state = (_FINDER.globally, set(_FINDER.scope))
    same = state[0] if scope is None else state[1] == scope
    if enable == was_on and same:
        yield
        return
    if enable:
        enable_torch_proxy(scope=scope, silent=silent)
    else:
        disable_torch_proxy()
    try:
        yield
    finally:
        if enable:  # takes back the finder this guard added
            disable_torch_proxy()
        else:
            enable_torch_proxy(scope=None, silent=True)
        _FINDER.globally, _FINDER.scope = state[0], state[1]


def extend_torch_proxy_blocked_modules(modules) -> None:
    """Add modules that never get the proxy when they ``import torch``."""
    BLOCKED_MODULES.update(modules)


__all__ = [
    "enable_torch_proxy",
    "disable_torch_proxy",
    "use_torch_proxy_guard",
    "extend_torch_proxy_blocked_modules",
]
