"""Shared by the static-mode case files: a fresh main/startup Program pair (own names and
scope) with static mode on, and parameters with fixed values."""

from __future__ import annotations

import contextlib

from _util import randn

import paddle


@contextlib.contextmanager
def static_programs():
    """``(main, startup)`` inside ``program_guard``, static mode on and always off again."""
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with (
            paddle.base.unique_name.guard(),
            paddle.static.scope_guard(paddle.static.Scope()),
            paddle.static.program_guard(main, startup),
        ):
            yield main, startup
    finally:
        paddle.disable_static()


def fixed_attr(*shape, seed, name=None):
    """A ParamAttr whose initializer assigns ``randn(*shape, seed=seed)``."""
    init = paddle.nn.initializer.Assign(randn(*shape, seed=seed))
    return paddle.ParamAttr(name=name, initializer=init)
