"""The op table (tests/op_table/): every row against the goldens recorded from real Paddle 3.3.1
by tools/record_op_goldens.py, plus checks within paddle_compat.

Per row: values, dtypes, shapes and stop_gradient vs golden; gradients vs golden (and vs
``jax.grad`` of the op's pure function); Tensor method == function; in-place == functional;
bad inputs raise Paddle's exception type. The op's first row (``Row.full``) also checks
``jax.grad``, in-place and eager == to_static (compiles are the cost).
Known differences are data (``Row.xfail``); a check listed there that passes fails the row, so
fixed ops get their marks removed. ``test_every_public_op_has_a_row`` fails for a public op
with neither a row nor a skip with a reason.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from golden_compare import close, mode_tol
from op_table import CATEGORIES, CHECKS, all_rows
from op_table import _run as R
from op_table.skips import SKIPS

import paddle
from paddle_compat._core import deferred
from paddle_compat._core.registry import REGISTRY

GOLDENS = Path(__file__).parent / "goldens" / "op_table"
ROWS = all_rows()
_GOLDEN = {
    c: (json.loads((GOLDENS / f"{c}.json").read_text()) if (GOLDENS / f"{c}.json").exists() else {})
    for c in CATEGORIES
}


def _params():
    for cat, rows in ROWS.items():
        for row in rows:
            yield pytest.param(cat, row, id=f"{cat}::{row.id}")


# -- comparison of normalized data ---------------------------------------------------------


def _same(a, b, tol, what):
    close(R.normalize(a), R.normalize(b), tol, what, sg=False)


# -- the checks ----------------------------------------------------------------------------


def _check_values(row, golden, actual):
    if "error" in golden:
        assert actual.get("error") == golden["error"], (
            f"Paddle raises {golden['error']} ({row.paddle_error}); we give "
            f"{actual.get('error') or 'no error'}"
        )
        return
    assert "error" not in actual, f"we raise {actual['error']}; Paddle returns a value"
    close(actual["out"], golden["out"], row.tol)


def _check_grad(row, golden, actual):
    if "grads" not in golden:
        return
    assert "grads" in actual, f"no gradients ({actual.get('grad_error', 'no float output')})"
    close(actual["grads"], golden["grads"], row.tol, "grad")


def _float_arrays(row):
    """Paths ('a', i) / ('k', name) plus list index of the float arrays, traversal order."""
    found = []

    def walk(obj, path):
        if isinstance(obj, np.ndarray):
            if obj.dtype.kind == "f":
                found.append(path)
        elif isinstance(obj, list | tuple):
            for i, o in enumerate(obj):
                walk(o, (*path, i))

    for i, a in enumerate(row.args):
        walk(a, ("a", i))
    for k, v in row.kwargs.items():
        walk(v, ("k", k))
    return found


def _substitute(row, subs: dict):
    def walk(obj, path):
        if path in subs:
            return subs[path]
        if isinstance(obj, np.ndarray):
            return jnp.asarray(obj)
        if isinstance(obj, list | tuple):
            return type(obj)(walk(o, (*path, i)) for i, o in enumerate(obj))
        return obj

    args = [walk(a, ("a", i)) for i, a in enumerate(row.args)]
    kwargs = {k: walk(v, ("k", k)) for k, v in row.kwargs.items()}
    return args, kwargs


def _check_jax_grad(row, golden, actual):
    """Our gradients == jax.grad of the op's pure function on the same weighted loss."""
    od = REGISTRY[row.op]
    if not row.full or od.composite or not od.differentiable or "grads" not in golden:
        return
    paths = _float_arrays(row)
    tensors = set(od.tensors)
    sig = inspect.signature(od.fn)

    def loss(*xs):
        args, kwargs = _substitute(row, dict(zip(paths, xs)))
        if od.prebind is not None:
            args, kwargs = od.prebind(tuple(args), dict(kwargs))
        ba = sig.bind(*args, **{k: v for k, v in kwargs.items() if k != "name"})
        for k in list(ba.arguments):  # static (non-tensor) parameters stay Python values
            if k not in tensors and isinstance(ba.arguments[k], jax.Array):
                ba.arguments[k] = np.asarray(ba.arguments[k]).tolist()
        out = od.fn(*ba.args, **ba.kwargs)
        outs = jax.tree_util.tree_leaves(out)
        total = 0.0
        for k, o in enumerate(outs):
            if str(o.dtype) in R.GRAD_DTYPES:
                w = jnp.asarray(R.weights(k, o.shape)).astype(o.dtype)
                total = total + (o * w).sum()
        return total

    xs = []
    for p in paths:
        obj = row.args[p[1]] if p[0] == "a" else row.kwargs[p[1]]
        for i in p[2:]:
            obj = obj[i]
        xs.append(jnp.asarray(obj))
    g = jax.jit(jax.grad(loss, argnums=tuple(range(len(xs)))))(*xs)
    ours = actual.get("grads", [])
    assert len(ours) == len(g), f"{len(ours)} gradients, jax.grad gives {len(g)}"
    for i, (a, b) in enumerate(zip(ours, g)):
        if a is None:
            assert not np.any(np.asarray(b)), f"grad[{i}] is None, jax.grad is nonzero"
            continue
        close(
            a,
            R.normalize(np.asarray(b)) | {"__tensor__": True},
            row.tol,
            f"jax_grad[{i}]",
            sg=False,
        )


