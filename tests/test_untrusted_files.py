"""Untrusted files: paddle.load's pickles, Paddle's binary tensors, safetensors and saved-model
manifests never run code, mutate the process, or allocate memory the file does not carry; each
bad file is a clear error naming it (issue 9's malicious-file corpus)."""

from __future__ import annotations

import io
import json
import os
import pickle
import resource
import struct
import subprocess
import sys

import numpy as np
import pytest

import paddle
from paddle_compat._io import _unpickler, serialization


def _rss_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _p(*ops: bytes) -> bytes:
    return b"\x80\x04" + b"".join(ops) + b"."


def _glob(module: str, name: str) -> bytes:
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def _tensor_pickle() -> bytes:
    return pickle.dumps(paddle.to_tensor([1.0]), 4)


_BIG_STR = b"\x8d" + struct.pack("<Q", 1 << 20) + b"a" * (1 << 20)  # BINUNICODE8, 1 MiB

# (name, pickle bytes, exception type, message pattern)
PICKLES = [
    ("bytearray of a size", _p(_glob("builtins", "bytearray"), b"J\x00\x94\x35\x77\x85R"),
     pickle.UnpicklingError, r"bytearray\(int\)"),
    ("list of a range", _p(_glob("builtins", "list"), _glob("builtins", "range"),
                           b"J\x80\xc3\xc9\x01\x85R\x85R"),
     pickle.UnpicklingError, "builtins.range"),
    ("BUILD on a global", _p(_glob("builtins", "eval"), b"N}\x8c\x0c__defaults__(K\x07t\x85s\x86b"),
     pickle.UnpicklingError, "setting the state"),
    ("BUILD on a Tensor", _tensor_pickle()[:-1] + b"N}\x8c\x06_value\x8c\x01xs\x86b.",
     pickle.UnpicklingError, "setting the state of a Tensor"),
    ("returns a global", _p(_glob("builtins", "list")), pickle.UnpicklingError, "callable"),
    ("call of numpy.ndarray", _p(_glob("numpy", "ndarray"), b"J\x00\x00\x00\x10\x85\x85R"),
     pickle.UnpicklingError, "numpy.ndarray"),
    ("_reconstruct of a shape", _p(_glob("numpy.core.multiarray", "_reconstruct"),
                                   _glob("numpy", "ndarray"), b"J\x00\x00\x00\x10\x85C\x01b\x87R"),
     pickle.UnpicklingError, "_reconstruct"),
    ("codec other than latin1", _p(_glob("_codecs", "encode"), b"\x8c\x03abc\x8c\x03hex\x86R"),
     pickle.UnpicklingError, "latin1"),
    ("object array", pickle.dumps(np.array([1, "a"], dtype=object), 4),
     pickle.UnpicklingError, "object"),
    ("NEWOBJ", _p(_glob("collections", "OrderedDict"), b")\x81"), pickle.UnpicklingError,
     "NEWOBJ"),
    ("BYTEARRAY8 of 2**40", b"\x80\x05\x96" + struct.pack("<Q", 2**40) + b"abc.", ValueError,
     "claims 1099511627776 bytes"),
    ("BINBYTES8 of 2**40", b"\x80\x04\x8e" + struct.pack("<Q", 2**40) + b"abc.", ValueError,
     "claims 1099511627776 bytes"),
    ("100k-deep nesting", b"\x80\x04" + b"]" * 100_000 + b"a" * 99_999 + b".", ValueError,
     "nests containers more than 512"),
    ("memo reuse amplification", b"\x80\x04" + _BIG_STR + b"\x94" + _glob("builtins", "list")
     + b"\x94]\x94(" + b"h\x01h\x00\x85R" * 40 + b"e.", ValueError, "more memory than it carries"),
    ("empty file", b"", ValueError, "it is empty"),
    ("truncated", pickle.dumps({"w": np.ones(64)}, 4)[:-40], ValueError, "can not parse"),
]  # fmt: skip


@pytest.mark.parametrize("name,data,exc,pattern", PICKLES, ids=[c[0] for c in PICKLES])
def test_bad_pickle_is_a_clear_error(tmp_path, name, data, exc, pattern):
    path = tmp_path / "bad.pdparams"
    path.write_bytes(data)
    before = _rss_peak_mb()
    with pytest.raises(exc, match=pattern) as info:
        paddle.load(str(path))
    assert str(path) in str(info.value)  # names the file
    with pytest.raises(exc, match=pattern):
        paddle.load(io.BytesIO(data))
    assert _rss_peak_mb() - before < 200  # nothing close to what the file claims
    assert _unpickler._eval_dense_tensor.__defaults__ == (None,)  # nothing was rewritten


def test_empty_file_is_also_paddles_eof_error(tmp_path):
    (tmp_path / "e.pd").write_bytes(b"")
    with pytest.raises(EOFError):
        paddle.load(str(tmp_path / "e.pd"))


