"""Shared by the legacy ``paddle.dataset`` readers: Paddle's deprecation notice."""

from __future__ import annotations

from ..utils.deprecated import deprecated

_REASON = "Please use new dataset API which supports paddle.io.DataLoader"


def legacy(update_to: str):
    """``paddle.utils.deprecated`` as Paddle applies it to the legacy readers (a warning on
    each call that names the ``paddle.dataset`` function and its replacement)."""

    def decorate(func):
        func.__module__ = func.__module__.replace("paddle_compat", "paddle", 1)
        return deprecated(since="2.0.0", update_to=update_to, level=1, reason=_REASON)(func)

    return decorate
