"""``paddle.base.unique_name`` (also ``paddle.utils.unique_name``): the generator of layer and
parameter names (``linear_0``, ``linear_0.w_0``); ``switch`` and ``guard`` swap it."""

from __future__ import annotations

import contextlib

from .._core import tensor as _tensor
from .._core.tensor import UniqueNameGenerator
from ..framework import _param_attr


def generate(key: str) -> str:
    """``{key}_{n}`` with the next n for ``key`` (after the guard's prefix, if any)."""
    return _tensor._name_generator(key)


def generate_with_ignorable_key(key: str) -> str:
    """In dynamic mode the key is ignored: ``dygraph_tmp_{n}``."""
    return _tensor._name_generator.generate_with_ignorable_key(key)


def switch(new_generator=None, new_para_name_checker=None):
    """Make ``new_generator`` (default: a fresh one) current, and ``new_para_name_checker``
    (default: none) the set of parameter names already used; returns the previous pair."""
    old = (_tensor._name_generator, _param_attr._used_names)
    _tensor._name_generator = new_generator if new_generator is not None else UniqueNameGenerator()
    _param_attr._used_names = (
        new_para_name_checker
        if new_para_name_checker is not None
        else _param_attr.DygraphParameterNameChecker()
    )
    return old


@contextlib.contextmanager
def guard(new_generator=None):
    """Run a block with a fresh generator (a str or bytes argument becomes its prefix)."""
    if isinstance(new_generator, bytes):
        new_generator = new_generator.decode()
    if isinstance(new_generator, str) or new_generator is None:
        new_generator = UniqueNameGenerator(new_generator)
    old = switch(new_generator)
    try:
        yield
    finally:
        switch(*old)


__all__ = ["generate", "generate_with_ignorable_key", "guard", "switch"]
