"""Checkpoints of a small ResNet, an LSTM tagger and a Transformer across frameworks (fixtures
in tests/data/checkpoints/, written by tools/record_checkpoints.py): the files real Paddle 3.3.1
wrote load here and give Paddle's eval outputs; what paddle_compat saves today has the layout of
Paddle's file (keys, shapes, dtypes, name table, pickle opcodes) and loads back to the outputs
real Paddle computed from our file."""

from __future__ import annotations

import importlib.util
import pickle
import pickletools
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import paddle

CKPT = Path(__file__).resolve().parent / "data" / "checkpoints"
_spec = importlib.util.spec_from_file_location("checkpoint_models", CKPT / "models.py")
models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(models)
OUTPUTS = dict(np.load(CKPT / "outputs.npz"))
NAMES = models.NAMES
NAME_TABLE = "StructuredToParameterName@@"


def _load_into_fresh(name, path):
    model = models.build(name)
    missing, unexpected = model.set_state_dict(paddle.load(str(path)))
    assert (missing, unexpected) == ([], [])
    return model


def _recorded(name, source):
    n = sum(k.startswith(f"{name}/{source}_file/") for k in OUTPUTS)
    return [OUTPUTS[f"{name}/{source}_file/{i}"] for i in range(n)]


def _assert_outputs(model, name, source):
    got = models.outputs(model, name)
    want = _recorded(name, source)
    assert len(got) == len(want) > 0
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def _save_ours_today(name, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.save(models.make(name, "ours").state_dict(), str(path))
    return path


def _uncounted(s: str) -> str:
    """A parameter name without its global counter: 'lstm_cell_12.w_0' -> 'lstm_cell_N.w_0'."""
    return re.sub(r"_\d+\.", "_N.", s)


def _layout(path):
    """What a .pdparams file holds apart from the numbers: container type, keys in order,
    (type, shape, dtype) of each value, and the name table with counters removed."""
    with open(path, "rb") as f:
        obj = pickle.load(f)
    table = obj.get(NAME_TABLE, {})
    return {
        "type": type(obj).__name__,
        "keys": list(obj),
        "values": [
            (type(v).__name__, v.shape, str(v.dtype)) for k, v in obj.items() if k != NAME_TABLE
        ],
        "name_table": {k: _uncounted(v) for k, v in table.items()},
    }


def _opcodes(path):
    """The pickle opcode stream with array bytes reduced to their length, frame sizes dropped
    and parameter-name counters removed."""
    out = []
    for op, arg, _ in pickletools.genops(Path(path).read_bytes()):
        if op.name == "FRAME":
            continue
        if isinstance(arg, bytes):
            arg = len(arg)
        elif isinstance(arg, str):
            arg = _uncounted(arg)
        out.append((op.name, arg))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_paddle_checkpoint_gives_paddle_outputs(name):
    model = _load_into_fresh(name, CKPT / f"{name}_paddle.pdparams")
    _assert_outputs(model, name, "paddle")


@pytest.mark.parametrize("name", NAMES)
def test_recorded_checkpoint_of_ours_gives_paddle_outputs(name):
    """The very file real Paddle loaded gives, here, the outputs Paddle computed from it."""
    model = _load_into_fresh(name, CKPT / f"{name}_ours.pdparams")
    _assert_outputs(model, name, "ours")


@pytest.mark.parametrize("name", NAMES)
def test_checkpoint_saved_today_gives_paddle_outputs(name, tmp_path):
    path = _save_ours_today(name, tmp_path / "m.pdparams")
    recorded = paddle.load(str(CKPT / f"{name}_ours.pdparams"), return_numpy=True)
    today = paddle.load(str(path), return_numpy=True)
    assert list(today) == list(recorded)
    for k in recorded:
        np.testing.assert_allclose(today[k], recorded[k], rtol=1e-5, atol=1e-6, err_msg=k)
    _assert_outputs(_load_into_fresh(name, path), name, "ours")


@pytest.mark.parametrize("name", NAMES)
def test_checkpoint_saved_today_has_paddles_layout(name, tmp_path):
    path = _save_ours_today(name, tmp_path / "m.pdparams")
    assert _layout(path) == _layout(CKPT / f"{name}_paddle.pdparams")


@pytest.mark.parametrize("name", NAMES)
def test_checkpoint_saved_today_has_paddles_pickle_opcodes(name, tmp_path):
    path = _save_ours_today(name, tmp_path / "m.pdparams")
    assert _opcodes(path) == _opcodes(CKPT / f"{name}_paddle.pdparams")
