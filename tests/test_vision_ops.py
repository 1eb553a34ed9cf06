"""paddle.vision.ops beyond the goldens (tests/cases/vision_ops.py): the public surface, ops that
trace under to_static (same values as eager, no recompile for new box values), ops whose output
shape depends on values (a clear error under a trace), gradients that skip boxes, and
decode_jpeg (Paddle decodes only on GPU; here Pillow decodes on every device)."""

from __future__ import annotations

import inspect
import io

import jax
import jax.numpy as jnp
import numpy as np
import paddle.vision.ops as O
import pytest
from compile_count import count_compiles
from PIL import Image

import paddle
from paddle_compat._core.tensor import Tensor
from paddle_compat._core.trace_state import DataDependentError
from paddle_compat._ops._methods import namespace

R = np.random.default_rng(0)
X = R.standard_normal((2, 8, 6, 6)).astype("float32")
BOXES = np.array([[0.5, 1.0, 4.0, 5.5], [1.2, 0.3, 5.6, 3.9], [-1.0, 2.0, 3.0, 4.0]], "float32")
NUM = np.array([1, 2], "int32")
YX = R.standard_normal((2, 14, 4, 4)).astype("float32")
GT = np.array([[[0.2, 0.3, 0.3, 0.4], [0.7, 0.6, 0.5, 0.2]]] * 2, "float32")
LABEL = np.array([[0, 1], [1, 0]], "int32")


def T(a, dtype=None):
    return paddle.to_tensor(np.asarray(a) if dtype is None else np.asarray(a).astype(dtype))


# -- the public surface ---------------------------------------------------------------------------
# parameter names of Paddle 3.3.1's functions (inspect.signature under real Paddle)
PADDLE_PARAMS = {
    "roi_align": "x boxes boxes_num output_size spatial_scale sampling_ratio aligned name",
    "roi_pool": "x boxes boxes_num output_size spatial_scale name",
    "psroi_pool": "x boxes boxes_num output_size spatial_scale name",
    "nms": "boxes iou_threshold scores category_idxs categories top_k",
    "matrix_nms": "bboxes scores score_threshold post_threshold nms_top_k keep_top_k "
    "use_gaussian gaussian_sigma background_label normalized return_index return_rois_num name",
    "yolo_box": "x img_size anchors class_num conf_thresh downsample_ratio clip_bbox name "
    "scale_x_y iou_aware iou_aware_factor",
    "yolo_loss": "x gt_box gt_label anchors anchor_mask class_num ignore_thresh "
    "downsample_ratio gt_score use_label_smooth name scale_x_y",
    "box_coder": "prior_box prior_box_var target_box code_type box_normalized axis name",
    "prior_box": "input image min_sizes max_sizes aspect_ratios variance flip clip steps "
    "offset min_max_aspect_ratios_order name",
    "deform_conv2d": "x offset weight bias stride padding dilation deformable_groups groups "
    "mask name",
    "generate_proposals": "scores bbox_deltas img_size anchors variances pre_nms_top_n "
    "post_nms_top_n nms_thresh min_size eta pixel_offset return_rois_num name",
    "distribute_fpn_proposals": "fpn_rois min_level max_level refer_level refer_scale "
    "pixel_offset rois_num name",
    "read_file": "filename name",
    "decode_jpeg": "x mode name",
}


def test_all_names_and_the_generated_namespace():
    assert set(O.__all__) <= set(dir(O))
    ops = set(namespace("paddle.vision.ops"))
    assert ops == {n for n in O.__all__ if n[0].islower()}
    for n in ops:
        assert getattr(O, n) is namespace("paddle.vision.ops")[n]
    assert issubclass(O.ConvNormActivation, paddle.nn.Sequential)
    assert paddle.vision.ops is O


@pytest.mark.parametrize("name", sorted(PADDLE_PARAMS))
def test_parameters_follow_paddle(name):
    ours = [p for p in inspect.signature(getattr(O, name)).parameters if p != "name"]
    assert ours == [p for p in PADDLE_PARAMS[name].split() if p != "name"]


