"""Attention: ``scaled_dot_product_attention``, the ``flash_attention`` entry points and the
kernel behind ``nn.MultiHeadAttention``, all on ``jax.nn.dot_product_attention`` (XLA's
fused attention on CPU, cuDNN's on GPUs where it supports the shapes and dtypes).

Layouts are Paddle's: ``scaled_dot_product_attention`` and ``flash_attention`` take
[batch, seq, heads, head_dim] (jax's own layout, so no transpose); attention weights are
[batch, heads, seq_q, seq_k]. Masks (measured on Paddle 3.3.1): a bool mask keeps True; a float
mask is added to the scores; ``is_causal`` is top-left aligned (query i sees keys 0..i) and,
when set, ``scaled_dot_product_attention`` ignores ``attn_mask`` as Paddle does.
``MultiHeadAttention`` turns a non-float mask into ``(mask - 1) * 1e9`` (an int mask of 3 adds
2e9), so a fully masked row averages all keys.

Dropout on the attention probabilities draws its keep mask the way ``F.dropout`` does (Paddle's
host stream in eager mode, so seeded runs drop what Paddle drops; the traced key under
``to_static``) and then runs the unfused formula: the probabilities are needed explicitly.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import random as _random
from ..._core.registry import call_op, op
from ..._core.tensor import Tensor
from ..attention.sdpa import check_sdpa_backend
from ._common import _check_p, _host_keep

_F = dict(namespaces=("paddle.nn.functional",), method=None)
_FA = dict(namespaces=("paddle.nn.functional.flash_attention",), method=None)
_PRIVATE = dict(namespaces=(), method=None)
_FLOATS = ("float16", "bfloat16", "float32", "float64")


# -- kernels ----------------------------------------------------------------------------------
def _as_4d(m):
    return None if m is None else m.reshape((1,) * (4 - m.ndim) + m.shape)


def _attend(q, k, v, bias, mask, keep, p, scale, is_causal, need_weights):
    """softmax(q k^T * scale + bias | mask | causal) v over [B, L, H, D] arrays (k/v may have
    fewer heads: grouped-query attention). Returns (out [B, Lq, H, D], weights or None)."""
    bias, mask = _as_4d(bias), _as_4d(mask)
    if bias is not None:
        bias = bias.astype(q.dtype)
    if keep is None and not need_weights:
        out = jax.nn.dot_product_attention(
            q, k, v, bias=bias, mask=mask, scale=scale, is_causal=is_causal
        )
        return out, None
    rep = q.shape[2] // k.shape[2]
    if rep > 1:
        k, v = jnp.repeat(k, rep, axis=2), jnp.repeat(v, rep, axis=2)
    s = jnp.einsum("bqhd,bkhd->bhqk", q * jnp.asarray(scale, q.dtype), k)
    if bias is not None:
        s = s + bias.astype(s.dtype)
    if mask is not None:
        s = jnp.where(mask, s, jnp.asarray(-jnp.inf, s.dtype))
    if is_causal:
        lq, lk = s.shape[-2:]
        s = jnp.where(jnp.tril(jnp.ones((lq, lk), bool)), s, jnp.asarray(-jnp.inf, s.dtype))
    w = jax.nn.softmax(s.astype(jnp.promote_types(s.dtype, jnp.float32)), axis=-1).astype(s.dtype)
    if keep is not None and p >= 1.0:
        w = jnp.zeros_like(w)
    elif keep is not None:
        w = jnp.where(keep, w / jnp.asarray(np.float32(1.0 - p), w.dtype), jnp.zeros((), w.dtype))
    return jnp.einsum("bhqk,bkhd->bqhd", w, v), w


@op("_nn_sdpa", tensors=("q", "k", "v", "bias", "mask", "keep"), **_PRIVATE)
def _sdpa(q, k, v, bias, mask, keep, p: float, scale: float, is_causal: bool, need_weights: bool):
    out, w = _attend(q, k, v, bias, mask, keep, p, scale, is_causal, need_weights)
    return (out, w) if need_weights else out


@op("_nn_mha", tensors=("q", "k", "v", "mask", "keep"), **_PRIVATE)
def _mha(q, k, v, mask, keep, num_heads: int, kv_heads_first: bool, need_weights: bool, p: float):
    """MultiHeadAttention's core on projected inputs: q [B, Lq, E]; k, v [B, Lk, E] (or
    [B, H, Lk, D] from a cache when ``kv_heads_first``); ``mask`` added to the scores after
    Paddle's conversion of non-float masks. Returns out [B, Lq, E] (and weights)."""
    b, lq, e = q.shape
    d = e // num_heads
    qh = q.reshape(b, lq, num_heads, d)
    if kv_heads_first:
        kh, vh = jnp.swapaxes(k, 1, 2), jnp.swapaxes(v, 1, 2)
    else:
        kh = k.reshape(k.shape[0], k.shape[1], num_heads, d)
        vh = v.reshape(v.shape[0], v.shape[1], num_heads, d)
    if kh.shape[0] != b:  # Paddle's matmul broadcasts a batch of 1
        bb = max(b, kh.shape[0])
        qh = jnp.broadcast_to(qh, (bb, *qh.shape[1:]))
        kh = jnp.broadcast_to(kh, (bb, *kh.shape[1:]))
        vh = jnp.broadcast_to(vh, (bb, *vh.shape[1:]))
    bias = None
    if mask is not None:
        bias = mask
        if not jnp.issubdtype(mask.dtype, jnp.floating):
            bias = (mask.astype(q.dtype) - jnp.asarray(1.0, q.dtype)) * jnp.asarray(1e9, q.dtype)
    out, w = _attend(qh, kh, vh, bias, None, keep, p, d**-0.5, False, need_weights)
    out = out.reshape(out.shape[0], lq, e)
    return (out, w) if need_weights else out