def _check_method(row, golden, actual):
    if not row.method or not row.args or not isinstance(row.args[0], np.ndarray):
        return
    meth = inspect.getattr_static(paddle.Tensor, row.op, None)
    if meth is None or isinstance(meth, property) or not callable(getattr(paddle.Tensor, row.op)):
        return
    out, args, _ = R.call(paddle, row)
    via = getattr(args[0], row.op)(*args[1:], **R.make_inputs(paddle, row, False)[1])
    _same(via, out, mode_tol((0, 0)), f"Tensor.{row.op}")


def _check_inplace(row, golden, actual):
    """paddle.<op>_ and Tensor.<op>_ on a stop_gradient tensor and on a non-leaf == functional;
    the non-leaf's gradient flows back to its leaf."""
    if not row.full or not row.inplace or not row.args or not isinstance(row.args[0], np.ndarray):
        return
    parent, _, leaf = row.path.rpartition(".")
    ns = R.resolve(paddle, parent) if parent else paddle
    variants = [(f"paddle.{row.path}_", getattr(ns, leaf + "_", None))]
    if hasattr(paddle.Tensor, row.op + "_"):
        variants.append((f"Tensor.{row.op}_", lambda x, *a, **k: getattr(x, row.op + "_")(*a, **k)))
    variants = [(n, f) for n, f in variants if f is not None]
    if not variants:
        return
    out, _, _ = R.call(paddle, row)
    x0 = row.args[0]
    if (
        not hasattr(out, "shape")
        or list(out.shape) != list(x0.shape)
        or (R.dtype_name(out) != str(paddle.to_tensor(x0).dtype).replace("paddle.", ""))
    ):
        return  # Paddle's in-place ops keep x's shape and dtype
    for what, f in variants:
        args, kwargs, _ = R.make_inputs(paddle, row, False)
        x = args[0]
        r = f(x, *args[1:], **kwargs)
        assert r is x, f"{what} returns a new tensor, not x"
        _same(x, out, mode_tol((0, 0)), what)
        if x0.dtype.kind == "f" and "grads" in golden and row.grad:
            leaf_t = paddle.to_tensor(x0, stop_gradient=False)
            y = leaf_t * 1.0
            args, kwargs, _ = R.make_inputs(paddle, row, False)
            f(y, *args[1:], **kwargs)
            R.weighted_loss(paddle, [y]).backward()
            close(R.normalize(leaf_t.grad), golden["grads"][0], row.tol, f"{what} grad", sg=False)


def _check_static(row, golden, actual):
    if not row.full or "error" in golden:
        return
    f = R.resolve(paddle, row.path)
    args, kwargs, _ = R.make_inputs(paddle, row, False)
    eager = f(*args, **kwargs)
    static = paddle.jit.to_static(lambda *a: f(*a, **kwargs))(*args)
    _same(static, eager, row.tol, "to_static")


def _check_bad(row, golden, actual):
    for i, ((args, kwargs), want) in enumerate(zip(row.bad, golden.get("bad", []))):
        e = R.bad_exception(paddle, row, args, kwargs)
        if want is None:
            assert e is None, f"bad[{i}]: we raise {e!r}, Paddle raises nothing"
            continue
        assert e is not None, f"bad[{i}]: we raise nothing, Paddle raises {want}"
        mro = [c.__name__ for c in type(e).__mro__]
        assert want in mro, f"bad[{i}]: we raise {e!r}, Paddle raises {want}"


