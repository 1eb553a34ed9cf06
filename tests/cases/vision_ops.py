"""paddle.vision.ops vs real Paddle: RoI pooling, deformable convolution, YOLO decode and loss,
box coding, prior boxes, NMS, matrix NMS, RPN proposals, FPN distribution and read_file, with
gradients where Paddle's ops have them, and Paddle's errors for bad input. Small seeded inputs;
few distinct shapes (each is a compile)."""

import os
import tempfile

import numpy as np
import paddle.vision.ops as O
from _util import backprop, expect_error, rng

import paddle

TOLERANCE = {
    "case_deform_conv2d": (1e-5, 1e-5),
    "case_deform_conv2d_grouped": (1e-5, 1e-5),
    "case_yolo_loss": (1e-5, 1e-5),
    "case_yolo_loss_variants": (1e-5, 1e-5),
    "case_generate_proposals": (1e-5, 1e-5),
}


def T(a, dtype=None):
    return paddle.to_tensor(np.asarray(a) if dtype is None else np.asarray(a).astype(dtype))


# -- RoI ops ------------------------------------------------------------------------------------
X = rng(1).standard_normal((2, 8, 8, 8)).astype("float32")
BOXES = np.array(
    [
        [0.5, 1.0, 5.0, 6.5],  # image 0
        [2.2, 0.3, 7.6, 3.9],
        [-2.0, -1.0, 3.0, 4.0],  # image 1: partly outside
        [1.0, 1.0, 20.0, 15.0],  # beyond the map
        [3.4, 2.6, 6.1, 7.7],
    ],
    "float32",
)
NUM = np.array([2, 3], "int32")


def case_roi_align():
    out = {}
    for kw in (
        {},
        {"aligned": False},
        {"sampling_ratio": 2},
        {"spatial_scale": 0.5, "sampling_ratio": 3, "aligned": False},
    ):
        name = "_".join(f"{k}{v}" for k, v in kw.items()) or "default"
        out[name] = backprop(
            lambda x, b, n, kw=kw: O.roi_align(x, b, n, (2, 3), **kw), X, BOXES, NUM
        )
    out["int_size"] = O.roi_align(T(X), T(BOXES), T(NUM), 2)
    out["int64_num"] = O.roi_align(T(X), T(BOXES), T(NUM, "int64"), [3, 2])
    huge = np.array([[-30.0, -40.0, 50.0, 60.0], [0.0, 0.0, 0.0, 0.0]], "float32")  # grid > map
    out["huge"] = O.roi_align(T(X), T(huge), T([1, 1], "int32"), 2)
    out["tiny_unaligned"] = O.roi_align(T(X), T(huge[1:]), T([0, 1], "int32"), 2, aligned=False)
    small = np.array([[1.0, 2.0, 1.5, 2.25], [3.0, 1.0, 7.5, 3.5]], "float32")  # under 1 pixel
    out["small_grad"] = backprop(  # Paddle's gradient kernel clamps boxes to 1 x 1 pixel
        lambda x, b: O.roi_align(x, b, T([1, 1], "int32"), (2, 3)), X, small
    )
    out["float64"] = O.roi_align(T(X, "float64"), T(BOXES, "float64"), T(NUM), 2, 0.5)
    out["empty"] = O.roi_align(T(X), T(np.zeros((0, 4), "float32")), T([0, 0], "int32"), 2)
    return out


def case_roi_pool():
    out = {"default": backprop(lambda x, b, n: O.roi_pool(x, b, n, (2, 3)), X, BOXES, NUM)}
    out["scaled"] = backprop(lambda x, b, n: O.roi_pool(x, b, n, 3, 0.5), X, BOXES, NUM)
    half = np.array([[0.5, 1.5, 2.5, 3.5], [-0.5, 2.5, 1.5, 4.5]], "float32")  # .5 rounds away
    out["halves"] = O.roi_pool(T(X), T(half), T([1, 1], "int32"), 2)
    out["float64"] = O.roi_pool(T(X, "float64"), T(BOXES, "float64"), T(NUM), 2)
    out["empty"] = O.roi_pool(T(X), T(np.zeros((0, 4), "float32")), T([0, 0], "int32"), 2)
    return out


