"""paddle.nn attention layers and F.scaled_dot_product_attention / flash_attention vs real Paddle
3.3.1 with identical weights (``fill_deterministic``): outputs, attention weights, caches of
incremental decoding, gradients of inputs and parameters, state_dict keys/shapes, printed form,
seeded default weights (Paddle's random stream), dropout draws, errors, and a 15-step AdamW
training run of a 2-layer Transformer encoder classifier (eager and to_static)."""

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
from _layer_util import fill_deterministic, layer_golden, state_summary
from _util import backprop, expect_error, randn, rng

import paddle

# gradients of a squared-sum loss reach ~70 here: float32 cancellation leaves ~1e-4 absolute
_GRADS = (1e-5, 2e-4)
TOLERANCE = {
    "case_train_encoder_classifier_eager": (1e-4, 1e-6),
    "case_train_encoder_classifier_to_static": (1e-4, 1e-6),
    **{
        f"case_{n}": _GRADS
        for n in (
            "mha_self",
            "mha_cross_kdim_vdim_weights",
            "mha_bool_mask",
            "mha_no_bias_no_bias_grads",
            "mha_incremental_cache",
            "encoder_layer_post_norm",
            "encoder_layer_pre_norm_gelu",
            "decoder_layer_post_norm",
            "decoder_layer_pre_norm_memory_mask",
            "transformer_full",
        )
    },
}

B, L, S, E, H, FF = 2, 3, 4, 8, 2, 16
Q = randn(B, L, E, seed=1)
KV = randn(B, S, E, seed=2)
MASK_BOOL = rng(3).random((B, H, L, S)) > 0.4
MASK_FLOAT = randn(L, S, seed=4)
CAUSAL = np.triu(np.full((L, L), -np.inf, "float32"), 1)


def _golden(make, *inputs, **kw):
    """layer_golden, with each key projection's bias gradient recorded as "near zero": it is
    exactly zero in theory (softmax ignores a shift shared by all keys), so both frameworks
    return rounding noise of ~1e-5 there."""
    res = layer_golden(make, *inputs, **kw)
    for k, g in res.get("param_grads", {}).items():
        if k.endswith("k_proj.bias") and not isinstance(g, str):
            res["param_grads"][k] = bool(np.abs(g.numpy()).max() < 1e-3)
    return res


