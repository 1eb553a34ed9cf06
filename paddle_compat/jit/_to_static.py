"""paddle.jit.to_static on jax.jit.

A ``StaticFunction`` runs the user's Python function as a pure JAX function of
``(state arrays, argument arrays)``. *State* is every Tensor that existed before the call and
that the function reads: Parameters, buffers, optimizer moments, ``.grad``s, the RNG key. It is
discovered by running the function once eagerly under a recording context (first call), then
lifted to explicit inputs of the compiled program. Everything the traced run rebinds
(``_set_value``, ``.grad``) or creates and keeps alive becomes an output, written back into the
same Tensor objects after each call; written state buffers are donated. Discovery, the pure
function and the write-back are ``_core/functional.py``'s ``recording``, ``functionalize`` and
``write_back``.

Cache key: the arguments' tree structure, Tensor shapes/dtypes/stop_gradient, static
(non-Tensor) arguments, plus guards on Python attributes read during tracing
(``Layer.training``). A traced run that discovers new state is still correct (the new state is
baked in as a constant for that call) and marks its entry stale, so the next call retraces.
"""

from __future__ import annotations

import functools
import os
import sys
import traceback
import warnings
import weakref

import jax
import jax.numpy as jnp

from .._core import amp_state, functional, runtime_checks, trace_state
from .._core import autograd as _ag
from .._core import registry as _reg
from .._core.tensor import Tensor

_enabled = True
_DONATE = os.environ.get("PADDLE_COMPAT_DONATE", "1") != "0"


def enable_to_static(flag: bool) -> None:
    """Globally switch to_static on/off (off: decorated functions run eagerly)."""
    global _enabled
    _enabled = bool(flag)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


class _Entry:
    """One compiled specialization."""

    def __init__(self):
        self.state: list[weakref.ref] = []  # input Tensors besides the arguments
        self.guards: list[tuple] = []
        self.compiled = None
        self.donated: tuple[int, ...] = ()
        self.out_tree = None  # structure of the return value (Tensor slots -> output idx)
        self.ret_sg: list[bool] = []  # stop_gradient of returned Tensors
        self.writes: list[tuple] = []  # (kind, weakref, stop_gradient) for write-back outputs
        self.stale = False
        self.eager = False  # fall back to eager for this key (full_graph=False)
        self.wrote_grads = False
        self.checked = False  # compiled with checkify (FLAGS_check_static_values)

    def alive_state(self):
        out = []
        for r in self.state:
            t = r()
            if t is None:
                return None
            out.append(t)
        return out

    def guards_hold(self) -> bool:
        for ref, attr, value in self.guards:
            obj = ref()
            if obj is None or _raw_attr(obj, attr) != value:
                return False
        return True


def _raw_attr(obj, attr):
    prev = trace_state.set_current(None)
    try:
        return getattr(obj, attr)
    finally:
        trace_state.set_current(prev)


