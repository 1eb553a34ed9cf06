"""Control flow and tensor arrays of Paddle 3.x PIR programs (what ``paddle.jit.save`` writes
for a ``to_static`` function with ``if``/``while`` on Tensors or a list appended in a loop).

Layout measured on Paddle 3.3.1: ``pd_op.if`` takes the condition and holds two blocks (true,
false), each closed by a ``cf.yield`` of the op's results; ``pd_op.while`` takes the
condition and the loop variables, and its one block takes the loop variables as arguments and
yields the next condition followed by the next loop variables; the op's results are the final
loop variables. Blocks read the values of the blocks around them. A list appended in a loop is
a tensor array (``create_array``, ``array_write_`` in place, ``array_length``, ``array_read``,
``array_to_tensor``).

Paddle 2.x's ``.pdmodel`` spells the same by variable name: ``conditional_block`` (``Cond``,
a sub-block writing its ``Out`` variables) paired with ``select_input`` (``Mask`` picks one of
``X``), and ``while`` (``Condition``, a sub-block that rewrites its ``Out`` variables, the
condition among them); tensor arrays are ``LOD_TENSOR_ARRAY`` variables (``write_to_array``,
``read_from_array``, ``lod_array_length``, ``tensor_array_to_tensor``). These rows take the op
and the replay's variables (``fn(op, env, run)``) and run through the same ``_if``/``_while``.

Replay: a condition known on the host (a constant, a value from the input shapes) or a
concrete Tensor (eager replay) picks the block in Python, as Paddle's executor does; a
condition computed from traced data (``to_static``, the Predictor's compiled program) becomes
``paddle.static.nn.cond`` / ``while_loop``: one ``lax.cond`` / ``lax.while_loop`` inside the
XLA program. A tensor array is a Python list; writing to one made outside a traced ``if`` or
``while`` cannot compile (its length would depend on data): ``DataDependentStep``, on which
``to_static`` runs the program op by op and the Predictor in compiled segments
(``segments``).
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from ..._core import trace_state
from ..._core.registry import call_op
from ..._core.tensor import Tensor
from ...jit.dy2static.lax_control import is_traced
from . import op_table as _ot
from .program import Block, DataDependentStep, ProgramError

_depth = [0]  # traced control-flow regions being run (a tensor array's writes check it)
_compiling = [False]  # the replay runs on traced inputs (set by layer.replay)


@contextmanager
def compiling(on: bool):
    """While the program is replayed into a compiled one (its inputs are traced)."""
    prev, _compiling[0] = _compiling[0], bool(on)
    try:
        yield
    finally:
        _compiling[0] = prev


@contextmanager
def _traced_region():
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1


def _truth(v, what: str) -> bool:
    """A host or concrete condition as a Python bool (Paddle requires one element)."""
    arr = _ot._c(v, f"{what}'s condition")
    if arr.size != 1:
        raise ProgramError(f"{what}'s condition has {arr.size} elements; it must have one.")
    return bool(arr.reshape(-1)[0])


def _if(args, a, blocks, run):
    """``pd_op.if``: the results of the block the condition picks."""
    if len(blocks) != 2:
        raise ProgramError(f"pd_op.if has {len(blocks)} blocks; it needs two.")
    pred = args[0]
    if not is_traced(pred):
        return tuple(run(blocks[0] if _truth(pred, "pd_op.if") else blocks[1], []))
    from ...static import nn as static_nn

    def branch(block):
        def fn():
            with _traced_region():
                return [_ot._t(v) for v in run(block, [])]

        return fn

    return tuple(static_nn.cond(pred, branch(blocks[0]), branch(blocks[1])))


def _while(args, a, blocks, run):
    """``pd_op.while``: the loop variables once the condition the body yields is False."""
    if len(blocks) != 1:
        raise ProgramError(f"pd_op.while has {len(blocks)} blocks; it needs one.")
    body = blocks[0]
    if len(body.args) != len(args) - 1 or len(body.yields) != len(args):
        raise ProgramError(
            f"pd_op.while: {len(args) - 1} loop variables, but its block takes "
            f"{len(body.args)} and yields {len(body.yields)} values (condition first)."
        )
    cond, vs = args[0], list(args[1:])
    unrolled, compile_rest = 0, _compiling[0]
    while not is_traced(cond):  # decided on the host: plain Python, as Paddle's executor runs it
        if not _truth(cond, "pd_op.while"):
            return tuple(vs)
        if compile_rest and unrolled >= UNROLL:
            # a long loop while compiling (one over an open time axis): the rest as one
            # lax.while_loop, not UNROLL more copies of the body per input length
            try:
                return _compiled_loop(cond, vs, body, run)
            except trace_state.DataDependentError:  # e.g. a list it appends to: unroll on
                compile_rest = False
        out = run(body, vs)
        cond, vs = out[0], list(out[1:])
        unrolled += 1
    return _compiled_loop(cond, vs, body, run)


UNROLL = 16  # iterations a loop decided while compiling runs as copies before it compiles


def _compiled_loop(cond, vs, body, run) -> tuple:
    """The loop from here as one ``lax.while_loop`` (dy2static's ``run_while``: its carry
    makes the condition traced even where it starts known)."""
    if any(isinstance(v, TensorArray) for v in vs):
        raise DataDependentStep(
            "a tensor array is carried through a while loop whose condition is computed from "
            "tensor data: its length would depend on the data, which one compiled XLA program "
            "cannot hold."
        )
    from ...jit.dy2static import run_while

    def step(v):
        with _traced_region():
            return [_ot._t(x) for x in run(body, v[1:])]

    final = run_while(lambda v: v[0], step, [_ot._t(cond), *(_ot._t(v) for v in vs)])
    return tuple(final[1:])


class TensorArray(list):
    """``pd_op.create_array``: a list of Tensors, written in place."""

    def __init__(self, dtype):
        super().__init__()
        self.dtype, self.depth = dtype, _depth[0]


def _index(v, what: str) -> int:
    """A tensor array's index: known when the program is traced (else ``DataDependentStep``)."""
    return int(_ot._c(v, f"{what}'s index").reshape(-1)[0])


