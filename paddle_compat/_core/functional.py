"""Functionalization: Paddle's stateful objects as flat state, a call as a pure function of
arrays, and the write-back of what the call changed. The one implementation used by
``to_static``, ``jit.save``, ``recompute`` and ``DistModel``.

Paddle code mutates Tensors in place (parameters, buffers, optimizer moments, ``.grad``, the RNG
key); JAX transforms want ``f(state arrays, argument arrays) -> (outputs, new state)``. In the
manner of flax.nnx's split/merge and snapshot-and-diff (without subclassing nnx):

- ``state_of(obj)`` splits a Layer, an optimizer or a random ``Generator`` into a flat
  ``{name: Tensor}`` (``rng_state()`` for the global generator).
- ``recording()`` runs Python eagerly and records the Tensors it touched (the state of a
  function that is not a Layer: what it reads, rebinds, creates and keeps).
- ``functionalize(fn, state, args, kwargs)`` is ``fn`` as a pure function of arrays: it swaps
  the arrays (tracers under ``jax.jit``) into the Tensors, runs ``fn``, returns its outputs and
  the arrays of every Tensor it rebound, and restores all Tensors.
- ``write_back(writes, values)`` stores those arrays back into their Tensors (the merge).
- ``swap_in(tensors, values)`` is the context under both: Tensors hold other arrays for a block,
  everything the block rebinds is restored on exit.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import jax

from . import gc_scope, trace_state
from . import random as _random
from .tensor import Tensor, _uid_counter, constant_array

__all__ = [
    "PureFn",
    "Recording",
    "functionalize",
    "recording",
    "rng_state",
    "state_of",
    "swap_in",
    "write_back",
]


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


# -- split: named state --------------------------------------------------------------------------
def state_of(obj) -> dict[str, Tensor]:
    """The live Tensors holding ``obj``'s state, by name, each Tensor once:

    - a Layer: parameters by structured name (``fc1.weight``), then persistable buffers and the
      other Tensors of its ``state_dict``;
    - an optimizer (or ``shard_optimizer`` wrapper): accumulators and master weights by
      Paddle's names (``linear_0.w_0_moment1_0``), then the learning-rate Tensor;
    - a random ``Generator``: its key, as ``"key"``.
    """
    if isinstance(obj, _random.Generator):
        return {"key": obj._key}
    if hasattr(obj, "named_parameters") and hasattr(obj, "state_dict"):
        out, seen = {}, set()
        for key, p in obj.named_parameters():
            seen.add(id(p))
            out[key] = p
        for key, t in obj.state_dict().items():
            if isinstance(t, Tensor) and id(t) not in seen:
                seen.add(id(t))
                out[key] = t
        return out
    inner = getattr(obj, "_inner_opt", obj)
    if hasattr(inner, "_lr_tensor"):
        out = {}
        for k, v in obj.state_dict().items():
            if isinstance(v, Tensor):
                out[k] = v
            elif k == "master_weights":
                out.update({t.name: t for t in v.values()})
        lr = inner._lr_tensor()
        out[lr.name] = lr
        return out
    raise TypeError(
        f"state_of takes a Layer, an optimizer or a Generator, got {type(obj).__name__}"
    )


def rng_state() -> dict[str, Tensor]:
    """The global random generator's state (``state_of(default_generator)``)."""
    return state_of(_random.default_generator)


