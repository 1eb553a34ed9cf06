"""The Predictor's op-by-op mode in compiled segments (``paddle_program/segments.py``): every
program exported by Paddle 3.3.1 (``tests/data/paddle_programs``) gives, run in segments, what
its plain op-by-op replay gives; a loop body is one segment with its list append moved after
it; an op that needs a value computed from tensor data runs on the host; new input shapes
compile once each, and a loop body whose shapes change at every iteration runs op by op."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from paddle_compat._core import autograd as _ag
from paddle_compat._core.tensor import Tensor
from paddle_compat._export import paddle_program
from paddle_compat._export.paddle_program import layer, segments
from paddle_compat._export.paddle_program.program import Block, Op, Program, Var

DATA = Path(__file__).parent / "data" / "paddle_programs"
RECORD = json.loads((DATA / "outputs.json").read_text())
FLOW = ("cond", "loop", "brk", "rnn_exit", "collect", "encoder")
# the straight-line programs are one segment each: two of them stand for the rest
CASES = [(m, f) for m in (*FLOW, "lstm", "misc") for f in ("pir", "legacy")] + [
    ("indexing", "pir"),
    ("unpool", "pir"),
    ("nms", "pir"),  # multiclass_nms3 on the host between two segments
    ("yolo", "pir"),
    ("arrays", "pir"),  # a data-dependent list, popped and sliced
    ("matrix_nms", "pir"),
    ("ssd", "pir"),
    ("rcnn", "pir"),
    ("select", "pir"),  # topk with a k computed from data: found to be a host step
    ("select", "legacy"),
    ("two_stage", "pir"),
    ("gather_scatter", "pir"),  # nonzero on the host between two segments
    ("gather_scatter", "legacy"),
    ("detect_more", "pir"),
    ("math", "pir"),
]
# models with an op found, while tracing, to need a value computed from data
FOUND_HOST_OPS = {"select"}


def _replay(program, params, xs, plans=None):
    with _ag.no_grad():
        if plans is None:
            return [o.numpy() for o in layer.replay(program, params, xs)]
        with segments.segmented(plans):
            return [o.numpy() for o in layer.replay(program, params, xs)]


def _segments(plans) -> list:
    return [
        it
        for _, items in plans._by_block.values()
        for it in items
        if isinstance(it, segments.Segment)
    ]


@pytest.mark.parametrize("model,fmt", CASES)
def test_segments_equal_the_op_by_op_replay(model, fmt):
    lay = paddle_program.load_layer(str(DATA / f"{model}_{fmt}"))
    params = list(lay._parameters.values())
    plans = segments.Plans(layer.ROWS)
    dtype = RECORD["models"][model]["input"][2]
    for run in RECORD["models"][model]["formats"][fmt]["runs"]:
        x = Tensor(np.asarray(run["input"], dtype))
        want = _replay(lay._program, params, [x])
        for _ in range(2):  # compiled, then from the cache
            got = _replay(lay._program, params, [x], plans)
            for g, w in zip(got, want, strict=True):
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)  # XLA fuses
    segs = _segments(plans)
    assert segs and not any(s.eager for s in segs)
    assert bool(plans.host_ops) == (model in FOUND_HOST_OPS)
    runs = len(RECORD["models"][model]["formats"][fmt]["runs"])
    assert all(len(s._compiled) <= runs for s in segs)  # one compiled form per input shape


@pytest.mark.parametrize("model,fmt", CASES)
def test_an_eager_call_runs_in_segments_with_the_replays_gradients(model, fmt):
    """A loaded program called eagerly: compiled segments, each one tape node; outputs and
    parameter gradients equal the plain op-by-op replay's."""
    lay = paddle_program.load_layer(str(DATA / f"{model}_{fmt}"))
    params = list(lay._parameters.values())
    dtype = RECORD["models"][model]["input"][2]
    x = np.asarray(RECORD["models"][model]["formats"][fmt]["runs"][-1]["input"], dtype)
    results = []
    for segmented in (False, True):
        for p in params:
            p.clear_gradient()
        if segmented:
            if model in FOUND_HOST_OPS:  # the call that finds them runs op by op
                lay(Tensor(x))
            outs = lay(Tensor(x))
        else:
            outs = layer.replay(lay._program, params, [Tensor(x)])
        outs = outs if isinstance(outs, list) else [outs]
        loss = sum((o.astype("float32") ** 2).sum() for o in outs if o.dtype.name != "BOOL")
        loss.backward()
        grads = [None if p.grad is None else p.grad.numpy() for p in params]
        results.append(([o.numpy() for o in outs], grads))
    assert _segments(lay._plans)
    (want, want_g), (got, got_g) = results
    for g, w in zip(got + got_g, want + want_g, strict=True):
        assert (g is None) == (w is None)
        if w is not None:
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("fmt", ["pir", "legacy"])
def test_a_loop_body_is_one_segment_with_the_append_after_it(fmt):
    """The ``collect`` body (Linear, scale, the list append, the counter, the condition):
    one compiled segment, then the host's array steps."""
    lay = paddle_program.load_layer(str(DATA / f"collect_{fmt}"))
    plans = segments.Plans(layer.ROWS)
    x = Tensor(np.asarray(RECORD["models"]["collect"]["formats"][fmt]["runs"][0]["input"], "f4"))
    _replay(lay._program, list(lay._parameters.values()), [x], plans)
    body = [items for ops, items in plans._by_block.values() if ops is not lay._program.ops][0]
    assert isinstance(body[0], segments.Segment)
    assert all(not isinstance(it, segments.Segment) for it in body[1:])
    assert {it.type for it in body[1:]} == (
        {"pd_op.array_length", "pd_op.array_write_"}
        if fmt == "pir"
        else {"lod_array_length", "write_to_array"}
    )


