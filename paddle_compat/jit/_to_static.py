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

The function runs with its control flow converted (``dy2static``): ``if``/``while``/``for`` on
traced Tensors become ``lax`` primitives. The user's Python runs twice before the first
compiled result: the discovery run and one trace (the program is compiled from the traced
jaxpr, with the state buffers the trace writes donated); a third time only when the trace
reads state the eager run did not (a Tensor branch it did not take). Where conversion is
impossible, ``full_graph=False`` (the default) runs the function eagerly, warning once with the
reason and the line; ``full_graph=True`` raises.

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
import types
import warnings
import weakref

import jax
import jax.numpy as jnp
from jax.extend.core import jaxpr_as_fun

from .._core import amp_state, functional, gc_scope, runtime_checks, trace_state
from .._core import autograd as _ag
from .._core import registry as _reg
from .._core.tensor import Tensor, is_shared_zeros
from .dy2static import convert
from .dy2static.lax_control import UndefinedVar

_enabled = True
_CONVERT = os.environ.get("PADDLE_COMPAT_DY2STATIC", "1") != "0"
_RETRACE_WARN = 8  # distinct specializations of one function before the retrace warning
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
        # state that held the shared zeros of a cleared gradient when traced: constants of the
        # program, not inputs; ``live`` indexes the state the program takes
        self.zero_state: tuple[int, ...] = ()
        self.live: list[int] = []
        # (state index, owner): state that was its owner's .grad when traced; the entry holds
        # while it still is (a backward after a clear gives the owner a new grad Tensor).
        # no_grad: state Tensors that required grad and had none: the entry holds while so
        self.grad_of: list[tuple[int, weakref.ref]] = []
        self.no_grad: list[int] = []

    def alive_state(self):
        out = []
        for r in self.state:
            t = r()
            if t is None:
                return None
            out.append(t)
        return out

    def guards_hold(self, state) -> bool:
        """Whether this entry serves a call whose state Tensors are ``state``
        (``alive_state()``; None when one died: the entry is then replaced)."""
        for ref, attr, value in self.guards:
            obj = ref()
            if obj is None or _raw_attr(obj, attr) != value:
                return False
        if state is None:
            return True
        for i, owner in self.grad_of:
            o = owner()
            if o is None or o._grad_slot is not state[i]:
                return False
        if any(state[i]._grad_slot is not None for i in self.no_grad):
            return False
        return _zero_state(state) == self.zero_state