@pytest.mark.parametrize("protocol", [2, 3, 4])
def test_what_paddle_save_writes_still_loads(protocol):
    obj = {
        "w": paddle.to_tensor([[1.0, 2.0]]),
        "opt": {"lr": 0.1, "steps": [1, 2], "names": ("a", "b"), "s": {1, 2}},
        "n": np.float32(3.5),
        "arr": np.arange(6).reshape(2, 3),
    }
    buf = io.BytesIO()
    paddle.save(obj, buf, protocol=protocol)
    buf.seek(0)
    got = paddle.load(buf)
    assert got["w"].tolist() == [[1.0, 2.0]] and got["opt"]["s"] == {1, 2}
    assert got["arr"].tolist() == [[0, 1, 2], [3, 4, 5]] and got["n"] == np.float32(3.5)


def test_plain_pickled_tensor_loads():
    t = paddle.to_tensor([1.5, 2.5])
    got = paddle.load(io.BytesIO(pickle.dumps(t, 4)))
    assert got.tolist() == [1.5, 2.5]


# -- Paddle's binary tensor format ---------------------------------------------------------------
def _binary(dims: list[int], data: bytes = b"abcd") -> bytes:
    def varint(n):
        out = bytearray()
        while True:
            b, n = n & 0x7F, n >> 7
            out.append(b | (0x80 if n else 0))
            if not n:
                return bytes(out)

    desc = b"\x08\x05" + b"".join(b"\x10" + varint(d) for d in dims)  # float32
    return struct.pack("<IQ", 0, 0) + struct.pack("<Ii", 0, len(desc)) + desc + data


@pytest.mark.parametrize("dims", [[2**40], [2**32, 2**32], [1 << 20, 1 << 20]])
def test_binary_header_larger_than_the_file(tmp_path, dims):
    path = tmp_path / "t.pdtensor"
    path.write_bytes(_binary(dims))
    before = _rss_peak_mb()
    with pytest.raises(ValueError, match=f"{path}.*bytes expected, 4 left"):
        paddle.load(str(path))
    assert _rss_peak_mb() - before < 200


# -- safetensors ----------------------------------------------------------------------------------
def _st(header, data: bytes = b"") -> bytes:
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    return struct.pack("<Q", len(h)) + h + data


SAFETENSORS = [
    ("JSON list header", _st([1, 2]), "invalid"),
    ("negative offsets", _st({"a": {"dtype": "F32", "shape": [2], "data_offsets": [-16, -8]}},
                             b"\0" * 8), "-16"),
    ("offsets past the end", _st({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 800]}},
                                 b"\0" * 8), "offset"),
    ("shape not matching bytes", _st({"a": {"dtype": "F32", "shape": [4],
                                            "data_offsets": [0, 8]}}, b"\0" * 8), "shape"),
    ("unknown dtype", _st({"a": {"dtype": "Q9", "shape": [2], "data_offsets": [0, 8]}},
                          b"\0" * 8), "Q9"),
    ("header of 2**40 bytes", struct.pack("<Q", 2**40) + b"{}", "header too large"),
    ("empty", b"", "header too small"),
]  # fmt: skip


@pytest.mark.parametrize("name,data,pattern", SAFETENSORS, ids=[c[0] for c in SAFETENSORS])
def test_bad_safetensors_is_a_clear_error(tmp_path, name, data, pattern):
    path = tmp_path / "m.safetensors"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=f"safetensors file:{path}.*{pattern}"):
        paddle.load(str(path), safetensors=True)
    with pytest.raises(ValueError, match=f"BytesIO.*{pattern}"):
        paddle.load(io.BytesIO(data), safetensors=True)


def test_safetensors_every_dtype_round_trips(tmp_path):
    sd = {
        d: paddle.to_tensor([1.0, -2.0]).astype(d)
        for d in ("float32", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "int8",
                  "uint8", "int32", "int64", "bool", "float64", "complex64")
    }  # fmt: skip
    path = str(tmp_path / "m.safetensors")
    paddle.save(sd, path, safetensors=True)
    for src in (path, io.BytesIO(open(path, "rb").read())):
        got = paddle.load(src, safetensors=True)
        assert list(got) == sorted(sd)  # safe_open's order, as Paddle's
        for k, v in sd.items():
            assert got[k].dtype == v.dtype
            np.testing.assert_array_equal(got[k].astype("float64"), v.astype("float64"))


# -- saved-model manifests --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saved_model(tmp_path_factory):
    d = tmp_path_factory.mktemp("model")
    net = paddle.nn.Linear(3, 2)
    paddle.jit.save(net, str(d / "m"), input_spec=[paddle.static.InputSpec([None, 3], "float32")])
    return d


def _copy_model(src, dst, edit=None):
    dst.mkdir()
    for name in os.listdir(src):
        (dst / name).write_bytes((src / name).read_bytes())
    if edit:
        m = json.loads((dst / "m.json").read_text())
        edit(m)
        (dst / "m.json").write_text(json.dumps(m))
    return dst


def _outside_params(m):
    m["params_file"] = "../outside.pdiparams"


