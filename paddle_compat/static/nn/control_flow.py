"""paddle.static.nn control flow: ``cond``, ``while_loop``, ``case``, ``switch_case``.

Eagerly they run Python (as Paddle's dynamic mode does); under ``paddle.jit.to_static`` a
traced condition builds one ``lax.switch`` / ``lax.while_loop`` (``jit/dy2static``)."""

from __future__ import annotations

import jax.numpy as jnp

from ..._core.tensor import Tensor
from ...jit.dy2static import lax_control as _lc

__all__ = ["case", "cond", "switch_case", "while_loop"]


def _call(fn):
    return None if fn is None else fn()


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """``true_fn()`` if the one-element boolean Tensor ``pred`` is True, else ``false_fn()``
    (None for a missing function); both must return the same structure."""
    if not isinstance(pred, Tensor):
        raise AssertionError("The pred in cond must be Variable")
    if pred.size != 1:
        raise AssertionError("condition input's numel should be 1")
    for fn, what in ((true_fn, "true_fn"), (false_fn, "false_fn")):
        if fn is not None and not callable(fn):
            raise TypeError(f"The {what} in cond must be callable, but received {type(fn)}")
    if not _lc.is_traced(pred):
        return _call(true_fn) if bool(pred) else _call(false_fn)
    return _lc.run_cond(pred, lambda: _call(true_fn), lambda: _call(false_fn))


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """``while cond(*loop_vars): loop_vars = body(*loop_vars)``; returns the final
    ``loop_vars`` as a list."""
    if not callable(cond):
        raise TypeError("cond in while_loop should be callable")
    if not callable(body):
        raise TypeError("body in while_loop should be callable")
    if not isinstance(loop_vars, list | tuple) or len(loop_vars) == 0:
        raise ValueError("loop_vars in while_loop should not be empty")

    def step(vs):
        out = body(*vs)
        out = list(out) if isinstance(out, list | tuple) else [out]
        if len(out) != len(vs):
            raise ValueError(
                f"body in while_loop should return the same arity (length and structure) as "
                f"loop_vars: {len(vs)} loop_vars, {len(out)} returned"
            )
        return out

    vs = list(loop_vars)
    while True:
        p = cond(*vs)
        if _lc.is_traced(p):
            return _lc.run_while(lambda v: cond(*v), step, vs)
        if not bool(p):
            return vs
        vs = step(vs)


def case(pred_fn_pairs, default=None, name=None):
    """The function of the first pair whose predicate is True; else ``default()`` (or the last
    pair's function when ``default`` is None)."""
    if not isinstance(pred_fn_pairs, list | tuple):
        raise TypeError(
            f"The type of 'pred_fn_pairs' in case must be list or tuple, but received "
            f"{type(pred_fn_pairs)}"
        )
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError("Each element of 'pred_fn_pairs' in case must be a tuple of size 2")
        if not callable(pair[1]):
            raise TypeError("The fn of pred_fn_pairs in Op(case) must be callable.")
    if default is None:
        default = pred_fn_pairs[-1][1]  # IndexError on [] as in Paddle
        pred_fn_pairs = pred_fn_pairs[:-1]
    elif not callable(default):
        raise TypeError("The default in Op(case) must be callable.")

    def chain(pairs):
        if not pairs:
            return default()
        (pred, fn), rest = pairs[0], pairs[1:]
        return cond(pred, fn, lambda: chain(rest))

    return chain(list(pred_fn_pairs))


def switch_case(branch_index, branch_fns, default=None, name=None):
    """``branch_fns[branch_index]()``: ``branch_fns`` is a dict, a list of ``(index, fn)``
    pairs or a list of functions (indices 0..n-1); an index without a function runs
    ``default`` (or the function with the largest index when ``default`` is None)."""
    if not isinstance(branch_index, Tensor):
        raise TypeError(
            f"The type of 'branch_index' in Op(switch_case) must be Variable, but received "
            f"{type(branch_index)}"
        )
    if str(branch_index.dtype).split(".")[-1] not in ("uint8", "int32", "int64"):
        raise TypeError(
            "The data type of 'branch_index' in Op(switch_case) must be int32, int64 or uint8, "
            f"but received {str(branch_index.dtype).split('.')[-1]}"
        )
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    else:
        pairs = sorted(
            (x if isinstance(x, tuple) else (i, x) for i, x in enumerate(branch_fns)),
            key=lambda p: p[0],
        )
    for k, fn in pairs:
        if not callable(fn):
            raise TypeError(f"The fn for {k} of 'branch_fns' in Op(switch_case) must be callable")
    if default is None:
        default = pairs[-1][1]  # IndexError on no functions, as Paddle
    if not _lc.is_traced(branch_index):
        i = int(branch_index)
        return dict(pairs).get(i, default)()
    keys = [k for k, _ in pairs]
    fns = [fn for _, fn in pairs] + [default]
    idx = jnp.asarray(branch_index._value).reshape(())
    pos = jnp.full((), len(keys), jnp.int32)
    for j, k in enumerate(keys):
        pos = jnp.where(idx == k, j, pos)
    return _lc.run_switch(pos, fns)