def _zero_state(state) -> tuple[int, ...]:
    """Indices of the state Tensors holding the shared zeros of a cleared gradient."""
    return tuple(i for i, t in enumerate(state) if is_shared_zeros(t._value))


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
        self._converted = None
        self._force_dynamic = getattr(fn, "_paddle_force_dynamic", False) or getattr(
            type(instance), "_paddle_force_dynamic", False
        )  # paddle.jit.marker.force_dynamic
        self._warned = False
        self._retrace_warned = False
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

    def _converted_fn(self):
        """The function with its control flow converted (the function itself when it cannot
        be converted, or with ``PADDLE_COMPAT_DY2STATIC=0``)."""
        if self._converted is None:
            self._converted = convert.convert_function(self._fn) if _CONVERT else self._fn
        return self._converted

    def _call(self, *args, **kwargs):
        return _run_converted(self._converted_fn(), *args, **kwargs)

    def __call__(self, *args, **kwargs):
        if not _enabled or self._force_dynamic:
            return self._fn(*args, **kwargs)
        if trace_state.current() is not None:  # nested inside another trace
            return self._call(*args, **kwargs) if convert._depth[0] else self._fn(*args, **kwargs)
        leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_tensor)
        tensors = [x for x in leaves if isinstance(x, Tensor)]
        statics = tuple(
            ("T", tuple(x._value.shape), str(x._value.dtype), x.stop_gradient)
            if isinstance(x, Tensor)
            else ("S", type(x).__name__, _reg.hashable(x))
            for x in leaves
        )
        key = (treedef, statics, (amp_state.cache_key(), runtime_checks.static_checks()))
        if key not in self._cache and len(self._cache) >= _RETRACE_WARN:
            self._warn_retrace(key)
        entries = self._cache.setdefault(key, [])
        entry = state = None
        for e in entries:
            alive = e.alive_state()
            if e.guards_hold(alive):
                entry, state = e, alive
                break
        if entry is not None and entry.eager:
            return self._fn(*args, **kwargs)
        if entry is not None and entry.stale:
            state = None
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
            for _ in range(2):  # again when the trace finds state the eager run did not touch
                known = self._known_state[key]  # (a Tensor branch it did not take)
                state = [t for t in (r() for r in known) if t is not None and id(t) not in arg_ids]
                entry = self._trace(key, state, args, kwargs)
                if not entry.stale:
                    break
            entries.append(entry)
            if entry.eager:
                return self._fn(*args, **kwargs)
        return self._run(entry, state, tensors)

    # -- first call: run eagerly and record the state it touches -------------------------------
    def _discover(self, key, args, kwargs):
        with gc_scope.new_objects_only():  # touched() collects what the call released
            with functional.recording() as rec:
                out = self._call(*args, **kwargs)
            state = rec.touched((args, kwargs), out)
        self._known_state[key] = [weakref.ref(x) for x in state]
        return out

    # -- tracing -----------------------------------------------------------------------------
    def _trace(self, key, state, args, kwargs) -> _Entry:
        entry = _Entry()
        entry.state = [weakref.ref(t) for t in state]
        entry.n_state = len(state)
        # not a bound method: the entry (kept by the cache, and by a tape node whose backward
        # runs it again) must not hold this function, or dropping it would leave a cycle
        # holding its compiled program until a full garbage collection
        call = functools.partial(_run_converted, self._converted_fn())
        pure = functional.functionalize(call, state, args, kwargs)
        owners = {id(t._grad_slot): t for t in state if t._grad_slot is not None}
        entry.grad_of = [
            (i, weakref.ref(owners[id(t)])) for i, t in enumerate(state) if id(t) in owners
        ]
        entry.no_grad = [
            i for i, t in enumerate(state) if t._grad_slot is None and not t.stop_gradient
        ]
        entry.zero_state = _zero_state(state)
        entry.live = [i for i in range(len(state)) if i not in entry.zero_state]
        state_vals = [state[i]._value for i in entry.live]
        arg_vals = [t._value for t in pure.arg_tensors]
        entry.checked = runtime_checks.static_checks() or _asserts(self._converted_fn())
        fn = _with_zero_state(pure, state, entry)
        unstaged = runtime_checks.unstaged()
        target = jax.jit(runtime_checks.checked(fn) if entry.checked else fn)
        try:
            traced = target.trace(state_vals, arg_vals)  # the one run of the user's Python
            if runtime_checks.unstaged() != unstaged:  # an assert on a Tensor: stage it
                entry.checked = True
                traced = jax.jit(runtime_checks.checked(fn)).trace(state_vals, arg_vals)
        except trace_state.DataDependentError as e:
            return self._control_flow_fallback(entry, e)
        entry.out_tree, entry.ret_sg = pure.out_tree, pure.ret_sg
        entry.writes, entry.guards = pure.writes, pure.guards
        entry.wrote_grads = pure.wrote_grads
        if pure.discovered:  # correct for this call (baked in); traced again with it
            entry.stale = True
            self._known_state[key] = self._known_state[key] + [
                weakref.ref(t) for t in pure.discovered
            ]
        entry.pure = pure
        # the written state buffers are donated (not with checks: a failed check raises before
        # any write-back). The program is compiled from the traced jaxpr, so choosing them
        # after the trace does not run the user's Python again.
        if _DONATE and not entry.checked:
            # (not a gradient cleared to the shared zeros: no output takes its buffer)
            cleared = {id(ref()) for kind, ref, _ in pure.writes if isinstance(kind, tuple)}
            entry.donated = tuple(
                j
                for j, i in enumerate(entry.live)
                if id(state[i]) in pure.written_ids and id(state[i]) not in cleared
            )
        entry.result_tree = jax.tree_util.tree_structure(traced.out_info)
        program = jax.jit(jaxpr_as_fun(traced.jaxpr), donate_argnums=entry.donated)
        entry.compiled = program.lower(*state_vals, *arg_vals).compile()
        return entry

    def _control_flow_fallback(self, entry, err):
        where = _user_frame(err)
        reason = str(err).split("\n  at ")[0]
        if self._full_graph:
            raise trace_state.DataDependentError(
                f"{reason}\n  at {where}\n(paddle.jit.to_static with full_graph=True cannot run "
                "it eagerly instead: rewrite it with paddle.static.nn.cond / while_loop or "
                "paddle.where, or use full_graph=False)"
            ) from None
        if not self._warned:
            self._warned = True
            name = getattr(self._fn, "__qualname__", self._fn)
            warnings.warn(
                f"paddle.jit.to_static: {name} cannot be compiled as one program; running it "
                f"eagerly: {reason}\n  at {where}",
                stacklevel=4,
            )
        entry.eager = True
        return entry

    def _warn_retrace(self, key) -> None:
        """Warn once that the function keeps being traced again, naming what changes."""
        if self._retrace_warned:
            return
        self._retrace_warned = True
        keys = [*list(self._cache)[-_RETRACE_WARN:], key]
        changing = []
        for i, vals in enumerate(zip(*(k[1] for k in keys if len(k[1]) == len(key[1])))):
            if any(v != vals[0] for v in vals):
                kind = vals[0][0]
                seen = sorted({str(list(v[1])) if kind == "T" else repr(v[2]) for v in vals})
                what = "Tensor shape/dtype" if kind == "T" else "Python value"
                changing.append(f"input {i} ({what}: {', '.join(seen[:4])}...)")
        name = getattr(self._fn, "__qualname__", self._fn)
        warnings.warn(
            f"paddle.jit.to_static: {name} was traced {len(self._cache) + 1} times, once per "
            f"new input signature; what keeps changing: {'; '.join(changing) or 'the inputs'}. "
            "Mark varying dimensions with InputSpec(shape=[None, ...]) or pass varying Python "
            "values as Tensors.",
            stacklevel=3,
        )

    # -- running a compiled entry ---------------------------------------------------------------
    def _run(self, entry, state, tensors):
        state_vals = [trace_state.read(state[i]) for i in entry.live]
        for i in entry.donated:
            state_vals[i] = _donatable(state_vals, i)
        outs = jax.tree_util.tree_unflatten(
            entry.result_tree, entry.compiled(*state_vals, *[t._value for t in tensors])
        )
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