def _program(ops, out="out", dtype=np.float32):
    return Program(
        "pir", ops, [], [], [Var("x", [-1], np.dtype("float32"), key="x")],
        [Var(out, [-1], np.dtype(dtype), key=out)],
    )  # fmt: skip


def test_an_op_needing_a_data_value_runs_on_the_host():
    """``arange`` up to the input's sum: its length is data, so it cannot be traced; it runs
    on the host between two segments and the results equal the plain replay's."""
    ops = [
        Op("pd_op.full_int_array", [], ["ax"], {"value": [], "dtype": "int64"}),
        Op("pd_op.sum", ["x", "ax"], ["s"], {"keepdim": False}),
        Op("pd_op.cast", ["s"], ["n"], {"dtype": "int64"}),
        Op("pd_op.full", [], ["zero"], {"shape": [1], "value": 0, "dtype": "int64"}),
        Op("pd_op.full", [], ["one"], {"shape": [1], "value": 1, "dtype": "int64"}),
        Op("pd_op.arange", ["zero", "n", "one"], ["r"], {"dtype": "int64"}),
        Op("pd_op.scale", ["r"], ["out"], {"scale": 2.0, "bias": 1.0}),
    ]
    prog, plans = _program(ops, dtype=np.int64), segments.Plans(layer.ROWS)
    for xs in ([1.0, 2.0], [4.0, 1.0], [0.5, 0.5]):
        x = Tensor(np.asarray(xs, np.float32))
        want = _replay(prog, [], [x])
        got = _replay(prog, [], [x], plans)
        np.testing.assert_array_equal(got[0], want[0])
        assert len(got[0]) == int(sum(xs))
    assert plans.host_ops == {id(ops[5])}
    kinds = [type(it).__name__ if isinstance(it, segments.Segment) else it.type
             for it in plans.plan(ops, False, ["out"])]  # fmt: skip
    assert kinds == ["Segment", "pd_op.arange", "Segment"]


def test_new_input_shapes_each_compile_once():
    """Across calls (new input lengths) a segment keeps compiling, one form per shape."""
    ops = [Op("pd_op.abs", ["x"], ["out"], {})]
    prog, plans = _program(ops), segments.Plans(layer.ROWS)
    for n in [*range(1, segments.MAX_SIGNATURES + 3), 1, 2]:
        x = Tensor(-np.arange(n, dtype=np.float32))
        np.testing.assert_array_equal(_replay(prog, [], [x], plans)[0], np.arange(n))
    (seg,) = _segments(plans)
    assert not seg.eager and len(seg._compiled) == segments.MAX_SIGNATURES + 2


def test_a_loop_whose_shapes_grow_runs_its_body_op_by_op():
    """A while body that doubles its tensor at each of 12 iterations meets a new shape every
    time: after MAX_SIGNATURES of them in one call it runs op by op; the result is the plain
    replay's."""
    body = [
        Op("pd_op.full", [], ["one"], {"shape": [1], "value": 1, "dtype": "int64"}),
        Op("pd_op.add", ["bi", "one"], ["ni"], {}),
        Op("builtin.combine", ["bx", "bx"], ["pair"], {}),
        Op("pd_op.concat", ["pair"], ["nx"], {"axis": 0}),
        Op("pd_op.less_than", ["ni", "limit"], ["nc"], {}),
    ]
    ops = [
        Op("pd_op.full", [], ["i0"], {"shape": [1], "value": 0, "dtype": "int64"}),
        Op("pd_op.full", [], ["limit"], {"shape": [1], "value": 12, "dtype": "int64"}),
        Op("pd_op.less_than", ["i0", "limit"], ["c0"], {}),
        Op("pd_op.while", ["c0", "i0", "x"], ["i_end", "out"], {},
           [Block(["bi", "bx"], body, ["nc", "ni", "nx"])]),
    ]  # fmt: skip
    prog, plans = _program(ops), segments.Plans(layer.ROWS)
    x = Tensor(np.asarray([1.0, -2.0], np.float32))
    want = _replay(prog, [], [x])
    got = _replay(prog, [], [x], plans)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[0].shape == (2 * 2**12,)
    body_seg = next(s for s in _segments(plans) if s.ops[0] is body[0])
    assert body_seg.eager and len(body_seg._compiled) == segments.MAX_SIGNATURES


@pytest.mark.parametrize(
    "op,compiled_forms,bake",
    [
        # a loop counter the host computes: an input of the one compiled form
        (Op("pd_op.add", ["x", "k"], ["out"], {}), 1, False),
        # scale's factor must be known while tracing: folded in, one form per value
        (Op("pd_op.scale", ["x", "k"], ["out"], {"bias": 0.0}), 3, True),
    ],
)
def test_host_values_are_inputs_unless_an_op_needs_them(op, compiled_forms, bake):
    plans = segments.Plans(layer.ROWS)
    seg = segments.Segment([op], [op], False, plans)
    x = Tensor(np.ones(3, np.float32))
    for k in (0.0, 1.0, 2.0, 1.0):
        env = {"x": x, "k": np.asarray([k], np.float32)}
        seg.run(env, layer._run_op, plans)
        want = 1.0 + k if op.type == "pd_op.add" else k
        np.testing.assert_array_equal(env["out"].numpy(), np.full(3, want, np.float32))
    assert len(seg._compiled) == compiled_forms and seg.bake == bake