def _t(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


# -- MultiHeadAttention -----------------------------------------------------------------------
def case_mha_self():
    return _golden(lambda: nn.MultiHeadAttention(E, H), Q)


def case_mha_cross_kdim_vdim_weights():
    make = lambda: nn.MultiHeadAttention(E, H, kdim=6, vdim=5, need_weights=True)  # noqa: E731
    return _golden(make, Q, randn(B, S, 6, seed=5), randn(B, S, 5, seed=6))


def case_mha_bool_mask():
    return _golden(
        lambda: nn.MultiHeadAttention(E, H, need_weights=True),
        Q,
        KV,
        KV,
        kwargs={"attn_mask": _t(MASK_BOOL)},
    )


def case_mha_int_and_float_masks():
    m = fill_deterministic(nn.MultiHeadAttention(E, H, need_weights=True))
    ints = MASK_BOOL.astype("int32") * 3  # Paddle adds (3 - 1) * 1e9 where the mask is 3
    return [
        m(_t(Q), _t(KV), _t(KV), attn_mask=_t(MASK_BOOL.astype("int64"))),
        m(_t(Q), _t(KV), _t(KV), attn_mask=_t(ints)),
        m(_t(Q), _t(KV), _t(KV), attn_mask=_t(MASK_FLOAT)),
        m(_t(Q), _t(KV), _t(KV), attn_mask=_t(np.zeros((B, 1, 1, S), bool))),  # all masked
    ]


def case_mha_no_bias_no_bias_grads():
    return _golden(lambda: nn.MultiHeadAttention(E, H, bias_attr=False), Q, KV, KV)


def case_mha_value_defaults_to_query():
    m = fill_deterministic(nn.MultiHeadAttention(E, H))
    return [m(_t(Q)), m(_t(Q), _t(Q)), m(_t(Q), None, _t(Q))]


def case_mha_incremental_cache():
    m = fill_deterministic(nn.MultiHeadAttention(E, H, need_weights=True))
    x = _t(Q, grad=True)
    cache = m.gen_cache(x)
    outs = [[list(cache.k.shape), type(cache).__name__]]
    for i in range(L):
        out, w, cache = m(x[:, i : i + 1], cache=cache)
        outs += [out, w, cache.k, cache.v, type(cache).__name__]
    full = m(x, attn_mask=_t(CAUSAL))
    loss = (out * out).sum() + (cache.k * cache.k).sum()
    loss.backward()
    return {"steps": outs, "full": full, "x_grad": x.grad}


def case_mha_static_cache():
    m = fill_deterministic(nn.MultiHeadAttention(E, H))
    sc = m.gen_cache(_t(KV), _t(KV), type=nn.MultiHeadAttention.StaticCache)
    out, same = m(_t(Q), cache=sc)
    given = m.gen_cache(_t(KV), _t(KV), type=nn.MultiHeadAttention.Cache)
    return [type(sc).__name__, sc.k, sc.v, out, same is sc, m(_t(Q), _t(KV), _t(KV)),
            type(given).__name__, given.k]  # fmt: skip


def case_mha_attributes():
    m = nn.MultiHeadAttention(12, 3, dropout=0.1, kdim=4, vdim=5, need_weights=True)
    names = ["embed_dim", "kdim", "vdim", "num_heads", "dropout", "need_weights", "head_dim"]
    return [{n: getattr(m, n) for n in names}, list(nn.MultiHeadAttention.Cache._fields)]


def case_mha_dropout_seeded():
    paddle.seed(11)
    m = fill_deterministic(nn.MultiHeadAttention(E, H, dropout=0.5, need_weights=True))
    m.train()
    return m(_t(Q), _t(KV), _t(KV))


# -- encoder / decoder layers -----------------------------------------------------------------
def case_encoder_layer_post_norm():
    make = lambda: nn.TransformerEncoderLayer(E, H, FF, dropout=0.0)  # noqa: E731
    return _golden(make, Q, kwargs={"src_mask": _t(MASK_FLOAT[:, :L])})


def case_encoder_layer_pre_norm_gelu():
    make = lambda: nn.TransformerEncoderLayer(E, H, FF, activation="gelu", normalize_before=True)  # noqa: E731
    return _golden(make, Q, kwargs={"src_mask": _t(np.tril(np.ones((L, L), bool)))})


def case_encoder_layer_dropout_seeded():
    paddle.seed(12)
    m = fill_deterministic(nn.TransformerEncoderLayer(E, H, FF, dropout=0.3, attn_dropout=0.2))
    m.train()
    return m(_t(Q))


def case_decoder_layer_post_norm():
    make = lambda: nn.TransformerDecoderLayer(E, H, FF)  # noqa: E731
    return _golden(make, Q, KV, kwargs={"tgt_mask": _t(CAUSAL)})


def case_decoder_layer_pre_norm_memory_mask():
    make = lambda: nn.TransformerDecoderLayer(E, H, FF, normalize_before=True)  # noqa: E731
    mm = _t(MASK_BOOL[:, :1])
    return _golden(make, Q, KV, kwargs={"tgt_mask": _t(CAUSAL), "memory_mask": mm})


def case_encoder_stack_and_cache():
    layer = nn.TransformerEncoderLayer(E, H, FF, normalize_before=True)
    enc = fill_deterministic(nn.TransformerEncoder(layer, 2, nn.LayerNorm(E)))
    enc.eval()
    full = enc(_t(Q))
    cache = enc.gen_cache(_t(Q))
    out, new = enc(_t(Q[:, :1]), cache=cache)
    return [full, out, [[c.k, c.v] for c in new], state_summary(enc)]


def case_decoder_stack_incremental():
    dec = fill_deterministic(nn.TransformerDecoder(nn.TransformerDecoderLayer(E, H, FF), 2))
    dec.eval()
    full = dec(_t(Q), _t(KV), tgt_mask=_t(CAUSAL))
    cache = dec.gen_cache(_t(KV))
    steps = []
    for i in range(L):
        out, cache = dec(_t(Q[:, i : i + 1]), _t(KV), cache=cache)
        steps.append(out)
    zipped = dec.gen_cache(_t(KV), do_zip=True)
    return [full, steps, [type(c).__name__ for c in zipped[0]], len(zipped)]


def case_transformer_full():
    make = lambda: nn.Transformer(E, H, 2, 2, FF, dropout=0.0)  # noqa: E731
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(None, L)
    return _golden(make, KV, Q, kwargs={"tgt_mask": tgt_mask})


def case_square_subsequent_mask():
    t = nn.Transformer(E, H, 1, 1, FF)
    return [t.generate_square_subsequent_mask(4), t.generate_square_subsequent_mask(_t(2))]


# -- printed form, state_dict, seeded weights -------------------------------------------------
def case_reprs():
    return [
        str(nn.MultiHeadAttention(E, H, kdim=6, vdim=5, dropout=0.1)),
        str(nn.TransformerEncoderLayer(E, H, FF, activation="gelu", act_dropout=0.3)),
        str(nn.TransformerDecoder(nn.TransformerDecoderLayer(E, H, FF), 2, nn.LayerNorm(E))),
        str(nn.Transformer(E, H, 1, 1, FF)),
    ]


def case_state_dicts():
    return [
        state_summary(nn.MultiHeadAttention(E, H, kdim=6, vdim=5)),
        state_summary(nn.TransformerEncoderLayer(E, H, FF, bias_attr=[False, None])),
        state_summary(nn.TransformerDecoderLayer(E, H, FF, bias_attr=[False, None, False])),
        state_summary(nn.Transformer(E, H, 1, 1, FF, bias_attr=[False, None])),
        state_summary(nn.Transformer(E, H, 1, 2, FF, bias_attr=[None, False, True])),
    ]


def case_seeded_default_weights():
    paddle.seed(2024)
    layers = [
        nn.MultiHeadAttention(E, H, kdim=6),
        nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, FF), 2),
        nn.TransformerDecoderLayer(E, H, FF),
        nn.Transformer(E, H, 1, 1, FF),
    ]
    return [dict(m.state_dict()) for m in layers]