def case_psroi_pool():
    out = {"default": backprop(lambda x, b, n: O.psroi_pool(x, b, n, 2), X, BOXES, NUM)}
    out["scaled"] = backprop(lambda x, b, n: O.psroi_pool(x, b, n, (2, 1), 0.5), X, BOXES, NUM)
    out["float64"] = O.psroi_pool(T(X, "float64"), T(BOXES, "float64"), T(NUM), 2)
    out["halves"] = O.psroi_pool(
        T(X), T([[0.5, 1.5, 2.5, 3.5], [-0.5, 2.5, 1.5, 4.5]], "float32"), T([1, 1], "int32"), 2
    )
    return out


def case_roi_layers():
    x, b, n = T(X), T(BOXES), T(NUM)
    layers = {
        "align": O.RoIAlign((2, 3)),
        "align_scaled": O.RoIAlign(2, 0.5),
        "pool": O.RoIPool(2, 0.5),
        "psroi": O.PSRoIPool(2),
    }
    out = {k: [str(m), m(x, b, n)] for k, m in layers.items()}
    out["align_unaligned"] = O.RoIAlign(2)(x, b, n, aligned=False)
    return out


def case_roi_errors():
    x, b, n = T(X), T(BOXES), T(NUM)
    bad = {
        "align_none": lambda: O.roi_align(x, b, None, 2),
        "align_list_num": lambda: O.roi_align(x, b, [2, 3], 2),
        "pool_array_boxes": lambda: O.roi_pool(x, BOXES, n, 2),
        "align_batch": lambda: O.roi_align(x, b, T([1, 1, 3], "int32"), 2),
        "align_f64_boxes": lambda: O.roi_align(x, T(BOXES, "float64"), n, 2),
        "align_rank3": lambda: O.roi_align(x[0], b, n, 2),
        "align_box3": lambda: O.roi_align(x, b[:, :3], n, 2),
        "align_float16": lambda: O.roi_align(x.astype("float16"), b.astype("float16"), n, 2),
        "align_size_str": lambda: O.roi_align(x, b, n, "2"),
        "pool_int64_num": lambda: O.roi_pool(x, b, T(NUM, "int64"), 2),
        "pool_batch": lambda: O.roi_pool(x, b, T([1, 1, 3], "int32"), 2),
        "ps_one_channel": lambda: O.psroi_pool(x[:, :4], b, n, 2),
        "ps_channels": lambda: O.psroi_pool(x, b, n, 3),
        "ps_zero": lambda: O.psroi_pool(x, b, n, 0),
        "ps_rank3": lambda: O.psroi_pool(x[0], b, n, 2),
        "ps_sum": lambda: O.psroi_pool(x, b, T([1, 1], "int32"), 2),
        "ps_int64_num": lambda: O.psroi_pool(x, b, T(NUM, "int64"), 2),
        "ps_batch": lambda: O.psroi_pool(x, b, T([1, 1, 3], "int32"), 2),
    }
    return {k: expect_error(f) for k, f in bad.items()}


# -- deformable convolution ---------------------------------------------------------------------
DX = rng(2).standard_normal((2, 4, 5, 5)).astype("float32")
DW = rng(3).standard_normal((6, 4, 3, 3)).astype("float32")
DOFF = (rng(4).standard_normal((2, 18, 3, 3)) * 1.5).astype("float32")
DMASK = rng(5).random((2, 9, 3, 3)).astype("float32")
DBIAS = rng(6).standard_normal(6).astype("float32")


