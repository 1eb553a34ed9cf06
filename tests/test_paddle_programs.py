"""Inference programs exported by real Paddle 3.3.1 (``tools/record_paddle_programs.py``): a
CNN, a small ResNet, an LSTM, a Transformer encoder, a MobileNet-style net (depthwise convs,
SE block, transposed conv, upsampling), a text net (embedding, bidirectional GRU) and a net of
elementwise math, reductions, compare/cast and split/stack/concat, each in the PIR ``.json``
and the 2.x ``.pdmodel`` format with its ``.pdiparams``; to_static functions with control flow
on Tensors (``if``/``while``/``break``/early ``return``, a GRU cell stepped until its state
saturates, lists appended in loops, a loop over an open time axis), in both formats; and, in
PIR only, the indexing ops of PaddleClas's Swin and ViT exports (``roll``, ``index_select``,
``where``, ``floor_divide``, ``strided_slice``, ``set_value_``, ``expand``) and of PaddleSeg's
ENet and OCRNet (``prelu``, ``max_pool2d_with_index``, ``unpool``, ``bmm``) and of
PaddleDetection's heads (``yolo_box``, ``prior_box``, ``box_coder``, ``roi_align``, ``tile``,
``generate_proposals``, ``distribute_fpn_proposals``, ``multiclass_nms3``, ``matrix_nms``), and a
data-dependent list popped and sliced (``array_pop``, ``slice_array``). Each runs through every
entry point; outputs equal real Paddle Inference's. Damaged files and unknown ops give clear
RuntimeErrors (as Paddle's loaders raise) at load time.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat._export import paddle_program

DATA = Path(__file__).parent / "data" / "paddle_programs"
RECORD = json.loads((DATA / "outputs.json").read_text())
MODELS = (
    "cnn", "resnet", "lstm", "transformer", "mobile", "text", "misc", "select", "gather_scatter"
)  # fmt: skip
FLOW_MODELS = ("cond", "loop", "brk", "rnn_exit", "collect", "encoder")
FORMATS = {"pir": ".json", "legacy": ".pdmodel"}
# Swin's and ViT's indexing ops (roll, set_value_, strided_slice, ...), ENet's and OCRNet's
# (prelu, max pool with indices, unpool, bmm), detection heads (yolo_box, the two NMS, a
# two-stage detector's NMS with rois_num; deformable convolutions, RoI pools, NMS), elementwise
# math, scans, norms and sampling, a list's pop and slice: Paddle 3.3.1 with PIR off
# cannot trace them, so only their PIR files exist
PIR_ONLY = (
    "indexing", "unpool", "nms", "yolo", "arrays", "matrix_nms", "ssd", "rcnn", "two_stage",
    "detect_more", "math",
)  # fmt: skip
CASES = [(m, f) for m in MODELS + FLOW_MODELS for f in FORMATS] + [(m, "pir") for m in PIR_ONLY]
# appends to a list in a loop whose condition is data: no one compiled program holds that
OP_BY_OP = {"collect", "arrays"}
ENTRIES = ("load_layer", "to_static", "predictor", "jit.load", "static.load_inference_model")


def _prefix(model: str, fmt: str) -> str:
    return str(DATA / f"{model}_{fmt}")


def _run(entry: str, model: str, fmt: str, x: np.ndarray) -> list[np.ndarray]:
    prefix = _prefix(model, fmt)
    if entry == "predictor":
        config = paddle.inference.Config(prefix + FORMATS[fmt], prefix + ".pdiparams")
        pred = paddle.inference.create_predictor(config)
        pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(x)
        pred.run()
        return [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
    if entry == "static.load_inference_model":
        from paddle_compat.static._executor import Executor
        from paddle_compat.static._io import load_inference_model

        _needs_jit_dispatch()
        exe = Executor(paddle.CPUPlace())
        prog, feeds, fetches = load_inference_model(prefix, exe)
        return [np.asarray(o) for o in exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)]
    if entry == "jit.load":
        _needs_jit_dispatch()
        layer = paddle.jit.load(prefix)
    else:
        layer = paddle_program.load_layer(prefix)
    if entry == "to_static":  # control flow compiles into the program: no fallback allowed
        layer = paddle.jit.to_static(layer, full_graph=model not in OP_BY_OP)
    outs = layer(paddle.to_tensor(x))
    return [o.numpy() for o in (outs if isinstance(outs, list) else [outs])]


def _needs_jit_dispatch():
    try:
        ok = isinstance(paddle.jit.load(_prefix("cnn", "pir")), paddle_program.PaddleProgramLayer)
    except ValueError:  # "a PIR program written by PaddlePaddle itself"
        ok = False
    if not ok:
        pytest.skip("paddle.jit.load does not dispatch to paddle_program yet (lead's lines)")


@pytest.mark.filterwarnings("ignore:.*(cannot run as one compiled program|runs eagerly)")
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("model,fmt", CASES)
def test_outputs_equal_paddle_inference(model, fmt, entry):
    rec = RECORD["models"][model]["formats"][fmt]
    dtype = RECORD["models"][model]["input"][2]
    for run in rec["runs"]:  # two batch sizes
        x = np.asarray(run["input"], dtype)
        got = _run(entry, model, fmt, x)
        assert len(got) == len(run["outputs"])
        for g, want, shape in zip(got, run["outputs"], run["shapes"]):
            assert list(g.shape) == shape
            want = np.asarray(want, g.dtype).reshape(shape)  # (JSON keeps no empty shape)
            np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("model,fmt", CASES)
def test_names_and_specs(model, fmt):
    rec = RECORD["models"][model]
    layer = paddle_program.load_layer(_prefix(model, fmt))
    assert isinstance(layer, paddle.jit.TranslatedLayer)
    assert layer.input_names == rec["formats"][fmt]["input_names"]
    assert layer.output_names == rec["formats"][fmt]["output_names"]
    name, shape, dtype = rec["input"]
    shape = [-1 if d is None else d for d in shape]
    assert [(s.shape, s.dtype) for s in layer.input_specs] == [([-1, *shape], dtype)]
    assert paddle_program.is_paddle_program(_prefix(model, fmt))
    assert paddle_program.is_paddle_program(_prefix(model, fmt) + FORMATS[fmt])


def test_own_saved_model_is_not_a_paddle_program(tmp_path):
    layer = paddle.nn.Linear(3, 2)
    prefix = str(tmp_path / "own")
    paddle.jit.save(layer, prefix, input_spec=[paddle.static.InputSpec([None, 3], "float32")])
    assert not paddle_program.is_paddle_program(prefix)
    assert not paddle_program.is_paddle_program(prefix + ".json")


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_gradients_reach_the_parameters(fmt):
    layer = paddle_program.load_layer(_prefix("cnn", fmt))
    x = paddle.to_tensor(np.ones((2, 3, 8, 8), np.float32))
    (layer(x) * paddle.arange(5, dtype="float32")).sum().backward()
    grads = [p.grad for p in layer.parameters() if p.grad is not None]
    assert len(grads) == len(layer.parameters())


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_wrong_input_shape(fmt):
    layer = paddle_program.load_layer(_prefix("cnn", fmt))
    with pytest.raises(ValueError, match="'image'"):
        layer(paddle.to_tensor(np.ones((2, 3, 9, 8), np.float32)))


# -- damaged files -----------------------------------------------------------------------------
def _copy(tmp_path, model, fmt) -> tuple[Path, Path]:
    prog = tmp_path / f"m{FORMATS[fmt]}"
    params = tmp_path / "m.pdiparams"
    shutil.copy(_prefix(model, fmt) + FORMATS[fmt], prog)
    shutil.copy(_prefix(model, fmt) + ".pdiparams", params)
    return prog, params


def _unknown_pir(prog: Path, params: Path):
    text = prog.read_text().replace('"1.relu"', '"1.frobnicate"')
    prog.write_text(text.replace('"1.softmax"', '"1.quux"'))


def _unknown_legacy(prog: Path, params: Path):
    raw = prog.read_bytes().replace(b"\x1a\x04relu", b"\x1a\x04relx")  # OpDesc.type
    prog.write_bytes(raw.replace(b"\x1a\x07softmax", b"\x1a\x07softmaz"))


def _truncate(path_of, n):
    def fn(prog: Path, params: Path):
        p = path_of(prog, params)
        p.write_bytes(p.read_bytes()[:n])

    return fn


def _huge_dims(prog: Path, params: Path):
    """The first record's TensorDesc claims 2**40 elements."""
    raw = bytearray(params.read_bytes())
    (desc_size,) = struct.unpack_from("<i", raw, 16)
    desc = b"\x08\x05\x10" + bytes([0x80, 0x80, 0x80, 0x80, 0x80, 0x20])
    params.write_bytes(
        bytes(raw[:16]) + struct.pack("<i", len(desc)) + desc + bytes(raw[20 + desc_size :])
    )


