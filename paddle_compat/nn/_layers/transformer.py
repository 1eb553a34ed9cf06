"""Attention layers: MultiHeadAttention (with its incremental-decoding caches), the Transformer
encoder and decoder layers and stacks, and Transformer.

Parameters, ``state_dict`` keys and the order parameters are created in are Paddle's, so
``paddle.seed(n)`` gives Paddle's weights and checkpoints move both ways. Each attention is
its four ``Linear`` sublayers (called as sublayers: hooks and ``quant`` wrappers see them) around
one kernel (``nn/functional/_attention.py::_mha``) that splits heads, attends through
``jax.nn.dot_product_attention`` and merges heads again.

Measured on Paddle 3.3.1 and reproduced: ``TransformerEncoder``/``TransformerDecoder`` keep the
given layer as layer 0 and build the others anew from its constructor arguments (fresh
weights, drawn in order); a bool or int ``attn_mask`` becomes ``(mask - 1) * 1e9`` added to the
scores; ``value`` defaults to ``query`` (not ``key``); ``gen_cache(key)`` gives an empty
``Cache`` [batch, heads, 0, head_dim] and ``StaticCache`` holds the projected key/value.
"""

from __future__ import annotations

import collections
import copy
from collections.abc import Sequence

from ..._core.registry import call_op
from ..._core.tensor import Tensor
from ...framework import ParamAttr
from .. import functional as F
from .._layer import Layer
from ..functional import _attention
from .common import Dropout, Linear
from .container import LayerList
from .norm import LayerNorm

__all__ = [
    "MultiHeadAttention",
    "TransformerEncoderLayer",
    "TransformerEncoder",
    "TransformerDecoderLayer",
    "TransformerDecoder",
    "Transformer",
]

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _positive(value, what: str) -> None:
    if not value > 0:
        raise AssertionError(f"Expected {what} to be greater than 0, but received {value}")


def _attr_list(attr, n: int) -> list:
    """weight_attr/bias_attr -> one entry per sublayer group (Paddle's rule: a list must have
    exactly n entries; a named ParamAttr is copied with the suffix _i)."""
    if isinstance(attr, list | tuple):
        if len(attr) != n:
            raise AssertionError(f"length of param_attr should be {n} when it is a list/tuple")
        return list(attr)
    if isinstance(attr, ParamAttr):
        out = []
        for i in range(n):
            a = copy.deepcopy(attr)
            if a.name is not None:
                a.name = f"{a.name}_{i}"
            out.append(a)
        return out
    return [attr] * n


def _convert_mask(mask, dtype):
    """Paddle's conversion of a layer's attention mask: bool/int -> (mask - 1) * 1e9."""
    if mask is None or not isinstance(mask, Tensor) or mask.dtype.name in _FLOATS:
        return mask
    m = call_op("cast", mask, dtype)
    return call_op("scale", m, 1e9, -1e9)


