"""Helpers for the api_* case programs (runs under real Paddle and paddle_compat)."""

from __future__ import annotations

from _util import randn, rng

import paddle


def t(*shape, dtype="float32", seed=0, grad=False):
    return paddle.to_tensor(randn(*shape, seed=seed, dtype=dtype), stop_gradient=not grad)


def grads(fn, *arrays):
    """Run ``fn`` on leaf tensors made from ``arrays``, backward a weighted sum of its float
    outputs; return [outputs, grads of the inputs]."""
    xs = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    out = fn(*xs)
    outs = list(out) if isinstance(out, list | tuple) else [out]
    loss = None
    for k, o in enumerate(outs):
        if o.dtype not in (paddle.float32, paddle.float64):
            continue
        w = paddle.to_tensor(rng(k + 7).standard_normal(o.shape).astype("float32")).astype(o.dtype)
        term = (o * w).sum()
        loss = term if loss is None else loss + term.astype(loss.dtype)
    loss.backward()
    return [outs, [x.grad for x in xs]]
