"""The runtime that converted code calls (``_jst.*``): each helper runs plain Python when its
condition is a Python value or a concrete Tensor (eager code keeps Python's semantics) and
builds one ``lax`` primitive when it is a Tensor being traced under ``to_static``."""

from __future__ import annotations

import types

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import trace_state
from ..._core.tensor import Tensor
from .lax_control import (
    ConversionError,
    ReturnUnset,
    UndefinedVar,
    is_traced,
    run_cond,
    run_while,
)

__all__ = [
    "ConversionError",
    "ForIter",
    "ReturnUnset",
    "UndefinedVar",
    "convert_call",
    "convert_ifelse",
    "convert_ifexp",
    "convert_logical_and",
    "convert_logical_not",
    "convert_logical_or",
    "convert_while",
    "return_value",
]


def convert_ifelse(pred, true_fn, false_fn, get_args, set_args, names, where):
    """``if pred: true_fn() else: false_fn()``; the branches assign the variables ``names``
    (read by ``get_args``, written by ``set_args``)."""
    if not is_traced(pred):
        if pred:
            true_fn()
        else:
            false_fn()
        return
    init = get_args()

    def branch(fn):
        def run():
            set_args(init)
            fn()
            return get_args()

        return run

    try:
        out = run_cond(
            pred, branch(true_fn), branch(false_fn), names, where, lambda: set_args(init)
        )
    finally:
        set_args(init)
    set_args(out)


def convert_while(cond_fn, body_fn, get_args, set_args, names, where):
    """``while cond_fn(): body_fn()``; from the first iteration whose condition is a traced
    Tensor on, the rest of the loop is one ``lax.while_loop`` over the variables ``names``."""
    while True:
        p = cond_fn()
        if is_traced(p):
            break
        if not p:
            return
        body_fn()
    init = get_args()

    def cond(vals):
        set_args(vals)
        return cond_fn()

    def body(vals):
        set_args(vals)
        body_fn()
        return get_args()

    try:
        out = run_while(cond, body, init, names, where, lambda: set_args(init))
    finally:
        set_args(init)
    set_args(out)


def _as_bool_tensor(x):
    if isinstance(x, Tensor):
        return x if str(x._value.dtype) == "bool" else x.astype("bool")
    return Tensor(jnp.asarray(bool(x)))


def _short_circuit(fns, combine, stop_when: bool):
    """Python's ``and``/``or`` over thunks (``stop_when``: the truth value that ends it), with
    ``combine`` (``paddle.logical_and``/``or``) once an operand is a traced Tensor."""
    v = fns[0]()
    for f in fns[1:]:
        if is_traced(v):
            v = combine(_as_bool_tensor(v), _as_bool_tensor(f()))
        elif bool(v) is stop_when:
            return v
        else:
            v = f()
    return v


def convert_logical_and(*fns):
    """``a and b and ...`` (each operand a thunk): Python's short-circuit on Python values and
    concrete Tensors, ``paddle.logical_and`` once an operand is a traced Tensor."""
    from ... import logical_and

    return _short_circuit(fns, logical_and, False)


def convert_logical_or(*fns):
    """``a or b or ...`` like ``convert_logical_and``."""
    from ... import logical_or

    return _short_circuit(fns, logical_or, True)


def convert_logical_not(x):
    """``not x``: ``paddle.logical_not`` on a traced Tensor."""
    if is_traced(x):
        from ... import logical_not

        return logical_not(_as_bool_tensor(x))
    return not x


def convert_assert(test, msg_fn, where):
    """``assert test, msg``: Python's on a Python value or a concrete Tensor; on a traced
    Tensor a check inside the compiled program, after which the call raises ``ValueError``
    (Paddle's AssertOp) when it fails."""
    if not is_traced(test):
        if not test:
            raise AssertionError(*(() if msg_fn is None else (msg_fn(),)))
        return
    from ..._core import runtime_checks

    msg = ""
    if msg_fn is not None:
        try:
            msg = f": {msg_fn()}"
        except Exception:  # noqa: BLE001 - a message that reads traced values: left out
            msg = ""
    runtime_checks.check_true(
        test,
        ValueError,
        f"(InvalidArgument) The condition of the assert must be true, but received false"
        f"{msg}\n  at {where}",
    )