@op("_nn_attention_keep", tensors=("key",), differentiable=False, **_PRIVATE)
def _keep_from_key(key, shape: tuple, p: float):
    return jax.random.bernoulli(jax.random.wrap_key_data(key), 1.0 - p, shape)


def dropout_keep(shape, p: float):
    """The keep mask of a dropout with rate p over ``shape`` (a bool Tensor), drawn as
    ``F.dropout`` draws it: Paddle's host stream in eager mode, the traced key otherwise."""
    shape = tuple(int(s) for s in shape)
    eng = _random.host_engine()
    if eng is not None:
        return Tensor(_host_keep(eng, shape, p))
    return _keep_from_key(Tensor(_random.next_key()), shape, p)


def check_mask(mask, scores_shape, who: str, arg: str = "attn_mask") -> None:
    """A mask must broadcast to the scores' shape [B, H, Lq, Lk] without growing them."""
    shape = tuple(mask.shape)
    try:
        ok = np.broadcast_shapes(shape, tuple(scores_shape)) == tuple(scores_shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            f"(InvalidArgument) {who}: {arg} of shape {list(shape)} cannot be broadcast to the "
            f"attention scores' shape {list(scores_shape)} ([batch_size, num_heads, "
            "query_length, key_length])."
        )


def _check_mask_dtype(mask, query, who: str) -> None:
    """A float mask is added to the scores as they are: Paddle's kernel rejects one of another
    float dtype (outside auto_cast)."""
    from ...amp._auto_cast import is_autocast_enabled

    if mask.dtype != query.dtype and not is_autocast_enabled():
        raise ValueError(
            f"(InvalidArgument) {who}: a float attn_mask should have the dtype of query "
            f"({query.dtype.name}), but received {mask.dtype.name}."
        )


