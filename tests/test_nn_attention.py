"""paddle.nn attention layers: the layer harness for each one, and what the goldens
(tests/cases/nn_attention.py) cannot say: entry points real Paddle cannot run on CPU
(``flash_attn_unpadded``) checked against the math definition, ``softmax_scale`` (Paddle's CPU
fallback ignores it), messages that name the bad argument, to_static parity of incremental
decoding."""

from __future__ import annotations

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
import pytest
from layer_harness import check_layer

import paddle

B, L, S, E, H, FF = 2, 3, 4, 8, 2, 16
RNG = np.random.default_rng(0)
Q = RNG.standard_normal((B, L, E)).astype("float32")
KV = RNG.standard_normal((B, S, E)).astype("float32")


def _mha_keys(prefix=""):
    return [f"{prefix}{p}_proj.{w}" for p in ("q", "k", "v", "out") for w in ("weight", "bias")]


def _enc_keys(prefix=""):
    rest = ["linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias"]
    rest += ["norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"]
    return _mha_keys(f"{prefix}self_attn.") + [prefix + k for k in rest]


@pytest.mark.parametrize(
    "make,inputs,keys",
    [
        (lambda: nn.MultiHeadAttention(E, H), (Q,), _mha_keys()),
        (lambda: nn.MultiHeadAttention(E, H, kdim=6, vdim=5), (Q, KV[..., :6], KV[..., :5]), None),
        (lambda: nn.TransformerEncoderLayer(E, H, FF, dropout=0.0), (Q,), _enc_keys()),
        (
            lambda: nn.TransformerDecoderLayer(E, H, FF, normalize_before=True),
            (Q, KV),
            None,
        ),
        (
            lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(E, H, FF), 2),
            (Q,),
            _enc_keys("layers.0.") + _enc_keys("layers.1."),
        ),
        (lambda: nn.Transformer(E, H, 1, 1, FF), (KV, Q), None),
    ],
)
def test_layer_harness(make, inputs, keys):
    # the key projection's bias gets an (exactly) zero gradient in theory: not checked
    res = check_layer(make, *inputs, expected_keys=keys, rtol=1e-5, atol=1e-5)
    assert list(res["out"].shape) == [B, L, E]


def test_need_weights_and_cache_under_to_static():
    m = nn.MultiHeadAttention(E, H, need_weights=True)
    m.eval()
    x = paddle.to_tensor(Q)
    cache = m.gen_cache(x)
    eager = m(x[:, :1], cache=cache)
    static = paddle.jit.to_static(m)(x[:, :1], cache=cache)
    assert type(static[2]).__name__ == "Cache"
    for a, b in zip(
        [eager[0], eager[1], eager[2].k], [static[0], static[1], static[2].k], strict=True
    ):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def _ref(q, k, v, mask=None, scale=None):
    s = np.einsum("bqhd,bkhd->bhqk", q, k) * (scale or 1 / np.sqrt(q.shape[-1]))
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return np.einsum("bhqk,bkhd->bqhd", p, v)


def test_flash_attn_unpadded_matches_per_sequence_attention():
    """Paddle 3.3.1's CPU build has no flash_attn_unpadded kernel: checked against the math."""
    from paddle.nn.functional.flash_attention import flash_attn_unpadded

    lens = [3, 5, 2]
    cu = np.cumsum([0, *lens]).astype("int32")
    q, k, v = (RNG.standard_normal((sum(lens), H, 4)).astype("float32") for _ in range(3))
    for causal in (False, True):
        out, sm = flash_attn_unpadded(
            *(paddle.to_tensor(a) for a in (q, k, v)),
            paddle.to_tensor(cu),
            paddle.to_tensor(cu),
            max(lens),
            max(lens),
            0.4,
            causal=causal,
        )
        assert sm is None
        for i in range(len(lens)):
            sl = slice(cu[i], cu[i + 1])
            n = lens[i]
            mask = np.tril(np.ones((n, n), bool)) if causal else None
            want = _ref(q[None, sl], k[None, sl], v[None, sl], mask, 0.4)[0]
            np.testing.assert_allclose(out.numpy()[sl], want, rtol=1e-5, atol=1e-6)


def test_flash_attention_softmax_scale_and_gqa_packing():
    """Paddle's CPU fallback ignores softmax_scale (measured: identical outputs); the flash
    kernel's definition, followed here, applies it. Packed qkv with 2 query groups per key
    head: query heads are the groups flattened, head h attends key head h // groups."""
    fa = F.flash_attention.flash_attention
    q, k, v = (RNG.standard_normal((B, 4, H, 8)).astype("float32") for _ in range(3))
    out, _ = fa(*(paddle.to_tensor(a) for a in (q, k, v)), softmax_scale=0.2)
    np.testing.assert_allclose(out.numpy(), _ref(q, k, v, scale=0.2), rtol=1e-5, atol=1e-6)
    qkv = np.stack([q[:, :, :1], q[:, :, 1:], k[:, :, :1], v[:, :, :1]], axis=2)  # G=2, Hk=1
    out, _ = F.flash_attn_qkvpacked(paddle.to_tensor(qkv))
    want = _ref(q, np.repeat(k[:, :, :1], 2, 2), np.repeat(v[:, :, :1], 2, 2))
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "call,exc,words",
    [
        (lambda: nn.MultiHeadAttention(10, 3), AssertionError, "num_heads"),
        (lambda: nn.MultiHeadAttention(0, 1), AssertionError, "embed_dim"),
        (lambda: nn.TransformerEncoderLayer(8, 2, 0), AssertionError, "dim_feedforward"),
        (lambda: nn.TransformerEncoderLayer(8, 2, 16, weight_attr=[None]), AssertionError, "2"),
        (
            lambda: nn.MultiHeadAttention(E, H)(
                paddle.to_tensor(Q), attn_mask=paddle.zeros([B, H, L, L + 1])
            ),
            ValueError,
            "attn_mask",
        ),
        (
            lambda: F.scaled_dot_product_attention(
                *[paddle.zeros([B, 4, H, 8])] * 3, attn_mask=paddle.zeros([B, H, 4, 3])
            ),
            ValueError,
            "attn_mask",
        ),
        (
            lambda: F.scaled_dot_product_attention(
                paddle.zeros([B, 4, H, 8]), paddle.zeros([B, 4, H, 4]), paddle.zeros([B, 4, H, 8])
            ),
            ValueError,
            "head_dim",
        ),
        (
            lambda: nn.MultiHeadAttention(E, H)(paddle.to_tensor(Q), paddle.to_tensor(KV)),
            ValueError,
            "key and value",
        ),
    ],
)
def test_bad_configuration_names_the_argument(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


def test_fully_masked_rows_follow_paddle():
    """MultiHeadAttention: a fully masked row averages the values ((mask - 1) * 1e9 is finite);
    scaled_dot_product_attention with a bool mask: NaN in Paddle, where jax's fused kernel
    gives the average (documented difference)."""
    m = nn.MultiHeadAttention(E, H, need_weights=True)
    _, w = m(paddle.to_tensor(Q), attn_mask=paddle.zeros([B, 1, 1, L], "bool"))
    np.testing.assert_allclose(w.numpy(), np.full((B, H, L, L), 1 / L), rtol=1e-6)
