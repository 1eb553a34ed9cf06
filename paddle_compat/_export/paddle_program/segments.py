"""Paddle programs in compiled segments: the Predictor's op-by-op mode, and eager calls of a
loaded program.

A program that cannot be one XLA program (a tensor array appended in a loop whose condition
is data: ``DataDependentStep``) runs as Paddle's executor runs it, control flow decided on the
host; an eager call of a loaded program (``PaddleProgramLayer``) runs its ops as they come.
Run op by op, every op pays the eager dispatch (tens of microseconds each); here each block is
cut into *segments*: the runs of ops between the ones that must act on the host (``if``/
``while``, tensor-array ops, any op found to need a value from tensor data), each compiled
once per input signature (``jax.jit``) and called as one program (a program without such ops
is one segment). A host op whose outputs the next ops do not read, and which reads nothing
they write, is moved after them, so a loop body's list append does not cut the body in two.
With gradients on, a segment's call is one node of the autograd tape (its backward: the
segment's VJP).

Each segment's compiled form is keyed by its inputs' shapes and dtypes. Host values (numpy
arrays a host op computed: a loop counter) are inputs of the compiled program; where an op
needs one's value while tracing (a reshape target), the segment folds its host values in as
constants and is keyed by them too. An op that still fails while its segment is traced (it
needs a value computed from tensor data) becomes a host op: the segment runs op by op this
time and the block is cut again next time, so a result is always the op-by-op result. A
segment that meets more than ``MAX_SIGNATURES`` new signatures within one call (its shapes
change from iteration to iteration: a sequence grown in a loop) runs op by op from then on;
across calls (new input shapes) it keeps the ``MAX_FORMS`` most recent compiled forms.
"""

from __future__ import annotations

import itertools
import threading
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from ..._core import autograd as _ag
from ..._core.tensor import Tensor
from ...jit.dy2static.lax_control import is_traced

MAX_SIGNATURES = 8  # new signatures of a segment in one call before it runs op by op for good
MAX_FORMS = 64  # compiled forms a segment keeps (the oldest dropped first)
# ops that act on the host: control flow, tensor arrays (Python lists), NMS and nonzero (their
# output sizes)
HOST_OPS = frozenset((
    "pd_op.if", "pd_op.while", "pd_op.create_array", "pd_op.array_length",
    "pd_op.array_write_", "pd_op.array_read", "pd_op.array_to_tensor", "pd_op.array_pop",
    "pd_op.slice_array",
    "conditional_block", "while", "select_input", "write_to_array", "read_from_array",
    "lod_array_length", "tensor_array_to_tensor", "pd_op.multiclass_nms3", "pd_op.matrix_nms",
    "pd_op.generate_proposals", "pd_op.distribute_fpn_proposals", "pd_op.nms", "pd_op.nonzero",
    "where_index",
))  # fmt: skip

_state = threading.local()
_uids = itertools.count()  # one per compiled form: the key of its backward's cache


def active() -> bool:
    """Whether ops run in compiled segments (inside ``segmented``)."""
    return getattr(_state, "plans", None) is not None


@contextmanager
def segmented(plans: Plans):
    """Run the program's blocks in compiled segments, with ``plans`` as their cache."""
    prev, _state.plans = getattr(_state, "plans", None), plans
    plans.calls += 1
    try:
        yield
    finally:
        _state.plans = prev


def run_block(ops: list, env, legacy: bool, results, run_op) -> None:
    """Run ``ops`` (``run_op(op, env, legacy)`` runs one) as the block's plan: compiled
    segments and host ops, in an order equivalent to the ops'. ``results``: the keys read
    after the block (a segment hands back only what later ops or these read)."""
    plans = _state.plans
    for item in plans.plan(ops, legacy, results):
        if isinstance(item, Segment):
            item.run(env, run_op, plans)
        else:
            run_op(item, env, legacy)