def case_deform_conv2d():
    out = {
        "v1": backprop(lambda x, o, w: O.deform_conv2d(x, o, w), DX, DOFF, DW),
        "v2_bias": backprop(
            lambda x, o, w, m, b: O.deform_conv2d(x, o, w, b, mask=m), DX, DOFF, DW, DMASK, DBIAS
        ),
        "stride_pad": backprop(
            lambda x, o, w: O.deform_conv2d(x, o, w, stride=2, padding=1), DX, DOFF, DW
        ),
        "dilation_pad": backprop(
            lambda x, o, w: O.deform_conv2d(x, o, w, padding=[1, 0], dilation=[2, 1]),
            DX,
            DOFF,
            DW,
        ),
    }
    out["float64"] = O.deform_conv2d(
        T(DX, "float64"), T(DOFF, "float64"), T(DW, "float64"), mask=T(DMASK, "float64")
    )
    return out


def case_deform_conv2d_grouped():
    off2 = np.concatenate([DOFF, DOFF[:, ::-1] * 0.5], axis=1)  # 2 deformable groups
    mask2 = np.concatenate([DMASK, DMASK[:, ::-1]], axis=1)
    return {
        "groups2_dg2": backprop(
            lambda x, o, w, m: O.deform_conv2d(x, o, w, deformable_groups=2, groups=2, mask=m),
            DX,
            off2,
            DW[:, :2],
            mask2,
        ),
        "dg2": O.deform_conv2d(T(DX), T(off2), T(DW), deformable_groups=2),
    }


def case_deform_layer():
    layer = O.DeformConv2D(4, 6, 3, padding=1, stride=2)
    layer.weight.set_value(DW)
    layer.bias.set_value(DBIAS)
    out = {
        "repr": str(layer),
        "params": [[k, list(v.shape)] for k, v in layer.state_dict().items()],
    }
    out["y"] = layer(T(DX), T(DOFF), T(DMASK))
    out["y_v1"] = layer(T(DX), T(DOFF))
    blk = O.ConvNormActivation(4, 6, 3)
    out["block"] = [str(blk), [[k, list(v.shape)] for k, v in blk.state_dict().items()]]
    out["block_nonorm"] = str(O.ConvNormActivation(4, 6, 3, norm_layer=None, activation_layer=None))
    return out


def case_deform_errors():
    x, o, w = T(DX), T(DOFF), T(DW)
    bad = {
        "offset_channels": lambda: O.deform_conv2d(x, o[:, :16], w),
        "mask_channels": lambda: O.deform_conv2d(x, o, w, mask=T(DMASK[:, :8])),
        "offset_hw": lambda: O.deform_conv2d(x, o[:, :, :2], w),
        "groups": lambda: O.deform_conv2d(x, o, T(DW[:, :2])),
        "rank3": lambda: O.deform_conv2d(x[0], o, w),
        "mixed_dtype": lambda: O.deform_conv2d(T(DX, "float64"), o, w),
        "int": lambda: O.deform_conv2d(x.astype("int32"), o.astype("int32"), w.astype("int32")),
        "dg_mismatch": lambda: O.deform_conv2d(x, o, w, deformable_groups=2),
    }
    return {k: expect_error(f) for k, f in bad.items()}


# -- YOLO ---------------------------------------------------------------------------------------
YX = rng(7).standard_normal((2, 14, 4, 4)).astype("float32")
YX_IOU = rng(8).standard_normal((2, 16, 4, 4)).astype("float32")
IMG = np.array([[64, 48], [40, 56]], "int32")
ANCHORS = [10, 13, 16, 30, 33, 23]