MANIFESTS = [
    ("params file outside", _outside_params, "must be a file name in the model's directory"),
    ("absolute program path", lambda m: m.update(program_file="/etc/passwd"), "must be a file name"),
    ("missing inputs", lambda m: m.pop("inputs"), "has no 'inputs' entry"),
    ("unknown dtype", lambda m: m["params"][0].update(dtype="object"), "unknown dtype"),
    ("malformed shape", lambda m: m["inputs"][0].update(shape="abc"), "malformed manifest"),
]  # fmt: skip


@pytest.mark.parametrize("name,edit,pattern", MANIFESTS, ids=[c[0] for c in MANIFESTS])
def test_bad_manifest_is_one_clear_error(saved_model, tmp_path, name, edit, pattern):
    d = _copy_model(saved_model, tmp_path / "copy", edit)
    with pytest.raises(ValueError, match=pattern) as info:
        paddle.jit.load(str(d / "m"))
    assert "m.json" in str(info.value)


def test_link_leading_out_of_the_model_dir_is_refused(saved_model, tmp_path):
    d = _copy_model(saved_model, tmp_path / "copy")
    (tmp_path / "elsewhere.pdiparams").write_bytes((d / "m.pdiparams").read_bytes())
    os.unlink(d / "m.pdiparams")
    os.symlink(tmp_path / "elsewhere.pdiparams", d / "m.pdiparams")
    with pytest.raises(ValueError, match="link that leads out"):
        paddle.jit.load(str(d / "m"))


def test_changed_weight_is_detected(saved_model, tmp_path):
    d = _copy_model(saved_model, tmp_path / "copy")
    data = bytearray((d / "m.pdiparams").read_bytes())
    data[-1] ^= 0x40  # one bit of the last weight
    (d / "m.pdiparams").write_bytes(bytes(data))
    with pytest.raises(ValueError, match="sha256 differs"):
        paddle.jit.load(str(d / "m"))


def test_corrupted_program_is_a_clear_error(saved_model, tmp_path):
    d = _copy_model(saved_model, tmp_path / "copy")
    junk = b"\x00garbage" * 64
    (d / "m.stablehlo").write_bytes(junk)
    m = json.loads((d / "m.json").read_text())
    m["program_sha256"] = __import__("hashlib").sha256(junk).hexdigest()  # hash of the junk
    (d / "m.json").write_text(json.dumps(m))
    layer = paddle.jit.load(str(d / "m"))  # deserialized on first use
    with pytest.raises(ValueError, match="not a program written by paddle.jit.save"):
        layer(paddle.ones([1, 3]))


# -- temp files of killed saves ------------------------------------------------------------------
def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_next_save_removes_temp_files_of_killed_saves(tmp_path):
    target = tmp_path / "model.pdparams"
    host = serialization._HOST
    stale = tmp_path / f".model.pdparams.{host}.{_dead_pid()}.0123456789ab.tmp"
    live = tmp_path / f".model.pdparams.{host}.{os.getppid()}.0123456789ab.tmp"
    other_host = tmp_path / f".model.pdparams.{host}x.{_dead_pid()}.0123456789ab.tmp"
    mine = tmp_path / f".model.pdparams.{host}.{os.getpid()}.0123456789ab.tmp"
    in_progress = tmp_path / f".model.pdparams.{host}.{os.getpid()}.ba9876543210.tmp"
    other_target = tmp_path / f".other.pdparams.{host}.{_dead_pid()}.0123456789ab.tmp"
    for f in (stale, live, other_host, mine, in_progress, other_target):
        f.write_bytes(b"x" * 100)
    serialization._writing.add(str(in_progress))
    try:
        paddle.save({"w": paddle.to_tensor([1.0])}, str(target))
    finally:
        serialization._writing.discard(str(in_progress))
    left = {f.name for f in tmp_path.iterdir()}
    assert left == {"model.pdparams", live.name, other_host.name, in_progress.name,
                    other_target.name}  # fmt: skip
    assert paddle.load(str(target))["w"].tolist() == [1.0]


def test_program_calling_back_into_python_is_refused(saved_model, tmp_path):
    import hashlib

    import jax
    import jax.numpy as jnp
    from jax import export

    target = "xla_ffi_python_cpu_callback"

    def f(x):
        return jax.ffi.ffi_call(target, jax.ShapeDtypeStruct(x.shape, x.dtype))(x)

    exp = export.export(
        jax.jit(f), disabled_checks=[export.DisabledSafetyCheck.custom_call(target)]
    )
    program = bytes(exp(jax.ShapeDtypeStruct((2,), jnp.float32)).serialize())
    d = _copy_model(saved_model, tmp_path / "copy")
    (d / "m.stablehlo").write_bytes(program)
    m = json.loads((d / "m.json").read_text())
    m["program_sha256"] = hashlib.sha256(program).hexdigest()
    (d / "m.json").write_text(json.dumps(m))
    with pytest.raises(ValueError, match="calls back into the host"):
        paddle.jit.load(str(d / "m"))(paddle.ones([1, 3]))