class Plans:
    """One program's plans: each block's segments, and the ops found to need host values."""

    def __init__(self, rows: dict):
        self.rows = rows
        self.calls = 0  # top-level runs so far (a segment counts its new signatures per run)
        self.host_ops: set[int] = set()
        self._by_block: dict[int, tuple[list, list]] = {}

    def plan(self, ops: list, legacy: bool, results) -> list:
        entry = self._by_block.get(id(ops))
        if entry is None:  # (the entry keeps ops alive: its id stays its own)
            entry = self._by_block[id(ops)] = (ops, self._cut(ops, legacy, results))
        return entry[1]

    def forget(self, ops: list) -> None:
        self._by_block.pop(id(ops), None)

    def _cut(self, ops: list, legacy: bool, results) -> list:
        items, seg, pending, p_reads, p_writes = [], [], [], set(), set()
        for op in ops:
            reads, writes = self._reads(op, legacy), self._writes(op, legacy)
            if op.type in HOST_OPS or id(op) in self.host_ops or self.rows[op.type].blocks:
                pending.append(op)
                p_reads |= reads
                p_writes |= writes
                continue
            if pending and (reads & p_writes or writes & (p_reads | p_writes)):
                if seg:
                    items.append(Segment(seg, ops, legacy, self))
                items.extend(pending)
                seg, pending, p_reads, p_writes = [], [], set(), set()
            seg.append(op)
        if seg:
            items.append(Segment(seg, ops, legacy, self))
        items.extend(pending)
        # a 2.x block's variables outlive it by name (a while's body rewrites the loop's):
        # there each segment hands back everything it writes
        live = None if legacy else set(results)
        for item in reversed(items):
            if isinstance(item, Segment):
                item.keep(live)
                if live is not None:
                    live |= set(item.ins)
            elif live is not None:
                live |= self._reads(item, legacy)
        return items

    def _reads(self, op, legacy: bool) -> set:
        """The keys ``op`` may read, its sub-blocks' included (more is only less reordering)."""
        row = self.rows[op.type]
        if not legacy:
            keys = {k for k in op.inputs if k is not None}
        elif row.blocks:
            keys = {n for names in op.inputs.values() for n in names}
        else:
            keys = {n for s in row.ins for n in op.inputs.get(s.rstrip("*")) or []}
        for b in op.blocks:
            keys.update(b.yields if not legacy else ())
            for o in b.ops:
                keys |= self._reads(o, legacy)
        return keys

    def _writes(self, op, legacy: bool) -> set:
        if not legacy:
            return set(op.outputs)
        row = self.rows[op.type]
        slots = op.outputs.keys() if row.blocks else row.outs
        return {n for s in slots for n in op.outputs.get(s) or []}


def _out_spec(v, outs: list):
    """How a segment's output is rebuilt from the compiled program's outputs: a traced
    Tensor is one of them; what was computed from constants and shapes while tracing is the
    same at every call and kept as is; lists (``builtin.combine``) element by element."""
    if isinstance(v, Tensor) and is_traced(v):
        outs.append(v._value)
        return ("t", len(outs) - 1)
    if isinstance(v, Tensor):
        return ("c", v._value)
    if type(v) in (list, tuple):
        return ("l", type(v), [_out_spec(x, outs) for x in v])
    return ("h", v)


def _rebuild(spec, outs):
    kind = spec[0]
    if kind == "t":
        return outs[spec[1]]
    if kind == "c":
        return Tensor(spec[1])
    if kind == "l":
        return spec[1](_rebuild(x, outs) for x in spec[2])
    return spec[1]


class _Elem(NamedTuple):
    """An element of a list input of a segment: the list's key, its index, size and type."""

    key: object
    index: int
    size: int
    kind: type


def _concrete(t) -> bool:
    return isinstance(t, Tensor) and not is_traced(t)


def _host_key(v):
    """A hashable stand-in for a host value folded into a compiled segment (None: cannot)."""
    if isinstance(v, np.ndarray | np.generic):
        v = np.asarray(v)
        return ("a", v.dtype.str, v.shape, v.tobytes())
    if v is None or isinstance(v, bool | int | float | str):
        return (type(v).__name__, v)
    return None


