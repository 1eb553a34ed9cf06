"""paddle.save / paddle.load: files written by real Paddle 3.3.1 (tests/data, made by
tools/make_pdparams_fixtures.py) load to what real Paddle loads; the same objects saved here are
byte-identical to Paddle's files; the restricted unpickler refuses foreign globals; writes are
atomic."""

from __future__ import annotations

import collections
import copy
import importlib.util
import io
import json
import os
import pickle
import warnings
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

import paddle
from paddle_compat._core.tensor import Parameter, Tensor
from paddle_compat._io import serialization

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
MANIFEST = json.loads((DATA / "fixtures.json").read_text())["files"]

_spec = importlib.util.spec_from_file_location(
    "fixture_tool", ROOT / "tools" / "make_pdparams_fixtures.py"
)
fixture_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fixture_tool)
describe = fixture_tool.describe


def mk(arr, name, dtype=None, param=False):
    """The fixture builders' tensor factory, under paddle_compat."""
    if param:
        t = Parameter(np.asarray(arr, dtype=dtype) if dtype else arr, name=name)
    else:
        t = paddle.to_tensor(arr, dtype=dtype)
        t.name = name
    return t


def _save_bytes(obj, protocol=4, **configs) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paddle.save(obj, buf, protocol=protocol, **configs)
    return buf.getvalue()


# -- real Paddle's files load here as they load in Paddle -------------------------------------------
LOAD_MODES = {
    "default": {},
    "return_numpy": {"return_numpy": True},
    "keep_name_table": {"keep_name_table": True},
}


@pytest.mark.parametrize("mode", sorted(LOAD_MODES))
@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_real_paddle_file_loads(name, mode):
    expected = MANIFEST[name]["load"][mode]
    got = describe(paddle.load(str(DATA / name), **LOAD_MODES[mode]))
    assert got == expected


# -- the same objects saved here are byte-identical to Paddle's files ---------------------------------
REBUILT = sorted(n for n, e in MANIFEST.items() if e.get("rebuild", True))


@pytest.mark.parametrize("name", REBUILT)
def test_saved_bytes_identical_to_real_paddle(name):
    builder, protocol, configs = fixture_tool.OBJECTS[name]
    data = _save_bytes(builder(mk), protocol, **configs)
    out = os.environ.get("PADDLE_COMPAT_FIXTURE_OUT")  # for tools/... --check under real Paddle
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        (Path(out) / name).write_bytes(data)
    assert data == (DATA / name).read_bytes()


# -- round trips here ----------------------------------------------------------------------------
ROUND_TRIP = {
    "f32": lambda: paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3)),
    "bf16": lambda: paddle.to_tensor(np.array([1.5, -2.25, 3.0], "float32"), dtype="bfloat16"),
    "f16": lambda: paddle.to_tensor(np.array([1.5, -2.25], "float16")),
    "zero_d": lambda: paddle.to_tensor(np.array(7, "int64")),
    "bool": lambda: paddle.to_tensor(np.array([True, False])),
    "c128": lambda: paddle.to_tensor(np.array([1 + 1j], "complex128")),
    "empty": lambda: paddle.to_tensor(np.zeros([0, 2], "float32")),
}


@pytest.mark.parametrize("protocol", [2, 3, 4])
@pytest.mark.parametrize("kind", sorted(ROUND_TRIP))
def test_round_trip_tensor_and_state_dict(kind, protocol):
    t = ROUND_TRIP[kind]()
    t.name = f"{kind}_w"
    got = paddle.load(io.BytesIO(_save_bytes(t, protocol)))
    assert isinstance(got, Tensor) and got.dtype == t.dtype and got.name == t.name
    assert got.shape == t.shape and got.stop_gradient
    np.testing.assert_array_equal(np.asarray(got._value), np.asarray(t._value))
    sd = paddle.load(io.BytesIO(_save_bytes({"w": t, "cfg": {"k": 1}}, protocol)))
    assert list(sd) == ["w", "cfg"] and sd["cfg"] == {"k": 1}
    assert sd["w"].name == t.name and sd["w"].dtype == t.dtype
    arr = paddle.load(io.BytesIO(_save_bytes({"w": t}, protocol)), return_numpy=True)["w"]
    expected_np = {"bf16": np.uint16}.get(kind, np.asarray(t._value).dtype)
    assert isinstance(arr, np.ndarray) and arr.dtype == expected_np


def test_parameter_loads_as_plain_tensor():
    p = Parameter(np.ones([2], "float32"), name="linear_3.w_0")
    got = paddle.load(io.BytesIO(_save_bytes({"weight": p})))["weight"]
    assert type(got) is Tensor and got.name == "linear_3.w_0"
    assert got.stop_gradient and not got.persistable