def _check_qkv(query, key, value, who: str, enable_gqa: bool = True) -> None:
    for name, t in (("query", query), ("key", key), ("value", value)):
        if not isinstance(t, Tensor) or len(t.shape) != 4:
            shape = list(t.shape) if hasattr(t, "shape") else type(t).__name__
            raise ValueError(
                f"(InvalidArgument) {who}: {name} should be a 4-D Tensor [batch_size, seq_len, "
                f"num_heads, head_dim], but received {shape}."
            )
    if query.dtype != key.dtype or query.dtype != value.dtype:
        raise ValueError(
            f"(InvalidArgument) {who}: query, key and value should have one dtype, but received "
            f"{query.dtype.name}, {key.dtype.name} and {value.dtype.name}."
        )
    batches = [t.shape[0] for t in (query, key, value)]
    if all(isinstance(b, int) for b in batches) and len(set(batches)) > 1:
        raise ValueError(
            f"(InvalidArgument) {who}: the batch_size of query [{query.shape[0]}], key "
            f"[{key.shape[0]}] and value [{value.shape[0]}] should be equal."
        )
    if query.shape[-1] != key.shape[-1]:
        raise ValueError(
            f"(InvalidArgument) {who}: the head_dim of query [{query.shape[-1]}] and key "
            f"[{key.shape[-1]}] should be equal."
        )
    if key.shape[1] != value.shape[1] or key.shape[2] != value.shape[2]:
        raise ValueError(
            f"(InvalidArgument) {who}: key {list(key.shape)} and value {list(value.shape)} "
            f"should have the same seq_len ([{key.shape[1]}] and [{value.shape[1]}]) and "
            "num_heads."
        )
    hq, hk = query.shape[2], key.shape[2]
    if hq != hk:
        if not enable_gqa:
            raise AssertionError(
                f"The number of groups in query({hq}) must be equal to the number of groups "
                f"in key({hk}) and the number of groups in value({value.shape[2]}) if GQA "
                "disabled."
            )
        if hq % hk:
            raise AssertionError(
                f"The number of groups in query({hq}) must be divisible by the number of groups "
                f"in key({hk}) if GQA enabled ({who}: the num_heads of query should be a "
                "multiple of the num_heads of key and value)."
            )


def _attention(query, key, value, bias, mask, p, training, scale, causal, need_weights, who):
    p = _check_p(p)
    b, lq, h, _ = query.shape
    keep = None
    if training and p > 0:
        keep = dropout_keep((b, h, lq, key.shape[1]), p)
    return _sdpa(query, key, value, bias, mask, keep, p, scale, causal, need_weights)


# -- public ops -------------------------------------------------------------------------------
@op("scaled_dot_product_attention", composite=True, **_F)
def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    training: bool = True,
    backend: str | None = None,
    scale: float | None = None,
    enable_gqa: bool = True,
    name: str | None = None,
) -> Tensor:
    """softmax(Q K^T * scale + mask) V over [batch, seq, heads, head_dim] (3-D inputs: one
    sequence [seq, heads, head_dim]). ``backend`` is accepted and ignored: XLA or cuDNN run.
    On a CPU, MATH must be enabled (``sdpa_kernel``/``sdp_kernel``), as in Paddle."""
    check_sdpa_backend()
    squeeze = all(isinstance(t, Tensor) and len(t.shape) == 3 for t in (query, key, value))
    if squeeze:
        query, key, value = (call_op("unsqueeze", t, 0) for t in (query, key, value))
    who = "scaled_dot_product_attention"
    _check_qkv(query, key, value, who, enable_gqa)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    bias = mask = None
    if attn_mask is not None and not is_causal:
        b, lq, h, _ = query.shape
        check_mask(attn_mask, (b, h, lq, key.shape[1]), who)
        if attn_mask.dtype.name == "bool":
            mask = attn_mask
        elif attn_mask.dtype.name in _FLOATS:
            _check_mask_dtype(attn_mask, query, who)
            bias = attn_mask
        else:
            raise TypeError(
                "(InvalidType) Type promotion only support calculations between floating-point "
                f"numbers and between complex and real numbers. But got different data type x: "
                f"{query.dtype.name}, y: {attn_mask.dtype.name}. (attn_mask should be bool or "
                "float)"
            )
    out = _attention(
        query, key, value, bias, mask, dropout_p, training, scale, is_causal, False, who
    )
    return call_op("squeeze", out, [0]) if squeeze else out


@op("flash_attention", composite=True, **_FA)
def flash_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    dropout: float = 0.0,
    causal: bool = False,
    return_softmax: bool = False,
    *,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    training: bool = True,
    name: str | None = None,
    softmax_scale: float | None = None,
) -> tuple[Tensor, Tensor | None]:
    """FlashAttention over [batch, seq, heads, head_dim]: returns ``(out, softmax)``, the
    softmax [batch, heads, seq_q, seq_k] only with ``return_softmax`` (else None)."""
    who = "flash_attention"
    _check_qkv(query, key, value, who)
    scale = 1.0 / math.sqrt(query.shape[-1]) if softmax_scale is None else float(softmax_scale)
    res = _attention(
        query, key, value, None, None, dropout, training, scale, causal, return_softmax, who
    )
    return (res[0], res[1]) if return_softmax else (res, None)


