"""paddle.jit.marker: decorators that tell ``to_static`` how to treat a function or Layer.

``unified`` / ``not_to_static`` leave a function's control flow unconverted (it is traced as it
is); ``force_dynamic`` runs a function or Layer eagerly when it is the ``to_static`` target
(called from inside a compiled function it is traced inline: one XLA program has no graph
breaks); ``capture_control_flow`` is the default here (every converted function captures its
Tensor control flow); ``dynamic_dims`` records the dims on the Tensor as Paddle does (each new
shape still compiles once: XLA programs have static shapes)."""

from __future__ import annotations

from collections.abc import Sequence

from ._to_static import not_to_static

__all__ = ["capture_control_flow", "dynamic_dims", "force_dynamic", "not_to_static", "unified"]

DYNAMIC_DIMS_ATTR_NAME = "__sot_dynamic_dims"


def _mark(fn, attr: str):
    target = getattr(fn, "forward", None) if isinstance(fn, type) else None
    setattr(fn, attr, True)
    if target is not None:  # a Layer class: its forward too
        setattr(target, attr, True)
    return fn


def unified(fn=None, *, for_sot: bool = True, for_ast: bool = True):
    """Mark ``fn`` (a function or Layer class) as already written for both modes: its control
    flow is not converted."""
    if fn is None:
        return lambda f: unified(f, for_sot=for_sot, for_ast=for_ast)
    return _mark(fn, "_paddle_not_to_static") if for_ast else fn


def force_dynamic(fn=None):
    """Mark ``fn`` (a function or Layer class) to run eagerly when ``to_static`` is applied
    to it."""
    if fn is None:
        return force_dynamic
    return _mark(fn, "_paddle_force_dynamic")


def capture_control_flow(fn=None):
    """Capture ``fn``'s Tensor control flow in the compiled program (what ``to_static`` does
    for every converted function here)."""
    return capture_control_flow if fn is None else fn


def dynamic_dims(tensor, dims: int | Sequence[int]) -> None:
    """Record ``dims`` of ``tensor`` as dynamic (``tensor.__sot_dynamic_dims``)."""
    dims = [dims] if isinstance(dims, int) else list(dims)
    rank = len(tensor.shape)
    for d in dims:
        if not isinstance(d, int) or not -rank <= d < rank:
            raise ValueError(f"dynamic_dims: dim {d} is out of range for a rank-{rank} tensor")
    setattr(tensor, DYNAMIC_DIMS_ATTR_NAME, tuple(d % rank for d in dims))
