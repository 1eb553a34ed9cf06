"""jit.save without input_spec (the official guide's flow: to_static, a few calls, save): which
dims of the saved program are dynamic, batch sizes 1/7/64 from one artifact, fine-tuning a
loaded layer (numbers from Paddle 3.3.1), and damaged or mismatched artifacts as clear errors."""

from __future__ import annotations

import hashlib
import json
import shutil

import numpy as np
import pytest
from paddle.static import InputSpec

import paddle

F = paddle.nn.functional
R = np.random.default_rng(0)


class MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.bn, self.fc2 = (
            paddle.nn.Linear(4, 8),
            paddle.nn.BatchNorm1D(8),
            paddle.nn.Linear(8, 3),
        )

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


class CNN(paddle.nn.Layer):  # flatten + Linear: the spatial size is fixed
    def __init__(self):
        super().__init__()
        self.conv, self.fc = paddle.nn.Conv2D(3, 4, 3, padding=1), paddle.nn.Linear(64, 5)

    def forward(self, x):
        return self.fc(F.max_pool2d(F.relu(self.conv(x)), 2).flatten(1))


class GAP(paddle.nn.Layer):  # global mean: any spatial size
    def __init__(self):
        super().__init__()
        self.conv, self.fc = paddle.nn.Conv2D(3, 4, 3, padding=1), paddle.nn.Linear(4, 5)

    def forward(self, x):
        return self.fc(self.conv(x).mean([2, 3]))


class Strided(paddle.nn.Layer):  # a 1x1 stride-2 conv: JAX gathers for a symbolic shape
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 4, 1, stride=2, bias_attr=False)
        self.fc = paddle.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(self.conv(x).mean([2, 3]))


class Enc(paddle.nn.Layer):  # ids + mask share batch and length; mean over both
    def __init__(self):
        super().__init__()
        self.emb, self.ln = paddle.nn.Embedding(50, 8), paddle.nn.LayerNorm(8)
        self.head = paddle.nn.Linear(8, 2)

    def forward(self, ids, mask):
        h = self.ln(self.emb(ids))
        att = paddle.matmul(h, h, transpose_y=True) / 3.0
        att = att + (1.0 - mask.unsqueeze(1).astype("float32")) * -1e4
        h = paddle.matmul(F.softmax(att, -1), h)
        return self.head(h[:, 0]), h.reshape([-1, 8]).mean(0)


class LSTMNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm, self.fc = paddle.nn.LSTM(4, 6), paddle.nn.Linear(6, 2)

    def forward(self, x):
        return self.fc(self.lstm(x)[0][:, -1])


class ShapeBranch(paddle.nn.Layer):  # Python branch on a size: that size stays fixed
    def forward(self, x):
        return x * 2.0 if x.shape[-1] == 4 else x * 3.0


class BatchOneBranch(paddle.nn.Layer):  # a branch for batch 1 that changes the numbers
    def forward(self, x):
        return x.sum(0, keepdim=True) * 5.0 if x.shape[0] == 1 else x


def _arg(shape, dtype):
    if dtype == "int64":
        return paddle.to_tensor(R.integers(0, 50, shape))
    return paddle.to_tensor(R.standard_normal(shape).astype(dtype))