def convert_ifexp(pred, true_fn, false_fn, where):
    """``a if pred else b`` (thunks)."""
    if not is_traced(pred):
        return true_fn() if pred else false_fn()
    return run_cond(pred, true_fn, false_fn, None, where)  # results leave through the return


def return_value(v):
    """The value a converted function returns (None when no ``return`` ran)."""
    return None if isinstance(v, ReturnUnset) else v


class ForIter:
    """What ``for target in iterable`` iterates: a ``range`` (its bounds may be Tensors: traced
    bounds make the loop a ``lax.while_loop``), a Tensor (its first axis; its length is static,
    so a Python loop unless a Tensor ``break`` makes it a while loop), a list or tuple (by
    index) or any other iterable (by ``next``, lazily, as Python does)."""

    def __init__(self, iterable, where):
        self.where = where
        if isinstance(iterable, range):
            self.kind, self.range = "range", (iterable.start, iterable.stop, iterable.step)
        elif isinstance(iterable, _TensorRange):
            self.kind, self.range = "range", iterable.bounds
        elif isinstance(iterable, Tensor):
            if not iterable.shape:
                raise TypeError("iteration over a 0-D tensor")
            self.kind, self.seq = "tensor", iterable
        elif isinstance(iterable, list | tuple):
            self.kind, self.seq = "seq", iterable
        else:
            self.kind, self.it = "iter", iter(iterable)
            self.scope = trace_state.current()

    def start(self):
        return self.range[0] if self.kind == "range" else 0

    def has_next(self, i):
        if self.kind == "range":
            _, stop, step = self.range
            if isinstance(step, Tensor):
                raise ConversionError("range() with a Tensor step is not supported", self.where)
            return i < stop if step > 0 else i > stop
        if self.kind == "iter":
            if trace_state.current() is not self.scope:  # the loop became a lax.while_loop
                raise self._no_lax("a Python iterator")
            try:
                self.item = next(self.it)
            except StopIteration:
                return False
            return True
        return i < len(self.seq)

    def _no_lax(self, what):
        return ConversionError(
            f"a for loop over {what} cannot continue as a Tensor while loop (its break "
            "condition depends on a Tensor); iterate over a Tensor or a range instead",
            self.where,
        )

    def get(self, i):
        if self.kind == "range":
            return i
        if self.kind == "iter":
            return self.item
        if self.kind == "seq" and isinstance(i, Tensor):
            raise self._no_lax("a Python list")
        return self.seq[i]

    def step(self, i):
        return i + (self.range[2] if self.kind == "range" else 1)


class _TensorRange:
    """``range(...)`` with Tensor bounds (what ``convert_call(range)`` returns for them)."""

    def __init__(self, bounds):
        self.bounds = bounds

    def __iter__(self):
        start, stop, step = (int(b) if isinstance(b, Tensor) else b for b in self.bounds)
        return iter(range(start, stop, step))


def _range(*args):
    if not any(is_traced(a) for a in args):
        return range(*(int(a) if isinstance(a, Tensor) else a for a in args))
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
    return _TensorRange((start, stop, step))


def _print(*args, **kwargs):
    """``print`` that shows traced Tensors' values each time the compiled program runs (as
    Paddle's default to_static prints the real values)."""
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_tensor)
    if not any(is_traced(x) for x in leaves):
        return print(*args, **kwargs)
    # the callback keeps no Tensor (one made inside a branch must not outlive it)
    kept = [(x._value, x.stop_gradient) if isinstance(x, Tensor) else x for x in leaves]
    is_t = [isinstance(x, Tensor) for x in leaves]
    arrays = [k[0] for k, t in zip(kept, is_t) if t]
    kept = [(None, k[1]) if t else k for k, t in zip(kept, is_t)]

    def show(*vals):
        it = iter(vals)
        out = [Tensor(np.asarray(next(it)), stop_gradient=k[1]) if t else k
               for k, t in zip(kept, is_t)]  # fmt: skip
        a, k = jax.tree_util.tree_unflatten(tree, out)
        print(*a, **k)

    jax.debug.callback(show, *arrays, ordered=True)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def convert_call(f):
    """The function to call for ``f(...)`` inside converted code: a user function converted
    too, ``range`` accepting Tensor bounds, ``print`` showing traced values when the program
    runs; everything else as it is."""
    if f is range:
        return _range
    if f is print:
        return _print
    if isinstance(f, types.FunctionType | types.MethodType):
        from .convert import convert_function

        return convert_function(f)
    return f