# -- discovering the state of a call ---------------------------------------------------------------
class Recording:
    """What one eager run touched (see ``recording``)."""

    def __init__(self, ctx: trace_state.TraceContext) -> None:
        self.ctx = ctx

    def read(self) -> list[Tensor]:
        """The Tensors that existed before the run and that it read, in order."""
        return list(self.ctx.discovered.values())

    def before(self, t: Tensor):
        """The array ``t`` held when the run started (the run may have rebound it)."""
        w = self.ctx.written.get(id(t))
        return t._value if w is None else w[1]

    def touched(self, inputs, outputs) -> list[Tensor]:
        """The state of the run: every Tensor besides those in ``inputs`` (a pytree) that it
        read, rebound, or created and kept alive (e.g. Adam moments born in the first
        ``opt.step()``), plus the ``.grad`` Tensors it set; Tensors in ``outputs`` (a pytree)
        that it created are results, not state."""
        ctx = self.ctx
        in_ids = {id(x) for x in jax.tree_util.tree_leaves(inputs, is_leaf=_is_tensor)}
        out_ids = {id(x) for x in jax.tree_util.tree_leaves(outputs, is_leaf=_is_tensor)}
        gc.collect()  # drop Layers/Tensors the call created and released (reference cycles)
        grad_ids = set()
        state = {i: t for i, t in ctx.discovered.items() if i not in in_ids}
        for ref, _ in ctx.grads.values():
            t = ref()
            if t is not None and t._grad_slot is not None:
                grad_ids.add(id(t._grad_slot))
                state.setdefault(id(t._grad_slot), t._grad_slot)
        for ref in ctx.created:  # e.g. optimizer moments created by the first step
            t = ref()
            if t is not None and id(t) not in out_ids and id(t) not in grad_ids:
                state.setdefault(id(t), t)
        for ref, *_ in ctx.written.values():
            t = ref()
            if t is not None and id(t) not in in_ids:
                state.setdefault(id(t), t)
        t = None
        return list(state.values())


def _merge(outer: trace_state.TraceContext | None, inner: trace_state.TraceContext) -> None:
    """Report what a nested run touched to the enclosing recording or trace."""
    if outer is None:
        return
    prev = trace_state.set_current(outer)
    try:
        for t in inner.discovered.values():
            trace_state.read(t)
    finally:
        trace_state.set_current(prev)
    for k, v in inner.written.items():
        outer.written.setdefault(k, v)
    for k, v in inner.grads.items():
        outer.grads.setdefault(k, v)
    outer.accumulated = outer.accumulated or inner.accumulated
    outer.created.extend(inner.created)
    outer.guards.update(inner.guards)


@contextmanager
def recording(host_random: bool = False) -> Iterator[Recording]:
    """Run the block eagerly and record the Tensors it touches; on success, an enclosing
    recording or trace learns them too. The block's writes stay (nothing is restored).
    host_random: random ops draw from the host stream, as in plain eager code (else from the
    generator's key, as compiled code does)."""
    outer = trace_state.current()
    host_random = host_random and (outer is None or outer.host_random)  # inside to_static: key
    ctx = trace_state.TraceContext(next(_uid_counter), {}, eager=True, host_random=host_random)
    trace_state.set_current(ctx)
    try:
        yield Recording(ctx)
    finally:
        trace_state.set_current(outer)
    _merge(outer, ctx)


# -- run pure --------------------------------------------------------------------------------------
@contextmanager
def swap_in(
    tensors: Sequence[Tensor],
    values: Sequence,
    *,
    leaves: Sequence[Tensor] = (),
    eager: bool = False,
    host_random: bool = False,
) -> Iterator[trace_state.TraceContext]:
    """Let ``tensors`` hold ``values`` (arrays or tracers, with no autograd history) while the
    block runs, under a fresh trace context (yielded) that records what the block reads and
    rebinds. On exit, every other Tensor the block rebound gets its array, history and ``.grad``
    back, and ``tensors`` their own.

    leaves: Tensors among ``tensors`` that are differentiable leaves inside the block
    (``stop_gradient=False``, no hooks), e.g. the inputs of a recomputed block's sub-graph.
    eager: the context records as an eager run (``recompute``) rather than a ``jax`` trace.
    host_random: random ops in the block draw from the host stream (see ``recording``).
    """
    tensors = list(tensors)
    saved = [(t, t._value, t._node, t._out_idx, t._grad_slot) for t in tensors]
    saved_leaves = [(t, t.stop_gradient, t._hooks) for t in leaves]
    for t, v in zip(tensors, values):
        t._value, t._node, t._out_idx = v, None, 0
    for t in leaves:
        t.stop_gradient, t._hooks = False, None
    known = {id(t): t for t in tensors}
    prev = trace_state.current()
    host_random = host_random and (prev is None or prev.host_random)
    ctx = trace_state.TraceContext(next(_uid_counter), known, eager=eager, host_random=host_random)
    trace_state.set_current(ctx)
    try:
        yield ctx
    finally:
        trace_state.set_current(prev)
        for ref, value, node, idx in ctx.written.values():
            t = ref()
            if t is not None and id(t) not in known:
                t._value, t._node, t._out_idx = value, node, idx
        for ref, orig in ctx.grads.values():
            t = ref()
            if t is not None and id(t) not in known:
                t._grad_slot = orig
        for t, v, node, idx, g in saved:
            t._value, t._node, t._out_idx, t._grad_slot = v, node, idx, g
        for t, sg, hooks in saved_leaves:
            t.stop_gradient, t._hooks = sg, hooks