def case_encoder_copies():
    layer = nn.TransformerEncoderLayer(E, H, FF)
    enc = nn.TransformerEncoder(layer, 3)
    w = [enc.layers[i].linear1.weight.numpy() for i in range(3)]
    return {
        "first_is_given": enc.layers[0] is layer,
        "copies_differ": bool(np.abs(w[1] - w[0]).max() > 0),
        "num_layers": enc.num_layers,
        "config": {k: v for k, v in layer._config.items() if k not in ("weight_attr", "bias_attr")},
    }


# -- functional -------------------------------------------------------------------------------
QS = randn(B, 4, H, 8, seed=7)
KS = randn(B, 5, H, 8, seed=8)
VS = randn(B, 5, H, 8, seed=9)


def case_sdpa_plain_grads():
    return backprop(lambda q, k, v: F.scaled_dot_product_attention(q, k, v), QS, KS, VS)


def case_sdpa_masks():
    bm = rng(10).random((B, H, 4, 5)) > 0.3
    fm = randn(4, 5, seed=11)
    return [
        backprop(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, _t(bm)), QS, KS, VS),
        backprop(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, _t(fm)), QS, KS, VS),
        backprop(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, _t(fm[None])), QS, KS, VS),
    ]


def case_sdpa_causal_scale_gqa():
    sdpa = F.scaled_dot_product_attention
    bm = _t(rng(10).random((B, H, 4, 5)) > 0.3)
    return [
        backprop(lambda q, k, v: sdpa(q, k, v, is_causal=True), QS, KS, VS),
        backprop(lambda q, k, v: sdpa(q, k, v, bm, is_causal=True), QS, KS, VS),  # mask ignored
        backprop(lambda q, k, v: sdpa(q, k, v, scale=0.3), QS, KS, VS),
        backprop(lambda q, k, v: sdpa(q, k, v), randn(B, 4, 4, 8), KS[:, :, :1], VS[:, :, :1]),
        backprop(lambda q, k, v: sdpa(q, k, v), QS[0], KS[0], VS[0]),  # 3-D: one sequence
    ]


def case_sdpa_dropout():
    paddle.seed(13)
    a = F.scaled_dot_product_attention(_t(QS), _t(KS), _t(VS), dropout_p=0.4)
    b = F.scaled_dot_product_attention(_t(QS), _t(KS), _t(VS), dropout_p=0.4, training=False)
    return [a, b]


def case_flash_attention():
    fa = F.flash_attention.flash_attention
    out, sm = fa(_t(QS), _t(KS), _t(VS), causal=True, return_softmax=True)
    qkv = np.stack([QS, QS * 0.5, QS * 2], axis=2)
    return [
        backprop(lambda q, k, v: fa(q, k, v)[0], QS, KS, VS),
        out,
        sm,
        fa(_t(QS), _t(KS), _t(VS))[1] is None,
        backprop(lambda x: F.flash_attn_qkvpacked(x, causal=True)[0], qkv),
    ]


