"""Shared by case programs: runs unchanged under real Paddle (tools/record_goldens.py) and under
paddle_compat (tests/test_goldens.py). Only numpy at import time (``backprop`` imports paddle
when called)."""

from __future__ import annotations

import numpy as np


def rng(seed: int = 0) -> np.random.Generator:
    """Inputs come from numpy, never from paddle's RNG (the algorithms differ)."""
    return np.random.default_rng(seed)


def randn(*shape, seed=0, dtype="float32"):
    return rng(seed).standard_normal(shape).astype(dtype)


def weights(k: int, shape) -> np.ndarray:
    """The fixed cotangent weights of float output ``k`` in every checked loss (the op table's
    and ``backprop``'s): standard normals from ``rng(k + 7)``."""
    return rng(k + 7).standard_normal(tuple(shape)).astype("float32")


def flat_tensors(out) -> list:
    if isinstance(out, list | tuple):
        return [t for o in out for t in flat_tensors(o)]
    return [out] if _is_tensor(out) else []


GRAD_DTYPES = ("float16", "float32", "float64")


def weighted_loss(paddle, outs: list):
    """sum_k (outs[k] * weights(k)).sum() over the float outputs that carry gradient (None if
    there are none)."""
    loss = None
    for k, o in enumerate(outs):
        dt = str(o.dtype).replace("paddle.", "")
        if dt not in GRAD_DTYPES or o.stop_gradient:
            continue
        term = (o * paddle.to_tensor(weights(k, o.shape).astype(dt))).sum()
        loss = term if loss is None else loss + term.astype(loss.dtype)
    return loss


def backprop(fn, *inputs, grad=True):
    """The one forward+backward helper of the case programs: ``fn`` on Tensors made from
    ``inputs`` (numpy arrays or lists; float ones require grad), then backward of
    ``weighted_loss`` of its float outputs. Returns ``[out, grads of the float inputs]``
    (``[out]`` when ``grad`` is false)."""
    import paddle

    xs, leaves = [], []
    for a in inputs:
        g = grad and np.asarray(a).dtype.kind == "f"
        x = paddle.to_tensor(a, stop_gradient=not g)
        xs.append(x)
        if g:
            leaves.append(x)
    out = fn(*xs)
    out = list(out) if isinstance(out, tuple) else out
    if not grad:
        return [out]
    loss = weighted_loss(paddle, flat_tensors(out))
    if loss is not None:
        loss.backward()
    return [out, [x.grad for x in leaves]]


def expect_error(fn):
    """Run ``fn``; the golden records the exception type (or the value if none is raised)."""
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - we record whatever Paddle raises
        return {"error": type(e).__name__}
    return {"no_error": normalize(out)}


def _is_tensor(x) -> bool:
    return hasattr(x, "numpy") and hasattr(x, "stop_gradient") and hasattr(x, "dtype")


def normalize(obj):
    """Outputs -> plain JSON-able data: tensors keep dtype, shape, values and stop_gradient."""
    if _is_tensor(obj):
        a = np.asarray(obj.numpy())
        return {
            "__tensor__": True,
            "dtype": str(obj.dtype).replace("paddle.", ""),
            "shape": list(a.shape),
            "data": _flat(a),
            "stop_gradient": bool(obj.stop_gradient),
        }
    if isinstance(obj, np.ndarray | np.generic):
        a = np.asarray(obj)
        return {"__array__": True, "dtype": str(a.dtype), "shape": list(a.shape), "data": _flat(a)}
    if isinstance(obj, dict):
        return {str(k): normalize(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [normalize(v) for v in obj]
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if type(obj).__name__ == "Size":  # paddle.Size
        return list(obj)
    if "dtype" in type(obj).__name__.lower() or type(obj).__name__ == "DataType":
        return str(obj).replace("paddle.", "")
    return repr(obj)


def _flat(a: np.ndarray):
    if a.dtype.kind == "c":
        return [[float(v.real), float(v.imag)] for v in a.reshape(-1)]
    if a.dtype.kind in "fV" or str(a.dtype) in ("bfloat16", "float16"):
        return [float(v) for v in a.astype(np.float64).reshape(-1)]
    return a.reshape(-1).tolist()