def _array(v, what: str) -> TensorArray:
    if not isinstance(v, TensorArray):
        raise ProgramError(f"{what} reads {type(v).__name__}, not a tensor array.")
    return v


def _create_array(args, a):
    return TensorArray(a.get("dtype"))


def _array_length(args, a):
    return np.asarray([len(_array(args[0], "array_length"))], np.int64)


def _array_write(args, a):
    arr, x, i = _array(args[0], "array_write_"), args[1], _index(args[2], "array_write_")
    if arr.depth < _depth[0]:
        raise DataDependentStep(
            "array_write_ appends to a tensor array inside an if/while whose condition is "
            "computed from tensor data: its length would depend on the data, which one "
            "compiled XLA program cannot hold."
        )
    if i < 0:
        raise ProgramError(f"array_write_ at index {i}: the index must be >= 0.")
    arr.extend([None] * (i + 1 - len(arr)))
    arr[i] = x
    return arr


def _array_read(args, a):
    arr, i = _array(args[0], "array_read"), _index(args[1], "array_read")
    if not 0 <= i < len(arr) or arr[i] is None:
        raise ProgramError(f"array_read at index {i} of a tensor array of length {len(arr)}.")
    return arr[i]


def _array_pop(args, a):
    """``array_pop``: removes the entry at ``index`` (-1: the last) in place; (array, entry)."""
    arr, i = _array(args[0], "array_pop"), int(a.get("index", -1))
    if arr.depth < _depth[0]:
        raise DataDependentStep(
            "array_pop removes from a tensor array inside an if/while whose condition is "
            "computed from tensor data: its length would depend on the data, which one "
            "compiled XLA program cannot hold."
        )
    if not -len(arr) <= i < len(arr) or arr[i] is None:
        raise ProgramError(f"array_pop at index {i} of a tensor array of length {len(arr)}.")
    return arr, arr.pop(i)


def _slice_array(args, a):
    """``slice_array``: a new tensor array of the entries ``[start:end]`` (Python slicing)."""
    arr = _array(args[0], "slice_array")
    start, end = (int(_ot._c(v, "slice_array's bounds").reshape(-1)[0]) for v in args[1:3])
    out = TensorArray(arr.dtype)
    out.extend(arr[start:end])
    return out


def _array_to_tensor(args, a):
    """The array's Tensors stacked (``use_stack``) or concatenated along ``axis``, and each
    one's size along it (int32; known on the host, so a host value)."""
    arr = _array(args[0], "array_to_tensor")
    if not arr:  # as Paddle's kernel (its InvalidArgumentError is a ValueError)
        raise ValueError(
            "(InvalidArgument) array_to_tensor: Input tensor array size should > 0, but the "
            "received is 0."
        )
    if any(x is None for x in arr):
        raise ProgramError("array_to_tensor of a tensor array with unwritten entries.")
    axis, stack = int(a.get("axis", 0)), bool(a.get("use_stack", False))
    xs = [_ot._t(x) for x in arr]
    if stack:
        sizes = [1] * len(xs)
        return call_op("stack", xs, axis), np.asarray(sizes, np.int32)
    sizes = [int(x.shape[axis]) for x in xs]
    out = xs[0] if len(xs) == 1 else call_op("concat", xs, axis)  # (a loop that ran once)
    return out, np.asarray(sizes, np.int32)


