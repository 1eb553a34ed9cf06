"""``paddle.compat.nn.functional``: torch-style ``softmax``, ``linear``, ``pad``, ``unfold``
and ``scaled_dot_product_attention``, built from paddle ops."""

from __future__ import annotations

from ...._core import dtype as _dt
from ...._core.registry import call_op
from ....nn import functional as F
from ..._forbid import forbid_keywords

_P = "paddle.compat.nn.functional"


def _implicit_dim(ndim: int) -> int:
    return 0 if ndim in (0, 1, 3) else 1  # torch's legacy choice when dim is None


@forbid_keywords(f"{_P}.softmax", "paddle.nn.functional.softmax", "x", "axis")
def softmax(input, dim: int | None = None, dtype=None, *, out=None):
    """Softmax along ``dim`` (torch's implicit dim when None), computed in ``dtype``."""
    if dim is None:
        dim = _implicit_dim(input.ndim)
    res = F.softmax(input, dim, dtype=None if dtype is None else _dt.to_dtype(dtype))
    if out is not None:
        from ...._core.autograd import rebind_inplace

        return rebind_inplace(out, res)
    return res


@forbid_keywords(f"{_P}.linear", "paddle.nn.functional.linear", "x")
def linear(input, weight, bias=None):
    """``input @ weight.T + bias`` with torch's weight layout [out_features, in_features]."""
    out = call_op("matmul", input, weight, transpose_y=True)
    return out if bias is None else out + bias


@forbid_keywords(f"{_P}.pad", "paddle.nn.functional.pad", "x", "data_format")
def pad(input, pad, mode: str = "constant", value: float = 0.0):
    """torch-style pad: ``pad`` lists (before, after) pairs from the last dimension back."""
    return F.pad(input, list(pad), mode=mode, value=value, pad_from_left_axis=False)


@forbid_keywords(f"{_P}.unfold", "paddle.nn.functional.unfold", "x", "kernel_sizes")
def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of a batched image (torch's argument order)."""
    return F.unfold(input, kernel_size, strides=stride, paddings=padding, dilations=dilation)


def scaled_dot_product_attention(
    query,
    key,
    value,
    attn_mask=None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
):
    """Attention with torch's layout [batch, heads, seq, head_dim] (Paddle's functional
    takes [batch, seq, heads, head_dim])."""
    perm = [0, 2, 1, 3]
    q, k, v = (call_op("transpose", t, perm) for t in (query, key, value))
    out = F.scaled_dot_product_attention(
        q, k, v, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa
    )
    return call_op("transpose", out, perm)


__all__ = ["pad", "softmax", "linear", "scaled_dot_product_attention", "unfold"]