def test_nested_structures_and_numpy():
    obj = {
        "a": [paddle.to_tensor([1.0]), (2, "x")],
        "n": np.arange(2),
        "j": jnp.ones(2, jnp.float32),
    }
    got = paddle.load(io.BytesIO(_save_bytes(obj)))
    assert isinstance(got["a"][0], Tensor) and got["a"][1] == (2, "x")
    # Paddle: with (name, ndarray) tuples present, bare arrays stay numpy.
    assert isinstance(got["n"], np.ndarray) and isinstance(got["j"], np.ndarray)
    only_np = paddle.load(
        io.BytesIO(_save_bytes({"n": np.arange(2), "j": jnp.ones(2, jnp.float32)}))
    )
    assert isinstance(only_np["n"], Tensor) and only_np["n"].dtype == paddle.int64
    assert isinstance(only_np["j"], Tensor) and only_np["j"].dtype == paddle.float32


def test_bytesio_holds_several_objects():
    buf = io.BytesIO()
    paddle.save({"w": paddle.to_tensor([1.0])}, buf)
    paddle.save(paddle.to_tensor([2, 3]), buf)
    buf.seek(0)
    assert float(paddle.load(buf)["w"]) == 1.0
    assert paddle.load(buf).tolist() == [2, 3]


def test_paths(tmp_path):
    t = paddle.to_tensor([1.0, 2.0])
    deep = tmp_path / "a" / "b" / "x.pdtensor"
    paddle.save(t, str(deep))  # parent directories are created, as in Paddle
    assert paddle.load(str(deep)).tolist() == [1.0, 2.0]
    paddle.save(t, deep)  # os.PathLike: an extension (Paddle takes str only)
    assert paddle.load(deep).tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="filename is empty"):
        paddle.save(t, str(tmp_path) + "/")
    with pytest.raises(ValueError, match="not exists"):
        paddle.load(str(tmp_path / "missing.pd"))
    with pytest.raises(ValueError):
        paddle.load(str(tmp_path))
    with open(tmp_path / "f.pd", "wb") as f, pytest.raises(ValueError, match="BytesIO"):
        paddle.save(t, f)


ERRORS = [
    (lambda: paddle.save(paddle.to_tensor([1.0]), io.BytesIO(), protocol=5), ValueError),
    (lambda: paddle.save({"w": paddle.to_tensor([1.0])}, io.BytesIO(), protocol=1), ValueError),
    (lambda: paddle.save([1], io.BytesIO(), protocol="4"), ValueError),
    (lambda: paddle.save([1], io.BytesIO(), foo=1), ValueError),
    (lambda: paddle.save([b"bytes"], io.BytesIO()), NotImplementedError),
    (lambda: paddle.save({"w": 1}, io.BytesIO(), use_binary_format=True), NotImplementedError),
    (lambda: paddle.load(io.BytesIO(b"x"), foo=1), ValueError),
    (lambda: paddle.load(io.BytesIO(b"not a pickle at all")), ValueError),
    (lambda: paddle.load(io.BytesIO(b"")), EOFError),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_match_paddle(i):
    fn, exc = ERRORS[i]
    with pytest.raises(exc):
        fn()


def test_layer_is_refused():
    layer_cls = getattr(paddle.nn, "Layer", None)
    if layer_cls is None:
        pytest.skip("paddle.nn.Layer not available yet")
    with pytest.raises(ValueError, match="nn.Layer"):
        paddle.save([layer_cls()], io.BytesIO())


def test_empty_state_dict_warns():
    with pytest.warns(UserWarning, match="empty"):
        paddle.save({}, io.BytesIO())


def test_pickle_protocol_config_is_deprecated_alias():
    buf = io.BytesIO()
    with pytest.warns(UserWarning, match="deprecated"):
        paddle.save(paddle.to_tensor([1.0]), buf, pickle_protocol=2)
    assert buf.getvalue()[:2] == b"\x80\x02"


# -- plain pickle / copy of a Tensor (Tensor.__reduce_ex__) ---------------------------------------
def test_plain_pickle_round_trip():
    t = paddle.to_tensor(np.array([1.5, 2.5], "float32"), dtype="bfloat16", stop_gradient=False)
    got = pickle.loads(pickle.dumps(t))
    assert type(got) is Tensor and got.dtype == paddle.bfloat16 and not got.stop_gradient
    np.testing.assert_array_equal(np.asarray(got._value), np.asarray(t._value))
    c = copy.copy(paddle.to_tensor([3, 4]))
    assert c.tolist() == [3, 4] and c.stop_gradient
    assert paddle.load(io.BytesIO(pickle.dumps({"t": t})))["t"].dtype == paddle.bfloat16


# -- restricted unpickler -------------------------------------------------------------------------
class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_malicious_pickle_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pdparams"
    path.write_bytes(pickle.dumps({"w": np.ones(2), "x": _Evil(marker)}, protocol=2))
    with pytest.raises(pickle.UnpicklingError, match="refused.*system"):
        paddle.load(str(path))
    assert not marker.exists()
    for payload in (
        pickle.dumps(collections.Counter("ab")),  # any other class
        b"cbuiltins\neval\n(S'__import__(\"os\")'\ntR.",  # eval of code
        b"cbuiltins\ngetattr\n(cbuiltins\nobject\nS'x'\ntR.",
    ):
        with pytest.raises(pickle.UnpicklingError, match="refused"):
            paddle.load(io.BytesIO(payload))


def test_dense_tensor_eval_form_is_accepted():
    # Paddle pickles a core.DenseTensor as eval('data', {'data': ndarray}).
    class _Dense:
        def __reduce__(self):
            return (eval, ("data", {"data": np.arange(3)}))

    got = paddle.load(io.BytesIO(pickle.dumps([_Dense()], protocol=2)))
    assert isinstance(got[0], Tensor) and got[0].tolist() == [0, 1, 2]


# -- atomic writes ----------------------------------------------------------------------------------
class _Unpicklable:
    def __reduce__(self):
        raise RuntimeError("cannot pickle this")


def test_failed_write_keeps_old_file(tmp_path, monkeypatch):
    path = tmp_path / "model.pdparams"
    paddle.save({"w": paddle.to_tensor([1.0])}, str(path))
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match="cannot pickle"):
        paddle.save([np.ones(1000), _Unpicklable()], str(path))
    assert path.read_bytes() == before
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk")))
    with pytest.raises(OSError, match="disk"):
        paddle.save({"w": paddle.to_tensor([2.0])}, str(path))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.pdparams"]  # no temp files


