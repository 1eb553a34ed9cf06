"""The CPU lowerings of convolutions (nn/functional/_conv_cpu.py: a 1x1 conv as a matrix product,
depthwise convs as a sum over taps, few-channel convs as broadcast products with a sum-over-taps
input gradient, small maps and grouped convs as stacked windows times the weight, or grouped
convs split per group; transposed convs by col2im or
with a col2im weight gradient) give XLA's generic convolution's outputs and gradients, for
every geometry they take, in 1-D, 2-D and 3-D; and which geometry takes which lowering."""

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
    (
        "depthwise 5x5 stride 2",
        (2, 6, 11, 12),
        (6, 1, 5, 5),
        {"groups": 6, "stride": 2, "padding": 2},
    ),
    (
        "depthwise dilation 2",
        (2, 6, 11, 11),
        (6, 1, 3, 3),
        {"groups": 6, "dilation": 2, "padding": 2},
    ),
    (
        "depthwise NHWC stride 2",
        (2, 11, 11, 6),
        (6, 1, 3, 3),
        {"groups": 6, "stride": 2, "padding": 1, "data_format": "NHWC"},
    ),
    (
        "depthwise, padding wider than the kernel",
        (2, 6, 7, 7),
        (6, 1, 3, 3),
        {"groups": 6, "stride": 3, "padding": 4},
    ),
    (
        "3-D depthwise stride 2",
        (1, 4, 5, 6, 7),
        (4, 1, 3, 3, 3),
        {"groups": 4, "stride": 2, "padding": 1},
    ),
    ("pointwise, stride 2", (2, 6, 8, 8), (4, 6, 1, 1), {"stride": 2}),
    ("RGB 3x3 (broadcast forward)", (2, 3, 10, 10), (8, 3, 3, 3), {"padding": 1}),
    ("RGB 3x3 NHWC, stride 2", (2, 10, 10, 3), (5, 3, 3, 3), {"stride": 2, "data_format": "NHWC"}),
    ("many channels (XLA's conv)", (1, 32, 6, 6), (8, 32, 3, 3), {"padding": 1}),
    ("1-D one channel k3", (2, 1, 20), (6, 1, 3), {"padding": 1}),
    ("1-D 4 channels k5, stride 2", (2, 4, 21), (3, 4, 5), {"stride": 2, "padding": 2}),
    ("1-D NLC, dilation 2", (2, 15, 3), (4, 3, 3), {"dilation": 2, "data_format": "NLC"}),
    ("1-D depthwise", (2, 4, 12), (4, 1, 3), {"groups": 4, "padding": "SAME"}),
    ("7x7 few channels (XLA's conv)", (1, 3, 16, 16), (4, 3, 7, 7), {"stride": 2, "padding": 3}),
    (
        "7x7 output smaller than the kernel (windows)",
        (1, 3, 12, 12),
        (4, 3, 7, 7),
        {"stride": 2, "padding": 3},
    ),
    ("map smaller than the kernel (windows)", (2, 32, 2, 2), (8, 32, 3, 3), {"padding": 1}),
    ("1x1 map (windows)", (3, 24, 1, 1), (5, 24, 3, 3), {"padding": 1}),
    (
        "output smaller than the kernel, stride 2",
        (2, 32, 4, 4),
        (6, 32, 3, 3),
        {"stride": 2, "padding": 1},
    ),
    (
        "dilated kernel wider than the map",
        (1, 20, 4, 5),
        (4, 20, 3, 3),
        {"dilation": 2, "padding": 2},
    ),
    ("few positions, wide contraction", (1, 128, 5, 5), (4, 128, 3, 3), {"padding": 1}),
    (
        "windows NHWC, asymmetric",
        (2, 3, 2, 32),
        (6, 32, 3, 3),
        {"padding": [1, 1, 0, 1], "data_format": "NHWC"},
    ),
    ("1-D windows", (2, 32, 2), (4, 32, 3), {"padding": 1}),
    (
        "3-D strided (col2im input gradient)",
        (1, 3, 5, 6, 7),
        (4, 3, 3, 3, 3),
        {"stride": 2, "padding": 1},
    ),
    (
        "3-D NDHWC dilation 2 (col2im input gradient)",
        (1, 9, 9, 9, 2),
        (3, 2, 3, 3, 3),
        {"dilation": 2, "padding": [1, 2, 0, 1, 2, 2], "data_format": "NDHWC"},
    ),
    ("3-D stride 1 (col2im input gradient)", (2, 2, 4, 5, 6), (3, 2, 3, 2, 3), {"padding": 1}),
    ("grouped g4 (windows)", (2, 8, 6, 6), (12, 2, 3, 3), {"groups": 4, "padding": 1}),
    (
        "grouped g2 NHWC stride 2 (windows)",
        (2, 7, 7, 6),
        (4, 3, 3, 3),
        {"groups": 2, "stride": 2, "data_format": "NHWC"},
    ),
    (
        "grouped g2 dilation 2 (split)",
        (2, 4, 50, 50),
        (6, 2, 3, 3),
        {"groups": 2, "dilation": 2, "padding": 2},
    ),
    ("grouped 1-D g3 (windows)", (2, 6, 9), (9, 2, 3), {"groups": 3}),
    ("grouped 3-D g2 (windows)", (1, 4, 3, 4, 4), (4, 2, 3, 3, 3), {"groups": 2, "padding": 1}),
    ("3-D windows", (1, 20, 2, 3, 2), (3, 20, 3, 3, 3), {"padding": 1}),
    (
        "3-D NDHWC windows, stride 2",
        (1, 4, 3, 3, 20),
        (3, 20, 3, 3, 3),
        {"stride": 2, "padding": 1, "data_format": "NDHWC"},
    ),
]