def _other_params(prog: Path, params: Path):
    shutil.copy(_prefix("resnet", "pir") + ".pdiparams", params)


def _extra_bytes(prog: Path, params: Path):
    params.write_bytes(params.read_bytes() + b"\0" * 8)


def _bad_length(prog: Path, params: Path):
    # a ProgramDesc whose first block claims more bytes than the file has
    prog.write_bytes(b"\x0a\xff\xff\xff\x0f" + prog.read_bytes()[:100])


def _deep_json(prog: Path, params: Path):
    prog.write_text('{"base_code": {"magic": "pir", "version": 1}, "program": ' + "[" * 100000)


_PROG = lambda prog, params: prog  # noqa: E731
_PARAMS = lambda prog, params: params  # noqa: E731

DAMAGED = {
    "unknown_ops_pir": ("pir", _unknown_pir, r"2 Paddle op\(s\).*pd_op\.frobnicate, pd_op\.quux"),
    "unknown_ops_legacy": ("legacy", _unknown_legacy, r"2 Paddle op\(s\).*relx, softmaz"),
    "truncated_json": ("pir", _truncate(_PROG, 3000), "not valid JSON"),
    "truncated_pdmodel": ("legacy", _truncate(_PROG, 4000), "malformed"),
    "bad_length_pdmodel": ("legacy", _bad_length, "runs past the end"),
    "truncated_params_pir": ("pir", _truncate(_PARAMS, 1500), "truncated"),
    "truncated_params_legacy": ("legacy", _truncate(_PARAMS, 1500), "truncated"),
    "huge_dims": ("pir", _huge_dims, "truncated"),
    "other_params": ("pir", _other_params, "does not belong"),
    "extra_bytes": ("legacy", _extra_bytes, "bytes after"),
    "no_params": ("pir", lambda prog, params: params.unlink(), "does not exist"),
    "deep_json": ("pir", _deep_json, "nests too deeply|not valid JSON"),
}