def test_written_file_has_umask_permissions(tmp_path):
    path = tmp_path / "m.pd"
    paddle.save([1], str(path))
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


# -- big arrays under protocol 2/3 ------------------------------------------------------------------
def test_big_arrays_are_split_under_protocol_2(monkeypatch):
    monkeypatch.setattr(serialization, "_MAX_SLICE_BYTES", 16)
    w = paddle.to_tensor(np.arange(10, dtype="float32").reshape(2, 5))
    data = _save_bytes({"w": w, "b": paddle.to_tensor([1.0])}, protocol=2)
    raw = pickle.loads(data)
    assert raw["UnpackBigParamInfor@@"]["w"]["slices"] == ["w@@.0", "w@@.1", "w@@.2"]
    got = paddle.load(io.BytesIO(data))
    assert sorted(got) == ["b", "w"] and got["w"].shape == [2, 5]
    np.testing.assert_array_equal(got["w"].numpy(), w.numpy())
    assert got["w"].name == w.name
    assert b"UnpackBigParamInfor" not in _save_bytes({"w": w}, protocol=4)


# -- other formats ------------------------------------------------------------------------------------
def test_binary_format_round_trip():
    for arr in (np.arange(6, dtype="int64").reshape(2, 3), np.array(1.5, "float32")):
        t = paddle.to_tensor(arr)
        got = paddle.load(io.BytesIO(_save_bytes(t, use_binary_format=True)))
        assert got.dtype == t.dtype and got.shape == t.shape
        np.testing.assert_array_equal(got.numpy(), arr)


def test_safetensors_round_trip(tmp_path):
    sd = {
        "w": paddle.to_tensor(np.ones([2, 2], "float32")),
        "b": paddle.to_tensor(np.array([1.5], "float32"), dtype="bfloat16"),
    }
    path = str(tmp_path / "m.safetensors")
    paddle.save(sd, path, safetensors=True)
    got = paddle.load(path, safetensors=True)
    assert got["w"].tolist() == [[1.0, 1.0], [1.0, 1.0]] and got["b"].dtype == paddle.bfloat16
    assert paddle.load(path, safetensors=True, return_numpy=True)["b"].dtype == np.uint16


def test_async_save(tmp_path):
    import paddle.framework.io

    t = paddle.to_tensor([1.0, 2.0])
    paddle.framework.io.async_save({"w": t}, str(tmp_path / "a.pdparams"))
    t.set_value(np.array([5.0, 6.0], "float32"))  # after the call: not in the file
    paddle.framework.io.clear_async_save_task_queue()
    assert paddle.load(str(tmp_path / "a.pdparams"))["w"].tolist() == [1.0, 2.0]
