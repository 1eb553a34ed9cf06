"""paddle.linalg.fp8_fp8_half_gemm_fused against a numpy reference (Paddle's CPU build has no
kernel for it, so there is no golden), and the errors of its arguments."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import paddle

_ACTS = {
    "identity": lambda v: v,
    "relu": lambda v: np.maximum(v, 0.0),
    "gelu": lambda v: 0.5 * v * (1.0 + np.vectorize(math.erf)(v / math.sqrt(2.0))),
}


def _fp8(shape, dtype, seed):
    a = np.random.default_rng(seed).standard_normal(shape).astype("float32")
    return a.astype(getattr(ml_dtypes, dtype))


@pytest.mark.parametrize(
    "x_shape,y_shape,tx,ty,act,out_dtype,fp8,bias,scale",
    [
        ((3, 5), (5, 4), False, False, "identity", "float16", "float8_e4m3fn", False, 1.0),
        ((3, 5), (4, 5), False, True, "relu", "bfloat16", "float8_e4m3fn", True, 0.5),
        ((5, 3), (5, 4), True, False, "gelu", "float16", "float8_e5m2", True, 2.0),
        ((2, 3, 5), (2, 4, 5), False, True, "gelu", "bfloat16", "float8_e4m3fn", False, 0.25),
    ],
)
def test_fp8_gemm_matches_numpy(x_shape, y_shape, tx, ty, act, out_dtype, fp8, bias, scale):
    x, y = _fp8(x_shape, fp8, 0), _fp8(y_shape, fp8, 1)
    a = x.astype(np.float64)
    b = y.astype(np.float64)
    a = np.swapaxes(a, -1, -2) if tx else a
    b = np.swapaxes(b, -1, -2) if ty else b
    ref = a @ b * scale
    kwargs = {}
    if bias:
        bv = np.random.default_rng(2).standard_normal(ref.shape[-1]).astype(out_dtype)
        ref = ref + bv.astype(np.float64)
        kwargs["bias"] = paddle.to_tensor(bv)
    ref = _ACTS[act](ref)
    out = paddle.linalg.fp8_fp8_half_gemm_fused(
        paddle.to_tensor(x),
        paddle.to_tensor(y),
        transpose_x=tx,
        transpose_y=ty,
        scale=scale,
        output_dtype=out_dtype,
        act=act,
        **kwargs,
    )
    assert str(out.dtype) == f"paddle.{out_dtype}" and list(out.shape) == list(ref.shape)
    got = np.asarray(out.astype("float32").numpy(), np.float64)
    np.testing.assert_allclose(got, ref, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize(
    "kwargs,error",
    [
        ({"output_dtype": "float32"}, ValueError),
        ({"act": "tanh"}, ValueError),
        ({"transpose_y": False}, ValueError),  # inner dims 5 and 4
        ({"x_dtype": "float32"}, RuntimeError),  # Paddle: no kernel for float32
        ({"y_dtype": "float16"}, RuntimeError),
    ],
)
def test_fp8_gemm_errors(kwargs, error):
    x = paddle.to_tensor(_fp8((3, 5), "float8_e4m3fn", 0))
    y = paddle.to_tensor(_fp8((4, 5), "float8_e4m3fn", 1))
    kwargs = dict(kwargs)
    if "x_dtype" in kwargs:
        x = x.astype(kwargs.pop("x_dtype"))
    if "y_dtype" in kwargs:
        y = y.astype(kwargs.pop("y_dtype"))
    kwargs.setdefault("transpose_y", True)
    with pytest.raises(error):
        paddle.linalg.fp8_fp8_half_gemm_fused(x, y, **kwargs)