def case_yolo_box():
    out = {}
    for name, kw in {
        "default": {},
        "noclip": {"clip_bbox": False},
        "scaled": {"scale_x_y": 1.2, "conf_thresh": 0.4},
    }.items():
        kw = {"conf_thresh": 0.3, **kw}
        out[name] = O.yolo_box(T(YX), T(IMG), ANCHORS[:4], 2, downsample_ratio=8, **kw)
    out["iou_aware"] = O.yolo_box(
        T(YX_IOU), T(IMG), ANCHORS[:4], 2, 0.2, 8, iou_aware=True, iou_aware_factor=0.4
    )
    out["positional"] = O.yolo_box(T(YX), T(IMG), ANCHORS[:4], 2, 0.5, 8, False, None, 1.1)
    out["float64"] = O.yolo_box(T(YX, "float64"), T(IMG), ANCHORS[:4], 2, 0.3, 8)
    gx = T(YX)
    gx.stop_gradient = False
    out["stop_gradient"] = [t.stop_gradient for t in O.yolo_box(gx, T(IMG), ANCHORS[:4], 2, 0.3, 8)]
    return out


def _gt():
    # (x, y, w, h) in [0, 1]: distinct cells of the 4 x 4 grid; a w = 0 box is invalid
    box = np.array(
        [
            [
                [0.1, 0.2, 0.3, 0.4],
                [0.6, 0.35, 0.5, 0.9],
                [0.9, 0.9, 0.8, 0.6],
                [0.4, 0.6, 0.0, 0.3],
            ],
            [[0.3, 0.8, 0.45, 0.2], [0.7, 0.1, 0.2, 0.7], [0.55, 0.55, 1.0, 0.7], [0, 0, 0, 0]],
        ],
        "float32",
    )
    label = np.array([[0, 1, 1, 0], [1, 0, 2, 0]], "int32")  # 2 is beyond class_num: all negative
    return box, label


def case_yolo_loss():
    box, label = _gt()
    out = {}
    for name, kw in {
        "default": {},
        "no_smooth": {"use_label_smooth": False},
        "scaled": {"scale_x_y": 1.2, "ignore_thresh": 0.1},
    }.items():
        kw = {"ignore_thresh": 0.3, **kw}
        out[name] = backprop(
            lambda x, b, kw=kw: O.yolo_loss(
                x, b, T(label), ANCHORS, [1, 2], 2, downsample_ratio=8, **kw
            ),
            YX,
            box,
        )
    return out


def case_yolo_loss_variants():
    box, label = _gt()
    score = rng(9).random((2, 4)).astype("float32")
    out = {
        "score": backprop(
            lambda x, s: O.yolo_loss(x, T(box), T(label), ANCHORS, [1, 2], 2, 0.3, 8, gt_score=s),
            YX,
            score,
        ),
        "mask01": O.yolo_loss(T(YX), T(box), T(label), ANCHORS, [0, 1], 2, 0.5, 16),
        "float64": O.yolo_loss(
            T(YX, "float64"), T(box, "float64"), T(label), ANCHORS, [1, 2], 2, 0.3, 8
        ),
    }
    # two ground truths in one cell: losses add up, the last one sets the objectness target
    dup = box.copy()
    dup[0, 3] = [0.12, 0.22, 0.32, 0.41]
    out["same_cell"] = backprop(  # Paddle's gradient counts only the last one's terms
        lambda x: O.yolo_loss(x, T(dup), T(label), ANCHORS, [1, 2], 2, 0.3, 8), YX
    )
    return out


def case_yolo_errors():
    box, label = _gt()
    x, b, lab = T(YX), T(box), T(label)
    bad = {
        "box_channels": lambda: O.yolo_box(x, T(IMG), ANCHORS[:4], 3, 0.1, 8),
        "box_img_int64": lambda: O.yolo_box(x, T(IMG, "int64"), ANCHORS[:4], 2, 0.1, 8),
        "box_img_float": lambda: O.yolo_box(x, T(IMG, "float32"), ANCHORS[:4], 2, 0.1, 8),
        "box_int": lambda: O.yolo_box(x.astype("int32"), T(IMG), ANCHORS[:4], 2, 0.1, 8),
        "loss_label_int64": lambda: O.yolo_loss(
            x, b, T(label, "int64"), ANCHORS, [1, 2], 2, 0.3, 8
        ),
        "loss_channels": lambda: O.yolo_loss(x, b, lab, ANCHORS, [1, 2], 3, 0.3, 8),
        "loss_hw": lambda: O.yolo_loss(x[:, :, :, :3], b, lab, ANCHORS, [1, 2], 2, 0.3, 8),
        "loss_box3": lambda: O.yolo_loss(x, b[:, :, :3], lab, ANCHORS, [1, 2], 2, 0.3, 8),
        "loss_mask_oob": lambda: O.yolo_loss(x, b, lab, ANCHORS, [1, 3], 2, 0.3, 8),
        "loss_mixed": lambda: O.yolo_loss(T(YX, "float64"), b, lab, ANCHORS, [1, 2], 2, 0.3, 8),
    }
    return {k: expect_error(f) for k, f in bad.items()}


