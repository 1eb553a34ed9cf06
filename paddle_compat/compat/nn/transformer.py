"""``paddle.compat.nn.MultiheadAttention``: torch's multi-head attention layer (sequence-first
unless ``batch_first``; packed ``in_proj_weight`` [3E, E] when q, k and v share the embed
dim; ``bias_k``/``bias_v``, ``add_zero_attn``, bool or float masks), as Paddle 3.3.1 has it."""

from __future__ import annotations

import math

from ... import nn as _nn
from ..._core.registry import call_op
from ...nn import functional as _F
from ...nn.initializer import XavierNormal, XavierUniform
from . import functional


def _bool_to_float(mask, dtype):
    """True -> the dtype's lowest finite value (Paddle's choice, not -inf), False -> 0."""

    from ... import finfo

    low = call_op("full", [], float(finfo(dtype).min), dtype)
    return call_op("where", mask, low, call_op("zeros", list(mask.shape), dtype))


def _combine(m1, m2, dtype):
    if str(m1.dtype) == "paddle.bool" and str(m2.dtype) == "paddle.bool":
        return call_op("logical_or", m1, m2)
    if str(m1.dtype) == "paddle.bool":
        m1 = _bool_to_float(m1, dtype)
    if str(m2.dtype) == "paddle.bool":
        m2 = _bool_to_float(m2, dtype)
    return m1 + m2


def _pad_last(mask, n: int):
    pad = call_op("zeros", [*mask.shape[:-1], n], mask.dtype)
    return call_op("concat", [mask, pad], -1)