class StaticFunction:
    """The callable returned by ``paddle.jit.to_static``."""

    def __init__(self, fn, input_spec=None, full_graph: bool = False, instance=None):
        self._fn = fn
        self._input_spec = input_spec
        self._full_graph = full_graph
        self._instance = instance
        self._cache: dict = {}
        self._known_state: dict[tuple, list[weakref.ref]] = {}
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        functools.update_wrapper(self, fn)

    # used as a method decorator inside a class body
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        sf = self._bound.get(obj)
        if sf is None:
            sf = StaticFunction(
                self._fn.__get__(obj, objtype), self._input_spec, self._full_graph, instance=obj
            )
            self._bound[obj] = sf
        return sf

    @property
    def dygraph_function(self):
        return self._fn

    def rollback(self):
        """The original (eager) function."""
        if self._instance is not None and hasattr(self._instance, "forward"):
            self._instance.__dict__.pop("forward", None)
        return self._fn

    @property
    def input_spec(self):
        return self._input_spec

    def last_call_shapes(self) -> list[tuple[tuple, str]] | None:
        """(shape, dtype) of each argument of the last specialization called, when all its
        arguments are positional Tensors (``jit.save`` saves that program); else None."""
        cache = self._cache or self._known_state
        if not cache:
            return None
        treedef, statics, _ = list(cache)[-1]
        args, kwargs = jax.tree_util.tree_unflatten(treedef, list(statics))
        if kwargs or not all(isinstance(s, tuple) and s and s[0] == "T" for s in args):
            return None
        return [(s[1], s[2]) for s in args]

    def __call__(self, *args, **kwargs):
        if not _enabled or trace_state.current() is not None:
            return self._fn(*args, **kwargs)  # disabled, or nested inside another trace
        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_tensor)
        tensors = [x for x in leaves if isinstance(x, Tensor)]
        statics = tuple(
            ("T", tuple(x._value.shape), str(x._value.dtype), x.stop_gradient)
            if isinstance(x, Tensor)
            else ("S", type(x).__name__, _reg.hashable(x))
            for x in leaves
        )
        key = (treedef, statics, (amp_state.cache_key(), runtime_checks.static_checks()))
        entries = self._cache.setdefault(key, [])
        entry = None
        for e in entries:
            if e.guards_hold():
                entry = e
                break
        if entry is not None and entry.eager:
            return self._fn(*args, **kwargs)
        state = entry.alive_state() if entry is not None and not entry.stale else None
        if state is None:
            if entry is not None:
                entries.remove(entry)
            known = self._known_state.get(key)
            if known is None and self._known_state:
                # new input shapes: the state is the same parameters, moments and RNG key found
                # before (a trace that finds more bakes it in and retraces). A new static
                # argument or AMP state can take another path (an optimizer step that creates
                # moments) and is discovered by an eager run first.
                last_key, last = next(reversed(self._known_state.items()))
                if _same_but_shapes(last_key, key):
                    known = self._known_state[key] = list(last)
            if known is None:
                return self._discover(key, args, kwargs)
            arg_ids = {id(t) for t in tensors}
            state = [t for t in (r() for r in known) if t is not None and id(t) not in arg_ids]
            entry = self._trace(key, state, args, kwargs)
            entries.append(entry)
            if entry.eager:
                return self._fn(*args, **kwargs)
        return self._run(entry, state, tensors)

    # -- first call: run eagerly and record the state it touches -------------------------------
    def _discover(self, key, args, kwargs):
        with functional.recording() as rec:
            out = self._fn(*args, **kwargs)
        state = rec.touched((args, kwargs), out)
        self._known_state[key] = [weakref.ref(x) for x in state]
        return out

    # -- tracing -----------------------------------------------------------------------------
    def _trace(self, key, state, args, kwargs) -> _Entry:
        entry = _Entry()
        entry.state = [weakref.ref(t) for t in state]
        n_state = entry.n_state = len(state)
        pure = functional.functionalize(self._fn, state, args, kwargs)
        state_vals = [t._value for t in state]
        arg_vals = [t._value for t in pure.arg_tensors]
        try:
            jax.jit(pure).trace(state_vals, arg_vals)  # learn outputs and writes; no compile
        except trace_state.DataDependentError as e:
            return self._control_flow_fallback(entry, e)
        entry.out_tree, entry.ret_sg = pure.out_tree, pure.ret_sg
        entry.writes, entry.guards = pure.writes, pure.guards
        entry.wrote_grads = pure.wrote_grads
        if pure.discovered:  # correct for this call (baked in); retrace with it next time
            entry.stale = True
            self._known_state[key] = self._known_state[key] + [
                weakref.ref(t) for t in pure.discovered
            ]
        entry.pure = pure
        entry.checked = runtime_checks.static_checks()
        if entry.checked:  # a failed check raises before any write-back: nothing is donated
            entry.compiled = jax.jit(runtime_checks.checked(pure))
            return entry
        written = [i for i, t in enumerate(state) if id(t) in pure.written_ids]
        entry.donated = tuple(written) if _DONATE else ()
        if entry.donated:
            donated = set(entry.donated)

            def split_pure(don_vals, keep_vals, arg_vals):
                it_d, it_k = iter(don_vals), iter(keep_vals)
                vals = [next(it_d) if i in donated else next(it_k) for i in range(n_state)]
                return pure(vals, arg_vals)

            entry.compiled = jax.jit(split_pure, donate_argnums=(0,))
        else:
            entry.compiled = jax.jit(pure)
        return entry

    def _control_flow_fallback(self, entry, err):
        where = _user_frame(err)
        if self._full_graph:
            raise trace_state.DataDependentError(
                f"{err}\n  at {where}\n(paddle.jit.to_static with full_graph=True: rewrite the "
                "condition with paddle.where, or use full_graph=False)"
            ) from None
        warnings.warn(
            f"paddle.jit.to_static: {getattr(self._fn, '__qualname__', self._fn)} depends on a "
            f"Tensor value in Python control flow at {where}; running it eagerly instead.",
            stacklevel=3,
        )
        entry.eager = True
        return entry

    # -- running a compiled entry ---------------------------------------------------------------
    def _run(self, entry, state, tensors):
        state_vals = [trace_state.read(t) for t in state]
        arg_vals = [t._value for t in tensors]
        if entry.donated:
            donated = set(entry.donated)
            don = [_donatable(state_vals, i) for i in entry.donated]
            keep = [v for i, v in enumerate(state_vals) if i not in donated]
            outs = entry.compiled(don, keep, arg_vals)
        else:
            outs = entry.compiled(state_vals, arg_vals)
        if entry.checked:
            err, outs = outs
            runtime_checks.throw(err)
        return self._finish(entry, outs, state, tensors)

    def _finish(self, entry, outs, state, tensors):
        ret_vals, write_vals = outs
        functional.write_back(entry.writes, write_vals)
        ret_tensors = [Tensor(v, stop_gradient=sg) for v, sg in zip(ret_vals, entry.ret_sg)]
        if (
            _ag.is_grad_enabled()
            and not entry.wrote_grads
            and any(not t.stop_gradient for t in ret_tensors)
        ):
            self._record(entry, state, tensors, ret_tensors)
        return jax.tree_util.tree_unflatten(
            entry.out_tree[0], _fill(entry.out_tree[1], ret_tensors)
        )

    def _record(self, entry, state, tensors, ret_tensors):
        """Make the compiled call one differentiable node on the eager tape."""
        inputs = list(state) + list(tensors)
        arrays = [t._value for t in inputs]
        mask = tuple(
            not t.stop_gradient and _reg._dt.is_inexact_np(a.dtype) for t, a in zip(inputs, arrays)
        )
        if not any(mask):
            return
        n = entry.n_state
        pure = entry.pure
        amp = amp_state.current()  # backward retraces f, maybe outside auto_cast: same casts

        def f(*xs):
            with amp_state.using(amp):
                return pure(list(xs[:n]), list(xs[n:]))[0]

        diff = [t for t in ret_tensors if not t.stop_gradient]
        for t in diff:
            t.stop_gradient = True  # record() sets it back on differentiable outputs
        _ag.record(("to_static", id(entry)), f, inputs, arrays, mask, ret_tensors)