class PureFn:
    """``fn(*args, **kwargs)`` as ``pure(state_vals, arg_vals) -> (returned, written)``: arrays
    for ``state`` and for the argument Tensors (``arg_tensors``) in, the arrays of the returned
    Tensors and of every Tensor the call rebinds out (see ``write_back``); nothing is mutated.

    After each call (usually a ``jax`` trace) it describes that call: ``out_tree`` (the return
    value's structure: Tensor slots index ``returned``), ``ret_sg`` (their stop_gradient),
    ``writes`` (``(kind, weakref, stop_gradient)`` per written array, kind ``"value"`` or
    ``"grad"``), ``written_ids`` (ids of rebound Tensors), ``guards`` (Python attributes read,
    e.g. ``Layer.training``), ``discovered`` (state it read that was not in ``state``) and
    ``wrote_grads``.
    """

    __name__ = "pure"

    def __init__(self, fn: Callable, state: Sequence[Tensor], args: tuple, kwargs: dict):
        self.fn = fn
        self.state = list(state)
        self.leaves, self.treedef = jax.tree_util.tree_flatten(
            (tuple(args), dict(kwargs)), is_leaf=_is_tensor
        )
        self.arg_tensors = [x for x in self.leaves if isinstance(x, Tensor)]
        self.out_tree = None
        self.ret_sg: list[bool] = []
        self.writes: list[tuple] = []
        self.written_ids: set[int] = set()
        self.guards: list[tuple] = []
        self.discovered: list[Tensor] = []
        self.wrote_grads = False

    def __call__(self, state_vals, arg_vals):
        swapped = self.state + self.arg_tensors
        layouts = _sharded_layouts(swapped)  # sharded state keeps its layout when written back
        with (
            gc_scope.new_objects_only(),
            swap_in(swapped, list(state_vals) + list(arg_vals)) as ctx,
        ):
            args, kwargs = jax.tree_util.tree_unflatten(self.treedef, self.leaves)
            out = self.fn(*args, **kwargs)
            out_leaves, out_def = jax.tree_util.tree_flatten(out, is_leaf=_is_tensor)
            slots, ret_vals, ret_sg, seen = [], [], [], {}
            for x in out_leaves:
                if isinstance(x, Tensor):
                    slots.append(len(ret_vals))
                    ret_vals.append(x._value)
                    ret_sg.append(x.stop_gradient)
                    seen[id(x)] = True
                else:
                    slots.append(("const", x))
            x = out = out_leaves = args = kwargs = None
            gc.collect()  # what is still alive now is kept by the user's objects
            writes, write_vals, wrote_grads = _written(ctx, seen, layouts)
            self.out_tree, self.ret_sg, self.writes = (out_def, slots), ret_sg, writes
            self.written_ids = {id(ref()) for ref, *_ in ctx.written.values() if ref() is not None}
            self.guards = list(ctx.guards.values())
            self.discovered = list(ctx.discovered.values())
            self.wrote_grads = wrote_grads
            return ret_vals, write_vals


def functionalize(
    fn: Callable, state: Sequence[Tensor], args: tuple = (), kwargs: dict | None = None
) -> PureFn:
    """``fn`` as a pure function of the arrays of ``state`` and of the Tensors in ``args`` /
    ``kwargs`` (which give the call's structure and non-Tensor arguments)."""
    return PureFn(fn, state, args, kwargs or {})


