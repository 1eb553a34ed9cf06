"""``paddle.LazyGuard``: parameters created inside the guard are not initialized yet.

Their initializer is kept on the parameter: ``param.initialize()`` runs it (drawing from the
random stream as it is then; a second call raises AssertionError, as Paddle) and
``param._is_initialized()`` is False until it ran or the parameter was given a value another
way (``set_state_dict``, ``set_value``: any write). As in Paddle, such a write does not drop the
kept initializer: a later ``initialize()`` still overwrites the value. Creating a layer under
the guard therefore consumes no random numbers. Unlike Paddle, an uninitialized parameter
holds zeros of its shape (Paddle holds no memory: reading it raises)."""

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
    param._lazy_init, param._lazy_version = init, param._version
    param.initialize = functools.partial(_initialize, param)
    param._is_initialized = functools.partial(is_initialized, param)
    return True


def _initialize(param) -> None:
    """Run the kept initializer now (once)."""
    init = param.__dict__.pop("_lazy_init", None)
    assert init is not None, "Required self._init_func is not None, but received None."
    version = param._version
    init.forward(param)
    param._version = version
    param._lazy_version = None


def note_written(param) -> None:
    """An initializer filled ``param`` outside the guard: it now counts as initialized (the
    kept initializer stays, as in Paddle)."""
    if "_lazy_version" in getattr(param, "__dict__", ()):
        param._lazy_version = None


def is_initialized(param) -> bool:
    """False until the kept initializer ran or the parameter was written."""
    kept = param.__dict__.get("_lazy_version")
    return kept is None or param._version != kept
