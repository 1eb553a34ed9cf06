"""Helpers for layer case programs (run under real Paddle and paddle_compat alike): give a
layer the same weights in both frameworks, then record its outputs and gradients."""

from __future__ import annotations

import numpy as np


def fill_deterministic(layer, seed: int = 0):
    """Overwrite every floating parameter and buffer of ``layer`` with values drawn from numpy
    (state_dict order): uniform(-1, 1), or uniform(0.5, 1.5) for keys containing 'var' (running
    variances must stay positive). Integer/bool state is left alone. Returns ``layer``."""
    r = np.random.default_rng(seed)
    for key, t in layer.state_dict().items():
        dt = str(t.dtype).replace("paddle.", "")
        if dt not in ("float16", "bfloat16", "float32", "float64"):
            continue
        shape = list(t.shape)
        lo, hi = (0.5, 1.5) if "var" in key.split(".")[-1] else (-1.0, 1.0)
        v = r.uniform(lo, hi, size=shape)
        if dt == "bfloat16":
            import paddle

            t.set_value(paddle.to_tensor(v.astype("float32")).astype("bfloat16"))
        else:
            t.set_value(v.astype(dt))
    return layer


def state_summary(layer) -> list:
    """``[key, shape, dtype, stop_gradient]`` for every state_dict entry (names excluded: they
    depend on global counters)."""
    return [
        [k, list(v.shape), str(v.dtype).replace("paddle.", ""), bool(v.stop_gradient)]
        for k, v in layer.state_dict().items()
    ]


def layer_golden(
    make,
    *inputs,
    kwargs=None,
    train: bool = False,
    backward: bool = True,
    seed: int = 0,
    with_repr: bool = True,
) -> dict:
    """Build a layer with ``make()``, give it deterministic weights, run it on numpy ``inputs``
    and return its state summary, repr, outputs and (optionally) parameter and input gradients.

    Use from a case program: ``def case_linear(): return layer_golden(lambda: nn.Linear(3, 2),
    randn(4, 3))``. Float inputs get ``stop_gradient=False`` when ``backward``."""
    import paddle

    layer = fill_deterministic(make(), seed)
    layer.train() if train else layer.eval()
    xs = []
    for x in inputs:
        x = np.asarray(x)
        t = paddle.to_tensor(x)
        if backward and x.dtype.kind == "f":
            t.stop_gradient = False
        xs.append(t)
    out = layer(*xs, **(kwargs or {}))
    res = {"state": state_summary(layer), "out": out}
    if with_repr:
        res["repr"] = repr(layer)
    if backward:
        outs = out if isinstance(out, list | tuple) else [out]
        total = None
        for o in outs:
            if hasattr(o, "stop_gradient") and not o.stop_gradient:
                s = (o.astype("float32") * o.astype("float32")).sum()
                total = s if total is None else total + s
        if total is not None:
            total.backward()
        res["param_grads"] = {
            k: (p.grad if p.grad is not None else "none") for k, p in layer.named_parameters()
        }
        res["input_grads"] = [
            (t.grad if t.grad is not None else "none") for t in xs if not t.stop_gradient
        ]
    return res
