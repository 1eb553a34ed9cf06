"""``clip_grad_norm_`` / ``clip_grad_value_``: clip parameters' gradients in place."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import segment_store, trace_state
from ..._core.tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_value_"]

_SUPPORTED = (float("inf"), 0, 1, 2)


def _norm(g, p):
    g = jnp.abs(g)
    if p == float("inf"):
        return jnp.max(g)
    if p == 0:
        return jnp.sum(g != 0).astype(g.dtype)
    if p == 1:
        return jnp.sum(g)
    return jnp.sqrt(jnp.sum(g * g))


@jax.jit(static_argnums=(1, 2))
def _clip_norm(grads, norm_type, max_norm):
    if norm_type == float("inf"):
        norms = [jnp.max(jnp.abs(g)) for g in grads]
        total = norms[0] if len(norms) == 1 else jnp.max(jnp.stack(norms))
    else:
        total = _norm(jnp.stack([_norm(g, norm_type) for g in grads]), norm_type)
    coef = jnp.minimum(jnp.asarray(max_norm, total.dtype) / (total + 1e-6), 1.0)
    coef = coef.astype(total.dtype)
    return total, [g * coef.astype(g.dtype) for g in grads]


_PROGRAMS: dict = {}  # (norm_type, max_norm) -> the flat clip program


def _clip_program(norm_type: float, max_norm: float):
    """``_clip_norm`` for one setting as a flat kernel the segment store keeps."""
    fn = _PROGRAMS.get((norm_type, max_norm))
    if fn is None:
        fn = jax.jit(lambda *grads: _clip_norm(list(grads), norm_type, max_norm))
        key = ("nn.clip_grad_norm", norm_type, max_norm)
        fn = _PROGRAMS[(norm_type, max_norm)] = segment_store.note(fn, key)
    return fn


@jax.jit
def _clip_value(a, low, high):
    return jnp.clip(a, low, high)


segment_store.note(_clip_value, "nn.clip_grad_value")


def clip_grad_norm_(
    parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False
) -> Tensor:
    """Scale the gradients of ``parameters`` in place so that their joint ``norm_type`` norm
    is at most ``max_norm``; returns the total norm before clipping."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    if norm_type not in _SUPPORTED:
        raise ValueError(f"norm_type only support {list(_SUPPORTED)}")
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        from ... import to_tensor

        return to_tensor(0.0)
    program = _clip_program(float(norm_type), float(max_norm))
    total, new = segment_store.call(program, [trace_state.read(g) for g in grads])
    if error_if_nonfinite:
        trace_state.check_concrete(Tensor(total), "clip_grad_norm_(error_if_nonfinite=True)")
        if not np.isfinite(np.asarray(total)):
            raise RuntimeError(
                f"The total norm of {float(norm_type)} order of the gradients from `parameters` "
                "is non-finite, so it cannot be clipped. In any case, disable this error and "
                "scale the gradient by non-finite norm, set `error_if_nonfinite=False`"
            )
    for g, a in zip(grads, new):
        g._set_value(a)
    return Tensor(total)


def clip_grad_value_(parameters, clip_value: float) -> None:
    """Clip the gradients of ``parameters`` in place into ``[-clip_value, clip_value]``."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    c = float(clip_value)
    for p in parameters:
        g = p.grad
        if g is not None:
            a = trace_state.read(g)
            low, high = np.asarray(-c, a.dtype), np.asarray(c, a.dtype)
            g._set_value(segment_store.call(_clip_value, [a, low, high]))