class MultiHeadAttention(Layer):
    """Attention with ``num_heads`` heads: out_proj(softmax(q k^T / sqrt(head_dim) + mask) v)
    with q, k, v the projections of query, key and value."""

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        kdim: int | None = None,
        vdim: int | None = None,
        need_weights: bool = False,
        weight_attr=None,
        bias_attr=None,
    ) -> None:
        super().__init__()
        _positive(embed_dim, "embed_dim")
        _positive(num_heads, "num_heads")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads_first(self, x):
        """[B, L, E] -> [B, H, L, D] (the caches' layout)."""
        x = call_op("reshape", x, [0, 0, self.num_heads, self.head_dim])
        return call_op("transpose", x, [0, 2, 1, 3])

    def compute_kv(self, key, value):
        """The projected key and value, [batch, num_heads, seq_len, head_dim] each."""
        return self._heads_first(self.k_proj(key)), self._heads_first(self.v_proj(value))

    def gen_cache(self, key, value=None, type=Cache):  # noqa: A002 - Paddle's name
        """A cache for ``forward``: ``StaticCache`` of the projected key/value (cross attention),
        an empty ``Cache`` [batch, num_heads, 0, head_dim] (``value`` None), or
        ``Cache(key, value)`` as given."""
        if type == MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, value))
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            k = call_op("full", shape, 0, key.dtype)
            v = call_op("full", shape, 0, key.dtype)
            return self.Cache(k, v)
        return self.Cache(key, value)

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        q = self.q_proj(query)
        heads_first = False
        if isinstance(cache, self.StaticCache):
            k, v, heads_first = cache.k, cache.v, True
        elif isinstance(cache, self.Cache):
            k, v = self.compute_kv(key, value)
            k = call_op("concat", [cache.k, k], 2)
            v = call_op("concat", [cache.v, v], 2)
            cache, heads_first = self.Cache(k, v), True
        else:
            k, v = self.k_proj(key), self.v_proj(value)
        self._check_inputs(q, k, v, heads_first)
        b, lq = q.shape[0], q.shape[1]
        lk = k.shape[2] if heads_first else k.shape[1]
        scores = (max(b, k.shape[0]), self.num_heads, lq, lk)
        if attn_mask is not None:
            _attention.check_mask(attn_mask, scores, "MultiHeadAttention")
        p = float(self.dropout) if self.dropout else 0.0
        keep = _attention.dropout_keep(scores, p) if (p and self.training) else None
        res = _attention._mha(
            q, k, v, attn_mask, keep, self.num_heads, heads_first, self.need_weights, p
        )
        out = self.out_proj(res[0] if self.need_weights else res)
        outs = [out]
        if self.need_weights:
            outs.append(res[1])
        if cache is not None:
            outs.append(cache)
        return out if len(outs) == 1 else tuple(outs)

    def _check_inputs(self, q, k, v, heads_first: bool) -> None:
        if len(q.shape) != 3:
            raise ValueError(
                "(InvalidArgument) MultiHeadAttention: query should be a 3-D Tensor "
                f"[batch_size, query_length, embed_dim], but its projection has shape "
                f"{list(q.shape)}."
            )
        want = 4 if heads_first else 3
        for name, t in (("key", k), ("value", v)):
            if len(t.shape) != want:
                raise ValueError(
                    f"(InvalidArgument) MultiHeadAttention: {name} should be a {want}-D Tensor, "
                    f"but received shape {list(t.shape)}."
                )
        sizes = {t.shape[0] for t in (q, k, v) if isinstance(t.shape[0], int)} - {1}
        if len(sizes) > 1:  # Paddle broadcasts a batch of 1 (symbolic sizes: not checked)
            raise ValueError(
                "(InvalidArgument) MultiHeadAttention: query, key and value should have one "
                f"batch_size (or 1), but received [{q.shape[0]}], [{k.shape[0]}] and "
                f"[{v.shape[0]}]."
            )
        lk = 2 if heads_first else 1
        if k.shape[lk] != v.shape[lk]:
            raise ValueError(
                "(InvalidArgument) MultiHeadAttention: key and value should have the same "
                f"length, but received {k.shape[lk]} and {v.shape[lk]}."
            )


def _setup_layer(layer, config: dict, n_groups: int):
    """The start of an encoder/decoder layer's constructor: keep its arguments (the stacks
    rebuild layers 1..n-1 from ``_config``), check the sizes as Paddle does, resolve the
    dropouts; returns (attn_dropout, act_dropout, weight attrs, bias attrs) with one attr per
    sublayer group."""
    layer._config = config
    for name in ("d_model", "nhead", "dim_feedforward"):
        _positive(config[name], name)
    layer.normalize_before = config["normalize_before"]
    dropout = config["dropout"]
    attn = dropout if config["attn_dropout"] is None else config["attn_dropout"]
    act = dropout if config["act_dropout"] is None else config["act_dropout"]
    w = _attr_list(config["weight_attr"], n_groups)
    return attn, act, w, _attr_list(config["bias_attr"], n_groups)


def _activation(name: str):
    fn = getattr(F, name, None)
    if fn is None:
        raise AttributeError(f"module 'paddle.nn.functional' has no attribute '{name}'")
    return fn


class TransformerEncoderLayer(Layer):
    """Self-attention then a feed-forward network, each with a residual connection and layer
    normalization (after, or before with ``normalize_before``)."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr=None,
        bias_attr=None,
        layer_norm_eps: float = 1e-5,
    ) -> None:
        config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        attn_dropout, act_dropout, w, b = _setup_layer(self, config, 2)
        self.self_attn = MultiHeadAttention(
            d_model, nhead, dropout=attn_dropout, weight_attr=w[0], bias_attr=b[0]
        )
        self.linear1 = Linear(d_model, dim_feedforward, w[1], bias_attr=b[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[1], bias_attr=b[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(activation)

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, cache)

    def gen_cache(self, src):
        """An empty self-attention ``Cache`` for incremental encoding."""
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


def _clones(layer, num_layers: int) -> LayerList:
    """Paddle's stacking: the given layer first, then new layers built from its arguments."""
    return LayerList([layer if i == 0 else type(layer)(**layer._config) for i in range(num_layers)])


