"""The CPU lowerings of convolutions (nn/functional/_conv_cpu.py: a 1x1 conv as a matrix product,
depthwise convs as a sum over taps, few-channel convs as broadcast products with a sum-over-taps
input gradient) give XLA's generic convolution's outputs and gradients, for every geometry
they take, in 1-D and 2-D."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import paddle.nn.functional as F
import pytest

import paddle

# (id, x shape, weight shape, conv2d kwargs)
CASES = [
    ("one channel 3x3 (taps)", (2, 1, 9, 9), (4, 1, 3, 3), {"padding": 1}),
    ("one channel 5x5 (taps input gradient)", (2, 1, 9, 9), (3, 1, 5, 5), {"padding": 2}),
    ("LeNet conv2 6->16 5x5", (2, 6, 14, 14), (16, 6, 5, 5), {}),
    ("stride 2", (2, 3, 11, 11), (5, 3, 3, 3), {"stride": 2, "padding": 1}),
    ("stride 2, even input", (2, 3, 10, 10), (5, 3, 3, 3), {"stride": 2}),
    ("dilation 2", (2, 4, 12, 12), (6, 4, 3, 3), {"dilation": 2, "padding": 2}),
    ("asymmetric padding", (1, 2, 7, 8), (3, 2, 3, 2), {"padding": [1, 0, 2, 1]}),
    ("SAME, stride 2", (1, 3, 9, 9), (4, 3, 3, 3), {"padding": "SAME", "stride": 2}),
    ("NHWC", (2, 8, 8, 5), (7, 5, 3, 3), {"padding": 1, "data_format": "NHWC"}),
    (
        "NHWC one channel, stride 2",
        (2, 9, 9, 1),
        (4, 1, 3, 3),
        {"stride": 2, "data_format": "NHWC"},
    ),
    ("depthwise, multiplier 2", (2, 3, 8, 8), (6, 1, 3, 3), {"groups": 3, "padding": 1}),
    ("pointwise, stride 2", (2, 6, 8, 8), (4, 6, 1, 1), {"stride": 2}),
    ("RGB 3x3 (broadcast forward)", (2, 3, 10, 10), (8, 3, 3, 3), {"padding": 1}),
    ("RGB 3x3 NHWC, stride 2", (2, 10, 10, 3), (5, 3, 3, 3), {"stride": 2, "data_format": "NHWC"}),
    ("many channels (XLA's conv)", (1, 32, 6, 6), (8, 32, 3, 3), {"padding": 1}),
    ("1-D one channel k3", (2, 1, 20), (6, 1, 3), {"padding": 1}),
    ("1-D 4 channels k5, stride 2", (2, 4, 21), (3, 4, 5), {"stride": 2, "padding": 2}),
    ("1-D NLC, dilation 2", (2, 15, 3), (4, 3, 3), {"dilation": 2, "data_format": "NLC"}),
    ("1-D depthwise", (2, 4, 12), (4, 1, 3), {"groups": 4, "padding": "SAME"}),
    ("7x7 few channels (XLA's conv)", (1, 3, 12, 12), (4, 3, 7, 7), {"stride": 2, "padding": 3}),
]


def _reference(x, w, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW"):
    """XLA's generic convolution, with the same padding rules as Paddle's."""
    from paddle_compat.nn.functional import _conv

    nsp, cl = x.ndim - 2, data_format in ("NHWC", "NLC")
    pads = _conv.parse_padding(padding, nsp, cl)
    stride = _conv.ntuple(stride, nsp, "stride")
    dilation = _conv.ntuple(dilation, nsp, "dilation")
    if pads == "SAME":
        spatial = x.shape[1:-1] if cl else x.shape[2:]
        pads, dilation = _conv.same_pads(spatial, w.shape[2:], stride), (1,) * nsp
    return jax.lax.conv_general_dilated(
        x,
        w,
        stride,
        pads,
        rhs_dilation=dilation,
        dimension_numbers=_conv._dims(nsp, cl),
        feature_group_count=groups,
    )


@pytest.mark.parametrize("xs,ws,kw", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_outputs_and_gradients_equal_xlas_convolution(xs, ws, kw):
    r = np.random.default_rng(0)
    x_np = r.standard_normal(xs).astype("float32")
    w_np = r.standard_normal(ws).astype("float32")
    x = paddle.to_tensor(x_np, stop_gradient=False)
    w = paddle.to_tensor(w_np, stop_gradient=False)
    y = (F.conv1d if len(xs) == 3 else F.conv2d)(x, w, **kw)
    g_np = r.standard_normal(y.shape).astype("float32")
    (y * paddle.to_tensor(g_np)).sum().backward()

    want, vjp = jax.vjp(lambda a, b: _reference(a, b, **kw), jnp.asarray(x_np), jnp.asarray(w_np))
    want_dx, want_dw = vjp(jnp.asarray(g_np))
    for got, ref in ((y, want), (x.grad, want_dx), (w.grad, want_dw)):
        # float32 sums in another order: within 1e-6 of the largest value
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-5, atol=1e-6 * np.abs(ref).max())


def test_second_order_gradient_through_the_taps_input_gradient():
    r = np.random.default_rng(1)
    x_np = r.standard_normal((1, 2, 6, 6)).astype("float32")
    w_np = r.standard_normal((3, 2, 3, 3)).astype("float32")
    x = paddle.to_tensor(x_np, stop_gradient=False)
    w = paddle.to_tensor(w_np, stop_gradient=False)
    (dx,) = paddle.grad((F.conv2d(x, w) ** 2).sum(), x, create_graph=True)
    (dw2,) = paddle.grad(dx.sum(), w)

    def first(a, b):
        return jax.grad(lambda a: (_reference(a, b) ** 2).sum())(a)

    want = jax.grad(lambda b: first(jnp.asarray(x_np), b).sum())(jnp.asarray(w_np))
    np.testing.assert_allclose(dw2.numpy(), want, rtol=1e-4, atol=1e-4)


def test_compiled_low_precision_step_through_the_taps_input_gradient():
    conv1 = paddle.nn.Conv2D(3, 4, 3, padding=1)
    conv2 = paddle.nn.Conv2D(4, 2, 3)

    @paddle.jit.to_static
    def grads(x):
        with paddle.amp.auto_cast(dtype="bfloat16"):
            y = conv2(F.relu(conv1(x)))
        y.astype("float32").mean().backward()
        return conv1.weight.grad

    g = grads(paddle.randn([2, 3, 8, 8]))
    assert g.dtype == paddle.float32 and bool(paddle.isfinite(g).all())
