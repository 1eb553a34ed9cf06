"""``paddle.LazyGuard``: parameters created inside the guard are not initialized yet.

Their initializer is kept and runs when ``param.initialize()`` is called (drawing from the
random stream as it is then) or is dropped when ``set_state_dict`` / ``set_value`` gives the
parameter a value; ``param._is_initialized()`` says which. Creating a layer under the guard
therefore consumes no random numbers, as in Paddle. Unlike Paddle, an uninitialized
parameter holds zeros of its shape (Paddle holds no memory: reading it raises)."""

from __future__ import annotations

import functools

from ..._core.tensor import Parameter

__all__ = ["LazyGuard"]

_depth = 0


def active() -> bool:
    """Whether a LazyGuard is open."""
    return _depth > 0


class LazyGuard:
    """Context manager: Layers built inside it get lazily initialized parameters."""

    def __enter__(self) -> LazyGuard:
        global _depth
        _depth += 1
        return self

    def __exit__(self, *exc) -> None:
        global _depth
        _depth -= 1


def defer(init, param) -> bool:
    """Keep ``init`` on ``param`` instead of running it, when a LazyGuard is open."""
    if not _depth or not isinstance(param, Parameter):
        return False
    param._lazy_init = init
    param.initialize = functools.partial(_initialize, param)
    param._is_initialized = functools.partial(is_initialized, param)
    return True


def _initialize(param) -> None:
    """Run the kept initializer now (once)."""
    init = param.__dict__.pop("_lazy_init", None)
    if init is not None:
        version = param._version
        init.forward(param)
        param._version = version


def is_initialized(param) -> bool:
    return "_lazy_init" not in param.__dict__


def mark_initialized(param) -> None:
    """``param`` got its value another way (a loaded state dict): drop the kept initializer."""
    if getattr(param, "__dict__", None) is not None:
        param.__dict__.pop("_lazy_init", None)