def _donatable(state_vals, i):
    """``state_vals[i]`` if only its Tensor holds it; else a copy, so that donating the buffer
    cannot invalidate an alias (``detach()``, another Tensor) or an eager autograd graph."""
    # references: the Tensor's _value, the state_vals list, getrefcount's argument
    if sys.getrefcount(state_vals[i]) > 3:
        return jnp.copy(state_vals[i])
    return state_vals[i]


def _fill(slots, tensors):
    return [tensors[s] if isinstance(s, int) else s[1] for s in slots]


def _user_frame(err) -> str:
    if getattr(err, "user_frame", None):
        return err.user_frame
    tb = traceback.extract_tb(err.__traceback__)
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for fr in reversed(tb):
        if not fr.filename.startswith(pkg) and "/jax/" not in fr.filename:
            return f'File "{fr.filename}", line {fr.lineno}: {fr.line}'
    return "<unknown location>"


def to_static(
    function=None,
    input_spec=None,
    build_strategy=None,
    backend=None,
    full_graph: bool = False,
    **kwargs,
):
    """Compile a function or Layer with jax.jit (Paddle's dynamic-to-static)."""

    def decorate(obj):
        if _is_layer(obj):
            sf = StaticFunction(obj.forward, input_spec, full_graph, instance=obj)
            obj.__dict__["forward"] = sf  # instance attribute shadows the class's forward
            return obj
        if isinstance(obj, StaticFunction):
            return obj
        return StaticFunction(obj, input_spec, full_graph)

    if function is not None:
        return decorate(function)
    return decorate


def _is_layer(obj) -> bool:
    try:
        from ..nn import Layer
    except ImportError:
        return False
    return isinstance(obj, Layer)


def not_to_static(func=None):
    """Mark a function to always run eagerly (it is called inline when traced)."""
    if func is None:
        return not_to_static
    func._paddle_not_to_static = True
    return func


def ignore_module(modules) -> None:
    """Accepted for compatibility: module filtering is not needed on JAX."""


def _same_but_shapes(a, b) -> bool:
    """Whether two call keys differ only in their Tensors' shapes/dtypes/stop_gradient."""
    (tree_a, stat_a, amp_a), (tree_b, stat_b, amp_b) = a, b
    if tree_a != tree_b or amp_a != amp_b or len(stat_a) != len(stat_b):
        return False
    return all(x == y or (x[0] == "T" and y[0] == "T") for x, y in zip(stat_a, stat_b))