@pytest.mark.parametrize("how", list(DAMAGED))
def test_damaged_files(tmp_path, how):
    fmt, damage, msg = DAMAGED[how]
    prog, params = _copy(tmp_path, "cnn", fmt)
    damage(prog, params)
    with pytest.raises(RuntimeError, match=msg):
        paddle_program.load_layer(str(prog))
    config = paddle.inference.Config(str(prog), str(params))
    with pytest.raises(RuntimeError, match=msg):
        paddle.inference.create_predictor(config)
    assert os.path.exists(prog)


def test_huge_constant_in_attributes(tmp_path):
    """A ``pd_op.full`` whose shape attribute claims 10**10 elements: refused, not allocated."""
    prog, params = _copy(tmp_path, "lstm", "pir")
    small = '{"AT":{"#":"1.a_intarray","D":[1]},"N":"shape"}'
    text = prog.read_text()
    assert small in text
    prog.write_text(text.replace(small, small.replace("[1]", "[100000, 100000]")))
    layer = paddle_program.load_layer(str(prog))
    with pytest.raises(RuntimeError, match="full's shape .* the file is damaged"):
        layer(paddle.ones([2, 5, 6]))


# -- control flow ------------------------------------------------------------------------------
def _flow_input(model: str, run: int = 0) -> np.ndarray:
    r = RECORD["models"][model]["formats"]["pir"]["runs"][run]
    return np.asarray(r["input"], np.float32)


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_data_dependent_list_runs_op_by_op_with_a_warning(fmt):
    """A list appended in a loop on a data condition has a data-dependent length: the
    Predictor (in compiled segments) and to_static run its control flow on the host, saying
    so once."""
    prefix = _prefix("collect", fmt)
    config = paddle.inference.Config(prefix + FORMATS[fmt], prefix + ".pdiparams")
    pred = paddle.inference.create_predictor(config)
    h = pred.get_input_handle(pred.get_input_names()[0])
    with pytest.warns(UserWarning, match="tensor array .* control flow runs on the host"):
        h.copy_from_cpu(_flow_input("collect"))
        pred.run()
    for run in RECORD["models"]["collect"]["formats"][fmt]["runs"]:
        h.copy_from_cpu(np.asarray(run["input"], np.float32))
        pred.run()  # no second warning (pytest's default filters would show it)
        out = pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()
        np.testing.assert_allclose(out, np.asarray(run["outputs"][0]), rtol=1e-5, atol=1e-5)
    layer = paddle.jit.to_static(paddle_program.load_layer(prefix), full_graph=True)
    with pytest.raises(RuntimeError, match="tensor array .* computed from tensor data"):
        for _ in range(2):  # the first call runs eagerly (to_static's discovery run)
            layer(paddle.to_tensor(_flow_input("collect")))


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("model", ["cond", "brk", "rnn_exit", "encoder"])
def test_gradients_through_control_flow_match_eager(model, fmt):
    """Gradients through a loaded program's Tensor if/while: to_static (lax.cond /
    while_loop) equals the eager replay (Python control flow)."""
    x = _flow_input(model, 1)
    grads = []
    for compiled in (False, True):
        layer = paddle_program.load_layer(_prefix(model, fmt))
        fwd = paddle.jit.to_static(layer, full_graph=True) if compiled else layer
        if compiled:
            fwd(paddle.to_tensor(x))  # to_static's first call runs eagerly; the next compiles
        out = fwd(paddle.to_tensor(x))[0]
        (out * out).sum().backward()
        grads.append([p.grad.numpy() for p in layer.parameters()])
    for eager, comp in zip(*grads):
        np.testing.assert_allclose(comp, eager, rtol=1e-5, atol=1e-6)


