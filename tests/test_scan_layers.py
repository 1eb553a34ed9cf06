"""paddle.jit.scan_layers (a paddle-compat extension): a marked LayerList of identical blocks
runs as one lax.scan under to_static, with the unrolled loop's outputs, gradients, updates,
random draws and buffer updates; eager code is unchanged; what the scan cannot reproduce
warns and runs unrolled; misuse of the per-block stand-ins raises."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import paddle
from paddle_compat.jit import _scan_layers

F = paddle.nn.functional
TOL = dict(rtol=1e-5, atol=1e-6)


class MLPBlock(paddle.nn.Layer):
    def __init__(self, d=8, p=0.2):
        super().__init__()
        self.fc1 = paddle.nn.Linear(d, 2 * d)
        self.fc2 = paddle.nn.Linear(2 * d, d)
        self.drop = paddle.nn.Dropout(p)

    def forward(self, x, shift=None, scale=1.0):
        h = self.fc2(F.gelu(self.fc1(x)))
        if shift is not None:
            h = h + shift
        return x + self.drop(h) * scale


class BNBlock(paddle.nn.Layer):
    def __init__(self, d=8):
        super().__init__()
        self.fc = paddle.nn.Linear(d, d)
        self.bn = paddle.nn.BatchNorm1D(d)

    def forward(self, x):
        return x + self.bn(self.fc(x))


def _x(*shape, seed=0):
    return paddle.to_tensor(np.random.RandomState(seed).randn(*shape).astype("float32"))


class Net(paddle.nn.Layer):
    """``blocks`` in a LayerList, run by ``loop(layers, x)``."""

    def __init__(self, blocks, loop):
        super().__init__()
        self.layers = paddle.nn.LayerList(blocks)
        self.loop = loop

    def forward(self, x):
        return self.loop(self.layers, x)


def _plain(layers, x):
    for layer in layers:
        x = layer(x)
    return x


def _with_args(layers, x):
    shift = paddle.full([8], 0.1)
    for layer in layers:
        x = layer(x, shift, scale=0.5)
    return x


def _hidden_states(layers, x):
    hs = []
    for layer in layers:
        x = layer(x)
        hs.append(x)
    return x + paddle.stack(hs).mean(0)


def _encoder(layers, x):
    mask = paddle.zeros([1, 1, 5, 5])
    for layer in layers:
        x = layer(x, src_mask=mask)
    return x


def _enc_layer(normalize_before=False):
    return paddle.nn.TransformerEncoderLayer(
        16, 2, 32, dropout=0.1, normalize_before=normalize_before
    )


# name: (blocks, loop, input)
CASES = {
    "mlp_dropout": (lambda: [MLPBlock() for _ in range(4)], _plain, lambda: _x(4, 8)),
    "broadcast_args": (lambda: [MLPBlock() for _ in range(3)], _with_args, lambda: _x(4, 8)),
    "hidden_states": (lambda: [MLPBlock() for _ in range(3)], _hidden_states, lambda: _x(4, 8)),
    "batchnorm": (lambda: [BNBlock() for _ in range(3)], _plain, lambda: _x(6, 8)),
    "encoder": (lambda: [_enc_layer() for _ in range(3)], _encoder, lambda: _x(2, 5, 16)),
    "encoder_pre_norm": (
        lambda: [_enc_layer(True) for _ in range(3)],
        _encoder,
        lambda: _x(2, 5, 16),
    ),
}


def _train(case, scan, opt_cls=paddle.optimizer.SGD, steps=3, eval_mode=False, **options):
    blocks, loop, data = CASES[case]
    paddle.seed(3)
    net = Net(blocks(), loop)
    if eval_mode:
        net.eval()
    if scan:
        paddle.jit.scan_layers(net.layers, **options)
    opt = opt_cls(learning_rate=0.05, parameters=net.parameters())
    x = data()

    @paddle.jit.to_static
    def step(x):
        y = net(x)
        loss = (y * y).mean()
        loss.backward()
        grads = [p.grad * 1.0 for p in net.parameters() if not p.stop_gradient]
        opt.step()
        opt.clear_grad()
        return loss, y, grads

    paddle.seed(11)
    before = _scan_layers.STATS["scans"]
    out = []
    for _ in range(steps):
        loss, y, grads = step(x)
        out.append((float(loss), y.numpy(), [g.numpy() for g in grads]))
    state = {k: v.numpy() for k, v in net.state_dict().items()}
    return out, state, _scan_layers.STATS["scans"] - before


def _assert_same(a, b):
    (out_a, state_a, _), (out_b, state_b, _) = a, b
    for (la, ya, ga), (lb, yb, gb) in zip(out_a, out_b):
        np.testing.assert_allclose(la, lb, **TOL)
        np.testing.assert_allclose(ya, yb, **TOL)
        for x, y in zip(ga, gb):
            np.testing.assert_allclose(x, y, **TOL)
    assert list(state_a) == list(state_b)
    for k in state_a:
        np.testing.assert_allclose(state_a[k], state_b[k], **TOL, err_msg=k)


@pytest.mark.parametrize("case", list(CASES))
def test_scan_matches_unrolled(case):
    unrolled, scanned = _train(case, False), _train(case, True)
    assert unrolled[2] == 0 and scanned[2] > 0
    _assert_same(unrolled, scanned)


def test_adamw_updates_match():
    kw = dict(opt_cls=paddle.optimizer.AdamW, steps=4)
    _assert_same(_train("mlp_dropout", False, **kw), _train("mlp_dropout", True, **kw))


def test_remat_matches():
    _assert_same(_train("encoder", False), _train("encoder", True, remat=True))


def test_unroll_matches():
    _assert_same(_train("mlp_dropout", False), _train("mlp_dropout", True, unroll=2))


def test_eval_mode_matches():
    _assert_same(_train("encoder", False, eval_mode=True), _train("encoder", True, eval_mode=True))


def test_dropout_masks_differ_per_block():
    """The random key is carried from block to block: each block draws its own mask."""
    paddle.seed(0)
    drop = [paddle.nn.Dropout(0.5) for _ in range(3)]
    layers = paddle.jit.scan_layers(paddle.nn.LayerList(drop))

    @paddle.jit.to_static
    def f(x):
        outs = []
        for layer in layers:
            x = layer(x)
            outs.append(x)
        return outs

    x = paddle.ones([64])
    f(x)
    outs = [o.numpy() for o in f(x)]
    kept = [o != 0 for o in outs]  # what block k kept, block k + 1 thins out further
    assert (kept[2] <= kept[1]).all() and (kept[1] <= kept[0]).all()
    assert kept[0].sum() > kept[1].sum() > kept[2].sum() > 0


def test_eager_is_unchanged():
    blocks, loop, data = CASES["mlp_dropout"]
    paddle.seed(3)
    net = Net(blocks(), loop)
    x = data()
    paddle.seed(5)
    want = net(x).numpy()
    paddle.jit.scan_layers(net.layers)
    before = _scan_layers.STATS["scans"]
    paddle.seed(5)
    np.testing.assert_array_equal(net(x).numpy(), want)  # eager: the host stream, unrolled
    assert _scan_layers.STATS["scans"] == before
    assert [type(b) for b in net.layers] == [MLPBlock] * 4


def test_state_dict_and_names_unchanged():
    blocks, loop, _ = CASES["encoder"]
    paddle.seed(3)
    net = Net(blocks(), loop)
    keys = list(net.state_dict())
    assert paddle.jit.scan_layers(net.layers) is net.layers
    assert list(net.state_dict()) == keys
    assert len(net.parameters()) == len(keys) - 0  # no buffers in an encoder layer
    paddle.jit.scan_layers(net.layers, enable=False)
    assert "_scan_plan" not in net.layers.__dict__


def test_unmarked_list_is_not_scanned():
    assert _train("mlp_dropout", False)[2] == 0


def _diff_blocks():
    blocks = [MLPBlock() for _ in range(3)]
    blocks[1].drop.eval()
    return blocks


def _hooked_blocks():
    blocks = [MLPBlock() for _ in range(3)]
    blocks[0].register_forward_post_hook(lambda layer, inp, out: out * 2)
    return blocks


class PairBlock(MLPBlock):
    def forward(self, x):
        return super().forward(x), x


def _tuple_loop(layers, x):
    for layer in layers:
        x, _ = layer(x)
    return x


class InplaceBlock(MLPBlock):
    def forward(self, x, extra):
        extra.add_(paddle.ones_like(extra))
        return x + extra


def _inplace_loop(layers, x):
    e = paddle.zeros([8])
    for layer in layers:
        x = layer(x, e)
    return x


def _from_second(layers, x):
    for i, layer in enumerate(layers):
        if i > 0:
            x = layer(x)
    return x


# name: (blocks, loop, words in the warning)
FALLBACKS = {
    "training_differs": (_diff_blocks, _plain, "block 1 differs from block 0 (drop has training"),
    "shapes_differ": (
        lambda: [MLPBlock(8), MLPBlock(8), paddle.nn.Linear(8, 8)],
        _plain,
        "block 2 differs",
    ),
    "hooks": (_hooked_blocks, _plain, "forward hooks"),
    "returns_tuple": (lambda: [PairBlock() for _ in range(3)], _tuple_loop, "return one Tensor"),
    "writes_argument": (
        lambda: [InplaceBlock() for _ in range(3)],
        _inplace_loop,
        "writes into its arguments",
    ),
    "skips_block_0": (lambda: [MLPBlock() for _ in range(3)], _from_second, "did not start"),
}


@pytest.mark.parametrize("case", list(FALLBACKS))
def test_fallback_warns_and_runs_unrolled(case):
    blocks, loop, words = FALLBACKS[case]
    results = []
    for scan in (False, True):
        paddle.seed(3)
        net = Net(blocks(), loop)
        if scan:
            paddle.jit.scan_layers(net.layers)
        f = paddle.jit.to_static(lambda x, net=net: net(x))
        x = _x(4, 8)
        before = _scan_layers.STATS["scans"]
        paddle.seed(1)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            ys = [f(x).numpy() for _ in range(2)]
        assert _scan_layers.STATS["scans"] == before
        msgs = [str(m.message) for m in w if "scan_layers" in str(m.message)]
        assert bool(msgs) == scan, msgs
        if scan:
            assert words in msgs[0], msgs[0]
        results.append(ys)
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, **TOL)


def _changes_carry(layers, x):
    for layer in layers:
        x = layer(x) * 2.0
    return x


def _per_block_args(layers, x):
    shifts = [paddle.full([8], float(i)) for i in range(len(layers))]
    for i, layer in enumerate(layers):
        x = layer(x, shifts[i])
    return x


def _out_of_order(layers, x):
    blocks = list(layers)
    return blocks[2](blocks[0](x))


# name: (loop, error type, words)
MISUSE = {
    "carry_changed": (_changes_carry, ValueError, "block 0's output as its first argument"),
    "per_block_args": (_per_block_args, ValueError, "other arguments than block 0"),
    "out_of_order": (_out_of_order, RuntimeError, "block 2 was called after block 0"),
}


@pytest.mark.parametrize("case", list(MISUSE))
def test_misuse_raises(case):
    loop, err, words = MISUSE[case]
    paddle.seed(3)
    net = Net([MLPBlock() for _ in range(3)], loop)
    paddle.jit.scan_layers(net.layers)
    f = paddle.jit.to_static(lambda x: net(x))
    x = _x(4, 8)
    f(x)  # to_static's first call runs eagerly: unrolled
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the error alone, no early-stop warning on top
        with pytest.raises(err, match=words):
            f(x)


def test_early_break_warns():
    def first_two(layers, x):
        for i, layer in enumerate(layers):
            x = layer(x)
            if i == 1:
                break
        return x

    paddle.seed(3)
    net = Net([MLPBlock(p=0.0) for _ in range(3)], first_two)
    want = net(_x(4, 8)).numpy()
    paddle.jit.scan_layers(net.layers)
    f = paddle.jit.to_static(lambda x: net(x))
    f(_x(4, 8))
    with pytest.warns(RuntimeWarning, match="called 2 of 3 blocks"):
        got = f(_x(4, 8)).numpy()
    np.testing.assert_allclose(got, want, **TOL)


@pytest.mark.parametrize("bad", [paddle.nn.Sequential(), [paddle.nn.Linear(2, 2)], None])
def test_scan_layers_takes_a_layer_list(bad):
    with pytest.raises(TypeError, match="layers must be a paddle.nn.LayerList"):
        paddle.jit.scan_layers(bad)


@pytest.mark.parametrize("unroll", [0, 1.5, True])
def test_unroll_must_be_a_positive_int(unroll):
    with pytest.raises(ValueError, match="unroll must be a positive int"):
        paddle.jit.scan_layers(paddle.nn.LayerList(), unroll=unroll)


def test_jit_save_exports_the_scan(tmp_path):
    paddle.seed(3)
    net = Net([MLPBlock() for _ in range(3)], _hidden_states)
    net.eval()
    x = _x(4, 8)
    want = net(x).numpy()
    paddle.jit.scan_layers(net.layers)
    before = _scan_layers.STATS["scans"]
    spec = [paddle.static.InputSpec([None, 8], "float32")]
    paddle.jit.save(net, str(tmp_path / "m"), input_spec=spec)
    assert _scan_layers.STATS["scans"] > before
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "m"))(x).numpy(), want, **TOL)


def test_input_gradient_through_compiled_call():
    grads = []
    for scan in (False, True):
        paddle.seed(3)
        net = Net([MLPBlock(p=0.0) for _ in range(3)], _plain)
        if scan:
            paddle.jit.scan_layers(net.layers)
        f = paddle.jit.to_static(lambda x, net=net: net(x))
        x = _x(4, 8)
        x.stop_gradient = False
        f(x)
        (g,) = paddle.grad(f(x).sum(), x)
        grads.append(g.numpy())
    np.testing.assert_allclose(grads[0], grads[1], **TOL)


def test_amp_gradients_match():
    """The backward retraces the scan outside auto_cast: it must apply the forward's casts."""
    grads = []
    for scan in (False, True):
        paddle.seed(3)
        net = Net([_enc_layer() for _ in range(3)], _encoder)
        net.eval()
        if scan:
            paddle.jit.scan_layers(net.layers)

        @paddle.jit.to_static
        def f(x, net=net):
            with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
                y = net(x)
            loss = (y.astype("float32") ** 2).mean()
            loss.backward()
            return loss

        for _ in range(2):
            net.clear_gradients()
            f(_x(2, 5, 16))
        grads.append([p.grad.numpy() for p in net.parameters()])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, **TOL)