# -- box_coder and prior_box --------------------------------------------------------------------
PB = np.array([[0.1, 0.2, 0.5, 0.6], [0.3, 0.1, 0.9, 0.4], [2.0, 3.0, 8.0, 9.0]], "float32")
PBV = np.array([[0.1, 0.1, 0.2, 0.2], [0.2, 0.1, 0.1, 0.3], [0.1, 0.2, 0.3, 0.4]], "float32")
TB = np.array([[0.2, 0.1, 0.6, 0.7], [1.0, 2.0, 4.0, 7.0]], "float32")
DELTA = rng(10).standard_normal((2, 3, 4)).astype("float32") * 0.5


def case_box_coder():
    pb, pbv, tb = T(PB), T(PBV), T(TB)
    return {
        "encode": O.box_coder(pb, pbv, tb),
        "encode_list": O.box_coder(pb, [0.1, 0.1, 0.2, 0.2], tb, box_normalized=False),
        "encode_tuple": O.box_coder(pb, (0.1, 0.2, 0.3, 0.4), tb),
        "decode": O.box_coder(pb, pbv, T(DELTA), "decode_center_size"),
        "decode_pixel": O.box_coder(pb, pbv, T(DELTA), "decode_center_size", False),
        "decode_axis1": O.box_coder(pb[:2], pbv[:2], T(DELTA), "decode_center_size", axis=1),
        "decode_list": O.box_coder(pb, [0.1, 0.1, 0.2, 0.2], T(DELTA), "decode_center_size"),
        "float64": O.box_coder(T(PB, "float64"), T(PBV, "float64"), T(TB, "float64")),
        "errors": {
            k: expect_error(f)
            for k, f in {
                "list3": lambda: O.box_coder(pb, [0.1, 0.1, 0.2], tb),
                "none": lambda: O.box_coder(pb, None, tb),
                "decode_rank2": lambda: O.box_coder(pb, pbv, tb, "decode_center_size"),
                "encode_rank3": lambda: O.box_coder(pb, pbv, T(DELTA)),
                "code": lambda: O.box_coder(pb, pbv, tb, "foo"),
                "int": lambda: O.box_coder(pb.astype("int32"), pbv, tb.astype("int32")),
                "prior5": lambda: O.box_coder(T(np.ones((3, 5), "float32")), pbv, tb),
                "decode_rows": lambda: O.box_coder(pb, pbv, T(DELTA), "decode_center_size", axis=1),
            }.items()
        },
    }


