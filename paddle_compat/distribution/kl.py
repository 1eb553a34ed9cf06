"""``paddle.distribution.kl_divergence`` and ``register_kl``: KL(p || q) dispatched on the two
distributions' types, the most specific registered pair winning (as in Paddle).

Each distribution module registers its own closed forms with ``@register_kl(P, Q)``."""

from __future__ import annotations

import functools
from collections.abc import Callable

from .._core.tensor import Tensor
from .distribution import Distribution

__all__ = ["kl_divergence", "register_kl"]

_REGISTER_TABLE: dict[tuple[type, type], Callable] = {}


def register_kl(cls_p: type[Distribution], cls_q: type[Distribution]) -> Callable:
    """Decorator: register ``fn(p, q)`` as KL(p || q) for instances of ``cls_p`` and
    ``cls_q`` (and their subclasses, unless a more specific pair is registered)."""
    if not (
        isinstance(cls_p, type)
        and isinstance(cls_q, type)
        and issubclass(cls_p, Distribution)
        and issubclass(cls_q, Distribution)
    ):
        raise TypeError("cls_p and cls_q must be subclass of Distribution")

    def decorator(fn: Callable) -> Callable:
        _REGISTER_TABLE[cls_p, cls_q] = fn
        _dispatch.cache_clear()
        return fn

    return decorator


@functools.cache
def _dispatch(type_p: type, type_q: type) -> Callable:
    """The registered function of the most specific pair that ``(type_p, type_q)`` matches:
    the smallest sum of MRO distances, ties broken by ``type_p``'s distance."""
    best, best_key = None, None
    for (cp, cq), fn in _REGISTER_TABLE.items():
        if issubclass(type_p, cp) and issubclass(type_q, cq):
            key = (type_p.__mro__.index(cp) + type_q.__mro__.index(cq), type_p.__mro__.index(cp))
            if best_key is None or key < best_key:
                best, best_key = fn, key
    if best is None:
        raise NotImplementedError
    return best


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q) of two distributions of registered types; NotImplementedError otherwise."""
    return _dispatch(type(p), type(q))(p, q)
