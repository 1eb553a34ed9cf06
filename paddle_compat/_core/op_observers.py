"""Observers of every kernel that runs: the seam ``paddle.amp.debugging`` uses to check op
outputs for NaN/Inf and to count op calls per dtype.

The registry calls ``forward`` after each op kernel and autograd calls ``backward`` after each
gradient kernel, both only while ``OBSERVERS`` is non-empty (one list check per op otherwise).
An observer is ``fn(name, kernel_dtype, outputs, grad)``: the op's name (``"<op>_grad"`` for a
gradient), the dtype the kernel ran in (its first input's, after AMP casts; the first
output's when it has no input), the output arrays, and whether it is a gradient kernel.
"""

from __future__ import annotations

import jax
import numpy as np

from . import deferred

OBSERVERS: list = []


def _dtype(x):
    from .tensor import Tensor

    if isinstance(x, Tensor):
        return x._val.dtype
    return getattr(x, "dtype", None) or np.asarray(x).dtype


def _arrays(out) -> list:
    from .tensor import Tensor

    leaves = jax.tree_util.tree_leaves(out, is_leaf=lambda v: isinstance(v, Tensor))
    # a gradient kernel recorded by deferred execution is computed here, so it is checked
    return [
        v._value if isinstance(v, Tensor) else deferred.resolve(v) for v in leaves if v is not None
    ]


def forward(od, inputs, casts, out) -> None:
    outputs = _arrays(out)
    kernel = None
    for x, c in zip(inputs, casts):
        if x is not None and not isinstance(x, int | float | bool | complex):
            kernel = np.dtype(c) if c is not None else _dtype(x)
            break
    if kernel is None and outputs:
        kernel = outputs[0].dtype
    for fn in list(OBSERVERS):
        fn(od.name, kernel, outputs, False)


def backward(name: str, grads) -> None:
    outputs = _arrays(list(grads))
    kernel = outputs[0].dtype if outputs else None
    for fn in list(OBSERVERS):
        fn(f"{name}_grad", kernel, outputs, True)
