"""paddle.nn decoding (BeamSearchDecoder, dynamic_decode, F.gather_tree) vs real Paddle 3.3.1
with identical weights (``fill_deterministic``): decoded ids, final states and lengths, and
the gradients of the final log-probabilities into the cell, ``output_fn`` and embedding."""

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
from _layer_util import fill_deterministic
from _util import expect_error, randn

import paddle

# eval mode with random u, v: sigma ~1e-3, so the weight gradient is ~2e4 and float32 rounding
# of the two frameworks' different summation orders differs by ~1e-5 relative
TOLERANCE = {"case_spectral_norm_conv_transpose_eval": (1e-4, 1e-3)}

IDS = np.array([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]], "int64")
PARENTS = np.array([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]], "int64")


# -- gather_tree -------------------------------------------------------------------------------
def case_gather_tree():
    return F.gather_tree(paddle.to_tensor(IDS), paddle.to_tensor(PARENTS))


def case_gather_tree_int32_random():
    r = np.random.default_rng(3)
    ids = r.integers(0, 20, (6, 3, 4)).astype("int32")
    parents = r.integers(0, 4, (6, 3, 4)).astype("int32")
    return F.gather_tree(paddle.to_tensor(ids), paddle.to_tensor(parents))


def case_gather_tree_errors():
    ids, par = paddle.to_tensor(IDS), paddle.to_tensor(PARENTS)
    return [
        expect_error(lambda: F.gather_tree(ids, par[:2])),
        expect_error(lambda: F.gather_tree(ids.astype("float32"), par.astype("float32"))),
        expect_error(lambda: F.gather_tree(ids.astype("int32"), par)),
        expect_error(lambda: F.gather_tree(ids[0], par[0])),
        expect_error(lambda: F.gather_tree(ids, par * 5)),
    ]


# -- beam search -------------------------------------------------------------------------------
V, E, H = 10, 4, 6


def _decoder(cell, beam=3, end_bias=0.0, seed=0, embed=True):
    emb = fill_deterministic(nn.Embedding(V, E), seed) if embed else None
    out = fill_deterministic(nn.Linear(H, V), seed + 1)
    if end_bias:
        with paddle.no_grad():
            b = np.zeros(V, "float32")
            b[1] = end_bias
            out.bias.set_value(out.bias.numpy() + b)
    cell = fill_deterministic(cell, seed + 2)
    dec = nn.BeamSearchDecoder(
        cell, start_token=0, end_token=1, beam_size=beam, embedding_fn=emb, output_fn=out
    )
    return dec, [m for m in (cell, out, emb) if m is not None]


def _grads(layers):
    return [{k: p.grad for k, p in m.named_parameters()} for m in layers]


def _decode(dec, layers, inits, **kw):
    res = nn.dynamic_decode(dec, inits=inits, return_length=True, **kw)
    outs, states, lengths = res
    loss = (states.log_probs * paddle.to_tensor(randn(*states.log_probs.shape, seed=9))).sum()
    loss.backward()
    return {
        "ids": outs,
        "lengths": lengths,
        "log_probs": states.log_probs,
        "finished": states.finished,
        "state_lengths": states.lengths,
        "cell_states": list(states.cell_states)
        if isinstance(states.cell_states, list | tuple)
        else states.cell_states,
        "grads": _grads(layers),
    }


def case_beam_search_gru():
    dec, layers = _decoder(nn.GRUCell(E, H))
    h = paddle.to_tensor(randn(2, H, seed=1))
    return _decode(dec, layers, h, max_step_num=5)


def case_beam_search_gru_time_major():
    dec, layers = _decoder(nn.GRUCell(E, H), beam=2, seed=4)
    h = paddle.to_tensor(randn(3, H, seed=2))
    return _decode(dec, layers, h, max_step_num=3, output_time_major=True)


def case_beam_search_lstm_finishes():
    # a large end_token bias: every beam ends early, lengths differ
    dec, layers = _decoder(nn.LSTMCell(E, H), beam=2, end_bias=1.5, seed=7)
    hc = [paddle.to_tensor(randn(3, H, seed=3)), paddle.to_tensor(randn(3, H, seed=4))]
    return _decode(dec, layers, hc, impute_finished=True)


def case_beam_search_lstm_no_limit_mixed():
    dec, layers = _decoder(nn.LSTMCell(E, H), beam=3, end_bias=0.8, seed=11)
    hc = [paddle.to_tensor(randn(4, H, seed=5)), paddle.to_tensor(randn(4, H, seed=6))]
    return _decode(dec, layers, hc, max_step_num=8)