# -- ops that trace ---------------------------------------------------------------------------
TRACED = {
    "roi_align": (lambda x, b, n: O.roi_align(x, b, n, 2), (X, BOXES, NUM)),
    "roi_pool": (lambda x, b, n: O.roi_pool(x, b, n, (2, 3), 0.5), (X, BOXES, NUM)),
    "psroi_pool": (lambda x, b, n: O.psroi_pool(x, b, n, 2), (X, BOXES, NUM)),
    "deform_conv2d": (
        lambda x, o, w: O.deform_conv2d(x, o, w, padding=1),
        (X[:, :4], R.standard_normal((2, 18, 6, 6)).astype("float32"), X[:3, :4, :3, :3]),
    ),
    "yolo_box": (lambda x, s: O.yolo_box(x, s, [10, 13, 16, 30], 2, 0.3, 8), (YX, [[32, 40]] * 2)),
    "yolo_loss": (
        lambda x, b, lab: O.yolo_loss(x, b, lab, [10, 13, 16, 30], [0, 1], 2, 0.5, 8),
        (YX, GT, LABEL),
    ),
    "box_coder": (lambda p, t: O.box_coder(p, [0.1, 0.1, 0.2, 0.2], t), (BOXES, BOXES[:2])),
    "prior_box": (lambda x, i: O.prior_box(x, i, [2.0], [3.0], [2.0], flip=True), (X, X)),
}


def _tensors(arrays):
    return [T(np.asarray(a, np.int32) if isinstance(a, list) else a) for a in arrays]


@pytest.mark.parametrize("name", sorted(TRACED))
def test_traces_under_to_static_like_eager(name):
    fn, arrays = TRACED[name]
    args = _tensors(arrays)
    eager = fn(*args)
    static = paddle.jit.to_static(fn, full_graph=True)
    for _ in range(2):  # the first call runs eagerly, the second traces
        got = static(*args)
    for e, g in zip(_flat(eager), _flat(got), strict=True):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6, atol=1e-6)


def _flat(out):
    return list(out) if isinstance(out, tuple | list) else [out]


@pytest.mark.parametrize("name", ["roi_align", "roi_pool", "psroi_pool"])
def test_new_box_values_compile_nothing(name):
    fn, (x, b, n) = TRACED[name]
    fn(T(x), T(b), T(n))
    with count_compiles() as seen:
        fn(T(x), T(b * 0.7 + 0.3), T(n))  # another grid of samples, same shapes
    assert seen == []


# -- ops whose output shape depends on values -------------------------------------------------
DATA_DEPENDENT = {
    "nms": lambda t: O.nms(t, 0.5),
    "matrix_nms": lambda t: O.matrix_nms(
        t[None], t[None, :, :3].transpose([0, 2, 1]), 0.1, 0.1, -1, -1
    )[0],
    "distribute_fpn_proposals": lambda t: O.distribute_fpn_proposals(
        t, 2, 3, 2, 4, rois_num=T([3], "int32")
    )[1],
    "generate_proposals": lambda t: O.generate_proposals(
        t[:1, :1].reshape([1, 1, 1, 1]),
        t[:1].reshape([1, 4, 1, 1]),
        T([[8.0, 8.0]], "float32"),
        t[:1].reshape([1, 1, 1, 4]),
        t[:1].reshape([1, 1, 1, 4]),
        return_rois_num=True,
    )[0],
    "decode_jpeg": lambda t: O.decode_jpeg(t.astype("uint8").flatten()),
}


@pytest.mark.parametrize("name", sorted(DATA_DEPENDENT))
def test_data_dependent_ops_raise_under_trace(name):
    fn = DATA_DEPENDENT[name]
    if name != "decode_jpeg":  # (the boxes are not JPEG bytes)
        fn(T(BOXES))  # works eagerly
    with pytest.raises(DataDependentError, match=f"paddle.vision.ops.{name} has a data-dep"):
        jax.jit(lambda a: fn(Tensor(a))._value)(jnp.asarray(BOXES))


def test_to_static_falls_back_to_eager_for_nms():
    fn = paddle.jit.to_static(lambda b: O.nms(b, 0.5))
    with pytest.warns(UserWarning, match="running it eagerly"):
        for _ in range(2):
            out = fn(T(BOXES))
    assert out.numpy().tolist() == O.nms(T(BOXES), 0.5).numpy().tolist()


# -- gradients ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["roi_align", "roi_pool", "psroi_pool"])
def test_boxes_get_no_gradient(name):
    fn, (x, b, n) = TRACED[name]
    xt, bt = paddle.to_tensor(x, stop_gradient=False), paddle.to_tensor(b, stop_gradient=False)
    out = fn(xt, bt, T(n))
    assert not out.stop_gradient
    out.sum().backward()
    assert bt.grad is None and xt.grad is not None