def case_prior_box():
    inp = T(np.zeros((1, 3, 2, 3), "float32"))
    img = T(np.zeros((1, 3, 9, 12), "float32"))
    out = {
        "default": O.prior_box(inp, img, [2.0, 4.0]),
        "float": O.prior_box(inp, img, 3.0, clip=True),
        "max_flip": O.prior_box(inp, img, [2.0, 4.0], [5.0, 6.0], [2.0, 3.0], flip=True),
        "mm_order": O.prior_box(
            inp,
            img,
            [2.0, 4.0],
            [5.0, 6.0],
            [2.0, 3.0],
            flip=True,
            min_max_aspect_ratios_order=True,
        ),
        "steps_clip": O.prior_box(
            inp,
            img,
            [4.0],
            aspect_ratios=[1.0, 2.0, 2.0, 0.5],
            flip=True,
            clip=True,
            steps=[3.0, 4.0],
            offset=0.3,
            variance=[0.1, 0.2, 0.3, 0.4],
        ),
        "float64": O.prior_box(inp.astype("float64"), img, [2.0]),
    }
    out["errors"] = {
        k: expect_error(f)
        for k, f in {
            "steps": lambda: O.prior_box(inp, img, [2.0], steps=[1.0]),
            "max_len": lambda: O.prior_box(inp, img, [2.0, 4.0], [5.0]),
            "max_small": lambda: O.prior_box(inp, img, [2.0], [1.0]),
            "var_float": lambda: O.prior_box(inp, img, [2.0], variance=0.1),
            "rank3": lambda: O.prior_box(inp[0], img, [2.0]),
            "int": lambda: O.prior_box(inp.astype("int32"), img, [2.0]),
        }.items()
    }
    return out


# -- NMS and proposals --------------------------------------------------------------------------
def _boxes(n, seed, scale=1.0):
    b = rng(seed).random((n, 4)).astype("float32") * scale
    b[:, 2:] += b[:, :2]
    return b