def case_beam_search_initialize_step():
    dec, _ = _decoder(nn.GRUCell(E, H), beam=2, seed=13)
    h = paddle.to_tensor(randn(2, H, seed=7))
    inputs, states, finished = dec.initialize(h)
    out, st, nxt, fin = dec.step(paddle.full([1], 0, "int64"), inputs, states)
    return {
        "init": [inputs, states.cell_states, states.log_probs, states.finished, states.lengths],
        "finished": finished,
        "step_out": list(out),
        "step_state": [st.cell_states, st.log_probs, st.finished, st.lengths],
        "next_inputs": nxt,
        "fin": fin,
        "fields": [list(dec.OutputWrapper._fields), list(dec.StateWrapper._fields)],
        "tracks": dec.tracks_own_finished,
    }


def case_tile_beam_merge_with_batch():
    x = paddle.to_tensor(randn(2, 3, 2, seed=8))
    return [
        nn.BeamSearchDecoder.tile_beam_merge_with_batch(x, 3),
        nn.BeamSearchDecoder.tile_beam_merge_with_batch(x[:, 0], 2),
    ]


def case_beam_search_max_step_zero():
    dec, _ = _decoder(nn.GRUCell(E, H), beam=2, seed=17)
    h = paddle.to_tensor(randn(2, H, seed=8))
    outs, states = nn.dynamic_decode(dec, inits=h, max_step_num=0)
    return {"ids": outs, "lengths": states.lengths}


class _Greedy:
    """A duck-typed decoder that does not track its own finished flags: dynamic_decode
    counts the lengths and (impute_finished) keeps a finished sequence's state."""

    tracks_own_finished = False

    def __init__(self, cell, out, emb):
        self.cell, self.out, self.emb = cell, out, emb

    def initialize(self, h):
        ids = paddle.zeros([h.shape[0]], "int64")
        return self.emb(ids), h, paddle.zeros([h.shape[0]], "bool")

    def step(self, time, inputs, states, **kwargs):
        y, h = self.cell(inputs, states)
        logits = self.out(y)
        ids = paddle.argmax(logits, -1)
        return logits, h, self.emb(ids), ids == 1

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError


def _greedy(impute):
    emb = fill_deterministic(nn.Embedding(V, E), 21)
    out = fill_deterministic(nn.Linear(H, V), 22)
    with paddle.no_grad():
        b = np.zeros(V, "float32")
        b[1] = 1.2
        out.bias.set_value(out.bias.numpy() + b)
    cell = fill_deterministic(nn.GRUCell(E, H), 23)
    h = paddle.to_tensor(randn(4, H, seed=10))
    logits, final, lengths = nn.dynamic_decode(
        _Greedy(cell, out, emb),
        inits=h,
        max_step_num=6,
        impute_finished=impute,
        return_length=True,
    )
    (logits * paddle.to_tensor(randn(*logits.shape, seed=11))).sum().backward()
    return {"logits": logits, "final": final, "lengths": lengths, "grads": _grads([cell, out])}


def case_custom_decoder():
    return _greedy(False)


def case_custom_decoder_impute_finished():
    return _greedy(True)


# -- paddle.nn.utils ---------------------------------------------------------------------------
def _summary(layer):
    return [[k, list(v.shape), bool(v.stop_gradient)] for k, v in layer.state_dict().items()] + [
        [n for n, _ in layer.named_parameters()]
    ]


def _wn(make, x, **kw):
    layer = fill_deterministic(make(), 1)
    nn.utils.weight_norm(layer, **kw)
    xs = paddle.to_tensor(x, stop_gradient=False)
    y = layer(xs)
    (y * paddle.to_tensor(randn(*y.shape, seed=5))).sum().backward()
    return {
        "state": _summary(layer),
        "g": layer.weight_g,
        "y": y,
        "grads": {k: p.grad for k, p in layer.named_parameters()},
        "x_grad": xs.grad,
    }


def case_weight_norm_linear():
    return _wn(lambda: nn.Linear(3, 4), randn(2, 3, seed=1))


def case_weight_norm_linear_dim1():
    return _wn(lambda: nn.Linear(3, 4), randn(2, 3, seed=1), dim=1)


def case_weight_norm_conv_dim_none():
    return _wn(lambda: nn.Conv2D(2, 3, 2), randn(1, 2, 4, 4, seed=2), dim=None)


def case_remove_weight_norm():
    layer = fill_deterministic(nn.Linear(3, 4), 2)
    nn.utils.weight_norm(layer)
    with paddle.no_grad():
        layer.weight_g.set_value(layer.weight_g.numpy() * 2)
    nn.utils.remove_weight_norm(layer)
    return {
        "state": _summary(layer),
        "weight": layer.weight,
        "errors": [
            expect_error(lambda: nn.utils.remove_weight_norm(layer)),
            expect_error(lambda: nn.utils.weight_norm(layer, name="foo")),
            expect_error(lambda: nn.utils.weight_norm(layer, dim=2)),
            expect_error(lambda: nn.utils.weight_norm(nn.utils.weight_norm(nn.Linear(2, 2)))),
        ],
    }