def _logical(name: str, np_fn):
    def fn(args, a):
        if _ot._all_const(*args):
            return np_fn(*(np.asarray(x) for x in args))
        return call_op(name, *(_ot._t(x) for x in args))

    return fn


def _reduce(name: str, np_fn):
    def fn(args, a):
        axis, keep = _ot._reduce_args(args, a, name)
        x = args[0]
        if not isinstance(x, Tensor):
            return np_fn(np.asarray(x), axis=None if axis is None else tuple(axis), keepdims=keep)
        return call_op(name, x, axis, keep)

    return fn


def _arange(args, a):
    start, end, step = (np.asarray(_ot._c(v, "arange's bounds")).reshape(-1)[0] for v in args)
    dt = _ot._np_dtype(a.get("dtype", "int64"))
    return np.arange(start, end, step).astype(dt)


def _full_like(args, a):
    x, value = args[0], _ot._c(args[1], "full_like's value").reshape(-1)[0]
    dt = a.get("dtype")
    dt = None if dt in (None, -1, "Undefined(ALL_DTYPE)") else str(_ot._np_dtype(dt))
    if not isinstance(x, Tensor):
        return np.full(np.shape(x), value, dt or np.asarray(x).dtype)
    return call_op("full_like", x, value, dt)


def _assign_value(args, a):
    """``assign_value(_)``: the constant written in the attributes (its shape checked)."""
    shape = _ot._attr_size(a.get("shape", []), "assign_value's shape")
    keys = ("values", "fp32_values", "int32_values", "int64_values", "bool_values", "fp64_values")
    values = np.asarray(next((a[k] for k in keys if a.get(k)), []))
    if values.size != int(np.prod(shape)):
        raise ProgramError(f"assign_value: {values.size} values for the shape {shape}.")
    return values.reshape(shape).astype(_ot._np_dtype(a.get("dtype", "float32")))


def _assign(args, a):
    return args[0]


# -- Paddle 2.x (.pdmodel): by variable name ------------------------------------------------------
def _get(env, name: str, op):
    try:
        return env[name]
    except KeyError:
        raise ProgramError(
            f"(InvalidArgument) op {op.type} reads the variable {name!r} that no earlier op "
            "writes: the program is damaged."
        ) from None


def _one(op, slot: str, where: str = "inputs") -> str:
    names = getattr(op, where).get(slot) or []
    if len(names) != 1:
        raise ProgramError(f"{op.type}'s {slot} slot holds {len(names)} variables; it needs one.")
    return names[0]


def _legacy_block(op, args: list, yields: list):
    if len(op.blocks) != 1:
        raise ProgramError(f"{op.type} has no sub_block.")
    return Block(args, op.blocks[0].ops, yields)


def _conditional_block(op, env, run):
    """``conditional_block``: its block writes the ``Out`` variables when ``Cond`` holds; a
    traced condition keeps each variable's value before the op (zeros for a new one; the
    ``select_input`` that follows picks the other side) where it does not."""
    if not op.attrs.get("is_scalar_condition", True):
        raise ProgramError("conditional_block on a list of tensors (is_scalar_condition=False).")
    pred = _get(env, _one(op, "Cond"), op)
    outs = op.outputs.get("Out") or []
    block = _legacy_block(op, [], outs)
    if not is_traced(pred):
        if _truth(pred, "conditional_block"):
            env.update(zip(outs, run(block, [])))
        return
    before = {n: env[n] for n in outs if n in env}
    from ...static import nn as static_nn

    def taken():
        with _traced_region():
            return [_ot._t(v) for v in run(block, [])]

    def not_taken():
        with _traced_region():
            fresh = run(block, []) if len(before) < len(outs) else None  # shapes only: dropped
            return [
                _ot._t(before[n]) if n in before else call_op("zeros_like", _ot._t(fresh[k]))
                for k, n in enumerate(outs)
            ]

    env.update(zip(outs, static_nn.cond(pred, taken, not_taken)))


def _legacy_while(op, env, run):
    """``while``: the sub-block rewrites the ``Out`` variables (``Condition`` among them)
    until the condition is False."""
    cond_name = _one(op, "Condition")
    names = [n for n in op.outputs.get("Out") or [] if n != cond_name]
    block = _legacy_block(op, names, [cond_name, *names])
    args = [_get(env, cond_name, op), *(_get(env, n, op) for n in names)]
    env.update(zip(names, _while(args, op.attrs, [block], run)))


