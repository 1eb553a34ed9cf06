"""paddle.jit.save / paddle.jit.load: the artifact (files, manifest, .pdiparams in Paddle's
binary tensor format), TranslatedLayer (values, symbolic batch, names, gradients), input specs
and the errors."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from paddle.static import InputSpec

import paddle
from paddle_compat._core.trace_state import DataDependentError
from paddle_compat._io._tensor_binary import read_dense_tensor

R = np.random.default_rng(0)


class MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(4, 8)
        self.bn = paddle.nn.BatchNorm1D(8)
        self.drop = paddle.nn.Dropout(0.5)
        self.fc2 = paddle.nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(self.drop(paddle.nn.functional.relu(self.bn(self.fc1(x)))))


class Two(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 3)

    def forward(self, inp, y):
        a = self.fc(inp)
        return a, a + y.sum()


class Enc(paddle.nn.Layer):
    """ids + mask sharing batch and sequence dims; CLS slice, reshape(-1)."""

    def __init__(self):
        super().__init__()
        self.emb = paddle.nn.Embedding(50, 8)
        self.q = paddle.nn.Linear(8, 8)
        self.head = paddle.nn.Linear(8, 2)

    def forward(self, ids, mask):
        h = self.emb(ids)
        att = paddle.matmul(self.q(h), h, transpose_y=True) / 3.0
        att = att + (1.0 - mask.unsqueeze(1).astype("float32")) * -1e4
        h = paddle.matmul(paddle.nn.functional.softmax(att, -1), h)
        return self.head(h[:, 0]), h.reshape([-1, 8]).mean(0)


class Cross(paddle.nn.Layer):
    """Two inputs whose sequence dims are independent (only the batch is shared)."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 4)

    def forward(self, q, k):
        return paddle.matmul(self.fc(q), k, transpose_y=True)


def _randn(*shape):
    return R.standard_normal(shape).astype("float32")


@pytest.fixture(scope="module")
def saved_mlp(tmp_path_factory):
    m = MLP()
    m.bn._mean.set_value(_randn(8))
    m.bn._variance.set_value(np.abs(_randn(8)) + 0.5)
    prefix = str(tmp_path_factory.mktemp("jit") / "sub" / "mlp")
    paddle.jit.save(m, prefix, input_spec=[InputSpec([None, 4], "float32", "x")])
    return m, prefix


def test_files_manifest_and_params(saved_mlp):
    m, prefix = saved_mlp
    d = os.path.dirname(prefix)
    assert sorted(os.listdir(d)) == ["mlp.json", "mlp.pdiparams", "mlp.stablehlo"]  # no temps
    assert m.training  # saved in eval mode, the layer's mode restored
    man = json.load(open(prefix + ".json"))
    assert man["format"] == "paddle_compat.saved_model" and man["format_version"] == 1
    assert man["inputs"] == [
        {
            "name": "x",
            "shape": [-1, 4],
            "dtype": "float32",
            "dims": [man["inputs"][0]["dims"][0], 4],
        }
    ]
    assert [o["name"] for o in man["outputs"]] == ["fetch_name_0"]
    assert man["outputs"][0]["shape"] == [-1, 3]
    # parameters: sorted by unique name as Paddle's .pdiparams, in Paddle's binary format
    names = [p["name"] for p in man["params"]]
    assert names == sorted(names) and len(names) == 8
    by_name = {t.name: t for t in list(m.parameters()) + list(m.buffers())}
    with open(prefix + ".pdiparams", "rb") as f:
        for p in man["params"]:
            arr, _ = read_dense_tensor(f)
            np.testing.assert_array_equal(arr, by_name[p["name"]].numpy())
            assert m.state_dict()[p["key"]] is by_name[p["name"]]
        assert f.read() == b""