def case_errors():
    q, kv = _t(Q), _t(KV)
    sdpa = F.scaled_dot_product_attention
    return [
        expect_error(lambda: nn.MultiHeadAttention(10, 3)),
        expect_error(lambda: nn.MultiHeadAttention(0, 1)),
        expect_error(lambda: nn.MultiHeadAttention(8, 0)),
        expect_error(lambda: nn.TransformerEncoderLayer(8, 2, 0)),
        expect_error(lambda: nn.TransformerEncoderLayer(8, 2, 16, activation="foo")),
        expect_error(lambda: nn.TransformerDecoderLayer(0, 2, 16)),
        expect_error(lambda: nn.TransformerEncoderLayer(8, 2, 16, weight_attr=[None])),
        expect_error(lambda: nn.TransformerDecoderLayer(8, 2, 16, bias_attr=[False, None])),
        expect_error(lambda: nn.Transformer(8, 2, 1, 1, 16, bias_attr=[None] * 4)),
        expect_error(lambda: nn.Transformer(10, 3)),
        expect_error(lambda: nn.MultiHeadAttention(E, H)(q, kv, kv, _t(np.zeros((B, H, L, 5))))),
        expect_error(lambda: nn.MultiHeadAttention(E, H)(q, kv, kv, _t(np.zeros((3, L, S))))),
        expect_error(lambda: nn.MultiHeadAttention(E, H, kdim=6)(q, kv, kv)),
        expect_error(lambda: nn.MultiHeadAttention(E, H)(q, kv, kv[:, :3])),
        expect_error(lambda: nn.MultiHeadAttention(E, H)(q[0])),
        expect_error(lambda: sdpa(_t(QS), _t(KS), _t(VS), _t(np.zeros((B, H, 4, 4), bool)))),
        expect_error(lambda: sdpa(_t(QS), _t(KS), _t(VS), _t(np.ones((B, H, 4, 5), "int32")))),
        expect_error(lambda: sdpa(_t(QS), _t(KS[..., :4]), _t(VS))),
        expect_error(lambda: sdpa(_t(QS), _t(KS.astype("float64")), _t(VS))),
        expect_error(lambda: sdpa(_t(QS), _t(KS[:, :, :1]), _t(VS[:, :, :1]), enable_gqa=False)),
    ]


# -- training: a 2-layer Transformer encoder classifier, 15 AdamW steps -----------------------
STEPS = 15


class _Classifier(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(6, 16)
        layer = nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(16, 3)

    def forward(self, x, mask):
        h = self.encoder(self.embed(x), src_mask=mask)
        return self.head(h.mean(axis=1))


def _train(compiled):
    model = _Classifier()
    r = rng(21)
    for p in model.parameters():
        p.set_value((r.standard_normal(p.shape) * 0.2).astype("float32"))
    opt = paddle.optimizer.AdamW(
        learning_rate=0.005, weight_decay=0.01, parameters=model.parameters()
    )

    def step(x, mask, y):
        loss = F.cross_entropy(model(x, mask), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if compiled:
        step = paddle.jit.to_static(step)
    d = rng(22)
    xs = d.standard_normal((STEPS, 4, 5, 6)).astype("float32")
    ys = d.integers(0, 3, (STEPS, 4)).astype("int64")
    keep = np.ones((4, 1, 1, 5), bool)
    keep[1, ..., 3:] = False  # a padded sequence
    mask = paddle.to_tensor(keep)
    return [float(step(_t(x), mask, _t(y))) for x, y in zip(xs, ys)]


def case_train_encoder_classifier_eager():
    return _train(False)


def case_train_encoder_classifier_to_static():
    return _train(True)


def case_sdp_kernel_backends():
    """``F.sdp_kernel`` switches the same backend set as ``nn.attention.sdpa_kernel``; on a CPU,
    ``scaled_dot_product_attention`` needs MATH enabled."""
    from paddle.nn.attention import SDPBackend, sdpa_kernel

    q = paddle.to_tensor(randn(1, 4, 2, 8, seed=3))
    sdpa = F.scaled_dot_product_attention

    def run(ctx):
        with ctx as got:
            return [got, sdpa(q, q, q)]

    def none_enabled():
        with F.sdp_kernel(enable_math=False, enable_flash=False, enable_mem_efficient=False):
            pass

    return {
        "default": expect_error(lambda: run(F.sdp_kernel())),
        "math": run(F.sdp_kernel(enable_math=True, enable_mem_efficient=False)),
        "sdpa_kernel_math": run(sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION])),
        "flash_only": expect_error(lambda: run(sdpa_kernel(SDPBackend.FLASH_ATTENTION))),
        "none": expect_error(none_enabled),
        "after": sdpa(q, q, q),
        "same": F.sdp_kernel is F.flash_attention.sdp_kernel,
    }
