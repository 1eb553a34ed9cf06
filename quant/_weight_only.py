"""Weight-only and LLM.int8 quantized matmuls (paddle.nn.quant.weight_quantize,
weight_dequantize, weight_only_linear, llm_int8_linear, apply_per_channel_scale), on any JAX
backend (Paddle has them on GPU only).

Layout (the documented shapes; Paddle's GPU kernels additionally interleave the rows for
CUTLASS per ``arch``, which is not reproduced: ``arch`` is accepted and ignored):

- ``weight_quantize(x [k, n])`` -> ``out`` int8 ``[n, k]`` (the transpose of x), or for
  ``weight_only_int4`` int8 ``[ceil(n/2), k]`` holding two int4 values per byte (output channel
  2i in the low nibble, 2i+1 in the high one); ``scale`` ``[n]`` (per channel) or
  ``[k / group_size, n]`` (group-wise), = abs-max / 127 (int8) or / 7 (int4), so that
  ``x ~= out.T * scale``. Scales have x's dtype for the weight-only algos and float32 for
  ``llm.int8`` (as Paddle's CPU kernel gives them).
- ``weight_only_linear(x [..., k], weight, bias, weight_scale)`` = ``x @ dequant(weight).T +
  bias`` with the integer weight converted inside the fused matmul (accumulation in float32).
- ``llm_int8_linear``: input columns whose abs-max reaches ``threshold`` (outliers) stay in
  floating point; the rest are quantized per row to int8 (abs-max / 127). Both meet the int8
  weight in one float32-accumulated matmul (the int8 x int8 products are exact; the sum is
  float32 rather than int32, a relative difference ~1e-7). No gradient (inference kernel).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from paddle_compat._core.seams import Parameter, Tensor, array_of, is_inexact_np, op
from paddle_compat.nn import Layer

from . import _kernels as K

__all__ = [
    "WeightOnlyLinear",
    "apply_per_channel_scale",
    "llm_int8_linear",
    "quantize_weight_only",
    "weight_dequantize",
    "weight_only_linear",
    "weight_quantize",
]

_PRIVATE = dict(namespaces=(), method=None)
_ALGOS = ("weight_only_int8", "weight_only_int4", "llm.int8")


def _check_group(group_size, what: str = "weight_quantize") -> None:
    if group_size not in (-1, 64, 128):
        raise AssertionError(
            f"Currently {what} only supports group_size of -1, 64 or 128, but got {group_size}"
        )


def _check_algo(algo: str) -> None:
    if algo not in _ALGOS:
        raise ValueError(f"algo must be one of {list(_ALGOS)}, but got {algo!r}")


# -- kernels ----------------------------------------------------------------------------------
@op("_quant_weight_quantize", differentiable=False, **_PRIVATE)
def _wq(x, algo, group_size):
    k, n = x.shape
    bits = 4 if algo == "weight_only_int4" else 8
    qmax = float((1 << (bits - 1)) - 1)
    xa = jnp.abs(x.astype(jnp.float32))
    if group_size == -1:
        amax = jnp.max(xa, axis=0)  # [n]
        rep = amax[None, :]
    else:
        amax = jnp.max(xa.reshape(k // group_size, group_size, n), axis=1)  # [g, n]
        rep = jnp.repeat(amax, group_size, axis=0)
    # Paddle's kernel: scale = amax / qmax (float32), q = round(x / scale). XLA turns divisions
    # into reciprocal multiplies, which round differently at ties: divide in float64 instead
    # (the float32 quotient of float32 operands is then exact).
    wide = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
    scale = (amax.astype(wide) / qmax).astype(jnp.float32)
    srep = (rep.astype(wide) / qmax).astype(jnp.float32).astype(wide)
    v = (x.astype(wide) / jnp.where(srep > 0, srep, 1.0)).astype(jnp.float32)
    q = jnp.clip(K.round_away(v), -qmax, qmax)
    q = q.astype(jnp.int8)
    q = q.T  # [n, k]
    if bits == 4:
        q = K.pack_int4(q)  # [ceil(n/2), k]
    sdt = jnp.float32 if algo == "llm.int8" else x.dtype
    return q, scale.astype(sdt)


def _unpack_weight(weight, weight_dtype: str, n: int | None):
    """Integer weight [n, k] (unpacked from int4 when needed) as int8."""
    if weight_dtype == "int4":
        return K.unpack_int4(weight, n if n is not None else weight.shape[0] * 2)
    return weight


@op("_quant_weight_dequantize", tensors=("x", "scale"), **_PRIVATE)
def _wdq(x, scale, algo, group_size):
    q = _unpack_weight(x, "int4" if algo == "weight_only_int4" else "int8", scale.shape[-1]).astype(
        jnp.float32
    )  # [n, k]
    s = scale.astype(jnp.float32)
    if group_size == -1:
        w = q * s.reshape(-1, 1)
    else:
        w = q * jnp.repeat(s, group_size, axis=0).T
    return w.T.astype(scale.dtype)


@op("_quant_weight_only_linear", tensors=("x", "weight", "bias", "weight_scale"), **_PRIVATE)
def _wol(x, weight, bias, weight_scale, weight_dtype, group_size):
    n = weight_scale.shape[-1]
    q = _unpack_weight(weight, weight_dtype, n)  # int8 [n, k]
    k = q.shape[1]
    acc = _dt_acc(x.dtype)
    wq = q.astype(x.dtype)
    # x @ q.T with the int8 -> float conversion fused into the operand (measured on XLA CPU:
    # this form reads the int8 weight, ~4x less memory than a float32 GEMV)
    if group_size == -1:
        y = jnp.matmul(x, wq.T, preferred_element_type=acc) * weight_scale.astype(acc)
    else:
        g = k // group_size
        s = weight_scale.astype(x.dtype).T[:, :, None]  # [n, g, 1]
        # materialize the dequantized weight (the barrier): XLA CPU's fused loop-with-dot
        # form of this is 2-5x slower for more than one row
        wq = jax.lax.optimization_barrier((wq.reshape(n, g, group_size) * s).reshape(n, k))
        # (and keep the bias add out of the dot's fusion: dot+add fused is ~40x slower there)
        y = jax.lax.optimization_barrier(jnp.matmul(x, wq.T, preferred_element_type=acc))
    if bias is not None:
        y = y + bias.astype(acc)
    return y.astype(x.dtype)


@op(
    "_quant_llm_int8_linear",
    tensors=("x", "weight", "bias", "weight_scale"),
    differentiable=False,
    **_PRIVATE,
)
def _llm(x, weight, bias, weight_scale, threshold):
    acc = _dt_acc(x.dtype)
    xf = x.astype(acc)
    lead = tuple(range(x.ndim - 1))
    outlier = jnp.max(jnp.abs(xf), axis=lead) >= threshold  # [k]
    x_in = jnp.where(outlier, 0, xf)
    # the non-outlier columns are quantized per row to int8 (abs-max / 127) ...
    row = jnp.max(jnp.abs(x_in), axis=-1, keepdims=True)
    s_x = jnp.where(row > 0, row, 1.0) / 127.0
    x_q = jnp.clip(jnp.round(x_in / s_x), -127, 127) * s_x
    # ... the outliers stay in floating point; both meet the int8 weight in one matmul:
    # (x_out + x_q) @ (q * s_w).T == x_out @ W.T + s_x * (int8(x_in) @ q.T) * s_w
    xm = jnp.where(outlier, xf, x_q)
    y = jnp.matmul(xm, weight.astype(acc).T) * weight_scale.astype(acc)
    if bias is not None:
        y = y + bias.astype(acc)
    return y.astype(x.dtype)


@op("_quant_apply_per_channel_scale", tensors=("x", "scales"), **_PRIVATE)
def _apcs(x, scales):
    return (x * scales.astype(x.dtype)).astype(x.dtype)


def _dt_acc(dtype):
    return jnp.float64 if dtype == jnp.float64 else jnp.float32


# -- public functions -------------------------------------------------------------------------
def _require_tensor(x, name: str, fn: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"{fn}: {name} must be a Tensor, but got {type(x).__name__}")


def weight_quantize(
    x: Tensor, algo: str = "weight_only_int8", arch: int | None = None, group_size: int = -1
) -> tuple[Tensor, Tensor]:
    """Quantize a [k, n] float weight for weight-only int8/int4 or LLM.int8 matmuls; returns
    ``(out, scale)`` (layout in the module docstring)."""
    _require_tensor(x, "x", "weight_quantize")
    _check_algo(algo)
    _check_group(group_size)
    if x.ndim != 2:
        raise ValueError(
            f"(InvalidArgument) weight_quantize expects a 2-D weight [k, n], but "
            f"got shape {list(x.shape)}"
        )
    if not is_inexact_np(array_of(x).dtype):
        raise TypeError(f"weight_quantize: x must be floating point, but got {x.dtype}")
    k = x.shape[0]
    if group_size != -1 and k % group_size:
        raise ValueError(
            f"(InvalidArgument) weight_quantize: the input dim ({k}) must be "
            f"divisible by group_size ({group_size})"
        )
    return _wq(x, algo, int(group_size))


def weight_dequantize(
    x: Tensor,
    scale: Tensor,
    algo: str = "weight_only_int8",
    out_dtype="float16",
    group_size: int = -1,
) -> Tensor:
    """Inverse of ``weight_quantize``: the [k, n] weight in ``scale``'s dtype (``out_dtype`` is
    ignored, as in Paddle)."""
    _require_tensor(x, "x", "weight_dequantize")
    _require_tensor(scale, "scale", "weight_dequantize")
    _check_algo(algo)
    _check_group(group_size, "weight_dequantize")
    return _wdq(x, scale, algo, int(group_size))


def weight_only_linear(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    weight_scale: Tensor | None = None,
    weight_dtype="int8",
    arch: int | None = None,
    group_size: int = -1,
) -> Tensor:
    """``x @ dequant(weight).T + bias`` for an int8/int4 weight from ``weight_quantize``."""
    _require_tensor(x, "x", "weight_only_linear")
    _require_tensor(weight, "weight", "weight_only_linear")
    wd = str(weight_dtype).replace("paddle.", "")
    if wd not in ("int8", "int4"):
        raise TypeError(
            f"weight_only_linear: weight_dtype must be 'int8' or 'int4', but got {weight_dtype!r}"
        )
    _check_group(group_size, "weight_only_linear")
    if weight_scale is None:
        raise ValueError("weight_only_linear: weight_scale is required")
    n = weight_scale.shape[-1]
    k = weight.shape[1]
    if x.shape[-1] != k:
        raise ValueError(
            f"(InvalidArgument) weight_only_linear: the last dimension of x "
            f"({list(x.shape)}) must equal the input dimension of weight "
            f"({list(weight.shape)})"
        )
    rows = (n + 1) // 2 if wd == "int4" else n
    if weight.shape[0] != rows:
        raise ValueError(
            f"(InvalidArgument) weight_only_linear: weight {list(weight.shape)} "
            f"does not match weight_scale {list(weight_scale.shape)} for "
            f"{wd}"
        )
    if group_size != -1 and k % group_size:
        raise ValueError(
            f"(InvalidArgument) weight_only_linear: k ({k}) must be divisible by "
            f"group_size ({group_size})"
        )
    return _wol(x, weight, bias, weight_scale, wd, int(group_size))


def llm_int8_linear(
    x: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    weight_scale: Tensor | None = None,
    threshold: float = 6.0,
) -> Tensor:
    """LLM.int8 matmul with an int8 [n, k] weight from ``weight_quantize(algo='llm.int8')``:
    outlier input columns (abs-max >= ``threshold``) in floating point, the rest in int8."""
    _require_tensor(x, "x", "llm_int8_linear")
    _require_tensor(weight, "weight", "llm_int8_linear")
    if weight_scale is None:
        raise ValueError("llm_int8_linear: weight_scale is required")
    if x.shape[-1] != weight.shape[1]:
        raise ValueError(
            f"(InvalidArgument) llm_int8_linear: the last dimension of x "
            f"({list(x.shape)}) must equal the input dimension of weight "
            f"({list(weight.shape)})"
        )
    return _llm(x, weight, bias, weight_scale, float(threshold))


def apply_per_channel_scale(x: Tensor, scales: Tensor) -> Tensor:
    """``x * scales`` over the last (channel) axis: the pre-quantization smoothing step."""
    _require_tensor(x, "x", "apply_per_channel_scale")
    return _apcs(x, scales)


# -- layers -----------------------------------------------------------------------------------
class WeightOnlyLinear(Layer):
    """A ``Linear`` whose weight is stored quantized (``weight_quantize`` layout: int8 [n, k],
    or int4 packed [n/2, k]) with per-channel or group-wise ``weight_scale``; the forward is
    ``weight_only_linear`` (or ``llm_int8_linear`` for ``algo='llm.int8'``). Not a Paddle API
    (PaddleNLP has the like); built by ``quantize_weight_only``."""

    def __init__(
        self,
        layer: Layer,
        algo: str = "weight_only_int8",
        group_size: int = -1,
        threshold: float = 6.0,
    ) -> None:
        super().__init__()
        _check_algo(algo)
        _check_group(group_size)
        q, s = weight_quantize(layer.weight.detach(), algo=algo, group_size=group_size)
        self._in_features, self._out_features = layer.weight.shape
        self._algo, self._group_size, self._threshold = algo, group_size, threshold
        self.weight = Parameter(array_of(q), name=layer.weight.name, trainable=False)
        self.weight_scale = Parameter(array_of(s), trainable=False)
        self.bias = layer.bias

    def forward(self, input):  # noqa: A002 - Paddle's name
        if self._algo == "llm.int8":
            return llm_int8_linear(
                input, self.weight, self.bias, self.weight_scale, self._threshold
            )
        wd = "int4" if self._algo == "weight_only_int4" else "int8"
        return weight_only_linear(
            input,
            self.weight,
            self.bias,
            self.weight_scale,
            weight_dtype=wd,
            group_size=self._group_size,
        )

    def extra_repr(self) -> str:
        return (
            f"in_features={self._in_features}, out_features={self._out_features}, "
            f"algo={self._algo}, group_size={self._group_size}"
        )


def quantize_weight_only(
    model: Layer,
    algo: str = "weight_only_int8",
    group_size: int = -1,
    inplace: bool = False,
    threshold: float = 6.0,
) -> Layer:
    """Replace every ``nn.Linear`` of ``model`` (a copy unless ``inplace``) by a
    ``WeightOnlyLinear`` holding int8/int4 weights; layers whose input size is not a multiple
    of ``group_size`` stay float."""
    import copy

    from paddle_compat.nn import Linear

    _check_algo(algo)
    _check_group(group_size)
    if isinstance(model, Linear):
        return WeightOnlyLinear(model, algo, group_size, threshold)
    out = model if inplace else copy.deepcopy(model)
    for parent in out.sublayers(include_self=True):
        for name, child in list(parent.named_children()):
            if type(child) is Linear and (
                group_size == -1 or child.weight.shape[0] % group_size == 0
            ):
                parent._sub_layers[name] = WeightOnlyLinear(child, algo, group_size, threshold)
    return out