# model, shapes of the calls before saving, dtypes, saved input shapes, shapes run from the
# artifact. Real Paddle 3.3.1 on the same flow: takes every shape below, refuses MLP [7, 5],
# CNN [7, 3, 6, 6] and LSTM [7, 3, 4] (sizes its program needs), and runs ShapeBranch on
# [7, 5] with the branch traced for 4 (x * 2, where eager gives x * 3); here that is an error.
FLOWS = [
    ("mlp", MLP, [[[2, 4]], [[5, 4]]], ["float32"], [[-1, 4]], [[[1, 4]], [[7, 4]], [[64, 4]]]),
    ("cnn", CNN, [[[2, 3, 8, 8]]], ["float32"], [[-1, 3, 8, 8]], [[[1, 3, 8, 8]], [[7, 3, 8, 8]]]),
    ("gap", GAP, [[[2, 3, 8, 8]]], ["float32"], [[-1, 3, -1, -1]], [[[7, 3, 6, 10]], [[1, 3, 3, 3]]]),
    # traces differ (gather vs slice): taken after the numbers at the traced shape agree
    ("strided", Strided, [[[2, 3, 8, 8]]], ["float32"], [[-1, 3, -1, -1]], [[[7, 3, 12, 10]]]),
    ("enc", Enc, [[[2, 5], [2, 5]], [[3, 5], [3, 5]]], ["int64", "int64"], [[-1, -1], [-1, -1]],
     [[[1, 5], [1, 5]], [[7, 9], [7, 9]], [[64, 3], [64, 3]]]),
    ("lstm", LSTMNet, [[[2, 5, 4]]], ["float32"], [[-1, 5, 4]], [[[1, 5, 4]], [[7, 5, 4]]]),
    # calls with size-1 dims only (traced apart: broadcasting and matmul special-case 1)
    ("mlp_batch_1", MLP, [[[1, 4]]], ["float32"], [[-1, 4]], [[[7, 4]], [[64, 4]]]),
    ("enc_1x1", Enc, [[[1, 1], [1, 1]]], ["int64", "int64"], [[-1, -1], [-1, -1]],
     [[[1, 1], [1, 1]], [[7, 9], [7, 9]]]),
    ("shape_branch", ShapeBranch, [[[2, 4]]], ["float32"], [[-1, 4]], [[[7, 4]]]),
]  # fmt: skip


@pytest.mark.parametrize("name,cls,calls,dtypes,saved,runs", FLOWS, ids=[f[0] for f in FLOWS])
def test_save_after_calls_has_dynamic_dims(tmp_path, name, cls, calls, dtypes, saved, runs):
    paddle.seed(0)
    m = paddle.jit.to_static(cls())
    m.eval()
    for shapes in calls:
        m(*[_arg(s, d) for s, d in zip(shapes, dtypes)])
    paddle.jit.save(m, str(tmp_path / name))
    man = json.load(open(tmp_path / f"{name}.json"))
    assert [i["shape"] for i in man["inputs"]] == saved
    assert [i["name"] for i in man["inputs"]][0].startswith("_jst.0.")
    tl = paddle.jit.load(str(tmp_path / name))
    assert repr(tl) == "PirTranslatedLayer()"
    for shapes in runs:
        args = [_arg(s, d) for s, d in zip(shapes, dtypes)]
        got, ref = tl(*args), m(*args)
        got, ref = (got, ref) if isinstance(ref, tuple | list) else ([got], [ref])
        for g, r in zip(got, ref):
            np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-4, atol=1e-5)


def test_shape_branch_refuses_the_other_size(tmp_path):
    m = paddle.jit.to_static(ShapeBranch())
    m(paddle.ones([2, 4]))
    paddle.jit.save(m, str(tmp_path / "b"))
    with pytest.raises(ValueError, match=r"has shape \[7, 5\].*expects \[-1, 4\]"):
        paddle.jit.load(str(tmp_path / "b"))(paddle.ones([7, 5]))


class NeedsBatch(paddle.nn.Layer):
    def forward(self, x):
        return x * (3.0 if x.shape[0] == 2 else 1.0)


PINNED = [
    (NeedsBatch, [2, 4], [[2, -1]], "another Python path", [2, 9]),
    (BatchOneBranch, [1, 4], [[1, -1]], "other numbers for a size 1", [1, 6]),
]  # fmt: skip


@pytest.mark.parametrize("cls,shape,saved,why,run", PINNED, ids=["two", "one"])
def test_fixed_batch_warns(tmp_path, cls, shape, saved, why, run):
    m = paddle.jit.to_static(cls())
    m(paddle.ones(shape))
    with pytest.warns(
        UserWarning, match=rf"takes inputs of shape {saved} only.*{why}".replace("[", r"\[")
    ):
        paddle.jit.save(m, str(tmp_path / "m"))
    x = _arg(run, "float32")
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "m"))(x).numpy(), m(x).numpy())


class BNNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc, self.bn = paddle.nn.Linear(4, 3), paddle.nn.BatchNorm1D(3)

    def forward(self, x):
        return self.bn(F.relu(self.fc(x)))