class TransformerEncoder(Layer):
    """``num_layers`` encoder layers in a row, then ``norm`` if given."""

    def __init__(self, encoder_layer: Layer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_mask(src_mask, src.dtype)
        output, new_caches = src, []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, src_mask=src_mask)
            else:
                output, c = mod(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        """One empty ``Cache`` per layer."""
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    """Self-attention, cross-attention over ``memory`` and a feed-forward network, each with a
    residual connection and layer normalization."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr=None,
        bias_attr=None,
        layer_norm_eps: float = 1e-5,
    ) -> None:
        config = {k: v for k, v in locals().items() if k not in ("self", "__class__")}
        super().__init__()
        attn_dropout, act_dropout, w, b = _setup_layer(self, config, 3)
        self.self_attn = MultiHeadAttention(
            d_model, nhead, dropout=attn_dropout, weight_attr=w[0], bias_attr=b[0]
        )
        self.cross_attn = MultiHeadAttention(
            d_model, nhead, dropout=attn_dropout, weight_attr=w[1], bias_attr=b[1]
        )
        self.linear1 = Linear(d_model, dim_feedforward, w[2], bias_attr=b[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, w[2], bias_attr=b[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_mask(memory_mask, memory.dtype)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = residual + self.dropout1(tgt)
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = residual + self.dropout2(tgt)
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = residual + self.dropout3(tgt)
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental, static))

    def gen_cache(self, memory):
        """(an empty self-attention ``Cache``, the cross-attention ``StaticCache`` of memory)."""
        incremental = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static = self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache)
        return incremental, static


class TransformerDecoder(Layer):
    """``num_layers`` decoder layers in a row over one ``memory``, then ``norm`` if given."""

    def __init__(self, decoder_layer: Layer, num_layers: int, norm: Layer | None = None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_mask(memory_mask, memory.dtype)
        output, new_caches = tgt, []
        for i, mod in enumerate(self.layers):
            if cache is None:
                output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)
            else:
                output, c = mod(
                    output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask, cache=cache[i]
                )
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip: bool = False):
        """One (Cache, StaticCache) per layer; ``do_zip``: (all Caches, all StaticCaches)."""
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attr(attr, what: str):
    """Transformer's weight_attr/bias_attr -> (encoder's, decoder's)."""
    if not isinstance(attr, list | tuple):
        return [attr] * 2, [attr] * 3
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise AssertionError(f"length of {what} should be 1 or 2 or 3 when it is a list/tuple")


class Transformer(Layer):
    """An encoder (``num_encoder_layers`` layers + LayerNorm) and a decoder
    (``num_decoder_layers`` layers + LayerNorm), or ``custom_encoder``/``custom_decoder``."""

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str = "relu",
        attn_dropout: float | None = None,
        act_dropout: float | None = None,
        normalize_before: bool = False,
        weight_attr: ParamAttr | Sequence | None = None,
        bias_attr: ParamAttr | bool | Sequence | None = None,
        custom_encoder: Layer | None = None,
        custom_decoder: Layer | None = None,
    ) -> None:
        super().__init__()
        _positive(d_model, "d_model")
        _positive(nhead, "nhead")
        _positive(dim_feedforward, "dim_feedforward")
        enc_b, dec_b = _split_attr(bias_attr, "bias_attr")
        enc_w, dec_w = _split_attr(weight_attr, "weight_attr")
        args = (dropout, activation, attn_dropout, act_dropout, normalize_before)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(
                d_model, nhead, dim_feedforward, *args, weight_attr=enc_w, bias_attr=enc_b
            )
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(
                d_model, nhead, dim_feedforward, *args, weight_attr=dec_w, bias_attr=dec_b
            )
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model, self.nhead = d_model, nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        src_mask = _convert_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length) -> Tensor:
        """[length, length] float mask: 0 on and below the diagonal, -inf above."""
        n = int(length.item() if isinstance(length, Tensor) else length)
        return call_op("triu", call_op("full", [n, n], float("-inf"), None), 1)