def _select_input(op, env, run):
    """``select_input``: ``X[Mask]`` (only that one is read: the ``conditional_block`` that did
    not run wrote nothing)."""
    xs, mask = op.inputs.get("X") or [], _get(env, _one(op, "Mask"), op)
    out = _one(op, "Out", "outputs")
    if not is_traced(mask):
        k = int(_ot._c(mask, "select_input's mask").reshape(-1)[0])
        if not 0 <= k < len(xs):
            raise ProgramError(f"select_input's mask {k} is outside its {len(xs)} inputs.")
        env[out] = _get(env, xs[k], op)
        return
    m = call_op("reshape", mask, [])
    val = _ot._t(_get(env, xs[0], op))
    for k in range(1, len(xs)):
        val = call_op("where", call_op("equal", m, k), _ot._t(_get(env, xs[k], op)), val)
    env[out] = val


def _write_to_array(op, env, run):
    name = _one(op, "Out", "outputs")
    arr = _get(env, name, op)
    x, i = _get(env, _one(op, "X"), op), _get(env, _one(op, "I"), op)
    env[name] = _array_write([arr, x, i], op.attrs)


def _range(args, a):
    start, end, step = (_ot._c(v, "range's bounds").reshape(-1)[0] for v in args)
    return np.arange(start, end, step).astype(np.result_type(start, end, step))


ROWS = {
    "pd_op.if": _ot.Row(_if, blocks=True),
    "pd_op.while": _ot.Row(_while, blocks=True),
    "pd_op.create_array": _ot.Row(_create_array),
    "pd_op.array_length": _ot.Row(_array_length),
    "pd_op.array_write_": _ot.Row(_array_write),
    "pd_op.array_read": _ot.Row(_array_read),
    "pd_op.array_to_tensor": _ot.Row(_array_to_tensor),
    "pd_op.array_pop": _ot.Row(_array_pop),
    "pd_op.slice_array": _ot.Row(_slice_array),
    "pd_op.logical_and": _ot.Row(_logical("logical_and", np.logical_and)),
    "pd_op.logical_or": _ot.Row(_logical("logical_or", np.logical_or)),
    "pd_op.logical_xor": _ot.Row(_logical("logical_xor", np.logical_xor)),
    "pd_op.logical_not": _ot.Row(_logical("logical_not", np.logical_not)),
    "pd_op.greater_equal": _ot.Row(_ot._binary("greater_equal", np.greater_equal)),
    "pd_op.less_equal": _ot.Row(_ot._binary("less_equal", np.less_equal)),
    "pd_op.not_equal": _ot.Row(_ot._binary("not_equal", np.not_equal)),
    "pd_op.max": _ot.Row(_reduce("max", np.max)),
    "pd_op.min": _ot.Row(_reduce("min", np.min)),
    "pd_op.arange": _ot.Row(_arange),
    "pd_op.full_like": _ot.Row(_full_like),
    "pd_op.assign_value_": _ot.Row(_assign_value),
    "pd_op.assign_value": _ot.Row(_assign_value),
    "pd_op.assign": _ot.Row(_assign),
    # Paddle 2.x
    "conditional_block": _ot.Row(_conditional_block, blocks=True),
    "while": _ot.Row(_legacy_while, blocks=True),
    "select_input": _ot.Row(_select_input, blocks=True),
    "write_to_array": _ot.Row(_write_to_array, blocks=True),
    "read_from_array": _ot.Row(_array_read, ("X", "I")),
    "lod_array_length": _ot.Row(_array_length, ("X",)),
    "tensor_array_to_tensor": _ot.Row(_array_to_tensor, ("X",), ("Out", "OutIndex")),
    "logical_and": _ot.Row(_logical("logical_and", np.logical_and), ("X", "Y")),
    "logical_or": _ot.Row(_logical("logical_or", np.logical_or), ("X", "Y")),
    "logical_xor": _ot.Row(_logical("logical_xor", np.logical_xor), ("X", "Y")),
    "logical_not": _ot.Row(_logical("logical_not", np.logical_not), ("X",)),
    "greater_equal": _ot.Row(_ot._binary("greater_equal", np.greater_equal), ("X", "Y")),
    "less_equal": _ot.Row(_ot._binary("less_equal", np.less_equal), ("X", "Y")),
    "not_equal": _ot.Row(_ot._binary("not_equal", np.not_equal), ("X", "Y")),
    "reduce_max": _ot.Row(_reduce("max", np.max), ("X",)),
    "reduce_min": _ot.Row(_reduce("min", np.min), ("X",)),
    "range": _ot.Row(_range, ("Start", "End", "Step")),
    "fill_any_like": _ot.Row(
        lambda args, a: _full_like([args[0], np.asarray(a.get("value", 0.0))], a), ("X",)
    ),
    "assign": _ot.Row(_assign, ("X",)),
    "assign_value": _ot.Row(_assign_value, ()),
}
