"""paddle.nn recurrent layers: the layer harness for each one, what the goldens
(tests/cases/nn_rnn.py) cannot say (exact seeded weights, error messages, gradients where
Paddle's own are wrong, the scan under to_static and its compile time)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import paddle.nn as nn
import pytest
from layer_harness import check_layer

import paddle
from paddle_compat.nn.functional import _rnn

B, T, I, H = 3, 5, 4, 6
RNG = np.random.default_rng(0)
X = RNG.standard_normal((B, T, I)).astype("float32")
LENS = np.array([5, 2, 3], "int64")


def _cell_keys(prefix=""):
    return [f"{prefix}{k}" for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]


@pytest.mark.parametrize(
    "make,x,keys",
    [
        (lambda: nn.SimpleRNNCell(I, H, activation="relu"), X[:, 0], _cell_keys()),
        (lambda: nn.LSTMCell(I, H), X[:, 0], _cell_keys()),
        (lambda: nn.GRUCell(I, H), X[:, 0], _cell_keys()),
        (lambda: nn.RNN(nn.LSTMCell(I, H), is_reverse=True), X, _cell_keys("cell.")),
        (
            lambda: nn.BiRNN(nn.GRUCell(I, H), nn.GRUCell(I, H)),
            X,
            _cell_keys("cell_fw.") + _cell_keys("cell_bw."),
        ),
        (lambda: nn.SimpleRNN(I, H, num_layers=2), X, None),
        (lambda: nn.GRU(I, H, time_major=True), X.transpose(1, 0, 2).copy(), None),
        (
            lambda: nn.LSTM(I, H, num_layers=2, direction="bidirect"),
            X,
            [
                f"{k}_l{layer}{sfx}"
                for layer in (0, 1)
                for sfx in ("", "_reverse")
                for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
            ]
            + [
                f"{layer}.{c}.{k}"
                for layer in (0, 1)
                for c in ("cell_fw", "cell_bw")
                for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
            ],
        ),
        (lambda: nn.LSTM(I, H, proj_size=2), X, None),
    ],
)
def test_layer_harness(make, x, keys):
    res = check_layer(make, x, expected_keys=keys)
    out = res["out"][0]
    assert out.shape[-1] in (H, 2 * H, 2)


def test_seeded_default_weights_are_paddles_bit_for_bit():
    golden = json.loads((Path(__file__).parent / "goldens" / "nn_rnn.json").read_text())
    expected = golden["case_seeded_default_weights"]
    paddle.seed(2024)
    layers = [
        nn.LSTM(I, H, num_layers=2, direction="bidirect"),
        nn.GRU(I, H),
        nn.SimpleRNN(I, H),
        nn.LSTMCell(I, H, proj_size=3),
        nn.GRUCell(I, H),
    ]
    for layer, exp in zip(layers, expected):
        sd = layer.state_dict()
        assert sorted(sd) == sorted(exp)  # the golden file sorts its keys
        for k, v in sd.items():
            got = np.asarray(v.numpy(), np.float64).ravel()
            np.testing.assert_array_equal(got, np.asarray(exp[k]["data"]), err_msg=k)
        bound = 1 / np.sqrt(H)
        assert all(np.abs(p.numpy()).max() <= bound for p in layer.parameters())


@pytest.mark.parametrize(
    "call,words",
    [
        (lambda x: nn.LSTM(I, H)(x, (paddle.zeros([1, B, H + 1]),) * 2), "hidden_size"),
        (lambda x: nn.GRU(I, H)(x, paddle.zeros([1, B, H + 1])), "initial_states"),
        (lambda x: nn.LSTM(I, H, proj_size=2)(x, (paddle.zeros([1, B, 3]),) * 2), "proj_size"),
        (lambda x: nn.GRU(I + 1, H)(x), "input_size"),
        (lambda x: nn.GRUCell(I, H)(x[:, 0], paddle.zeros([B, H + 1])), "states"),
        (lambda x: nn.RNN(nn.GRUCell(I, H))(x, paddle.zeros([B, H + 1])), "hidden_size"),
        (lambda x: nn.LSTM(I, H)(x, sequence_length=paddle.to_tensor([1.0])), "sequence_length"),
    ],
)
def test_bad_states_name_the_argument(call, words):
    with pytest.raises(ValueError, match=words):
        call(paddle.to_tensor(X))


def _loss_fd(make_loss, p, idx, eps=1e-6):
    w = p.numpy().copy()
    vals = []
    for s in (eps, -eps):
        w2 = w.copy()
        w2[idx] += s
        p.set_value(w2)
        vals.append(float(make_loss(False)))
    p.set_value(w)
    return (vals[0] - vals[1]) / (2 * eps)


def test_reverse_direction_gradient_with_lengths_and_states_matches_finite_differences():
    """Paddle 3.3.1's analytic gradient disagrees with its finite differences here (e.g.
    weight_hh_l0_reverse[10, 2]: 0.0731 analytic vs -0.1978 measured); ours follows the
    forward's actual derivative."""
    paddle.set_default_dtype("float64")
    try:
        paddle.seed(1)
        m = nn.GRU(I, H, direction="bidirect")
        h0 = RNG.standard_normal((2, B, H)) * 0.5

        def loss(grad=True):
            x = paddle.to_tensor(X.astype("float64"))
            h = paddle.to_tensor(h0, stop_gradient=not grad)
            out, st = m(x, h, sequence_length=paddle.to_tensor(LENS))
            total = (out * out).sum() + (st * st).sum()
            if grad:
                total.backward()
            return total

        loss()
        p = m.weight_hh_l0_reverse
        g = p.grad.numpy().copy()
        for idx in [(0, 0), (10, 2), (17, 5)]:
            np.testing.assert_allclose(g[idx], _loss_fd(loss, p, idx), rtol=1e-5, atol=1e-7)
    finally:
        paddle.set_default_dtype("float32")


