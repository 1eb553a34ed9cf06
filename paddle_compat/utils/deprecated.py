"""``paddle.utils.deprecated``: mark an API deprecated (a docstring notice; a warning or an
error when called, by ``level``)."""

from __future__ import annotations

import functools
import inspect
import warnings


class VisibleDeprecationWarning(UserWarning):
    """The warning a deprecated API emits (a UserWarning, so it is shown by default)."""


def _version(v: str) -> list[int]:
    parts = [int(p) for p in v.split(".") if p.isdigit()]
    return parts + [0] * (4 - len(parts))


def deprecated(update_to: str = "", since: str = "", reason: str = "", level: int = 0):
    """Decorate a function as deprecated: its docstring gains a warning; ``level`` 0 changes
    nothing else, 1 warns (VisibleDeprecationWarning) on each call when the running version
    is at least ``since``, 2 raises RuntimeError on each call. ``update_to`` must name a
    ``paddle.`` API."""

    def decorator(func):
        assert isinstance(update_to, str), 'type of "update_to" must be str.'
        assert isinstance(since, str), 'type of "since" must be str.'
        assert isinstance(reason, str), 'type of "reason" must be str.'
        assert isinstance(level, int) and 0 <= level < 3, (
            f'type of "level" must be int and must be one of 0, 1, 2. But received: {level}.'
        )
        api = f"{func.__module__}.{func.__name__}"
        msg = f'API "{api}" is deprecated'
        if since.strip():
            msg += f" since {since.strip()}"
        msg += ", and will be removed in future versions."
        if update_to.strip():
            assert update_to.strip().startswith("paddle."), (
                f'Argument update_to must start with "paddle.", your value is "{update_to}"'
            )
            msg += f' Please use "{update_to.strip()}" instead.'
        if reason.strip():
            msg += f"\n    Reason: {reason.strip()}"
        if func.__doc__:
            func.__doc__ = "\n\nWarning:\n    " + msg + "\n\n" + inspect.cleandoc(func.__doc__)
        if level == 0:
            return func

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if level == 2:
                raise RuntimeError(f'API "{api}" has been deprecated.')
            from .. import __version__

            if not since.strip() or _version(__version__) >= _version(since):
                warnings.warn(
                    f"\033[93m\nWarning:\n{msg} \033[0m", VisibleDeprecationWarning, stacklevel=2
                )
            return func(*args, **kwargs)

        return wrapper

    return decorator