def _written(ctx, returned_ids, layouts):
    """(writes, arrays, wrote_grads): what the run of ``ctx`` rebound, as write-back entries."""
    writes, write_vals = [], []
    # gradients created in the trace are written back through their owner's .grad below
    new_grads = {
        id(ref()._grad_slot)
        for ref, _ in ctx.grads.values()
        if ref() is not None and ref()._grad_slot is not None
    }
    for ref, *_ in ctx.written.values():
        t = ref()
        if (
            t is not None
            and trace_state.is_tracer(t._value)
            and not (id(t) in new_grads and t._uid >= ctx.start_uid)
        ):
            if _cleared(ctx, t._value, id(t), layouts):
                writes.append(
                    (("zeros", "value", *_meta(t._value)), weakref.ref(t), t.stop_gradient)
                )
                write_vals.append(None)
                continue
            writes.append(("value", weakref.ref(t), t.stop_gradient))
            write_vals.append(_keep_layout(t._value, layouts.get(id(t))))
    for ref in ctx.created:
        t = ref()
        if (
            t is not None
            and id(t) not in ctx.written
            and id(t) not in returned_ids
            and id(t) not in new_grads
            and trace_state.is_tracer(t._value)
        ):
            writes.append(("value", weakref.ref(t), t.stop_gradient))
            write_vals.append(t._value)
    wrote_grads = ctx.accumulated
    for ref, _orig in ctx.grads.values():
        t = ref()
        if t is None:
            continue
        g = t._grad_slot
        wrote_grads = True
        if g is not None and _cleared(ctx, g._value, id(_orig), layouts):
            writes.append((("zeros", "grad", *_meta(g._value)), weakref.ref(t), g.stop_gradient))
            write_vals.append(None)
            continue
        writes.append(("grad", weakref.ref(t), True if g is None else g.stop_gradient))
        write_vals.append(None if g is None else _keep_layout(g._value, layouts.get(id(_orig))))
    t = None
    return writes, write_vals, wrote_grads


def _cleared(ctx, value, tensor_id: int, layouts) -> bool:
    """A value the run ended with that is the zeros of a cleared gradient, on a Tensor whose
    array was not placed (committed) or sharded: written back as the shared zeros
    (``constant_array``), not returned by the compiled program (no output buffer, and the
    next call takes it as a constant rather than an input)."""
    return ctx.zeros.get(id(value)) is value and tensor_id not in layouts


def _meta(value) -> tuple:
    return tuple(value.shape), str(value.dtype)


def _sharded_layouts(tensors) -> dict:
    """id -> (shape, NamedSharding) of the concrete multi-device arrays among ``tensors``, and
    id -> None for the other placed (committed) ones."""
    out = {}
    for t in tensors:
        if trace_state.is_tracer(t._value):
            continue
        s = getattr(t._value, "sharding", None)
        if isinstance(s, jax.sharding.NamedSharding):
            out[id(t)] = (t._value.shape, s)
        elif getattr(t._value, "committed", False):
            out[id(t)] = None
    return out


def _keep_layout(v, layout):
    """Pin a written-back state value to the layout its Tensor had (GSPMD may otherwise pick
    another one, e.g. a replicated ``zeros_like`` for a cleared sharded gradient)."""
    if layout is None or v.shape != layout[0]:
        return v
    return jax.lax.with_sharding_constraint(v, layout[1])


# -- write back ------------------------------------------------------------------------------------
def write_back(writes: Sequence[tuple], values: Sequence) -> None:
    """Store the written arrays of a pure call (``PureFn.writes`` and its ``written`` output)
    back into their Tensors: rebound arrays, and ``.grad`` (None clears it)."""
    for (kind, ref, sg), v in zip(writes, values):
        t = ref()
        if t is None:
            continue
        if kind == "value":
            t._value = v
            t._version += 1
        elif kind == "grad":
            t._grad_slot = None if v is None else Tensor(v, stop_gradient=sg)
        else:  # ("zeros", "value" | "grad", shape, dtype): a cleared gradient
            zeros = constant_array(kind[2], 0, kind[3])
            if kind[1] == "value":
                t._value = zeros
                t._version += 1
            else:
                t._grad_slot = Tensor(zeros, stop_gradient=sg)