def _check_surface(row, golden, actual):
    """Paddle's Tensor method / in-place names for this op exist here too."""
    want = golden.get("surface", {})
    have = R.surface(paddle, row)
    missing = [k for k, v in want.items() if v and not have[k]]
    assert not missing, f"Paddle has {missing} for {row.path}; we do not"


_CHECKS = {
    "value": _check_values,
    "grad": _check_grad,
    "jax_grad": _check_jax_grad,
    "method": _check_method,
    "inplace": _check_inplace,
    "static": _check_static,
    "bad": _check_bad,
    "surface": _check_surface,
}
assert set(_CHECKS) == set(CHECKS)


@pytest.mark.parametrize("cat,row", list(_params()))
def test_op_row(cat, row):
    _run_row(cat, row)


@pytest.mark.parametrize("cat,row", [p for p in _params() if p.values[1].full])
def test_op_row_deferred(cat, row, monkeypatch):
    """Each op's first row again with deferred eager execution on: values, gradients, method,
    in-place and eager == to_static hold when ops run as one recorded program (short
    segments compile at once here)."""
    monkeypatch.setattr(deferred, "SHORT_OPS", 0)
    with deferred.mode(True):
        _run_row(cat, row)


def _run_row(cat, row):
    golden = _GOLDEN[cat].get(row.id)
    if golden is None:
        pytest.fail(f"no golden for {row.id}: run tools/record_op_goldens.py {cat}")
    assert "crash" not in golden or row.paddle_error, f"Paddle crashed: {golden['crash']}"
    if ("error" in golden or "crash" in golden) and not row.paddle_error:
        pytest.fail(
            f"Paddle raises {golden.get('error')} on this row: fix the row or set "
            "paddle_error to the reason"
        )
    unknown = set(row.xfail) - set(CHECKS)
    assert not unknown, f"unknown checks in xfail: {unknown}"
    actual = R.run_row(paddle, row)
    failed, fixed = {}, []
    for name, check in _CHECKS.items():
        if ("crash" in golden or "error" in golden) and name != "value":
            continue
        try:
            check(row, golden, actual)
        except Exception as e:  # noqa: BLE001 - a failing check is reported with its message
            failed[name] = f"{type(e).__name__}: {e}"
        else:
            if name in row.xfail:
                fixed.append(name)
    unexpected = {k: v for k, v in failed.items() if k not in row.xfail}
    msgs = [f"[{k}] {v}" for k, v in unexpected.items()]
    msgs += [f"[{k}] passes now: remove it from the row's xfail" for k in fixed]
    if msgs:
        pytest.fail("\n".join(msgs), pytrace=False)
    if failed:
        pytest.xfail("; ".join(f"{k}: {row.xfail[k]}" for k in failed))


# -- coverage ------------------------------------------------------------------------------


def public_ops() -> list[str]:
    """Registry entries reachable under a public name in one of their namespaces."""
    import paddle.geometric  # noqa: F401  (lazy modules register their ops, whichever test
    import paddle.incubate  # noqa: F401  ran first)
    import paddle.text  # noqa: F401
    import paddle.vision.ops  # noqa: F401

    out = []
    for name, od in list(REGISTRY.items()):
        if name.startswith("_"):
            continue
        for ns in od.namespaces:
            mod = R.resolve_or_none(paddle, ns.removeprefix("paddle").lstrip("."))
            if ns == "paddle":
                mod = paddle
            if mod is not None and getattr(mod, name, None) is not None:
                out.append(name)
                break
    return out


def test_every_public_op_has_a_row():
    covered = {r.op for rows in ROWS.values() for r in rows}
    public = public_ops()
    missing = sorted(set(public) - covered - set(SKIPS))
    assert not missing, f"{len(missing)} public ops have neither a row nor a skip: {missing}"
    no_reason = sorted(k for k, v in SKIPS.items() if not str(v).strip())
    assert not no_reason, f"skips without a reason: {no_reason}"
    both = sorted(covered & set(SKIPS))
    assert not both, f"ops with rows are also listed as skipped: {both}"
    stale = sorted(set(SKIPS) - set(public))
    assert not stale, f"skips for ops that are not public: {stale}"


def test_rows_name_registered_ops():
    unknown = sorted({r.op for rows in ROWS.values() for r in rows} - set(REGISTRY))
    assert not unknown, f"rows for ops not in the registry: {unknown}"
