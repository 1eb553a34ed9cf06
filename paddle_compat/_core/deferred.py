"""Deferred eager execution (opt-in): eager ops record into a pending segment instead of each
running its own compiled kernel, and the segment runs as one compiled XLA program when a value
is needed.

Switch: ``PADDLE_COMPAT_DEFERRED=1`` in the environment, or
``paddle.set_flags({"FLAGS_deferred_eager": True})``.

- A recorded op's outputs are ``Pending`` values: their shape and dtype are known at once
  (inferred per kernel and input signature, cached; shape errors raise at the op's own line),
  their data is not. ``Tensor._value`` resolves a Pending (flushing its segment); metadata
  (``shape``, ``dtype``) reads do not.
- The segment's structure (which kernel ran on which earlier values or new inputs) is a path in
  a trie, so a repeated forward walks the same path with one dict lookup per op. A flush
  compiles ``path + the values still referenced`` once (``jax.jit``; JAX's persistent cache
  keeps it across processes) and runs it on the segment's input arrays. Values nobody holds
  any more stay inside the program, where XLA fuses them away.
- A flush happens when a value is read (``numpy``, ``item``, ``print``, ``bool``, an optimizer
  step, any ``Tensor._value``), after the outermost ``Layer.__call__`` (so a forward is one
  program, flushed at the same place every step), and before a ``to_static`` trace reads
  state. A segment that reaches ``MAX_OPS`` ops (a loop that reads nothing and calls no Layer:
  its cut points drift from one segment to the next) runs kernel by kernel, as eager mode
  would, instead of compiling a long program that never repeats; so does a segment of fewer
  than ``SHORT_OPS`` stored kernels the first time it is seen (it compiles once it repeats). Under a JAX
  trace, with tracer inputs, for an op with ``BIG_OP_BYTES`` of outputs, or while paused
  (``pause``: the profiler), ops run at once.
- Past ``MAX_PROGRAMS`` compiled programs the trie and the shape cache start afresh, so a
  session whose shapes keep changing does not hold every program it ever compiled.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import weakref

import jax

from . import lowering, segment_store
from .place import ArrayImpl as _ArrayImpl
from .trace_state import jax_idle as _jax_idle

MAX_OPS = 4096  # a segment this long runs kernel by kernel: bounds the host memory it holds
# A segment shorter than this whose kernels are all in the segment store runs kernel by kernel
# the first time its structure is seen, and as one program from the second time on: a few ops
# between two reads (a notebook cell, a test, a metric) rarely repeat, and their kernels are
# shared with every other segment, where a program per structure would compile for each. (A
# kernel not stored yet would compile anyway: then the segment compiles as one program, which
# costs no more.) A model's forward is longer.
SHORT_OPS = 32
# An op whose outputs take this many bytes or more runs at once, as op by op: its own work
# dwarfs what fusing it would save, and an allocation that cannot fit raises Paddle's
# MemoryError at the op's line instead of at a later read.
BIG_OP_BYTES = 1 << 30
# Programs kept per process: past this many the structure trie and its programs are dropped
# and rebuilt as segments recur (from the persistent compile cache), so a long session whose
# shapes keep changing does not hold every program it ever compiled.
MAX_PROGRAMS = 512

_requested = os.environ.get("PADDLE_COMPAT_DEFERRED", "").strip().lower() not in (
    "",
    "0",
    "off",
    "false",
)
_paused = 0  # > 0 while something needs each op to run as its own kernel (the profiler)
_enabled = _requested  # what the op path checks: requested and not paused
_lock = threading.RLock()


def enabled() -> bool:
    """Whether deferred execution is switched on (it may be paused)."""
    return _requested


def set_enabled(on: bool) -> None:
    """Turn deferred execution on or off (off flushes what is pending)."""
    global _enabled, _requested
    if not on:
        flush()
    _requested = bool(on)
    _enabled = _requested and not _paused


def pause(on: bool) -> None:
    """Run ops one by one (``True``, flushing what is pending) until the matching
    ``pause(False)``, whatever the switch says: ``paddle.profiler`` records each operator."""
    global _enabled, _paused
    if on:
        flush()
    _paused = max(0, _paused + (1 if on else -1))
    _enabled = _requested and not _paused


@contextlib.contextmanager
def mode(on: bool = True):
    """``with deferred.mode(True):`` deferred execution on (or off) inside the block."""
    prev = _requested
    set_enabled(on)
    try:
        yield
    finally:
        set_enabled(prev)


class Pending:
    """A value an unflushed segment will compute: shape and dtype now, data after a flush."""

    __slots__ = ("seg", "idx", "shape", "dtype", "weak_type", "array", "__weakref__")

    def __init__(self, seg, idx, shape, dtype, weak_type):
        self.seg, self.idx = seg, idx
        self.shape, self.dtype, self.weak_type = shape, dtype, weak_type
        self.array = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def resolve(self):
        """The computed array (flushing the segment that computes it)."""
        if self.array is None:
            with _lock:  # another thread may be flushing the segment
                seg = self.seg
                if seg is not None:
                    if seg.error is not None:
                        raise seg.error
                    seg.flush()
        return self.array

    def __repr__(self) -> str:
        state = "pending" if self.array is None else "done"
        return f"Pending(shape={self.shape}, dtype={self.dtype}, {state})"


def resolve(a):
    return a.resolve() if a.__class__ is Pending else a


class _Node:
    """A trie node: the segment structure so far (``step`` is the op that led here)."""

    __slots__ = ("parent", "step", "children", "programs", "flushes")

    def __init__(self, parent, step):
        self.parent, self.step = parent, step
        self.flushes = 0  # segments that ended here
        self.children: dict = {}
        # (live value indices, input signature) -> compiled program; (live, None) -> jax.jit
        self.programs: dict = {}

    def steps(self) -> list:
        out, n = [], self
        while n.step is not None:
            out.append(n.step)
            n = n.parent
        return out[::-1]


_ROOT = _Node(None, None)


class _Segment:
    __slots__ = ("node", "inputs", "refs", "sigs", "n_ops", "error", "rebinds")

    def __init__(self):
        self.node = _ROOT
        self.inputs: list = []  # concrete arrays fed to the program, in recording order
        self.refs: list = []  # weakref to each value's Pending, by value index
        self.sigs: list = []  # each op's input signature (while the segment is short)
        self.n_ops = 0
        self.error: BaseException | None = None
        self.rebinds: dict = {}  # id(tensor) -> (weakref, value before this segment)

    def note_rebind(self, t, old) -> None:
        """``t`` (a Tensor) now holds a value of this segment; keep what it held before, so a
        failed flush leaves it as it was (as eager mode does when an op raises)."""
        if id(t) not in self.rebinds:
            self.rebinds[id(t)] = (weakref.ref(t), old)

    def _roll_back(self) -> None:
        for ref, old in self.rebinds.values():
            t = ref()
            if t is not None and t._val.__class__ is Pending and t._val.seg is self:
                t._val = old

    def flush(self, op_by_op: bool = False) -> None:
        with _lock:
            global _current
            if self is _current:
                _current = _Segment()
            elif self.n_ops == 0 or self.error is not None:
                return
            self._run(op_by_op)

    def _run(self, op_by_op: bool) -> None:
        if self.n_ops == 0:
            return
        live = [(i, p) for i, r in enumerate(self.refs) if (p := r()) is not None]
        key = tuple(i for i, _ in live)
        node = self.node
        node.flushes += 1
        if (
            self.n_ops < SHORT_OPS
            and node.flushes == 1
            and segment_store.kernels_stored(node.steps(), self.sigs)
        ):
            op_by_op = True  # a short segment seen for the first time (see SHORT_OPS)
        if op_by_op:  # each kernel as its own call, as eager mode runs it
            prog = _program(node.steps(), key, segment_store.call)
        else:
            # one program per input signature: from the segment store when its kernels
            # have stable names, else jax.jit's (which retraces per signature itself)
            key = (key, tuple((a.shape, a.dtype, a.weak_type) for a in self.inputs))
            prog = node.programs.get(key)
            if prog is None:
                prog = node.programs[key] = _compile(node, key, self.inputs)
        try:
            if _jax_idle():
                outs = prog(*self.inputs)
            else:  # resolved inside a JAX trace: compute concrete values, not tracers
                with jax.ensure_compile_time_eval():
                    outs = prog(*self.inputs)
        except Exception as e:  # its values raise this from now on; tensors roll back
            from .op_errors import out_of_memory  # (op_errors imports this module)

            self.error = out_of_memory(e) or e  # XLA's RESOURCE_EXHAUSTED as Paddle's
            self._roll_back()
            node.programs.pop(key, None)  # the next segment of this shape compiles afresh
            if self.error is e:
                raise
            raise self.error from None
        except BaseException:  # an interrupt: the segment stays, the next read runs it
            node.programs.pop(key, None)
            raise
        self.n_ops = 0  # a second flush (a Pending resolved twice) is a no-op
        for (_, p), a in zip(live, outs):
            p.array, p.seg = a, None
        self.inputs = self.refs = self.rebinds = self.sigs = None


_current = _Segment()
_AVALS: dict = {}  # (id(fn), input signature) -> (output (shape, dtype, weak_type)s, treedef)
_PROGRAMS_COMPILED = [0]
_programs_held = 0


def _compile(node, key, inputs):
    """The program for ``node``'s segment, ``key`` = (live values, input signature): read from
    the segment store, else compiled (and stored when every kernel has a stable name)."""
    global _programs_held
    _PROGRAMS_COMPILED[0] += 1
    _programs_held += 1
    if _programs_held > MAX_PROGRAMS:
        _forget_programs()
    live = key[0]
    steps = node.steps()
    text = segment_store.program_text(steps, live, inputs)
    if text is None:  # process-local: one jax.jit per live set (JAX's own cache behind it)
        prog = node.programs.get((live, None))
        if prog is None:
            prog = node.programs[(live, None)] = jax.jit(_program(steps, live))
        return prog
    return segment_store.program(text, jax.jit(_program(steps, live)), inputs)


def _forget_programs() -> None:
    """Drop the trie and the inferred shapes: the next segments start from a fresh root (one
    already recording keeps its own nodes until it runs)."""
    global _ROOT, _programs_held
    _ROOT = _Node(None, None)
    if _current.n_ops == 0:  # the segment opened by this flush records from the new root
        _current.node = _ROOT
    _AVALS.clear()
    _programs_held = 0
    lowering.reset()  # the programs' lowering contexts can go with them


def _program(steps, live, call=None):
    """The segment as one function of its input arrays: jit it for one program, or give it
    ``call`` (``segment_store.call``) to run each kernel as its own program, as eager does."""

    last_use: dict = {}  # value index -> the step that reads it last
    for n, (_, refs) in enumerate(steps):
        for r in refs:
            if r >= 0:
                last_use[r] = n
    keep = set(live)
    free = [[] for _ in steps]  # values to drop after each step (run kernel by kernel)
    for r, n in last_use.items():
        if r not in keep:
            free[n].append(r)

    def program(*ext):
        vals, k = [], 0
        for n, (fn, refs) in enumerate(steps):
            args = []
            for r in refs:
                if r < 0:
                    args.append(ext[k])
                    k += 1
                else:
                    args.append(vals[r])
            out = fn(*args) if call is None else call(fn, args)
            vals.extend(jax.tree_util.tree_leaves(out))
            for r in free[n]:
                vals[r] = None
        return [vals[i] for i in live]

    return program


def _out_avals(fn, sig):
    key = (id(fn), sig)
    hit = _AVALS.get(key)
    if hit is None:
        stored = segment_store.load_avals(fn, sig)
        if stored is not None:
            avals, tree = stored
        else:
            specs = [jax.ShapeDtypeStruct(s, d, weak_type=w) for s, d, w in sig]
            out = jax.eval_shape(fn, *specs)
            leaves, tree = jax.tree_util.tree_flatten(out)
            avals = tuple((tuple(a.shape), a.dtype, bool(a.weak_type)) for a in leaves)
            if len(leaves) == 1 and isinstance(out, jax.ShapeDtypeStruct):
                tree = None
            segment_store.save_avals(fn, sig, avals, tree)
        nbytes = sum(math.prod(s) * jax.numpy.dtype(d).itemsize for s, d, _ in avals)
        hit = _AVALS[key] = (avals, tree, nbytes >= BIG_OP_BYTES, fn)  # fn: its id stays its
    return hit


def record(fn, arrays):
    """Record ``fn(*arrays)`` into the pending segment: ``(output Pendings, treedef or None for
    a single array)``, or None when it must run now (recording off, a JAX trace active, an
    input that is neither a device array nor a Pending). ``fn`` must stay alive (cached)."""
    if not _enabled or not _jax_idle():
        return None
    sig = []
    for a in arrays:
        c = a.__class__
        # an array placed on a device or sharded (committed) runs now: one program never
        # mixes devices, and uncommitted values never move to another array's device
        if c is not Pending and (c is not _ArrayImpl or a.committed):
            return None
        sig.append((a.shape, a.dtype, a.weak_type))
    avals, tree, big, _ = _out_avals(fn, tuple(sig))
    if big:
        return None
    with _lock:
        seg = _current
        arrays = [a.resolve() if a.__class__ is Pending and a.seg is not seg else a for a in arrays]
        refs = []
        for a in arrays:
            if a.__class__ is Pending:
                refs.append(a.idx)
            else:
                seg.inputs.append(a)
                refs.append(-1)
        step_key = (id(fn), tuple(refs))
        node = seg.node.children.get(step_key)
        if node is None:
            node = seg.node.children[step_key] = _Node(seg.node, (fn, step_key[1]))
        seg.node = node
        base = len(seg.refs)
        outs = [Pending(seg, base + i, s, d, w) for i, (s, d, w) in enumerate(avals)]
        seg.refs.extend(weakref.ref(p) for p in outs)
        if seg.n_ops < SHORT_OPS:
            seg.sigs.append(sig)
        seg.n_ops += 1
        if seg.n_ops >= MAX_OPS:  # a loop that reads nothing and calls no Layer: cut
            seg.flush(op_by_op=True)  # points drift, so no program is compiled for it
    return outs, tree


def apply(fn, *arrays):
    """``fn(*arrays)``: recorded when deferred execution is on, else run now (resolving any
    Pending argument)."""
    rec = record(fn, arrays)
    if rec is None:
        return segment_store.call(fn, [resolve(a) for a in arrays])
    outs, tree = rec
    return outs[0] if tree is None else jax.tree_util.tree_unflatten(tree, outs)


_layer_call = threading.local()  # per thread: inside an outermost Layer call


def in_layer() -> bool:
    """Whether this thread is inside a Layer call (so a new call is not the outermost)."""
    return getattr(_layer_call, "active", False)


def outermost_call(call, inputs, kwargs):
    """Run this thread's outermost ``Layer.__call__`` and flush after it: a forward is one
    program, and a loop that never reads a value still flushes once per forward, at the same
    place."""
    _layer_call.active = True
    try:
        out = call(*inputs, **kwargs)
    finally:
        _layer_call.active = False
    flush()
    return out


def flush() -> None:
    """Run the pending segment now."""
    _current.flush()


def note_rebind(t, old) -> None:
    """``t`` was rebound to ``t._val``, a Pending of the current segment (see _Segment)."""
    v = t._val
    if v.__class__ is Pending and v.seg is not None:
        v.seg.note_rebind(t, old)


def pending_ops() -> int:
    """How many ops wait in the current segment."""
    return _current.n_ops


def programs_compiled() -> int:
    """How many segment programs this process has built (each compiles once per input
    signature)."""
    return _PROGRAMS_COMPILED[0]