def _sn(make, x, train=True, **kw):
    layer = fill_deterministic(make(), 3)
    nn.utils.spectral_norm(layer, **kw)
    name = "weight"
    u = randn(*getattr(layer, name + "_u").shape, seed=12)
    v = randn(*getattr(layer, name + "_v").shape, seed=13)
    layer.weight_u.set_value(u / np.linalg.norm(u))
    layer.weight_v.set_value(v / np.linalg.norm(v))
    layer.train() if train else layer.eval()
    xs = paddle.to_tensor(x, stop_gradient=False)
    y = layer(xs)
    (y * paddle.to_tensor(randn(*y.shape, seed=5))).sum().backward()
    return {
        "state": _summary(layer),
        "buffers": [n for n, _ in layer.named_buffers()],
        "y": y,
        "weight": layer.weight,
        "u": layer.weight_u,
        "v": layer.weight_v,
        "grads": {k: p.grad for k, p in layer.named_parameters()},
        "x_grad": xs.grad,
    }


def case_spectral_norm_linear():
    return _sn(lambda: nn.Linear(3, 4), randn(2, 3, seed=1))


def case_spectral_norm_conv_iters():
    return _sn(lambda: nn.Conv2D(2, 3, 2), randn(1, 2, 3, 3, seed=2), n_power_iterations=3)


def case_spectral_norm_conv_transpose_eval():
    return _sn(lambda: nn.Conv2DTranspose(2, 3, 2), randn(1, 2, 3, 3, seed=2), train=False)


def case_spectral_norm_errors():
    return [
        expect_error(lambda: nn.utils.spectral_norm(nn.Linear(2, 3), n_power_iterations=0)),
        expect_error(lambda: nn.utils.spectral_norm(nn.Linear(2, 3), dim=5)),
    ]


def case_parameters_vector():
    layer = fill_deterministic(nn.Linear(3, 2), 4)
    vec = nn.utils.parameters_to_vector(layer.parameters())
    (vec * paddle.to_tensor(randn(8, seed=3))).sum().backward()
    grads = [p.grad for p in layer.parameters()]
    nn.utils.vector_to_parameters(paddle.arange(10, dtype="float32"), layer.parameters())
    return {
        "vec": vec,
        "grads": grads,
        "params": list(layer.parameters()),
        "errors": [
            expect_error(
                lambda: nn.utils.vector_to_parameters(paddle.ones([3]), layer.parameters())
            ),
            expect_error(lambda: nn.utils.parameters_to_vector(layer.weight)),
        ],
    }


def case_utils_submodules():
    """Paddle's ``paddle.nn.utils.<module>`` paths, their hook classes and helpers."""
    from paddle.nn.utils import clip_grad_norm_, transform_parameters
    from paddle.nn.utils.spectral_norm_hook import SpectralNorm, normal_
    from paddle.nn.utils.weight_norm_hook import WeightNorm, l2_norm, norm_except_dim

    x = paddle.to_tensor(randn(2, 3, 4, seed=1))
    wn = nn.utils.weight_norm(nn.Linear(3, 4), dim=1)
    sn = nn.utils.spectral_norm(nn.Conv2D(2, 3, 2))
    (wn_hook,) = wn._forward_pre_hooks.values()
    (sn_hook,) = sn._forward_pre_hooks.values()
    paddle.seed(1)
    filled = paddle.zeros([5])
    returned = normal_(filled, 1.0, 2.0)
    return {
        "same_fn": [
            callable(clip_grad_norm_),
            transform_parameters.parameters_to_vector is nn.utils.parameters_to_vector,
        ],
        "hooks": [
            [type(wn_hook) is WeightNorm, wn_hook.name, wn_hook.dim],
            [type(sn_hook) is SpectralNorm, sn_hook.name, sn_hook.dim, sn_hook.n_power_iterations],
        ],
        "matrix": list(sn_hook.reshape_weight_to_matrix(sn.weight_orig).shape),
        "norm_except_dim": [norm_except_dim(x, d) for d in (-1, 0, 1, 2)],
        "l2_norm": [l2_norm(x, a) for a in (0, 2, -1)] + [l2_norm(paddle.zeros([2]), 0, 0.04)],
        "normal_": [returned is filled, filled],
    }


# -- paddle.nn.SpectralNorm --------------------------------------------------------------------
def _sn_layer(shape, seed_w, **kw):
    paddle.seed(9)
    sn = nn.SpectralNorm(shape, **kw)
    x = paddle.to_tensor(randn(*shape, seed=seed_w), stop_gradient=False)
    y = sn(x)
    # not recorded: Paddle's input gradient (measured) is not the gradient of x / sigma(x)
    # with the iterated u, v held constant, which is what we compute
    return {"state": _summary(sn), "u": sn.weight_u, "v": sn.weight_v, "y": y}


def case_spectral_norm_layer():
    return _sn_layer([2, 3, 4], 1, dim=1, power_iters=2)


def case_spectral_norm_layer_default():
    return _sn_layer([5, 3], 2)
