"""``paddle.base.dygraph.base``: ``guard``, ``no_grad``, ``in_to_static_mode``."""

from __future__ import annotations

import contextlib

import jax

from ..._core import trace_state
from ..._core.autograd import enable_grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401


@contextlib.contextmanager
def guard(place=None):
    """Run a block in dynamic mode (always on here), with new Tensors on ``place`` if given."""
    from ..._core import place as _place

    prev = _place._current
    if place is not None:
        _place.set_device(place)
    try:
        yield
    finally:
        if place is not None:
            if prev is None:
                _place.set_device(_place.device_name(jax.local_devices()[0]))
                _place._current = None
            else:
                _place.set_device(_place.device_name(prev))


def enabled() -> bool:
    """True: dynamic mode is the only mode."""
    return True


def enable_dygraph(place=None) -> None:
    if place is not None:
        from ..._core.place import set_device

        set_device(place)


def disable_dygraph() -> None:
    raise RuntimeError(
        "paddle.base.dygraph.disable_dygraph() (static-graph mode) is not supported by "
        "paddle-compat; use paddle.jit.to_static to compile functions."
    )


def in_to_static_mode() -> bool:
    """True while a ``paddle.jit.to_static`` function is being traced."""
    return trace_state.current() is not None


in_declarative_mode = in_to_static_mode