def _edit_flow(fn):
    """Damage the ``brk`` program's JSON with ``fn(ops)`` (its top-level op list)."""

    def damage(prog: Path, params: Path):
        doc = json.loads(prog.read_text())
        fn(doc["program"]["regions"][0]["blocks"][0]["ops"])
        prog.write_text(json.dumps(doc))

    return damage


def _find(ops, name):
    for o in ops:
        if o["#"] == name:
            return o
        for r in o.get("regions", []):
            hit = _find(r["blocks"][0]["ops"], name)
            if hit is not None:
                return hit
    return None


def _while_body(ops):
    return _find(ops, "1.while")["regions"][0]["blocks"][0]["ops"]


FLOW_DAMAGED = {  # (damage, message, at load or at run)
    "if_one_block": (
        lambda ops: _find(ops, "1.if")["regions"].pop(),
        "pd_op.if has 1 blocks; it needs two",
        "run",
    ),
    "while_yields_too_few": (
        lambda ops: _while_body(ops)[-1]["I"].pop(),
        "3 loop variables, but its block takes 3 and yields 3",
        "run",
    ),
    "yield_of_nothing": (
        lambda ops: _while_body(ops)[-1]["I"].__setitem__(1, {"%": 99999}),
        "yields the value 99999",
        "run",
    ),
    "yield_at_top_level": (
        lambda ops: ops.append({"#": "2.yield", "I": [], "O": []}),
        "cf.yield outside a control-flow block",
        "load",
    ),
    "ops_after_yield": (
        lambda ops: _while_body(ops).append(dict(_while_body(ops)[0])),
        "ops after a block's cf.yield",
        "load",
    ),
    "parameter_in_block": (
        lambda ops: _while_body(ops).insert(0, ops[0]),
        "a parameter inside a sub-block",
        "load",
    ),
    "bad_region": (
        lambda ops: _find(ops, "1.if")["regions"].__setitem__(0, {"blocks": []}),
        "a region of pd_op.if without one block",
        "load",
    ),
}


def _sub_block(old: int, new: int):
    """Point the first op whose ``sub_block`` attribute is ``old`` at block ``new``."""

    def damage(prog: Path, params: Path):
        attr = b"\x0a\x09sub_block\x10\x08\x60"  # Attr{name, type BLOCK, block_idx}
        raw = prog.read_bytes()
        assert raw.count(attr + bytes([old])) == 1
        prog.write_bytes(raw.replace(attr + bytes([old]), attr + bytes([new])))

    return damage


LEGACY_FLOW_DAMAGED = {
    "sub_block_out_of_range": (_sub_block(1, 99), "sub_block 99 is not an unused block"),
    "sub_block_used_twice": (_sub_block(2, 1), "sub_block 1 is not an unused block"),
}


