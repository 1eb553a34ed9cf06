"""Shared by case programs: runs unchanged under real Paddle (tools/record_goldens.py) and under
paddle_compat (tests/test_goldens.py). Only numpy here."""

from __future__ import annotations

import numpy as np


def rng(seed: int = 0) -> np.random.Generator:
    """Inputs come from numpy, never from paddle's RNG (the algorithms differ)."""
    return np.random.default_rng(seed)


def randn(*shape, seed=0, dtype="float32"):
    return rng(seed).standard_normal(shape).astype(dtype)


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