def test_translated_layer_matches_eager_any_batch(saved_mlp):
    m, prefix = saved_mlp
    tl = paddle.jit.load(prefix)
    assert isinstance(tl, paddle.jit.TranslatedLayer) and isinstance(tl, paddle.nn.Layer)
    assert not tl.training
    m.eval()
    try:
        for b in (1, 64):  # one artifact, symbolic batch
            x = _randn(b, 4)
            out = tl(paddle.to_tensor(x))
            np.testing.assert_allclose(
                out.numpy(), m(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-6
            )
            assert out.shape == [b, 3]
        np.testing.assert_allclose(tl(x).numpy(), out.numpy())  # numpy input
    finally:
        m.train()
    keys = list(tl.state_dict())
    assert keys == [f"param_{i}" for i in range(8)]
    names = [p.name for p in tl.parameters()]
    man = json.load(open(prefix + ".json"))
    assert [n.rsplit("_", 1)[0] for n in names] == [p["name"] for p in man["params"]]
    assert "stablehlo" in tl.program() or "func.func" in tl.program()


def test_translated_layer_gradients(saved_mlp):
    m, prefix = saved_mlp
    tl = paddle.jit.load(prefix)
    x = paddle.to_tensor(_randn(5, 4), stop_gradient=False)
    out = tl(x)
    assert not out.stop_gradient
    (out * out).sum().backward()
    m.eval()
    try:
        x2 = paddle.to_tensor(x.numpy(), stop_gradient=False)
        ref = m(x2)
        (ref * ref).sum().backward()
    finally:
        m.train()
    np.testing.assert_allclose(x.grad.numpy(), x2.grad.numpy(), rtol=1e-4, atol=1e-6)
    man = json.load(open(prefix + ".json"))
    i = [p["key"] for p in man["params"]].index("fc1.weight")
    np.testing.assert_allclose(
        tl.parameters()[i].grad.numpy(), m.fc1.weight.grad.numpy(), rtol=1e-4, atol=1e-6
    )
    m.clear_gradients()
    with paddle.no_grad():
        assert tl(x).stop_gradient


def test_multi_output_names_and_output_spec(tmp_path):
    m = Two()
    spec = [InputSpec([None, 4]), InputSpec([None, 4], "float32", "yy")]
    paddle.jit.save(m, str(tmp_path / "two"), input_spec=spec)
    tl = paddle.jit.load(str(tmp_path / "two"))
    assert tl.input_names == ["inp", "yy"]  # the forward's arg name, else the spec's name
    assert tl.output_names == ["fetch_name_0", "fetch_name_1"]
    x = paddle.to_tensor(_randn(2, 4))
    out = tl(x, x)
    assert isinstance(out, list) and len(out) == 2
    ref = m(x, x)
    for a, b in zip(out, ref):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tl(inp=x, yy=x)[1].numpy(), ref[1].numpy(), rtol=1e-5, atol=1e-6)
    paddle.jit.save(m, str(tmp_path / "one"), input_spec=spec, output_spec=[1])
    t1 = paddle.jit.load(str(tmp_path / "one"))
    np.testing.assert_allclose(t1(x, x).numpy(), ref[1].numpy(), rtol=1e-5, atol=1e-6)


def test_input_spec_from_to_static(tmp_path):
    m = paddle.jit.to_static(Two())
    x = paddle.to_tensor(_randn(2, 4))
    with pytest.raises(ValueError, match="No valid transformed program"):
        paddle.jit.save(Two(), str(tmp_path / "none"))
    m(x, x)  # without an input_spec: the traced call's names, every dim that exports dynamic
    paddle.jit.save(m, str(tmp_path / "last"))
    man = json.load(open(tmp_path / "last.json"))
    assert [(i["name"], i["shape"]) for i in man["inputs"]] == [
        ("_jst.0.inp.0", [-1, 4]),  # fc needs 4 features
        ("_jst.1.y.0", [-1, -1]),  # only y.sum() is taken
    ]

    @paddle.jit.to_static(input_spec=[InputSpec([None, 4], "float32", "a")])
    def f(a):
        return a * 2.5 + 1

    paddle.jit.save(f, str(tmp_path / "fn"))
    assert not os.path.exists(tmp_path / "fn.pdiparams")  # no parameters: no params file
    tf = paddle.jit.load(str(tmp_path / "fn"))
    np.testing.assert_allclose(tf(x).numpy(), x.numpy() * 2.5 + 1, rtol=1e-6)
    assert tf.parameters() == []