class MultiheadAttention(_nn.Layer):
    """torch-style multi-head attention; ``forward`` returns ``(output, weights)``, weights
    averaged over heads unless ``average_attn_weights=False`` (None when not
    ``need_weights``)."""

    def __init__(
        self,
        embed_dim,
        num_heads,
        dropout=0.0,
        bias=True,
        add_bias_kv=False,
        add_zero_attn=False,
        kdim=None,
        vdim=None,
        batch_first=False,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == embed_dim, "embed_dim must be divisible by num_heads"

        def weight(shape):
            return self.create_parameter(shape, dtype=dtype, default_initializer=XavierUniform())

        def bias_param(n):
            return self.create_parameter([n], dtype=dtype, is_bias=True) if bias else None

        self.in_proj_bias = self.q_proj_bias = self.k_proj_bias = self.v_proj_bias = None
        if self._qkv_same_embed_dim:
            self.in_proj_weight = weight([3 * embed_dim, embed_dim])
            self.q_proj_weight = self.k_proj_weight = self.v_proj_weight = None
            self.in_proj_bias = bias_param(3 * embed_dim)
        else:
            self.q_proj_weight = weight([embed_dim, embed_dim])
            self.k_proj_weight = weight([embed_dim, self.kdim])
            self.v_proj_weight = weight([embed_dim, self.vdim])
            self.in_proj_weight = None
            self.q_proj_bias = bias_param(embed_dim)
            self.k_proj_bias = bias_param(embed_dim)
            self.v_proj_bias = bias_param(embed_dim)
        from . import Linear

        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        self.add_bias_kv, self.add_zero_attn = add_bias_kv, add_zero_attn
        if add_bias_kv:
            self.bias_k, self.bias_v = (
                self.create_parameter(
                    [1, 1, embed_dim], dtype=dtype, is_bias=True, default_initializer=XavierNormal()
                )
                for _ in range(2)
            )
        else:
            self.bias_k = self.bias_v = None

    def _project(self, query, key, value):
        lin = functional.linear
        if not self._qkv_same_embed_dim:
            return (
                lin(query, self.q_proj_weight, self.q_proj_bias),
                lin(key, self.k_proj_weight, self.k_proj_bias),
                lin(value, self.v_proj_weight, self.v_proj_bias),
            )
        ws = call_op("chunk", self.in_proj_weight, 3, 0)
        bs = (None,) * 3 if self.in_proj_bias is None else call_op("chunk", self.in_proj_bias, 3, 0)
        return tuple(lin(x, w, b) for x, w, b in zip((query, key, value), ws, bs))

    def _heads(self, t, batch, length):
        t = call_op("reshape", t, [batch, length, self.num_heads, self.head_dim])
        return call_op("transpose", t, [0, 2, 1, 3])

    def _mask(self, attn_mask, key_padding_mask, tgt, src, dtype, batch, is_causal, need_w):
        if (
            is_causal
            and not (self.add_bias_kv or self.add_zero_attn)
            and key_padding_mask is None
            and not need_w
        ):
            return None  # the attention builds the causal mask itself
        if attn_mask is None and not is_causal and key_padding_mask is None:
            return None
        if attn_mask is None:
            if is_causal:
                ones = call_op("ones", [tgt, src], "bool")
                attn_mask = call_op("triu", ones, 1)
            else:
                attn_mask = call_op("zeros", [tgt, src], dtype)
        pad = int(self.add_zero_attn) + int(self.add_bias_kv)
        if pad:
            attn_mask = _pad_last(attn_mask, pad)
            if key_padding_mask is not None:
                key_padding_mask = _pad_last(key_padding_mask, pad)
        if attn_mask.ndim == 2:
            attn_mask = call_op("expand", attn_mask, [batch * self.num_heads, *attn_mask.shape])
        if attn_mask.ndim == 3:
            attn_mask = call_op("reshape", attn_mask, [batch, self.num_heads, tgt, -1])
        if key_padding_mask is not None:
            kpm = call_op("unsqueeze", key_padding_mask, [1, 2])
            kpm = call_op("tile", kpm, [1, *attn_mask.shape[1:3], 1])
            attn_mask = _combine(attn_mask, kpm, dtype)
        if attn_mask.dtype != dtype:
            if str(attn_mask.dtype) == "paddle.bool":
                attn_mask = _bool_to_float(attn_mask, dtype)
            else:
                attn_mask = call_op("cast", attn_mask, dtype)
        return attn_mask

    def forward(
        self,
        query,
        key,
        value,
        key_padding_mask=None,
        need_weights=True,
        attn_mask=None,
        average_attn_weights=True,
        is_causal=False,
    ):
        batched = query.ndim == 3
        if not batched:
            axis = 0 if self.batch_first else 1
            query, key, value = (call_op("unsqueeze", t, axis) for t in (query, key, value))
            if key_padding_mask is not None and key_padding_mask.ndim != 2:
                key_padding_mask = call_op("unsqueeze", key_padding_mask, 0)
        if not self.batch_first:
            query, key, value = (call_op("transpose", t, [1, 0, 2]) for t in (query, key, value))
        batch, tgt, _ = query.shape
        src = key.shape[1]
        if key_padding_mask is not None:
            assert list(key_padding_mask.shape) == [batch, src], "key_padding_mask shape"
        q, k, v = self._project(query, key, value)
        if self.add_bias_kv:
            k = call_op("concat", [k, call_op("expand", self.bias_k, [batch, -1, -1])], 1)
            v = call_op("concat", [v, call_op("expand", self.bias_v, [batch, -1, -1])], 1)
        q, k, v = (
            self._heads(q, batch, tgt),
            self._heads(k, batch, k.shape[1]),
            self._heads(v, batch, v.shape[1]),
        )
        if self.add_zero_attn:
            zeros = call_op("zeros", [batch, self.num_heads, 1, self.head_dim], k.dtype)
            k, v = call_op("concat", [k, zeros], 2), call_op("concat", [v, zeros], 2)
        mask = self._mask(
            attn_mask, key_padding_mask, tgt, src, q.dtype, batch, is_causal, need_weights
        )
        p = self.dropout if self.training else 0.0
        if not need_weights:
            ctx = functional.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, dropout_p=p, is_causal=is_causal and mask is None
            )
            weights = None
        else:
            scores = call_op("matmul", q, k, transpose_y=True) / math.sqrt(self.head_dim)
            if mask is not None:
                if str(mask.dtype) == "paddle.bool":
                    mask = _bool_to_float(mask, scores.dtype)
                scores = scores + mask
            weights = _F.dropout(_F.softmax(scores, -1), p, training=self.training)
            ctx = call_op("matmul", weights, v)
            if average_attn_weights:
                weights = call_op("mean", weights, 1)
        out = call_op(
            "reshape", call_op("transpose", ctx, [0, 2, 1, 3]), [batch, tgt, self.embed_dim]
        )
        out = self.out_proj(out)
        if not self.batch_first:
            out = call_op("transpose", out, [1, 0, 2])
        if not batched:
            out = call_op("squeeze", out, 0 if self.batch_first else 1)
            if weights is not None:
                weights = call_op("squeeze", weights, 0)
        return out, weights
