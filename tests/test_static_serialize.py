"""``paddle.static.serialize_program`` / ``serialize_persistables`` and their ``deserialize_``
and file helpers: a Program round-trips through bytes and files and gives the same outputs;
the bytes of program files real Paddle 3.3.1 wrote (2.x ``.pdmodel``, PIR ``.json``) with their
``.pdiparams`` run as Paddle Inference ran them; wrong inputs raise clearly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import paddle_compat as paddle

S = paddle.static
DATA = Path(__file__).parent / "data" / "paddle_programs"
RECORD = json.loads((DATA / "outputs.json").read_text())


def _run(program, feed: dict):
    exe = S.Executor(paddle.CPUPlace())
    return exe.run(program, feed=feed, fetch_list=program._fetch_targets)


def test_round_trip_through_bytes_and_files(tmp_path):
    paddle.enable_static()
    try:
        main, startup = S.Program(), S.Program()
        with S.program_guard(main, startup):
            x = S.data("x", [None, 4], "float32")
            y = S.nn.fc(S.nn.fc(x, 8, activation="relu"), 3)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        xs = np.random.default_rng(0).standard_normal((5, 4)).astype("float32")
        (want,) = exe.run(main, feed={"x": xs}, fetch_list=[y])
        S.save_to_file(str(tmp_path / "m.prog"), S.serialize_program([x], [y]))
        S.save_to_file(str(tmp_path / "m.params"), S.serialize_persistables([x], [y], exe))
        prog = S.deserialize_program(S.load_from_file(str(tmp_path / "m.prog")))
        S.deserialize_persistables(prog, S.load_from_file(str(tmp_path / "m.params")), exe)
        assert prog.global_block().var("x") is not None
        (got,) = _run(prog, {"x": xs})
        np.testing.assert_allclose(got, want, rtol=1e-6)
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("fmt,ext", [("legacy", ".pdmodel"), ("pir", ".json")])
def test_paddles_program_bytes(fmt, ext):
    paddle.enable_static()
    try:
        prefix = DATA / f"cnn_{fmt}"
        prog = S.deserialize_program(S.load_from_file(str(prefix) + ext))
        exe = S.Executor(paddle.CPUPlace())
        S.deserialize_persistables(prog, S.load_from_file(str(prefix) + ".pdiparams"), exe)
        for run in RECORD["models"]["cnn"]["formats"][fmt]["runs"]:
            (got,) = _run(prog, {prog._feed_names[0]: np.asarray(run["input"], np.float32)})
            np.testing.assert_allclose(got, np.asarray(run["outputs"][0]), rtol=1e-5, atol=1e-6)
    finally:
        paddle.disable_static()


@pytest.mark.parametrize(
    "call,error,match",
    [
        (lambda: S.save_to_file("/tmp/x", "text"), ValueError, "'content' type should be bytes"),
        (lambda: S.load_from_file("/nonexistent/m.pdmodel"), ValueError, "is not a file"),
        (lambda: S.deserialize_program("text"), TypeError, "takes bytes"),
        (
            lambda: S.deserialize_persistables(S.Program(), b"", None),
            ValueError,
            "deserialize_program",
        ),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()
