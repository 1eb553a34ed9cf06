"""Run one op-table row with a given ``paddle`` module (real Paddle or paddle_compat) and return
plain JSON-able data: the normalized outputs, the gradients of a fixed weighted sum of the float
outputs w.r.t. the float inputs, and the exception types of the bad inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cases"))

from _util import GRAD_DTYPES, flat_tensors, normalize, weighted_loss, weights  # noqa: E402,F401


def resolve(paddle, path: str):
    obj = paddle
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def resolve_or_none(paddle, path: str):
    try:
        return resolve(paddle, path)
    except AttributeError:
        return None


def make_inputs(paddle, row, grad: bool):
    """(args, kwargs, leaves): numpy arrays -> Tensors; ``leaves`` are the tensors that require
    grad, in traversal order (args, then kwargs in row order)."""
    leaves = []

    def conv(obj):
        if isinstance(obj, np.ndarray):
            g = grad and obj.dtype.kind == "f"
            t = paddle.to_tensor(obj, stop_gradient=not g)
            if g:
                leaves.append(t)
            return t
        if isinstance(obj, list):
            return [conv(o) for o in obj]
        if isinstance(obj, tuple):
            return tuple(conv(o) for o in obj)
        return obj

    args = tuple(conv(a) for a in row.args)
    kwargs = {k: conv(v) for k, v in row.kwargs.items()}
    return args, kwargs, leaves


def dtype_name(t) -> str:
    return str(t.dtype).replace("paddle.", "")


def call(paddle, row, grad: bool = False):
    f = resolve(paddle, row.path)
    args, kwargs, leaves = make_inputs(paddle, row, grad)
    return f(*args, **kwargs), args, leaves


def run_row(paddle, row) -> dict:
    """Everything the golden holds for ``row``."""
    res: dict = {}
    try:
        out, _, leaves = call(paddle, row, grad=row.grad)
    except Exception as e:  # noqa: BLE001 - we record whatever Paddle raises
        res["error"] = type(e).__name__
        return res
    res["out"] = normalize(out)
    if row.grad and leaves:
        loss = weighted_loss(paddle, flat_tensors(out))
        if loss is not None:
            try:
                loss.backward()
                res["grads"] = [normalize(t.grad) for t in leaves]
            except Exception as e:  # noqa: BLE001
                res["grad_error"] = type(e).__name__
    if row.bad:
        res["bad"] = [bad_error(paddle, row, a, k) for a, k in row.bad]
    return res


def bad_exception(paddle, row, args, kwargs) -> Exception | None:
    """What ``row``'s op raises on bad inputs (None: it raises nothing)."""
    from op_table import Row

    bad = Row(row.op, args=tuple(args), kwargs=dict(kwargs), api=row.api)
    try:
        call(paddle, bad)
    except Exception as e:  # noqa: BLE001
        return e
    return None


def bad_error(paddle, row, args, kwargs) -> str | None:
    e = bad_exception(paddle, row, args, kwargs)
    return None if e is None else type(e).__name__


def surface(paddle, row) -> dict:
    """Which method / in-place names this paddle has for ``row``'s op."""
    parent, _, leaf = row.path.rpartition(".")
    ns = resolve(paddle, parent) if parent else paddle
    return {
        "method": hasattr(paddle.Tensor, row.op),
        "inplace": getattr(ns, leaf + "_", None) is not None,
        "method_inplace": hasattr(paddle.Tensor, row.op + "_"),
    }