class Segment:
    """A run of ops compiled as one program per input signature."""

    def __init__(self, ops: list, block: list, legacy: bool, plans: Plans):
        self.ops, self.block, self.legacy, self.eager = ops, block, legacy, False
        self.ins, self.outs, written = [], [], set()
        for op in ops:
            for k in sorted(plans._reads(op, legacy), key=str):
                if k not in written and k not in self.ins:
                    self.ins.append(k)
            for k in sorted(plans._writes(op, legacy), key=str):
                if k not in written:
                    written.add(k)
                    self.outs.append(k)
        self._compiled: dict = {}
        self._call, self._new_in_call = -1, 0  # the run that last compiled, how many it did
        self.bake = False  # host inputs folded in as constants (else passed as arrays)

    def keep(self, live) -> None:
        """Hand back only the written keys in ``live`` (None: all)."""
        if live is not None:
            self.outs = [k for k in self.outs if k in live]

    def _op_by_op(self, env, run_op) -> None:
        for op in self.ops:
            run_op(op, env, self.legacy)

    def run(self, env, run_op, plans: Plans) -> None:
        if self.eager:
            return self._op_by_op(env, run_op)
        tensors, arrays, sig, host, objs, fold = [], [], [], {}, [], False
        for k in self.ins:
            if k not in env:  # the op reading it raises the damaged-program error
                return self._op_by_op(env, run_op)
            v = obj = env[k]
            if type(v) in (list, tuple) and v and all(_concrete(t) for t in v):
                for j, t in enumerate(v):  # a list of Tensors (a vector op's result): each one
                    tensors.append(_Elem(k, j, len(v), type(v)))
                    arrays.append(t._value)
                    objs.append(t)
                    sig.append((t._value.shape, t._value.dtype, "list"))
                continue
            if isinstance(v, Tensor):
                if is_traced(v):
                    return self._op_by_op(env, run_op)
                v = v._value
            elif isinstance(v, np.ndarray | np.generic) and not self.bake:
                v = np.asarray(v)  # a host value (a loop counter): an input, not a constant
                fold = True  # (unless an op needs its value while tracing)
            else:
                hk = _host_key(v)
                if hk is None:  # a tensor array or another host object: its reader is a host op
                    reads = [k in plans._reads(op, self.legacy) for op in self.ops]
                    return self._give_up(reads.index(True), env, run_op, plans)
                host[k] = v
                sig.append(hk)
                continue
            tensors.append(k)
            arrays.append(v)
            objs.append(obj)
            sig.append((v.shape, v.dtype, getattr(v, "weak_type", False)))
        key = tuple(sig)
        entry = self._compiled.get(key)
        if entry is not None:
            jitted, any_traced, specs, uid = entry
            outs = jitted(arrays) if any_traced else ()
        elif self._new_in_call >= MAX_SIGNATURES and self._call == plans.calls:
            self.eager = True
            return self._op_by_op(env, run_op)
        else:
            if self._call != plans.calls:
                self._call, self._new_in_call = plans.calls, 0
            self._new_in_call += 1
            if len(self._compiled) >= MAX_FORMS:
                self._compiled.pop(next(iter(self._compiled)))
            failed, outs, entry = self._compile(tensors, host, arrays, run_op)
            if failed is not None:
                if fold and failed >= 0:  # it may need a host input's value
                    self.bake = True
                    return self.run(env, run_op, plans)
                if failed < 0:
                    return self._op_by_op(env, run_op)
                return self._give_up(failed, env, run_op, plans)
            self._compiled[key] = entry
            jitted, _, specs, uid = entry
        outs = [Tensor(a) for a in outs]
        if outs and _ag.is_grad_enabled():  # one node: its backward is the segment's VJP
            mask = _ag.diff_mask(objs, arrays)
            if any(mask):
                f = lambda *xs: jitted(list(xs))  # noqa: E731
                _ag.record(("paddle_program_segment", uid), f, objs, arrays, mask, outs)
        for k, spec in specs.items():
            env[k] = _rebuild(spec, outs)
        return None

    def _give_up(self, index: int, env, run_op, plans: Plans) -> None:
        """The op at ``index`` acts on the host from now on (the block is cut again next
        time); this time the segment runs op by op."""
        plans.host_ops.add(id(self.ops[index]))
        plans.forget(self.block)
        self._op_by_op(env, run_op)

    def _compile(self, tensors: list, host: dict, arrays: list, run_op):
        """Trace, compile and run the segment: ``(None, outputs, (jitted, whether it has
        outputs, {key: how to rebuild the value from them}))``, or ``(index of the op that failed while
        traced, None, None)``."""
        import jax

        specs, failed = {}, [None]

        def program(xs):
            local = dict(host)
            for k, a in zip(tensors, xs):
                if isinstance(k, _Elem):  # rebuilt as the list it was
                    items = local.setdefault(k.key, [None] * k.size)
                    items[k.index] = Tensor(a)
                else:
                    local[k] = Tensor(a)
            for k in {e.key: e for e in tensors if isinstance(e, _Elem)}.values():
                local[k.key] = k.kind(local[k.key])
            for i, op in enumerate(self.ops):
                failed[0] = i
                run_op(op, local, self.legacy)
            failed[0] = None
            outs = []
            specs.clear()
            for k in self.outs:
                if k in local:
                    specs[k] = _out_spec(local[k], outs)
            return outs

        jitted = jax.jit(program)
        try:
            outs = jitted(arrays)
        except Exception:
            if failed[0] is None:  # not an op's failure: this segment stays op by op
                self.eager = True
                return -1, None, None
            return failed[0], None, None
        return None, outs, (jitted, bool(outs), dict(specs), next(_uids))