def test_yolo_loss_gradient_is_for_x_only():
    x, b = paddle.to_tensor(YX, stop_gradient=False), paddle.to_tensor(GT, stop_gradient=False)
    s = paddle.to_tensor(np.ones((2, 2), "float32"), stop_gradient=False)
    loss = O.yolo_loss(x, b, T(LABEL), [10, 13, 16, 30], [0, 1], 2, 0.5, 8, gt_score=s)
    loss.sum().backward()
    assert x.grad is not None and b.grad is None and s.grad is None


def test_roi_pool_gradient_goes_to_the_first_maximum():
    x = np.zeros((1, 1, 4, 4), "float32")  # a bin of equal values (ReLU zeros)
    xt = paddle.to_tensor(x, stop_gradient=False)
    O.roi_pool(xt, T([[0.0, 0.0, 3.0, 3.0]], "float32"), T([1], "int32"), 1).sum().backward()
    expect = np.zeros((4, 4), "float32")
    expect[0, 0] = 1
    np.testing.assert_array_equal(xt.grad.numpy()[0, 0], expect)


def test_deform_conv2d_without_offsets_is_conv2d():
    x = T(X[:, :4])
    w = T(R.standard_normal((4, 2, 3, 3)).astype("float32"))
    off = T(np.zeros((2, 36, 4, 4), "float32"))
    got = O.deform_conv2d(x, off, w, groups=2, deformable_groups=2)
    want = paddle.nn.functional.conv2d(x, w, groups=2)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)


# -- read_file / decode_jpeg ----------------------------------------------------------------------
def _jpeg(mode: str) -> bytes:
    shape = (5, 7, 3) if mode == "RGB" else (5, 7)
    img = Image.fromarray((R.random(shape) * 255).astype("uint8"), mode)
    buf = io.BytesIO()
    img.save(buf, format="JPEG")
    return buf.getvalue()


@pytest.mark.parametrize(
    "src, mode, channels",
    [("RGB", "unchanged", 3), ("RGB", "gray", 1), ("L", "unchanged", 1), ("L", "rgb", 3)],
)
def test_decode_jpeg_matches_pillow(tmp_path, src, mode, channels):
    path = tmp_path / "img.jpg"
    path.write_bytes(_jpeg(src))
    data = O.read_file(str(path))
    assert data.dtype == paddle.uint8 and data.shape == [path.stat().st_size]
    img = O.decode_jpeg(data, mode)
    assert img.dtype == paddle.uint8 and img.shape == [channels, 5, 7]
    want = Image.open(path).convert("L" if channels == 1 else "RGB")
    want = np.asarray(want).reshape(5, 7, channels).transpose(2, 0, 1)
    np.testing.assert_array_equal(img.numpy(), want)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda d: O.decode_jpeg(d, "bgr"), ValueError),
        (lambda d: O.decode_jpeg(d.astype("int32")), ValueError),
        (lambda d: O.decode_jpeg(d[:20]), RuntimeError),
    ],
)
def test_decode_jpeg_errors(call, error):
    with pytest.raises(error):
        call(T(np.frombuffer(_jpeg("RGB"), np.uint8)))


# -- Paddle's messages for the Python-side checks -------------------------------------------------
@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: O.roi_align(T(X), T(BOXES), None, 2), AssertionError, "boxes_num should not"),
        (lambda: O.psroi_pool(T(X), T(BOXES), T(NUM), 0), ValueError, "should not contain 0"),
        (
            lambda: O.nms(T(BOXES), 0.5, T(BOXES[:, 0]), T([0, 1, 1], "int64")),
            AssertionError,
            "categories which is a list",
        ),
        (lambda: O.generate_proposals(*[T(X)] * 5), AssertionError, "return_rois_num should"),
        (lambda: O.prior_box(T(X), T(X), [2.0], steps=[1.0]), ValueError, "steps should be"),
        (lambda: O.box_coder(T(BOXES), [0.1], T(BOXES)), AssertionError, "with 4 elements"),
        (lambda: O.read_file("/nonexistent/file"), RuntimeError, "/nonexistent/file"),
    ],
)
def test_python_side_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
