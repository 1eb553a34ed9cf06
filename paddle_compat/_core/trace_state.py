"""Bookkeeping for the to_static trace in progress: which pre-existing Tensors a traced function
reads (they become inputs of the compiled function), and which Tensors it creates or rebinds
(they may become outputs written back after the call)."""

from __future__ import annotations

import functools
import threading
import weakref

import jax

try:  # a no-op check (~0.2 us) that JAX is not tracing
    from jax._src.core import trace_state_clean as jax_idle
except ImportError:  # pragma: no cover - a JAX without it: trust our own trace context

    def jax_idle() -> bool:
        return True


_ctx: TraceContext | None = None
_train = threading.local()


def in_train_program() -> bool:
    """Whether the op being traced is part of a larger program that also differentiates it (a
    to_static train step, a deferred segment recording gradients). Ops registered with
    ``train_form=True`` read it to take another form there than in their eager kernels and
    forward-only programs."""
    return getattr(_train, "on", False)


def train_program(f):
    """``f`` traced for a larger program that differentiates it (``in_train_program()``)."""

    @functools.wraps(f)
    def in_train(*args, **kwargs):
        before = getattr(_train, "on", False)
        _train.on = True
        try:
            return f(*args, **kwargs)
        finally:
            _train.on = before

    return in_train


class DataDependentError(RuntimeError):
    """Python control flow or host reads on a traced Tensor (raised under to_static)."""


class TraceContext:
    """What one run of a to_static function touched.

    known: id -> Tensor already passed in as compiled-function state.
    discovered: pre-existing Tensors read but not known (state for the next trace).
    created: weakrefs to Tensors created during the run.
    written: id -> (weakref, original value, node, out_idx) for Tensors rebound during the run.
    grads: id -> (weakref, original grad) for Tensors whose ``.grad`` changed.
    guards: Python attributes the run depended on (``Layer.training``).
    host_random: an eager run whose random ops draw from the host stream as plain eager code
    does (``recompute``); to_static's first call draws from the key, as its compiled calls do.
    """

    def __init__(
        self,
        start_uid: int,
        known_state: dict[int, object],
        eager: bool = False,
        host_random: bool = False,
    ):
        self.start_uid = start_uid
        self.known = known_state
        self.eager = eager
        self.host_random = host_random  # eager random ops draw from the host stream
        self.discovered: dict[int, object] = {}
        self.created: list[weakref.ref] = []
        self.written: dict[int, tuple] = {}
        self.grads: dict[int, tuple] = {}
        self.guards: dict[tuple, tuple] = {}
        # inside a converted branch or loop body (jit/dy2static): the Tensors made before it
        # (uid < free_uid) that it reads
        self.free: dict[int, object] | None = None
        self.free_uid = 0
        # Tensors whose values are known while tracing (shapes: static in XLA), and the ones
        # computed from them only: constants of the program, so control flow on them is Python
        self.static: dict[int, weakref.ref] = {}
        # zero arrays the run made for cleared gradients (id -> array): written back as the
        # shared zeros instead of being outputs of the compiled program
        self.zeros: dict[int, object] = {}
        self.accumulated = False  # a backward added into an existing .grad (in place)


def current() -> TraceContext | None:
    return _ctx


def set_current(ctx: TraceContext | None) -> TraceContext | None:
    global _ctx
    prev, _ctx = _ctx, ctx
    return prev


def note_created(t) -> None:
    if _ctx is not None:
        _ctx.created.append(weakref.ref(t))


def note_written(t) -> None:
    """Called before ``t`` is rebound: remember its original value once."""
    if _ctx is not None and id(t) not in _ctx.written:
        _ctx.written[id(t)] = (weakref.ref(t), t._value, t._node, t._out_idx)


def note_zeros(v):
    """Remember that ``v`` (made under the trace) is all zeros; returns ``v``."""
    if _ctx is not None:
        _ctx.zeros[id(v)] = v
    return v


def note_grad_accumulated() -> None:
    if _ctx is not None:
        _ctx.accumulated = True


def note_grad_written(t) -> None:
    if _ctx is not None and id(t) not in _ctx.grads:
        _ctx.grads[id(t)] = (weakref.ref(t), t._grad_slot)


def read(t):
    """The array held by ``t``; under a trace, a concrete array of a Tensor that existed before
    the trace started is recorded as state the compiled function must take as input."""
    v = t._value
    if _ctx is not None:
        if t._uid < _ctx.start_uid and id(t) not in _ctx.known:
            if _ctx.eager or not isinstance(v, jax.core.Tracer):
                _ctx.discovered[id(t)] = t
        if _ctx.free is not None and t._uid < _ctx.free_uid:
            _ctx.free[id(t)] = t
    return v


def note_static(t) -> None:
    """``t`` holds a value known while tracing (``paddle.shape``'s result, or computed from
    such values only): ops on it fold to constants instead of entering the program."""
    if _ctx is not None:
        _ctx.static[id(t)] = weakref.ref(t)


def folds(inputs, arrays) -> bool:
    """Whether an op under a trace computes a known value: some input is a known value and
    no input array is a tracer."""
    known = _ctx.static
    if not known or not any(_is(known.get(id(x)), x) for x in inputs):
        return False
    return not any(isinstance(a, jax.core.Tracer) for a in arrays)


def _is(ref, x) -> bool:
    return ref is not None and ref() is x


def note_guard(obj, attr: str, value) -> None:
    """Record that the trace depended on a Python attribute (e.g. ``Layer.training``)."""
    if _ctx is not None:
        _ctx.guards[(id(obj), attr)] = (weakref.ref(obj), attr, value)


def is_tracer(v) -> bool:
    return isinstance(v, jax.core.Tracer)


def check_concrete(t, what: str, control_flow: bool = False) -> None:
    if isinstance(t._value, jax.core.Tracer):
        hint = (
            "to_static converts if/while/for on Tensors in the functions it compiles, but not "
            "this one (library code, paddle.jit.not_to_static, or a construct it does not "
            "convert); use paddle.static.nn.cond / while_loop or paddle.where, or "
            "full_graph=False to run it eagerly."
            if control_flow
            else "its value is only known when the compiled program runs; return the Tensor "
            "from the to_static function and read it outside."
        )
        err = DataDependentError(
            f"{what} needs a concrete value, but it was called on a Tensor inside "
            f"paddle.jit.to_static (shape {list(t._value.shape)}, dtype "
            f"{t._value.dtype}): {hint}"
        )
        err.user_frame = user_frame()
        raise err


def user_frame() -> str:
    """``File "...", line N: code`` of the innermost caller outside paddle_compat and JAX
    (taken when raising: JAX may rebuild tracebacks with frames' final line numbers)."""
    import linecache
    import os
    import sys

    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        if (
            not name.startswith(pkg)
            and f"{os.sep}jax{os.sep}" not in name
            and f"{os.sep}jaxlib{os.sep}" not in name
        ):
            line = linecache.getline(name, f.f_lineno).strip()
            return f'File "{name}", line {f.f_lineno}: {line}'
        f = f.f_back
    return "<unknown location>"