# Paddle 3.3.1, same script: two SGD steps (lr 0.1) on a loaded layer, batch 7 from an artifact
# traced with batches 2 and 6; loss per step, parameters in the loaded order, output after.
PD_LOSSES = [0.2838561236858368, 0.13651838898658752]
PD_PARAMS = [
    [-0.030294, -0.008182, -0.059232],  # batch_norm1d_0.b_0 (bias)
    [0.986827, 0.996831, 0.930046],  # batch_norm1d_0.w_0 (scale)
    [0.100429, 0.043429, 0.138429],  # batch_norm1d_0.w_1 (running mean: no gradient)
    [0.812482, 0.812482, 0.832335],  # batch_norm1d_0.w_2 (running variance)
    [0.065343, -0.212284, 0.229506],  # linear_0.b_0
    [[-0.458559, -0.415533, -0.364960], [-0.163694, -0.117353, -0.075404],
     [0.131172, 0.180828, 0.214153], [0.426038, 0.479008, 0.503709]],  # linear_0.w_0
]  # fmt: skip
PD_OUT = [[0.433151, 0.099881, 0.29365]]


def test_fine_tune_loaded_layer_matches_paddle(tmp_path):
    net = BNNet()
    net.fc.weight.set_value(np.arange(12, dtype="float32").reshape(4, 3) / 10 - 0.5)
    net.fc.bias.set_value(np.array([0.1, -0.2, 0.3], "float32"))
    net = paddle.jit.to_static(net)
    x = paddle.to_tensor(np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4))
    net(x)  # train mode: updates the BN statistics, as in Paddle
    net(paddle.concat([x, x, x]))
    paddle.jit.save(net, str(tmp_path / "n"))
    tl = paddle.jit.load(str(tmp_path / "n"))
    assert not tl.training and [p.stop_gradient for p in tl.parameters()] == [
        False, False, True, True, False, False,
    ]  # fmt: skip
    tl.train()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=tl.parameters())
    x7 = paddle.to_tensor(np.linspace(-2, 2, 28, dtype="float32").reshape(7, 4))
    losses = []
    for _ in range(2):
        loss = (tl(x7) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    np.testing.assert_allclose(losses, PD_LOSSES, rtol=1e-6)
    for p, want in zip(tl.parameters(), PD_PARAMS):
        np.testing.assert_allclose(p.numpy(), want, atol=2e-6)
    np.testing.assert_allclose(tl(x[:1]).numpy(), PD_OUT, atol=2e-6)


# -- damaged and mismatched artifacts -------------------------------------------------------------
@pytest.fixture(scope="module")
def two_models(tmp_path_factory):
    d = tmp_path_factory.mktemp("art")
    paddle.jit.save(paddle.nn.Linear(4, 3), str(d / "m"), input_spec=[InputSpec([None, 4])])
    paddle.jit.save(paddle.nn.Linear(4, 5), str(d / "o"), input_spec=[InputSpec([None, 4])])
    return d


def _flip(path, at):
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


def _truncate(path, keep=0.5):
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def _rehash(d):
    m = json.loads((d / "m.json").read_text())
    m["program_sha256"] = hashlib.sha256((d / "m.stablehlo").read_bytes()).hexdigest()
    (d / "m.json").write_text(json.dumps(m))


def _junk_program(d):
    (d / "m.stablehlo").write_bytes(b"\x10\x00\x00\x00" + bytes(range(256)) * 4)
    _rehash(d)


X = np.ones([2, 4], "float32")
# what is done to a copy of model m, the call made, exception type, message pattern
BAD = [
    ("program truncated", lambda d: _truncate(d / "m.stablehlo"), X, ValueError,
     "m.stablehlo does not match its manifest"),
    ("program byte flipped", lambda d: _flip(d / "m.stablehlo", 100), X, ValueError,
     "m.stablehlo does not match its manifest"),
    ("program replaced, hash fixed", _junk_program, X, ValueError,
     "not a program written by paddle.jit.save"),
    ("program missing", lambda d: (d / "m.stablehlo").unlink(), X, ValueError,
     "Cannot read the program file"),
    ("params truncated", lambda d: _truncate(d / "m.pdiparams"), X, ValueError,
     "m.pdiparams: cannot read parameter"),
    ("params byte flipped", lambda d: _flip(d / "m.pdiparams", -1), X, ValueError,
     "sha256 differs"),
    ("params missing", lambda d: (d / "m.pdiparams").unlink(), X, ValueError,
     "parameter file .* does not exist"),
    ("params of another model", lambda d: shutil.copy(d / "o.pdiparams", d / "m.pdiparams"),
     X, ValueError, "partial or mixed save"),
    ("program of another model", lambda d: shutil.copy(d / "o.stablehlo", d / "m.stablehlo"),
     X, ValueError, "does not match its manifest"),
    ("manifest truncated", lambda d: _truncate(d / "m.json"), X, ValueError, "not valid JSON"),
    ("manifest byte flipped", lambda d: _flip(d / "m.json", 2), X, ValueError,
     "not valid JSON|not a paddle-compat saved model"),
    ("manifest missing", lambda d: (d / "m.json").unlink(), X, ValueError, "does not exist"),
    ("wrong rank", None, np.ones([2, 2, 4], "float32"), ValueError,
     r"has shape \[2, 2, 4\], but the saved model expects \[-1, 4\]"),
    ("wrong size", None, np.ones([2, 5], "float32"), ValueError, r"expects \[-1, 4\]"),
    ("wrong dtype", None, np.ones([2, 4], "float64"), ValueError,
     "has dtype float64, but the saved model expects float32"),
    ("int for float", None, paddle.ones([2, 4], "int64"), ValueError, "has dtype int64"),
    ("size 0", None, np.ones([0, 4], "float32"), ValueError, "size 0 in dimension 0"),
    ("a list", None, [[1.0] * 4], TypeError,
     "must be numpy array or Variable\\(Tensor\\), but received <class 'list'>"),
]  # fmt: skip


@pytest.mark.parametrize("name,damage,arg,exc,pattern", BAD, ids=[b[0] for b in BAD])
def test_bad_artifact_is_a_clear_error(two_models, tmp_path, name, damage, arg, exc, pattern):
    d = tmp_path / "copy"
    shutil.copytree(two_models, d)
    if damage is not None:
        damage(d)
    with pytest.raises(exc, match=pattern) as info:
        paddle.jit.load(str(d / "m"))(arg)
    assert type(info.value).__module__.split(".")[0] in ("builtins", "paddle_compat")
    assert "jax" not in str(info.value).lower() and "Traceback" not in str(info.value)


def test_wrong_input_count(two_models):
    tl = paddle.jit.load(str(two_models / "m"))
    with pytest.raises(ValueError, match=r"takes 1 input\(s\)"):
        tl(X, X)
    with pytest.raises(ValueError, match=r"takes 1 input\(s\)"):
        tl()


@pytest.mark.parametrize("at", [0, 8, 40, 200, 400, 600, 900, -20])
def test_flipped_program_with_fixed_hash_runs_or_is_a_clear_error(two_models, tmp_path, at):
    """A byte changed in the program and its hash updated (a deliberate edit): either the
    program still reads, or a ValueError naming the file; never a crash or a JAX error."""
    d = tmp_path / "copy"
    shutil.copytree(two_models, d)
    _flip(d / "m.stablehlo", at)
    _rehash(d)
    try:
        out = paddle.jit.load(str(d / "m"))(X)
    except ValueError as e:
        assert "m.stablehlo" in str(e)
    else:
        assert out.shape == [2, 3]


class TensorBranch(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 3)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 0:
            h = h * 2.0
        else:
            h = h - 1.0
        return h


def test_converted_control_flow_is_saved(tmp_path):
    """jit.save traces the to_static function's converted form: the saved program picks the
    branch per call, as the compiled function does."""
    from paddle_compat.jit._to_static import StaticFunction

    if not hasattr(StaticFunction, "_call"):
        pytest.skip("to_static has no control-flow conversion in this checkout")
    m = paddle.jit.to_static(TensorBranch())
    m.eval()
    m(paddle.ones([2, 4]))
    paddle.jit.save(m, str(tmp_path / "cf"))
    tl = paddle.jit.load(str(tmp_path / "cf"))
    signs = set()
    for b in (1, 7):
        for v in (paddle.full([b, 4], 100.0), paddle.full([b, 4], -100.0)):
            signs.add(bool(m.fc(v).mean() > 0))
            np.testing.assert_allclose(tl(v).numpy(), m(v).numpy(), rtol=1e-5, atol=1e-4)
    assert signs == {True, False}  # both branches ran from the one artifact
