"""paddle.nn recurrent layers vs real Paddle 3.3.1 with identical weights (``fill_deterministic``):
outputs, final states, gradients of inputs, initial states and parameters, state_dict
keys/shapes, printed form, seeded default weights and the errors of bad configurations.

Measured on Paddle 3.3.1 (CPU) and not recorded because Paddle crashes the process: a
``sequence_length`` entry larger than the time steps (glibc malloc assertion), zero time
steps (SIGFPE), and any forward of a network built with ``bias_ih_attr=False`` (SIGSEGV).
"""

import numpy as np
import paddle.nn as nn
from _layer_util import fill_deterministic, state_summary
from _util import expect_error, flat_tensors, randn, weighted_loss

import paddle

# gradients summed over time steps: cancellation leaves ~3e-6 absolute next to values of ~17
TOLERANCE = {"case_simple_rnn_relu_bidirect_2layers": (1e-5, 1e-5)}

B, T, I, H = 3, 5, 4, 6
X = randn(B, T, I, seed=1)
XT = np.ascontiguousarray(X.transpose(1, 0, 2))  # time-major
LENS = np.array([5, 2, 3], "int64")


def _t(a, grad=True):
    return paddle.to_tensor(a, stop_gradient=not grad)


def run_rnn(make, x=X, states=None, lengths=None, seed=0, grad=True, **kwargs):
    """Forward + backward of ``make()`` with deterministic weights; ``states``: numpy arrays in
    the nesting the layer takes (they get gradients too). ``grad=False``: forward only."""
    layer = fill_deterministic(make(), seed)
    xs = _t(x)
    st = None
    if states is not None:
        st = _nest(states, lambda a: _t(a))
    args = [xs] if st is None else [xs, st]
    if lengths is not None:
        kwargs["sequence_length"] = paddle.to_tensor(lengths)
    out = layer(*args, **kwargs)
    if not grad:
        return {"repr": str(layer), "state": state_summary(layer), "out": out}
    loss = weighted_loss(paddle, flat_tensors(out))
    loss.backward()
    return {
        "repr": str(layer),
        "state": state_summary(layer),
        "out": out,
        "x_grad": xs.grad,
        "state_grads": [] if st is None else [t.grad for t in flat_tensors(st)],
        "param_grads": {k: p.grad for k, p in layer.named_parameters()},
    }


def _nest(s, fn):
    if isinstance(s, list | tuple):
        return type(s)(_nest(v, fn) for v in s)
    return fn(s)


def _st(*shape, seed=3):
    return randn(*shape, seed=seed) * 0.5


# -- cells ------------------------------------------------------------------------------------
def case_simple_rnn_cell():
    return run_rnn(lambda: nn.SimpleRNNCell(I, H), X[:, 0], _st(B, H))


def case_simple_rnn_cell_relu_no_state():
    return run_rnn(lambda: nn.SimpleRNNCell(I, H, activation="relu"), X[:, 0])


def case_lstm_cell():
    return run_rnn(lambda: nn.LSTMCell(I, H), X[:, 0], (_st(B, H), _st(B, H, seed=4)))


def case_lstm_cell_no_state():
    return run_rnn(lambda: nn.LSTMCell(I, H), X[:, 0])


def case_lstm_cell_proj():
    return run_rnn(lambda: nn.LSTMCell(I, H, proj_size=2), X[:, 0], (_st(B, 2), _st(B, H)))


def case_gru_cell():
    return run_rnn(lambda: nn.GRUCell(I, H), X[:, 0], _st(B, H))


def case_gru_cell_no_state():
    return run_rnn(lambda: nn.GRUCell(I, H), X[:, 0])


# -- RNN / BiRNN wrappers ---------------------------------------------------------------------
def case_rnn_lstm_cell():
    return run_rnn(lambda: nn.RNN(nn.LSTMCell(I, H)), X, (_st(B, H), _st(B, H, seed=4)))