@pytest.mark.parametrize("how", list(LEGACY_FLOW_DAMAGED))
def test_damaged_legacy_control_flow(tmp_path, how):
    damage, msg = LEGACY_FLOW_DAMAGED[how]
    prog, params = _copy(tmp_path, "brk", "legacy")
    damage(prog, params)
    with pytest.raises(RuntimeError, match=msg):
        paddle_program.load_layer(str(prog))


@pytest.mark.parametrize("how", list(FLOW_DAMAGED))
def test_damaged_control_flow(tmp_path, how):
    damage, msg, when = FLOW_DAMAGED[how]
    prog, params = _copy(tmp_path, "brk", "pir")
    _edit_flow(damage)(prog, params)
    if when == "load":
        with pytest.raises(RuntimeError, match=msg):
            paddle_program.load_layer(str(prog))
        return
    layer = paddle_program.load_layer(str(prog))
    with pytest.raises(RuntimeError, match=msg):
        layer(paddle.to_tensor(_flow_input("brk")))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_empty_tensor_array_raises_as_paddle(fmt):
    """A data-dependent loop that runs zero times leaves the list empty: Paddle's
    array_to_tensor kernel refuses it (InvalidArgumentError, a ValueError), and so does the
    replay."""
    layer = paddle_program.load_layer(_prefix("collect", fmt))
    with pytest.raises(ValueError, match="tensor array size should > 0"):
        layer(paddle.full([2, 4], 10.0))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_long_loop_known_while_compiling_becomes_one_while_loop(fmt):
    """A loop decided while compiling (over the input's time axis) runs its first UNROLL
    iterations as copies, then the rest as one lax.while_loop: 20 steps hold a while loop,
    5 do not; both equal Paddle Inference (test_outputs_equal_paddle_inference)."""
    import jax

    from paddle_compat._core.tensor import Tensor
    from paddle_compat._export.paddle_program import control_flow

    program, arrays = paddle_program.load_program(*paddle_program.find(_prefix("encoder", fmt)))

    def prims(steps):
        x = np.zeros((2, steps, 4), np.float32)

        def f(params, x):
            outs = paddle_program.replay(program, [Tensor(p) for p in params], [Tensor(x)])
            return [o._value for o in outs]

        return {e.primitive.name for e in jax.make_jaxpr(f)(arrays, x).jaxpr.eqns}

    assert control_flow.UNROLL < 20
    assert "while" in prims(20)
    assert "while" not in prims(5)


@pytest.mark.parametrize(
    "boxes,scores,rois_num,want",
    [
        # nothing above the threshold: empty rows, zero counts
        ([2, 5, 4], ([2, 3, 5], 0.01), None, [0, 0]),
        ([2, 5, 4], ([2, 3, 4], 0.9), None, "bboxes \\[N, M, 4\\] and scores \\[N, C, M\\]"),
        # two-stage layout: a box per class, scores [R, C], RoIs per image
        ([5, 3, 4], ([5, 3], 0.9), [2, 0, 3], [2, 0, 2]),  # an image without RoIs
        ([5, 3, 4], ([5, 3], 0.9), [2, 2], [2, 2]),  # RoIs past the counts are left out
        ([5, 3, 4], ([5, 3, 1], 0.9), [2, 3], "bboxes \\[R, C, 4\\] and scores \\[R, C\\]"),
        ([5, 3, 4], ([5, 3], 0.9), [4, 3], "asks for more boxes than bboxes holds \\(5\\)"),
    ],
)
def test_multiclass_nms3_edges(boxes, scores, rois_num, want):
    """Same boxes everywhere: NMS keeps one per class and image (class 0 is the background)."""
    from paddle_compat._export.paddle_program import detection_ops

    b = np.broadcast_to(np.asarray([0, 0, 4, 4], np.float32), boxes).copy()
    s = np.full(scores[0], scores[1], np.float32)
    attrs = {"score_threshold": 0.05, "keep_top_k": 10, "nms_threshold": 0.5}
    num = None if rois_num is None else paddle.to_tensor(np.asarray(rois_num, np.int32))
    args = [paddle.to_tensor(b), paddle.to_tensor(s), num]
    if isinstance(want, str):
        with pytest.raises(ValueError, match=want):
            detection_ops._multiclass_nms3(args, attrs)
        return
    out, index, count = detection_ops._multiclass_nms3(args, attrs)
    assert count.numpy().tolist() == want
    assert out.shape == [sum(count.numpy().tolist()), 6] and index.shape == [out.shape[0], 1]