def _with_zero_state(pure, state, entry):
    """``pure`` over the live state only: the zero state enters as constants."""
    if not entry.zero_state:
        return pure
    zeros = {i: (tuple(state[i]._value.shape), state[i]._value.dtype) for i in entry.zero_state}

    def fn(live_vals, arg_vals):
        full = [None] * len(state)
        for i, v in zip(entry.live, live_vals):
            full[i] = v
        for i, (shape, dtype) in zeros.items():
            full[i] = jnp.zeros(shape, dtype)
        return pure(full, arg_vals)

    return fn


def _asserts(fn) -> bool:
    """Whether the converted ``fn`` (or a function nested in it) has an ``assert``: its trace
    is checkified from the start (one from a function it calls is found by a second trace)."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    stack = [code] if code is not None else []
    while stack:
        c = stack.pop()
        if "convert_assert" in c.co_names:
            return True
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return False


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


def _run_converted(fn, *args, **kwargs):
    """Call a converted function (its Tensor control flow is converted while it runs)."""
    with convert.converting():
        out = fn(*args, **kwargs)
    for leaf in jax.tree_util.tree_leaves(out, is_leaf=_is_tensor):
        if isinstance(leaf, UndefinedVar):  # returned a variable only some paths define
            leaf._raise()
    return out