def test_dynamic_dims_shared_and_independent(tmp_path):
    enc = Enc()
    spec = [InputSpec([None, None], "int64", "ids"), InputSpec([None, None], "int64", "mask")]
    paddle.jit.save(enc, str(tmp_path / "enc"), input_spec=spec)
    man = json.load(open(tmp_path / "enc.json"))
    assert man["inputs"][0]["dims"] == man["inputs"][1]["dims"]  # the mask needs equal dims
    tl = paddle.jit.load(str(tmp_path / "enc"))
    enc.eval()
    for b, s in ((1, 5), (3, 7)):
        ids = paddle.to_tensor(R.integers(0, 50, (b, s)))
        mask = np.ones((b, s), "int64")
        mask[:, -2:] = 0
        mask = paddle.to_tensor(mask)
        for got, ref in zip(tl(ids, mask), enc(ids, mask)):
            np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="input 'mask'"):
        tl(paddle.ones([2, 3], "int64"), paddle.ones([2, 4], "int64"))
    with pytest.raises(ValueError, match="dtype float32.*int64"):
        tl(paddle.ones([2, 3], "float32"), paddle.ones([2, 3], "int64"))
    cross = Cross()
    paddle.jit.save(
        cross,
        str(tmp_path / "cross"),
        input_spec=[InputSpec([None, None, 4]), InputSpec([None, None, 4])],
    )
    tc = paddle.jit.load(str(tmp_path / "cross"))
    q, k = paddle.to_tensor(_randn(2, 3, 4)), paddle.to_tensor(_randn(2, 5, 4))
    np.testing.assert_allclose(tc(q, k).numpy(), cross(q, k).numpy(), rtol=1e-5, atol=1e-6)


def test_errors(tmp_path):
    spec = [InputSpec([None, 4])]
    with pytest.raises(ValueError, match=r"additional config \(foo\)"):
        paddle.jit.save(MLP(), str(tmp_path / "a"), input_spec=spec, foo=1)
    with pytest.raises(ValueError, match="file_prefix is empty"):
        paddle.jit.save(MLP(), str(tmp_path) + "/", input_spec=spec)

    class Ctl(paddle.nn.Layer):
        def forward(self, x):
            return x if x.sum() > 0 else -x

    with pytest.raises(DataDependentError, match="paddle.jit.save"):
        paddle.jit.save(Ctl(), str(tmp_path / "ctl"), input_spec=spec)

    class NeedsInt(paddle.nn.Layer):
        def forward(self, x):
            return paddle.zeros([x.shape[0], 2]) + x.sum()

    with pytest.raises(ValueError, match="dynamic dimension"):
        paddle.jit.save(NeedsInt(), str(tmp_path / "ni"), input_spec=spec)
    paddle.jit.save(NeedsInt(), str(tmp_path / "ni"), input_spec=[InputSpec([3, 4])])
    assert paddle.jit.load(str(tmp_path / "ni"))(paddle.ones([3, 4])).shape == [3, 2]
    with pytest.raises(ValueError, match="does not exist"):
        paddle.jit.load(str(tmp_path / "missing"))
    # a PIR program written by real Paddle is run (tests/test_paddle_programs.py); a malformed
    # one is refused with a clear message
    (tmp_path / "pir.json").write_text('{"base_code": {"magic": "pir", "version": 4}}')
    with pytest.raises(RuntimeError, match="malformed PIR program"):
        paddle.jit.load(str(tmp_path / "pir"))
    # a params file from another save is detected
    paddle.jit.save(Two(), str(tmp_path / "two"), input_spec=[InputSpec([2, 4])] * 2)
    paddle.jit.save(MLP(), str(tmp_path / "mlp"), input_spec=spec)
    os.replace(tmp_path / "two.pdiparams", tmp_path / "mlp.pdiparams")
    with pytest.raises(ValueError, match="partial or mixed save"):
        paddle.jit.load(str(tmp_path / "mlp"))


def test_scalar_cache_does_not_leak_between_exports(tmp_path):
    """Two exports of a forward with a fresh Python scalar (the op registry's scalar cache
    must not hand a tracer from the first export to the second)."""

    class Scale(paddle.nn.Layer):
        def forward(self, x):
            return x * 1.2345

    for i in range(2):
        paddle.jit.save(Scale(), str(tmp_path / f"s{i}"), input_spec=[InputSpec([None, None])])
    out = paddle.jit.load(str(tmp_path / "s1"))(paddle.ones([2, 3]))
    np.testing.assert_allclose(out.numpy(), np.full((2, 3), 1.2345, "float32"))
    np.testing.assert_allclose((paddle.ones([2]) * 1.2345).numpy(), [1.2345, 1.2345])