def case_rnn_gru_reverse_lengths():
    return run_rnn(lambda: nn.RNN(nn.GRUCell(I, H), is_reverse=True), X, lengths=LENS)


def case_rnn_simple_time_major_lengths():
    return run_rnn(
        lambda: nn.RNN(nn.SimpleRNNCell(I, H), time_major=True), XT, _st(B, H), lengths=LENS
    )


def case_birnn_lstm_lengths():
    states = ((_st(B, H), _st(B, H, seed=4)), (_st(B, H, seed=5), _st(B, H, seed=6)))
    return run_rnn(lambda: nn.BiRNN(nn.LSTMCell(I, H), nn.LSTMCell(I, H)), X, states, LENS)


def case_birnn_gru_no_state():
    return run_rnn(lambda: nn.BiRNN(nn.GRUCell(I, H), nn.GRUCell(I, H)), X)


def case_birnn_mixed_cells():
    return run_rnn(lambda: nn.BiRNN(nn.GRUCell(I, H), nn.GRUCell(I, 3)), X, (_st(B, H), _st(B, 3)))


class _MyCell(nn.RNNCellBase):
    """A user cell: h' = tanh(x W + h U), written with Paddle ops."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size
        self.w = self.create_parameter([input_size, hidden_size])
        self.u = self.create_parameter([hidden_size, hidden_size])

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = paddle.tanh(paddle.matmul(inputs, self.w) + paddle.matmul(states, self.u))
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)


def case_rnn_user_cell():
    return run_rnn(lambda: nn.RNN(_MyCell(I, H)), X, lengths=LENS)


def case_birnn_user_cell():
    return run_rnn(lambda: nn.BiRNN(_MyCell(I, H), _MyCell(I, H), time_major=True), XT)


# -- networks ---------------------------------------------------------------------------------
def case_simple_rnn():
    return run_rnn(lambda: nn.SimpleRNN(I, H), X)


def case_simple_rnn_relu_bidirect_2layers():
    return run_rnn(
        lambda: nn.SimpleRNN(I, H, num_layers=2, direction="bidirect", activation="relu"),
        X,
        _st(4, B, H),
    )


def case_lstm():
    return run_rnn(lambda: nn.LSTM(I, H), X)


def case_lstm_2layers_states():
    return run_rnn(lambda: nn.LSTM(I, H, num_layers=2), X, (_st(2, B, H), _st(2, B, H, seed=4)))


# Paddle 3.3.1's backward of a reverse direction with sequence_length and a non-zero initial
# state disagrees with its own finite differences (tests/test_nn_rnn.py checks ours against
# them): those cases record the forward only, and the gradients with zero initial states.
def case_lstm_bidirect_2layers_lengths():
    states = (_st(4, B, H), _st(4, B, H, seed=4))
    make = lambda: nn.LSTM(I, H, num_layers=2, direction="bidirectional")  # noqa: E731
    return run_rnn(make, X, states, LENS, grad=False)


def case_lstm_bidirect_2layers_lengths_grads():
    return run_rnn(lambda: nn.LSTM(I, H, num_layers=2, direction="bidirectional"), X, None, LENS)


def case_lstm_time_major_lengths():
    return run_rnn(lambda: nn.LSTM(I, H, time_major=True), XT, lengths=LENS)


def case_lstm_proj_bidirect_lengths():
    states = (_st(4, B, 2), _st(4, B, H, seed=4))
    return run_rnn(
        lambda: nn.LSTM(I, H, num_layers=2, direction="bidirect", proj_size=2), X, states, LENS
    )


def case_gru():
    return run_rnn(lambda: nn.GRU(I, H), X, _st(1, B, H))


def case_gru_bidirect_3layers_lengths():
    make = lambda: nn.GRU(I, H, num_layers=3, direction="bidirect", time_major=True)  # noqa: E731
    return run_rnn(make, XT, _st(6, B, H), LENS, grad=False)


def case_gru_bidirect_3layers_lengths_grads():
    make = lambda: nn.GRU(I, H, num_layers=3, direction="bidirect", time_major=True)  # noqa: E731
    return run_rnn(make, XT, None, LENS)


def case_gru_lengths_int32_zero():
    return run_rnn(lambda: nn.GRU(I, H), X, lengths=np.array([0, 5, 1], "int32"))


def case_lstm_eval_with_dropout():
    # forward only: Paddle's backward of its fused kernel in eval mode fails ("Tensor holds
    # no memory"); this project differentiates it like any other call
    m = fill_deterministic(nn.LSTM(I, H, num_layers=2, dropout=0.5))
    m.eval()
    return m(_t(X, grad=False))


def case_lstm_float64():
    paddle.set_default_dtype("float64")
    try:
        return run_rnn(lambda: nn.LSTM(I, H, direction="bidirect"), X.astype("float64"))
    finally:
        paddle.set_default_dtype("float32")


def case_dropout_train():
    paddle.seed(7)
    x = _t(X, grad=False)
    m = nn.LSTM(I, H, num_layers=2, dropout=0.5)
    a, b = m(x)[0], m(x)[0]
    m.eval()
    c = m(x)[0]
    one = nn.GRU(I, H, dropout=0.5)
    d = one(x)[0]
    one.eval()
    e = one(x)[0]
    return {
        "train_runs_differ": bool((a - b).abs().max() > 0),
        "train_vs_eval_differ": bool((a - c).abs().max() > 0),
        "one_layer_unaffected": bool((d - e).abs().max() == 0),
        "shape": list(a.shape),
    }


# -- seeded default weights -------------------------------------------------------------------
def case_seeded_default_weights():
    paddle.seed(2024)
    layers = [
        nn.LSTM(I, H, num_layers=2, direction="bidirect"),
        nn.GRU(I, H),
        nn.SimpleRNN(I, H),
        nn.LSTMCell(I, H, proj_size=3),
        nn.GRUCell(I, H),
    ]
    return [dict(m.state_dict()) for m in layers]


# -- printed form, attributes -----------------------------------------------------------------
def case_reprs():
    layers = [
        nn.SimpleRNNCell(I, H),
        nn.SimpleRNNCell(I, H, activation="relu", name="r"),
        nn.LSTMCell(I, H, proj_size=2),
        nn.GRUCell(I, H),
        nn.RNN(nn.GRUCell(I, H), is_reverse=True, time_major=True),
        nn.BiRNN(nn.LSTMCell(I, H), nn.LSTMCell(I, H)),
        nn.LSTM(I, H, time_major=True, dropout=0.5, direction="bidirectional"),
        nn.GRU(I, H, num_layers=3, dropout=0.1),
        nn.SimpleRNN(I, H, activation="relu", time_major=True),
        nn.LSTM(I, H, num_layers=2, proj_size=3, direction="bidirect"),
    ]
    return [str(m) for m in layers]


def case_state_dicts():
    layers = [
        nn.LSTM(I, H, num_layers=2, direction="bidirect", proj_size=2),
        nn.GRU(I, H, bias_hh_attr=False),
        nn.SimpleRNN(I, H, num_layers=2, weight_hh_attr=False),
        nn.LSTMCell(I, H, bias_ih_attr=False),
    ]
    return [state_summary(m) for m in layers]


def case_attributes():
    res = []
    for m in [
        nn.LSTM(I, H, 2, "bidirect", proj_size=2),
        nn.GRU(I, H),
        nn.SimpleRNN(I, H, activation="relu"),
    ]:
        names = ["mode", "input_size", "hidden_size", "dropout", "num_directions"]
        names += ["time_major", "num_layers", "state_components", "proj_size", "could_use_cudnn"]
        res.append({n: getattr(m, n) for n in names})
    res.append(
        [
            nn.LSTMCell(I, H).state_shape,
            nn.LSTMCell(I, H, proj_size=2).state_shape,
            nn.GRUCell(I, H).state_shape,
            nn.SimpleRNNCell(I, H).state_shape,
        ]
    )
    cell = nn.LSTMCell(I, H)
    states = cell.get_initial_states(_t(X), batch_dim_idx=0)
    res.append([list(s.shape) for s in states])
    res.append(
        nn.GRUCell(I, H).get_initial_states(_t(XT), shape=[-1, 2], init_value=1.5, batch_dim_idx=1)
    )
    return res


def case_output_structure():
    x = _t(X, grad=False)
    out = []
    for m in [nn.LSTMCell(I, H), nn.GRUCell(I, H), nn.SimpleRNNCell(I, H)]:
        y, s = m(x[:, 0])
        out.append([type(s).__name__, y is (s[0] if isinstance(s, tuple) else s)])
    for m in [nn.LSTM(I, H), nn.GRU(I, H), nn.BiRNN(nn.LSTMCell(I, H), nn.LSTMCell(I, H))]:
        y, s = m(x)
        out.append([type(s).__name__, str(type(s[0]).__name__) if isinstance(s, tuple) else ""])
    return out


# -- errors -----------------------------------------------------------------------------------
def case_errors():
    x = _t(X, grad=False)

    def z(*s):
        return paddle.zeros(list(s))

    return [
        expect_error(lambda: nn.LSTM(I, H)(x, (z(1, B, H + 1), z(1, B, H)))),
        expect_error(lambda: nn.LSTM(I, H)(x, (z(2, B, H), z(2, B, H)))),
        expect_error(lambda: nn.LSTM(I, H)(x, z(1, B, H))),
        expect_error(lambda: nn.GRU(I, H)(x, z(1, B, H + 1))),
        expect_error(lambda: nn.GRU(I, H)(x, z(1, B + 1, H))),
        expect_error(lambda: nn.SimpleRNN(I, H)(x, z(1, B, H + 1))),
        expect_error(lambda: nn.GRU(I + 1, H)(x)),
        expect_error(lambda: nn.LSTMCell(I, H)(x[:, 0], (z(B, H + 1), z(B, H)))),
        expect_error(lambda: nn.GRUCell(I, H)(x[:, 0], z(B, H + 1))),
        expect_error(lambda: nn.RNN(nn.LSTMCell(I, H))(x, (z(B, H + 1), z(B, H)))),
        expect_error(lambda: nn.LSTM(I, H, direction="backward")),
        expect_error(lambda: nn.LSTM(I, 0)),
        expect_error(lambda: nn.GRUCell(I, 0)),
        expect_error(lambda: nn.SimpleRNN(I, H, activation="sigmoid")),
        expect_error(lambda: nn.SimpleRNNCell(I, H, activation="sigmoid")),
        expect_error(lambda: nn.LSTM(I, H, proj_size=H)),
        expect_error(lambda: nn.LSTMCell(I, H, proj_size=-1)),
        expect_error(lambda: nn.GRU(I, H, proj_size=2)),
        expect_error(lambda: nn.BiRNN(nn.GRUCell(I, H), nn.GRUCell(I + 1, H))),
        expect_error(lambda: nn.BiRNN(nn.GRUCell(I, H), nn.GRUCell(I, H))(x, [z(B, H)] * 3)),
        expect_error(lambda: nn.LSTM(I, H)(x.astype("float64"))),
        expect_error(lambda: nn.LSTM(I, H)(paddle.ones([B, T, I], "int64"))),
        expect_error(lambda: nn.LSTM(I, H)(x[0])),
        expect_error(lambda: nn.LSTM(I, H)(x, sequence_length=paddle.to_tensor([2.0, 3.0, 1.0]))),
        expect_error(lambda: nn.LSTM(I, H)(x, sequence_length=[2, 3, 1])),
    ]