def test_outputs_past_length_are_zero_and_states_frozen():
    m = nn.LSTM(I, H, direction="bidirect")
    x = paddle.to_tensor(X)
    out, (h, c) = m(x, sequence_length=paddle.to_tensor(LENS))
    o = out.numpy()
    assert np.all(o[1, 2:] == 0) and np.all(o[2, 3:] == 0)
    # the forward direction's final state is its state at each sequence's last step
    for b, n in enumerate(LENS):
        single, (hb, _) = m(x[b : b + 1, :n])
        np.testing.assert_allclose(h.numpy()[:, b], hb.numpy()[:, 0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(o[b, :n], single.numpy()[0], rtol=1e-5, atol=1e-6)


def test_dropout_between_layers_only_in_training():
    paddle.seed(3)
    m = nn.GRU(I, H, num_layers=2, dropout=0.5)
    x = paddle.to_tensor(X)
    a, b = m(x)[0].numpy(), m(x)[0].numpy()
    assert not np.array_equal(a, b)
    m.eval()
    e1, e2 = m(x)[0].numpy(), m(x)[0].numpy()
    np.testing.assert_array_equal(e1, e2)
    static = paddle.jit.to_static(m)
    np.testing.assert_allclose(static(x)[0].numpy(), e1, rtol=1e-5, atol=1e-6)
    m.train()
    s1, s2 = static(x)[0].numpy(), static(x)[0].numpy()  # compiled: the key is threaded
    assert not np.array_equal(s1, s2) and not np.array_equal(s1, e1)


def test_user_cell_runs_step_by_step_eager_and_to_static():
    class Cell(nn.RNNCellBase):
        def __init__(self):
            super().__init__()
            self.input_size, self.hidden_size = I, H
            self.w = self.create_parameter([I, H])

        def forward(self, inputs, states):
            h = paddle.tanh(paddle.matmul(inputs, self.w) + states)
            return h, h

        @property
        def state_shape(self):
            return (H,)

    m = nn.RNN(Cell())
    x = paddle.to_tensor(X)
    out, h = m(x, sequence_length=paddle.to_tensor(LENS))
    np.testing.assert_array_equal(h.numpy()[1], out.numpy()[1, 1])  # frozen after 2 steps
    out_s, h_s = paddle.jit.to_static(m)(x, sequence_length=paddle.to_tensor(LENS))
    np.testing.assert_allclose(out_s.numpy(), out.numpy(), rtol=1e-5, atol=1e-6)


def test_hooked_builtin_cell_takes_the_python_loop():
    cell = nn.GRUCell(I, H)
    calls = []
    cell.register_forward_post_hook(lambda layer, inp, out: calls.append(1))
    out, _ = nn.RNN(cell)(paddle.to_tensor(X))
    assert len(calls) == T
    cell2 = nn.GRUCell(I, H)
    cell2.set_state_dict(cell.state_dict())
    ref, _ = nn.RNN(cell2)(paddle.to_tensor(X))
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)


def test_the_time_loop_is_one_scan_per_layer():
    w = [
        [jnp.zeros((4 * H, I if k == 0 else H)), jnp.zeros((4 * H, H))]
        + [jnp.zeros(4 * H), jnp.zeros(4 * H)]
        for k in range(2)
    ]
    for steps in (4, 64):
        x = jnp.zeros((B, steps, I))
        jaxpr = jax.make_jaxpr(
            lambda x, w: _rnn.rnn.fn(x, None, None, w, None, "LSTM", 1, False, True)
        )(x, w)
        text = str(jaxpr)
        assert text.count("scan[") == 2, text
        assert len(text) < 20000  # independent of the number of steps: nothing unrolled


def test_lstm_to_static_compiles_fast():
    """forward + backward of a 2-layer LSTM (batch 16, 32 steps, 64 -> 128) under to_static:
    one scan per layer, so the first (compiling) call stays well under 5 s."""
    paddle.seed(0)
    model = nn.LSTM(64, 128, num_layers=2)
    opt = paddle.optimizer.SGD(0.01, parameters=model.parameters())
    x = paddle.to_tensor(np.random.default_rng(1).standard_normal((16, 32, 64)).astype("float32"))

    @paddle.jit.to_static
    def step(x):
        out, (h, c) = model(x)
        loss = (out * out).mean() + (h * h).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    first = float(step(x))  # the eager recording call
    t0 = time.perf_counter()
    float(step(x))  # the trace + compile
    elapsed = time.perf_counter() - t0
    assert elapsed < 5.0, f"to_static LSTM took {elapsed:.2f} s to compile"
    assert float(step(x)) < first
