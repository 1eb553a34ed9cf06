"""What ``inspect.signature(paddle.<op>)`` and ``help`` show: the op function's signature as
users call it, with ``Tensor`` for ``jax.Array`` in its annotations."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable

_MISSING = inspect.Parameter.empty
_JAX_ARRAY = re.compile(r"\bjax\.Array\b")


def _public_annotation(ann):
    if ann is _MISSING:
        return ann
    text = ann if isinstance(ann, str) else inspect.formatannotation(ann)
    return _JAX_ARRAY.sub("Tensor", text)


def public_signature(fn: Callable) -> inspect.Signature:
    """``fn``'s signature as users call it: ``jax.Array`` in its annotations (alone, in unions,
    sequences, tuples) reads ``Tensor``; annotations stay strings, as in Paddle's own code."""
    sig = inspect.signature(fn)
    params = [
        p.replace(annotation=_public_annotation(p.annotation)) for p in sig.parameters.values()
    ]
    return sig.replace(
        parameters=params, return_annotation=_public_annotation(sig.return_annotation)
    )


class PublicSignature:
    """``OpDef.__signature__``: built on first read (inspect, help), then cached on the op;
    never touched by ``call_op``."""

    def __get__(self, od, owner=None):
        if od is None:  # on the class itself: inspect.signature(OpDef) works as usual
            return None
        sig = od.__dict__["__signature__"] = public_signature(od.fn)
        return sig
