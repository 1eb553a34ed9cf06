"""``paddle.distribution.kl_divergence`` and ``register_kl``: KL(p || q) dispatched on the two
distributions' types, the most specific registered pair winning (as in Paddle).

Each distribution module registers its own closed forms with ``@register_kl(P, Q)``; the
exponential-family fallback (a Bregman divergence of the log normalizer) lives here."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable

import paddle_compat as paddle

from .._core.tensor import Tensor
from .distribution import Distribution
from .exponential_family import ExponentialFamily

__all__ = ["kl_divergence", "register_kl"]

_REGISTER_TABLE: dict[tuple[type, type], Callable] = {}


def register_kl(cls_p: type[Distribution], cls_q: type[Distribution]) -> Callable:
    """Decorator: register ``fn(p, q)`` as KL(p || q) for instances of ``cls_p`` and
    ``cls_q`` (and their subclasses, unless a more specific pair is registered)."""
    if not issubclass(cls_p, Distribution) or not issubclass(cls_q, Distribution):
        raise TypeError("cls_p and cls_q must be subclass of Distribution")

    def decorator(fn: Callable) -> Callable:
        _REGISTER_TABLE[cls_p, cls_q] = fn
        _dispatch.cache_clear()
        return fn

    return decorator


def _precedes(a: tuple[type, ...], b: tuple[type, ...]) -> bool:
    """Paddle's order of registered pairs: ``a`` comes first when, at the first position where
    the classes differ, ``a``'s is a subclass of ``b``'s (and every earlier one is equal)."""
    if a == b:
        return False
    for x, y in zip(a, b, strict=True):
        if not issubclass(x, y):
            return False
        if x is not y:
            break
    return True


def _least(pairs: list[tuple[type, ...]]) -> tuple[type, ...]:
    """The first minimum of ``pairs`` in registration order (as Python's ``min``)."""
    best = pairs[0]
    for pair in pairs[1:]:
        if _precedes(pair, best):
            best = pair
    return best


@functools.cache
def _dispatch(type_p: type, type_q: type) -> tuple[Callable, str | None]:
    """The function of the most specific registered pair that ``(type_p, type_q)`` matches,
    and Paddle's ambiguity warning when ranking by ``p`` first and by ``q`` first disagree."""
    matches = [
        (cp, cq) for cp, cq in _REGISTER_TABLE if issubclass(type_p, cp) and issubclass(type_q, cq)
    ]
    if not matches:
        raise NotImplementedError
    left_p, left_q = _least(matches)
    right_q, right_p = _least([(cq, cp) for cp, cq in matches])
    fn = _REGISTER_TABLE[left_p, left_q]
    message = None
    if fn is not _REGISTER_TABLE[right_p, right_q]:
        message = (
            f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
            f"Please register_kl({left_p.__name__}, {right_q.__name__})"
        )
    return fn, message


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q) of two distributions of registered types; NotImplementedError otherwise."""
    fn, message = _dispatch(type(p), type(q))
    if message is not None:
        warnings.warn(message, RuntimeWarning, stacklevel=2)
    return fn(p, q)


def _sum_rightmost(value: Tensor, n: int) -> Tensor:
    return value.sum(list(range(-n, 0))) if n > 0 else value


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p: ExponentialFamily, q: ExponentialFamily) -> Tensor:
    """Bregman divergence of the log normalizer ``A`` between the natural parameters:
    ``A(eta_q) - A(eta_p) - <eta_q - eta_p, grad A(eta_p)>`` (same types only). As in Paddle,
    ``p``'s parameters enter through detached copies."""
    if type(p) is not type(q):
        raise NotImplementedError
    p_params = [t.detach() for t in p._natural_parameters]
    for t in p_params:
        t.stop_gradient = False
    q_params = q._natural_parameters
    p_log_norm = p._log_normalizer(*p_params)
    try:
        p_grads = paddle.grad(p_log_norm, p_params, create_graph=True)
    except RuntimeError as e:
        name_p, name_q = type(p).__name__, type(q).__name__
        raise TypeError(
            f"Can't compute kl_divergence({name_p}, {name_q}) use bregman divergence. "
            f"Please register_kl({name_p}, {name_q})."
        ) from e
    kl = q._log_normalizer(*q_params) - p_log_norm
    for p_param, q_param, p_grad in zip(p_params, q_params, p_grads, strict=False):
        kl = kl - _sum_rightmost((q_param - p_param) * p_grad, len(q.event_shape))
    return kl