def case_nms():
    b = np.array(
        [[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [0, 0, 10, 10.5], [21, 19, 31, 29]],
        "float32",
    )
    s = np.array([0.1, 0.9, 0.5, 0.3, 0.6], "float32")
    cat = np.array([0, 0, 1, 1, 1], "int64")
    rand = _boxes(12, 11)
    return {
        "plain": O.nms(T(b), 0.5),
        "edge": O.nms(T(b), 0.6806),
        "scores": O.nms(T(b), 0.5, T(s)),
        "scores_topk_ignored": O.nms(T(b), 0.5, T(s), top_k=1),
        "categories": O.nms(T(b), 0.5, T(s), T(cat), [0, 1]),
        "categories_topk": O.nms(T(b), 0.5, T(s), T(cat), [0, 1], 2),
        "one_category": O.nms(T(b), 0.1, T(s), T(cat), [1]),
        "random": O.nms(T(rand), 0.3, T(rng(12).random(12).astype("float32"))),
        "float64": O.nms(T(rand, "float64"), 0.2),
        "empty": O.nms(T(np.zeros((0, 4), "float32")), 0.5),
        "errors": {
            k: expect_error(f)
            for k, f in {
                "int": lambda: O.nms(T(b, "int32"), 0.5),
                "cols": lambda: O.nms(T(b[:, :3]), 0.5),
                "no_categories": lambda: O.nms(T(b), 0.5, T(s), T(cat)),
                "topk": lambda: O.nms(T(b), 0.5, T(s), T(cat), [0, 1], 9),
            }.items()
        },
    }


def case_matrix_nms():
    b = np.stack([_boxes(6, 13), _boxes(6, 14)])
    s = rng(15).random((2, 3, 6)).astype("float32")
    B, S = T(b), T(s)
    return {
        "default": O.matrix_nms(B, S, 0.3, 0.1, 10, 5),
        "index": O.matrix_nms(B, S, 0.3, 0.1, 4, 6, return_index=True),
        "gaussian_all": O.matrix_nms(
            B,
            S,
            0.2,
            0.05,
            -1,
            -1,
            use_gaussian=True,
            gaussian_sigma=1.5,
            background_label=-1,
            normalized=False,
            return_index=True,
            return_rois_num=False,
        ),
        "none": O.matrix_nms(B, S, 0.99, 0.1, 10, 5, return_index=True),
        "float64": O.matrix_nms(T(b, "float64"), T(s, "float64"), 0.3, 0.1, 10, 5),
        "errors": {
            k: expect_error(f)
            for k, f in {
                "rank2": lambda: O.matrix_nms(B[0], S, 0.3, 0.1, 10, 5),
                "boxes": lambda: O.matrix_nms(B[:, :4], S, 0.3, 0.1, 10, 5),
                "mixed": lambda: O.matrix_nms(T(b, "float64"), S, 0.3, 0.1, 10, 5),
            }.items()
        },
    }


def _rpn():
    r = rng(16)
    scores = r.random((2, 2, 3, 3)).astype("float32")
    deltas = (r.standard_normal((2, 8, 3, 3)) * 0.3).astype("float32")
    anchors = (r.random((3, 3, 2, 4)) * 10).astype("float32")
    anchors[..., 2:] += anchors[..., :2] + 4
    var = (r.random((3, 3, 2, 4)) * 0.5 + 0.5).astype("float32")
    im = np.array([[20.0, 20.0], [15.0, 18.0]], "float32")
    return scores, deltas, im, anchors, var


def case_generate_proposals():
    ins = [T(a) for a in _rpn()]
    out = {
        "default": O.generate_proposals(*ins, return_rois_num=True),
        "topn": O.generate_proposals(
            *ins,
            pre_nms_top_n=10,
            post_nms_top_n=4,
            nms_thresh=0.5,
            min_size=1.0,
            return_rois_num=True,
        ),
        "pixel_eta": O.generate_proposals(
            *ins, nms_thresh=0.7, eta=0.5, pixel_offset=True, return_rois_num=True
        ),
        "big_min_size": O.generate_proposals(*ins, min_size=50.0, return_rois_num=True),
        "float64": O.generate_proposals(
            *[T(a, "float64") for a in _rpn()], nms_thresh=0.6, return_rois_num=True
        ),
    }
    out["errors"] = {
        "no_rois_num": expect_error(lambda: O.generate_proposals(*ins)),
        "img_f64": expect_error(
            lambda: O.generate_proposals(
                ins[0], ins[1], ins[2].astype("float64"), ins[3], ins[4], return_rois_num=True
            )
        ),
    }
    return out


def case_distribute_fpn_proposals():
    rois = np.array(
        [
            [0, 0, 10, 10],
            [0, 0, 100, 100],
            [0, 0, 300, 300],
            [5, 5, 50, 60],
            [0, 0, 1000, 900],
            [3, 4, 2, 1],
            [0, 0, 223, 223],
        ],
        "float32",
    )
    num = np.array([3, 4], "int32")
    out = {
        "default": O.distribute_fpn_proposals(T(rois), 2, 5, 4, 224, rois_num=T(num)),
        "pixel": O.distribute_fpn_proposals(
            T(rois), 2, 5, 4, 224, pixel_offset=True, rois_num=T(num)
        ),
        "int64": O.distribute_fpn_proposals(T(rois), 3, 4, 4, 100, rois_num=T(num, "int64")),
        "float64": O.distribute_fpn_proposals(T(rois, "float64"), 2, 5, 4, 224, rois_num=T(num)),
        "partial": O.distribute_fpn_proposals(T(rois), 2, 5, 4, 224, rois_num=T([1, 2], "int32")),
    }
    out["errors"] = {
        k: expect_error(f)
        for k, f in {
            "none": lambda: O.distribute_fpn_proposals(T(rois), 2, 5, 4, 224),
            "one_level": lambda: O.distribute_fpn_proposals(T(rois), 2, 2, 4, 224, rois_num=T(num)),
            "level0": lambda: O.distribute_fpn_proposals(T(rois), 0, 2, 4, 224, rois_num=T(num)),
        }.items()
    }
    return out


def case_read_file():
    data = bytes(range(256)) * 3 + b"paddle"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "blob.bin")
        with open(path, "wb") as f:
            f.write(data)
        t = O.read_file(path)
        return {
            "value": t,
            "place": str(t.place),
            "missing": expect_error(lambda: O.read_file(os.path.join(d, "missing.bin"))),
        }
