"""``paddle.enable_static`` / ``disable_static`` / ``in_dynamic_mode``: switch between eager
execution and recording ops into static Programs (``_core/static_mode.py``)."""

from __future__ import annotations

from .._core import static_mode
from . import _backward, _program

static_mode.install(_program.record, _backward.minimize)


def enable_static() -> None:
    """Enter static-graph mode: ops record into ``paddle.static.default_main_program()``."""
    static_mode.set_static(True)


def disable_static(place=None) -> None:
    """Back to dynamic (eager) mode; ``place`` sets the device as ``paddle.set_device``."""
    static_mode.set_static(False)
    if place is not None:
        from ..device import set_device

        set_device(place if isinstance(place, str) else _place_str(place))


def in_dynamic_mode() -> bool:
    """True unless ``paddle.enable_static()`` is in effect."""
    return not static_mode.is_static()


def _place_str(place) -> str:
    s = str(place).lower()
    if "gpu" in s or "cuda" in s:
        return "gpu"
    return "cpu"