def _reference(x, w, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW"):
    """XLA's generic convolution, with the same padding rules as Paddle's."""
    from paddle_compat.nn.functional import _conv

    nsp, cl = x.ndim - 2, data_format in ("NHWC", "NLC", "NDHWC")
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


def _assert_equal_xlas(fn, reference, xs, ws, kw, seed):
    """``fn(x, w, **kw)``'s output and both gradients equal ``reference``'s (plain JAX)."""
    r = np.random.default_rng(seed)
    x_np = r.standard_normal(xs).astype("float32")
    w_np = r.standard_normal(ws).astype("float32")
    x = paddle.to_tensor(x_np, stop_gradient=False)
    w = paddle.to_tensor(w_np, stop_gradient=False)
    y = fn(x, w, **kw)
    g_np = r.standard_normal(y.shape).astype("float32")
    (y * paddle.to_tensor(g_np)).sum().backward()

    want, vjp = jax.vjp(lambda a, b: reference(a, b, **kw), jnp.asarray(x_np), jnp.asarray(w_np))
    want_dx, want_dw = vjp(jnp.asarray(g_np))
    for got, ref in ((y, want), (x.grad, want_dx), (w.grad, want_dw)):
        # float32 sums in another order: within 1e-6 of the largest value
        np.testing.assert_allclose(got.numpy(), ref, rtol=1e-5, atol=1e-6 * np.abs(ref).max())


@pytest.mark.parametrize("xs,ws,kw", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_outputs_and_gradients_equal_xlas_convolution(xs, ws, kw):
    fn = {3: F.conv1d, 4: F.conv2d, 5: F.conv3d}[len(xs)]
    _assert_equal_xlas(fn, _reference, xs, ws, kw, seed=0)


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


# (x shape, weight shape, stride, pads, dilation, groups, channels last, lowering)
ROUTES = [
    ((8, 64, 16, 16), (64, 64, 1, 1), (1, 1), ((0, 0),) * 2, (1, 1), 1, False, "pointwise"),
    ((8, 32, 16, 16), (32, 1, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 32, False, "depthwise"),
    ((8, 3, 64, 64), (64, 3, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, "few_channels"),
    ((8, 512, 2, 2), (512, 512, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, "windows"),
    ((8, 256, 4, 4), (512, 256, 3, 3), (2, 2), ((1, 1),) * 2, (1, 1), 1, False, "windows"),
    ((1, 512, 7, 7), (512, 512, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, "windows"),
    ((1, 7, 7, 512), (512, 512, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, True, "windows"),
    ((8, 512, 7, 7), (512, 512, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, None),
    ((1, 64, 7, 7), (64, 64, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, None),
    ((8, 64, 16, 16), (64, 64, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, None),
    ((8, 64, 2, 2), (64, 32, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 2, False, "grouped_windows"),
    ((8, 128, 16, 16), (128, 4, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 32, False, "grouped_windows"),
    ((8, 64, 32, 32), (64, 16, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 4, False, "grouped_split"),
    (("b", 64, 8, 8), (64, 16, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 4, False, "grouped_split"),
    (
        (2, 32, 8, 16, 16),
        (64, 32, 3, 3, 3),
        (2,) * 3,
        ((1, 1),) * 3,
        (1,) * 3,
        1,
        False,
        "col2im_input_grad",
    ),
    (
        (2, 32, 8, 16, 16),
        (64, 32, 1, 1, 1),
        (1,) * 3,
        ((0, 0),) * 3,
        (1,) * 3,
        1,
        False,
        "pointwise",
    ),
    ((2, 32, 16, 16), (64, 32, 3, 3), (2, 2), ((1, 1),) * 2, (1, 1), 1, False, None),
    (("b", 512, 7, 7), (512, 512, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, None),
    (("b", 512, 2, 2), (512, 512, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1, False, "windows"),
]


@pytest.mark.parametrize("xs,ws,stride,pads,dilation,groups,cl,want", ROUTES)
def test_route_table(xs, ws, stride, pads, dilation, groups, cl, want):
    """A map smaller than the kernel always takes the windows product (XLA's conv is 10-70x
    slower there); so does a wide contraction over at most 256 output positions of a known
    batch size ("b": a symbolic one, as jit.save traces)."""
    from paddle_compat.nn.functional import _conv_cpu

    assert _conv_cpu.route(xs, ws, stride, pads, dilation, groups, cl) == want


def test_windows_product_keeps_low_precision_dtype():
    r = np.random.default_rng(2)
    x = r.standard_normal((2, 32, 2, 2)).astype("float32")
    w = r.standard_normal((8, 32, 3, 3)).astype("float32")
    want = F.conv2d(paddle.to_tensor(x), paddle.to_tensor(w), padding=1).numpy()
    got = F.conv2d(
        paddle.to_tensor(x).astype("bfloat16"), paddle.to_tensor(w).astype("bfloat16"), padding=1
    )
    assert got.dtype == paddle.bfloat16
    np.testing.assert_allclose(got.astype("float32").numpy(), want, rtol=0.05, atol=0.3)


# (id, x shape, weight shape [in, out/g, *k], conv*_transpose kwargs)
TRANSPOSED = [
    (
        "input smaller than the kernel, s2 (col2im)",
        (2, 24, 2, 2),
        (24, 6, 4, 4),
        {"stride": 2, "padding": 1},
    ),
    ("1x1 input, k4 s1 (col2im)", (2, 16, 1, 1), (16, 5, 4, 4), {}),
    (
        "strided 6x6 k4 s2 (col2im weight gradient)",
        (2, 8, 6, 6),
        (8, 4, 4, 4),
        {"stride": 2, "padding": 1},
    ),
    (
        "strided, output_padding 1",
        (1, 6, 5, 5),
        (6, 3, 3, 3),
        {"stride": 2, "padding": 1, "output_padding": 1},
    ),
    ("strided, output_size", (1, 6, 5, 4), (6, 3, 3, 3), {"stride": 2, "output_size": [11, 10]}),
    ("strided, dilation 2", (1, 4, 5, 5), (4, 3, 3, 3), {"stride": 2, "dilation": 2, "padding": 1}),
    (
        "strided NHWC, asymmetric stride",
        (2, 5, 4, 6),
        (6, 4, 3, 2),
        {"stride": [2, 3], "data_format": "NHWC"},
    ),
    ("stride 1 (a plain convolution)", (2, 8, 5, 5), (8, 4, 3, 3), {"padding": 1}),
    ("stride 1 depthwise", (2, 6, 5, 5), (6, 1, 3, 3), {"groups": 6, "padding": 1}),
    ("stride 1, padding past the kernel (XLA's)", (1, 4, 8, 8), (4, 3, 3, 3), {"padding": 3}),
    ("strided groups 2 (per group)", (1, 4, 5, 5), (4, 3, 3, 3), {"stride": 2, "groups": 2}),
    (
        "strided groups 2, small input (per group col2im)",
        (2, 4, 2, 2),
        (4, 3, 3, 3),
        {"stride": 2, "groups": 2, "padding": 1},
    ),
    (
        "stride 1 groups 2 (grouped windows)",
        (1, 4, 5, 5),
        (4, 3, 3, 3),
        {"groups": 2, "padding": 1},
    ),
    ("1-D strided", (2, 6, 7), (6, 4, 4), {"stride": 2, "padding": 1}),
    (
        "3-D input smaller than the kernel",
        (1, 5, 2, 2, 1),
        (5, 3, 3, 3, 3),
        {"stride": 2, "padding": 1},
    ),
]


def _transposed_reference(
    x,
    w,
    stride=1,
    padding=0,
    output_padding=0,
    dilation=1,
    groups=1,
    output_size=None,
    data_format="NCHW",
):
    """XLA's convolution of the stride-dilated input, with Paddle's padding rules."""
    from paddle_compat.nn.functional import _conv

    nsp, cl = x.ndim - 2, data_format in ("NHWC", "NLC", "NDHWC")
    pads = _conv.parse_padding(padding, nsp, cl)
    stride = _conv.ntuple(stride, nsp, "stride")
    dilation = _conv.ntuple(dilation, nsp, "dilation")
    opad = _conv.ntuple(output_padding, nsp, "output_padding")
    y = _conv.transpose_by_dilation(x, w, stride, pads, opad, dilation, groups, cl)
    if output_size is None:
        return y
    sizes = y.shape[1:-1] if cl else y.shape[2:]  # with output_padding 0: the inferred size
    opad = tuple(o - n for o, n in zip(output_size, sizes))
    return _conv.transpose_by_dilation(x, w, stride, pads, opad, dilation, groups, cl)


@pytest.mark.parametrize("xs,ws,kw", [c[1:] for c in TRANSPOSED], ids=[c[0] for c in TRANSPOSED])
def test_transposed_outputs_and_gradients_equal_xlas(xs, ws, kw):
    fn = {3: F.conv1d_transpose, 4: F.conv2d_transpose, 5: F.conv3d_transpose}[len(xs)]
    _assert_equal_xlas(fn, _transposed_reference, xs, ws, kw, seed=3)


# (id, function, its XLA reference, x shape, w shape, kwargs, first gradient with respect to)
SECOND_ORDER = [
    ("taps input gradient", F.conv2d, _reference, (1, 2, 6, 6), (3, 2, 3, 3), {}, 0),
    (
        "3-D col2im input gradient",
        F.conv3d,
        _reference,
        (1, 2, 5, 5, 5),
        (3, 2, 3, 3, 3),
        {"stride": 2, "padding": 1},
        0,
    ),
    (
        "strided transpose",
        F.conv2d_transpose,
        _transposed_reference,
        (1, 3, 4, 4),
        (3, 2, 3, 3),
        {"stride": 2},
        1,
    ),
]


@pytest.mark.parametrize(
    "fn,reference,xs,ws,kw,wrt", [c[1:] for c in SECOND_ORDER], ids=[c[0] for c in SECOND_ORDER]
)
def test_second_order_gradient(fn, reference, xs, ws, kw, wrt):
    """The gradient of (sum of the first gradient) with respect to the other operand."""
    r = np.random.default_rng(1)
    arrays = [r.standard_normal(xs).astype("float32"), r.standard_normal(ws).astype("float32")]
    x, w = (paddle.to_tensor(a, stop_gradient=False) for a in arrays)
    (first,) = paddle.grad((fn(x, w, **kw) ** 2).sum(), (x, w)[wrt], create_graph=True)
    (second,) = paddle.grad(first.sum(), (x, w)[1 - wrt])

    def first_ref(a, b):
        return jax.grad(lambda a, b: (reference(a, b, **kw) ** 2).sum(), wrt)(a, b)

    want = jax.grad(lambda a, b: first_ref(a, b).sum(), 1 - wrt)(*map(jnp.asarray, arrays))
    np.testing.assert_allclose(second.numpy(), want, rtol=1e-4, atol=1e-4)


def test_jit_save_with_a_symbolic_batch_through_the_new_routes(tmp_path):
    """A small map (windows), a grouped conv, a small-input transposed conv (col2im) and a
    strided 3-D conv (col2im input gradient) export with a None batch dimension and give the
    eager outputs at other batch sizes."""
    from paddle.static import InputSpec

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.small = paddle.nn.Conv2D(32, 16, 3, padding=1)
            self.grouped = paddle.nn.Conv2D(16, 16, 3, padding=1, groups=4)
            self.up = paddle.nn.Conv2DTranspose(16, 8, 4, stride=2, padding=1)
            self.vol = paddle.nn.Conv3D(2, 4, 3, stride=2, padding=1)

        def forward(self, x, v):
            return self.up(self.grouped(self.small(x))), self.vol(v)

    net = Net()
    net.eval()
    specs = [InputSpec([None, 32, 2, 2]), InputSpec([None, 2, 5, 5, 5])]
    paddle.jit.save(net, str(tmp_path / "net"), input_spec=specs)
    loaded = paddle.jit.load(str(tmp_path / "net"))
    for n in (1, 3):
        x, v = paddle.randn([n, 32, 2, 2]), paddle.randn([n, 2, 5, 5, 5])
        for got, want in zip(loaded(x, v), net(x, v)):
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "mode,xs,grad,calls",
    [
        ("eager", (1, 3, 7, 9), True, 1),
        ("to_static", (1, 3, 9, 7), True, 0),
        ("to_static", (1, 3, 9, 8), False, 1),
        ("deferred", (1, 3, 8, 9), True, 0),
        ("deferred", (1, 3, 8, 7), False, 1),
    ],
)
def test_broadcast_products_form_stays_out_of_train_programs(monkeypatch, mode, xs, grad, calls):
    """conv2d is a ``train_form`` op: an RGB 3x3 convolution takes the broadcast-products form
    in its eager kernel and in forward-only programs, and XLA's convolution inside a larger
    program that differentiates it (a to_static train step, a deferred segment with
    gradients), where XLA would copy the products into the gradient's loops. All give XLA's
    numbers. (The segment store is off, so every program is traced here rather than read
    back; shapes differ per case, as a kernel traced before would not trace again.)"""
    from paddle_compat._core import deferred, segment_store
    from paddle_compat.nn.functional import _conv_cpu

    monkeypatch.setitem(segment_store._state, "dir", None)
    traced = []
    real = _conv_cpu._few_channels
    monkeypatch.setattr(_conv_cpu, "_few_channels", lambda *a: traced.append(1) or real(*a))
    r = np.random.default_rng(3)
    x_np = r.standard_normal(xs).astype("float32")
    w_np = r.standard_normal((5, 3, 3, 3)).astype("float32")
    x, w = paddle.to_tensor(x_np), paddle.to_tensor(w_np, stop_gradient=not grad)
    if mode == "to_static":
        fn = paddle.jit.to_static(lambda a: F.relu(F.conv2d(a, w, padding=1)))
        fn(x)  # the first call runs eagerly (op by op), to find the function's state
        if grad:  # the train program traces conv2d's other kernel (forward-only: the same one)
            traced.clear()
        y = fn(x)  # traced and compiled
    elif mode == "deferred":
        with deferred.mode(True):
            y = F.relu(F.conv2d(x, w, padding=1))
            y.numpy()
    else:
        with deferred.mode(False):  # op by op, also where PADDLE_COMPAT_DEFERRED=1
            y = F.relu(F.conv2d(x, w, padding=1))
    want = jax.nn.relu(_reference(jnp.asarray(x_np), jnp.asarray(w_np), padding=1))
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-5)
    assert len(traced) == calls


def test_depthwise_double_backward_and_bfloat16():
    """The depthwise lowering's own gradients (one variadic reduce for the weight, a flipped
    tap sum for the input) differentiate again (a gradient penalty), and in bfloat16 sum their
    products in float32."""
    r = np.random.default_rng(4)
    x_np = r.standard_normal((1, 4, 6, 6)).astype("float32")
    w_np = r.standard_normal((4, 1, 3, 3)).astype("float32")
    x = paddle.to_tensor(x_np, stop_gradient=False)
    w = paddle.to_tensor(w_np, stop_gradient=False)
    y = F.conv2d(x, w, padding=1, groups=4)
    (gx,) = paddle.grad((y * y).sum(), [x], create_graph=True)
    (ggw,) = paddle.grad(gx.sum(), [w])

    def penalty(b):
        return jax.grad(lambda a: jnp.sum(_reference(a, b, padding=1, groups=4) ** 2))(
            jnp.asarray(x_np)
        ).sum()

    want = jax.grad(penalty)(jnp.asarray(w_np))
    np.testing.assert_allclose(ggw.numpy(), want, rtol=1e-5, atol=1e-5 * np.abs(want).max())

    xb = paddle.to_tensor(x_np).astype("bfloat16")
    wb = paddle.to_tensor(w_np).astype("bfloat16")
    xb.stop_gradient = wb.stop_gradient = False
    F.conv2d(xb, wb, padding=1, groups=4).astype("float32").sum().backward()
    want_w = jax.grad(
        lambda b: _reference(
            jnp.asarray(xb.numpy().astype("float32")), b, padding=1, groups=4
        ).sum()
    )(jnp.asarray(wb.numpy().astype("float32")))
    assert wb.grad.dtype == paddle.bfloat16
    np.testing.assert_allclose(wb.grad.astype("float32").numpy(), want_w, rtol=2e-2, atol=2e-2)
