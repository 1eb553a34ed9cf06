"""``paddle.sysconfig``: where Paddle's C++ headers and libraries are. paddle-compat ships
none (there is nothing to compile custom operators against); the paths are those Paddle
uses, under this package: ``include`` and ``libs``, which do not exist."""

from __future__ import annotations

import os

_ROOT = os.path.dirname(os.path.abspath(__file__))


def get_include() -> str:
    """The directory Paddle's headers would be in (``<package>/include``; absent here)."""
    return os.path.join(_ROOT, "include")


def get_lib() -> str:
    """The directory Paddle's libraries would be in (``<package>/libs``; absent here)."""
    return os.path.join(_ROOT, "libs")


__all__ = ["get_include", "get_lib"]
