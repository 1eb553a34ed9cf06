"""``cond`` / ``while_loop`` / ``case`` / ``switch_case`` in static-graph mode.

Outside static mode (or on a concrete predicate) they are ``control_flow.py``'s. On a static
Variable: ``cond`` records both branches into the Program and selects the result with
``paddle.where`` (the branches must be free of side effects, as Paddle's are); ``while_loop``
records one call of the loop, which replays as ``control_flow.while_loop`` on the replayed
Tensors (one ``lax.while_loop`` in the compiled program)."""

from __future__ import annotations

import jax

from ..._core import static_mode
from ..._core.registry import call_op
from ..._core.tensor import Tensor
from .._program import Variable, record_call


class _LazyControlFlow:
    """``control_flow`` imported on first use (it imports paddle.jit, which imports
    paddle.static)."""

    def __getattr__(self, name):
        from . import control_flow

        return getattr(control_flow, name)


_cf = _LazyControlFlow()


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _static_value(x) -> bool:
    return static_mode.is_static() and isinstance(x, Variable)


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """``true_fn()`` if ``pred`` else ``false_fn()`` (see ``control_flow.cond``)."""
    if not _static_value(pred):
        return _cf.cond(pred, true_fn, false_fn, name, return_names)
    if pred.size != 1 and -1 not in pred.shape:
        raise AssertionError("condition input's numel should be 1")
    t = true_fn() if true_fn is not None else None
    f = false_fn() if false_fn is not None else None
    if t is None and f is None:
        return None
    t_leaves, t_tree = jax.tree_util.tree_flatten(t, is_leaf=_is_tensor)
    f_leaves, f_tree = jax.tree_util.tree_flatten(f, is_leaf=_is_tensor)
    if t_tree != f_tree:
        raise ValueError(
            "true_fn and false_fn of cond must return the same structure, but received "
            f"{t_tree} and {f_tree}"
        )
    p = call_op("reshape", pred, [])
    out = [
        call_op("where", p, a, b) if isinstance(a, Tensor) or isinstance(b, Tensor) else a
        for a, b in zip(t_leaves, f_leaves)
    ]
    return jax.tree_util.tree_unflatten(t_tree, out)


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """``while cond(*loop_vars): loop_vars = body(*loop_vars)`` (see
    ``control_flow.while_loop``)."""
    if not static_mode.is_static():
        return _cf.while_loop(cond, body, loop_vars, is_test, name)
    if not isinstance(loop_vars, list | tuple) or len(loop_vars) == 0:
        raise ValueError("loop_vars in while_loop should not be empty")

    def run(*vs):
        return _cf.while_loop(cond, body, list(vs), is_test, name)

    return list(record_call("while", run, tuple(loop_vars)))


def case(pred_fn_pairs, default=None, name=None):
    """The function of the first pair whose predicate holds (see ``control_flow.case``)."""
    if not any(_static_value(p) for p, _ in pred_fn_pairs or []):
        return _cf.case(pred_fn_pairs, default, name)
    pairs = list(pred_fn_pairs)
    if default is None:
        *pairs, (_, default) = pairs

    def chain(rest):
        if not rest:
            return default()
        (p, fn), rest = rest[0], rest[1:]
        return cond(p, fn, lambda: chain(rest))

    return chain(pairs)


def switch_case(branch_index, branch_fns, default=None, name=None):
    """``branch_fns[branch_index]()`` (see ``control_flow.switch_case``)."""
    if not _static_value(branch_index):
        return _cf.switch_case(branch_index, branch_fns, default, name)
    if isinstance(branch_fns, dict):
        pairs = sorted(branch_fns.items())
    else:
        pairs = sorted(x if isinstance(x, tuple) else (i, x) for i, x in enumerate(branch_fns))
    if default is None:
        default = pairs[-1][1]
    preds = [(call_op("equal", branch_index, int(i)), fn) for i, fn in pairs]
    return case(preds, default)