def _unpack_qkv(qkv):
    if not isinstance(qkv, Tensor) or len(qkv.shape) != 5 or qkv.shape[2] < 3:
        shape = list(qkv.shape) if hasattr(qkv, "shape") else type(qkv).__name__
        raise ValueError(
            "(InvalidArgument) flash_attn_qkvpacked: qkv should be a 5-D Tensor [batch_size, "
            f"seq_len, num_groups + 2, num_heads_k, head_dim], but received {shape}."
        )
    b, s, g2, hk, d = qkv.shape
    q = call_op("reshape", qkv[:, :, : g2 - 2], [b, s, (g2 - 2) * hk, d])
    return q, qkv[:, :, g2 - 2], qkv[:, :, g2 - 1]


@op("flash_attn_qkvpacked", composite=True, namespaces=("paddle.nn.functional",
    "paddle.nn.functional.flash_attention"), method=None)  # fmt: skip
def flash_attn_qkvpacked(
    qkv: Tensor,
    dropout: float = 0.0,
    causal: bool = False,
    return_softmax: bool = False,
    *,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    training: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor | None]:
    """``flash_attention`` on packed qkv [batch, seq, num_groups + 2, num_heads_k, head_dim]
    (num_groups query heads per key/value head); returns ``(out, softmax or None)``."""
    q, k, v = _unpack_qkv(qkv)
    return flash_attention(q, k, v, dropout, causal, return_softmax, training=training)


@op("_nn_varlen_mask", tensors=("cu_q", "cu_k"), differentiable=False, **_PRIVATE)
def _varlen_mask(cu_q, cu_k, total_q: int, total_k: int, causal: bool):
    """[1, 1, Tq, Tk] bool: query and key in the same sequence (and, causal, key position within
    its sequence <= query position within its sequence)."""
    seg_q = jnp.searchsorted(cu_q, jnp.arange(total_q), side="right") - 1
    seg_k = jnp.searchsorted(cu_k, jnp.arange(total_k), side="right") - 1
    same = seg_q[:, None] == seg_k[None, :]
    same &= (jnp.arange(total_q) < cu_q[-1])[:, None] & (jnp.arange(total_k) < cu_k[-1])[None, :]
    if causal:
        pos_q = jnp.arange(total_q) - cu_q[jnp.clip(seg_q, 0, cu_q.shape[0] - 1)]
        pos_k = jnp.arange(total_k) - cu_k[jnp.clip(seg_k, 0, cu_k.shape[0] - 1)]
        same &= pos_k[None, :] <= pos_q[:, None]
    return same[None, None]


@op("flash_attn_unpadded", composite=True, **_FA)
def flash_attn_unpadded(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    cu_seqlens_q: Tensor,
    cu_seqlens_k: Tensor,
    max_seqlen_q: int,
    max_seqlen_k: int,
    scale: float,
    dropout: float = 0.0,
    causal: bool = False,
    return_softmax: bool = False,
    fixed_seed_offset: Tensor | None = None,
    rng_name: str = "",
    training: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor | None]:
    """Variable-length attention on sequences packed along the first axis: query
    [total_q, heads, head_dim] with sequence i at rows cu_seqlens_q[i]:cu_seqlens_q[i+1] (key
    and value likewise); returns ``(out [total_q, heads, head_dim], softmax or None)``."""
    who = "flash_attn_unpadded"
    for nm, t in (("query", query), ("key", key), ("value", value)):
        if not isinstance(t, Tensor) or len(t.shape) != 3:
            raise ValueError(
                f"(InvalidArgument) {who}: {nm} should be a 3-D Tensor [total_seq_len, "
                f"num_heads, head_dim], but received {list(getattr(t, 'shape', []))}."
            )
    q, k, v = (call_op("unsqueeze", t, 0) for t in (query, key, value))
    _check_qkv(q, k, v, who)
    mask = _varlen_mask(cu_seqlens_q, cu_seqlens_k, query.shape[0], key.shape[0], causal)
    res = _attention(
        q, k, v, None, mask, dropout, training, float(scale), False, return_softmax, who
    )
    out = res[0] if return_softmax else res
    out = call_op("squeeze", out, [0])
    return (out, res[1]) if return_softmax else (out, None)
