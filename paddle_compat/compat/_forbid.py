"""Refuse Paddle-style keywords in ``paddle.compat``'s torch-style functions."""

from __future__ import annotations

import functools


def forbid_keywords(public: str, paddle_name: str, *names: str):
    """Decorate the torch-style function ``public`` so Paddle's keyword names (``x``,
    ``axis``...) raise TypeError pointing at ``paddle_name``, as ``paddle.compat`` does."""

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for k in names:
                if k in kwargs:
                    raise TypeError(
                        f"{public}() received unexpected keyword argument '{k}'. \n"
                        f"Did you mean to use {paddle_name}() instead?"
                    )
            return func(*args, **kwargs)

        return wrapper

    return decorator
