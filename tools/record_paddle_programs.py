"""Record the fixtures of tests/test_paddle_programs.py: small models exported by real Paddle
3.3.1's ``paddle.jit.save`` in both program formats, and real Paddle Inference's outputs on
them.

    /work/paddle-venv/bin/python tools/record_paddle_programs.py

Writes ``tests/data/paddle_programs/<model>_pir.{json,pdiparams}`` (PIR, Paddle 3.x's default),
``<model>_legacy.{pdmodel,pdiparams}`` (the 2.x protobuf program, written with
``FLAGS_enable_pir_api=0`` set before ``import paddle``) and ``outputs.json`` (inputs and the
predictor's outputs per model, format and batch size). Each format is exported in its own
subprocess (the flag is read at import). Weights and inputs come from fixed numpy seeds.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "paddle_programs"
FORMATS = {"pir": {}, "legacy": {"FLAGS_enable_pir_api": "0"}}

# model -> (input name, input shape without the batch dim, dtype, batch sizes)
INPUTS = {
    "cnn": ("image", [3, 8, 8], "float32", [2, 3]),
    "resnet": ("image", [3, 8, 8], "float32", [2, 1]),
    "lstm": ("seq", [5, 6], "float32", [2, 4]),
    "transformer": ("src", [6, 16], "float32", [2, 3]),
    "mobile": ("image", [3, 8, 8], "float32", [2, 1]),
    "text": ("ids", [7], "int64", [2, 3]),
    "misc": ("x", [4, 6, 6], "float32", [2, 1]),
    "indexing": ("x", [4], "float32", [2, 3]),
    "unpool": ("image", [3, 8, 8], "float32", [2, 1]),
    "nms": ("x", [30, 7], "float32", [2, 1]),
    "yolo": ("x", [21, 4, 4], "float32", [2, 1]),
    "arrays": ("x", [4], "float32", [2, 1]),
    "matrix_nms": ("x", [30, 7], "float32", [2, 1]),
    "ssd": ("image", [3, 8, 8], "float32", [2, 1]),
    "rcnn": ("x", [20, 4, 4], "float32", [2, 1]),
    "select": ("x", [12, 3], "float32", [2, 3]),
    "two_stage": ("x", [8, 7], "float32", [2, 1]),
    "gather_scatter": ("x", [6, 4], "float32", [2, 3]),
    "detect_more": ("image", [4, 8, 8], "float32", [2, 1]),
    "math": ("x", [4, 4, 4], "float32", [2, 1]),
    # control flow on tensors (to_static's if/while, a list appended in a loop): PIR only
    "cond": ("x", [6], "float32", [3, 2, 4]),
    "loop": ("x", [None, 4], "float32", [2, 1]),
    "brk": ("x", [4], "float32", [3, 2, 1]),
    "rnn_exit": ("x", [None, 4], "float32", [2, 3, 1]),
    "collect": ("x", [4], "float32", [2, 1]),
    "encoder": ("x", [None, 4], "float32", [2, 4]),
}
# exported in the PIR format only: Paddle 3.3.1 with PIR off cannot trace roll, index_select,
# where, prelu, ... (its dy2static calls the PIR-only C functions; see _legacy_static_fixes)
PIR_ONLY = {
    "indexing", "unpool", "nms", "yolo", "arrays", "matrix_nms", "ssd", "rcnn", "two_stage",
    "detect_more", "math",
}  # fmt: skip
# control-flow models: exported last, the legacy ones after _legacy_flow_fixes
FLOW = ("cond", "loop", "brk", "rnn_exit", "collect", "encoder")
# the length of a dim the spec leaves open, per batch size (the loop models' time axis)
OPEN_DIM = {1: 3, 2: 5, 3: 4, 4: 20}
# input scale per batch size: different sizes take different branches and loop counts
SCALE = {1: 0.5, 2: 0.9, 3: 0.2, 4: 3.0}
# run on Paddle Inference 3.3.1's plain CPU kernels: its oneDNN executor cannot run
# pd_op.nearest_interp ("ConvertPirAttribute2RuntimeAttribute not support
# ArrayAttribute<DoubleAttribute>"; mobile, misc), and it gives wrong results on gather_scatter
# and math (it runs scatter, abs and scale in place on values that later ops still read)
NO_ONEDNN = {"mobile", "misc", "gather_scatter", "math"}


def build(name: str):
    import paddle
    from paddle import nn

    if name == "cnn":
        return nn.Sequential(
            nn.Conv2D(3, 4, 3, padding=1),
            nn.BatchNorm2D(4),
            nn.ReLU(),
            nn.MaxPool2D(2),
            nn.Conv2D(4, 6, 3, stride=1, padding=1),
            nn.ReLU(),
            nn.AvgPool2D(2),
            nn.Flatten(),
            nn.Linear(6 * 2 * 2, 5),
            nn.Softmax(),
        )
    if name == "resnet":

        class Block(nn.Layer):
            def __init__(self, cin, cout, stride):
                super().__init__()
                self.c1 = nn.Conv2D(cin, cout, 3, stride=stride, padding=1, bias_attr=False)
                self.b1 = nn.BatchNorm2D(cout)
                self.c2 = nn.Conv2D(cout, cout, 3, padding=1, bias_attr=False)
                self.b2 = nn.BatchNorm2D(cout)
                self.short = None
                if stride != 1 or cin != cout:
                    self.short = nn.Sequential(
                        nn.Conv2D(cin, cout, 1, stride=stride, bias_attr=False),
                        nn.BatchNorm2D(cout),
                    )

            def forward(self, x):
                y = paddle.nn.functional.relu(self.b1(self.c1(x)))
                y = self.b2(self.c2(y))
                s = x if self.short is None else self.short(x)
                return paddle.nn.functional.relu(y + s)

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.stem = nn.Sequential(nn.Conv2D(3, 8, 3, padding=1), nn.BatchNorm2D(8))
                self.blocks = nn.Sequential(Block(8, 8, 1), Block(8, 12, 2))
                self.pool = nn.AdaptiveAvgPool2D(1)
                self.fc = nn.Linear(12, 4)

            def forward(self, x):
                x = paddle.nn.functional.relu(self.stem(x))
                x = self.pool(self.blocks(x))
                return self.fc(paddle.flatten(x, 1))

        return Net()
    if name == "lstm":

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.rnn = nn.LSTM(6, 8, num_layers=2)
                self.fc = nn.Linear(8, 3)

            def forward(self, x):
                y, (h, c) = self.rnn(x)
                return self.fc(y[:, -1]), h

        return Net()
    if name == "transformer":

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1)
                self.enc = nn.TransformerEncoder(layer, 2)
                self.head = nn.Linear(16, 4)

            def forward(self, x):
                y = self.enc(x)
                return paddle.tanh(self.head(y.mean(axis=1)))

        return Net()
    if name == "mobile":  # depthwise/pointwise convs, SE block, upsampling, concat, head ops

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.stem = nn.Sequential(nn.Conv2D(3, 8, 3, padding=1), nn.BatchNorm2D(8))
                self.dw = nn.Conv2D(8, 8, 3, padding=1, groups=8, bias_attr=False)
                self.pw = nn.Conv2D(8, 12, 1)
                self.se_pool = nn.AdaptiveAvgPool2D(1)
                self.se_fc = nn.Conv2D(12, 12, 1)
                self.down = nn.Conv2D(12, 6, 3, stride=2, padding=1)
                self.up = nn.Conv2DTranspose(6, 6, 2, stride=2)
                self.head = nn.Linear(18, 5)

            def forward(self, x):
                x = nn.functional.hardswish(self.stem(x))
                y = nn.functional.relu6(self.dw(x))
                y = self.pw(y)
                s = nn.functional.hardsigmoid(self.se_fc(self.se_pool(y)))
                y = y * s
                d = self.down(y)
                u = self.up(d) + nn.functional.interpolate(d, size=[8, 8], mode="nearest")
                z = paddle.concat([y, u], axis=1)
                z = paddle.clip(z, -3.0, 3.0)
                z = nn.functional.max_pool2d(z, 3, stride=2, padding=1, ceil_mode=True)
                z = paddle.squeeze(nn.functional.adaptive_avg_pool2d(z, 1), axis=[2, 3])
                return nn.functional.sigmoid(self.head(z))

        return Net()
    if name == "text":  # embedding, bidirectional GRU, layer norm, gelu, gathers

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(20, 8, padding_idx=0)
                self.gru = nn.GRU(8, 6, direction="bidirect")
                self.norm = nn.LayerNorm(12)
                self.fc = nn.Linear(12, 4)

            def forward(self, ids):
                h, _ = self.gru(self.emb(ids))
                h = nn.functional.gelu(self.norm(h))
                first, last = h[:, 0], h[:, -1]
                logits = self.fc(paddle.unsqueeze(first + last, 1)).squeeze(1)
                return nn.functional.log_softmax(logits, -1), paddle.argmax(logits, -1)

        return Net()
    if name == "misc":  # elementwise math, reductions, compare/cast, split/stack/concat, resize

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2D(4, 4, 3, padding=1)
                self.fc = nn.Linear(12, 3)

            def forward(self, x):
                F = nn.functional
                a = self.conv(x)
                b = F.avg_pool2d(F.interpolate(a, size=[12, 12], mode="bilinear"), 2)
                c = paddle.maximum(a, b) - paddle.minimum(a, x)
                d = paddle.multiply(c, F.sigmoid(c)) / paddle.sqrt(paddle.abs(c) + 1.0)
                e = F.silu(d) + paddle.rsqrt(d * d + 1.0) + paddle.exp(-d * d)
                e = F.leaky_relu(e, 0.1)
                s = paddle.stack([e.mean(axis=[2, 3]), paddle.sum(e, axis=[2, 3])], axis=1)
                s = paddle.cast(s > 0.5, "float32") * s + s
                p, q = paddle.split(s.flatten(1), 2, axis=1)
                h = paddle.concat([p * q, p, q[:, :4]], axis=1)
                return self.fc(h), paddle.cast(paddle.argmax(h, -1), "int32")

        return Net()
    return _build_flow(name)


def _build_flow(name: str):
    """The control-flow models: Tensor ``if``/``while``/``break``/early ``return`` and a list
    appended in a loop, as ``paddle.jit.save`` converts them."""
    import paddle
    from paddle import nn

    class _Fc4(nn.Layer):  # the loop models' one Linear(4, 4)
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

    class _Scaled(nn.Layer):  # one parameter: a 2.x program without one cannot be loaded
        def __init__(self, n: int):
            super().__init__()
            self.scale = self.create_parameter([n])

    if name == "indexing":  # what Swin, ViT and PP-YOLOE exports use beyond the others

        class Net(_Fc4):
            def forward(self, x):
                y = paddle.roll(self.fc(x), shifts=1, axis=1)
                z = paddle.index_select(y, paddle.to_tensor([3, 0, 2]), axis=1)
                z = paddle.where(z > 0, z, z * 0.1)
                w = y[:, ::2]  # strided_slice
                mask = paddle.zeros([1, 4])
                mask[:, 1:3] = 1.0  # set_value_ on a constant (Swin's window mask)
                v = y * mask
                v[:, 0] = w[:, 1]  # set_value_with_tensor_ on data
                e = paddle.expand(w.unsqueeze(1), [-1, 3, 2])
                q = (y * 10).astype("int64") // 3  # floor division of negative integers
                n = paddle.shape(x)[0] // 2  # of a size
                gx, gy = paddle.meshgrid(y[:, 0], w[0])  # of data (PP-YOLOE: of aranges)
                cx, cy = paddle.meshgrid(paddle.arange(2.0), paddle.arange(3.0))
                g = gx * gy + (cx * cy).sum()
                out = paddle.concat([z, w, v, e.reshape([-1, 6]), g], 1)
                return out, q, n.astype("int64")

        return Net()
    if name == "unpool":  # PaddleSeg's ENet and OCRNet: prelu, max pool with indices, unpool, bmm

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2D(3, 4, 3, padding=1)
                self.act = nn.PReLU(4)  # one alpha per channel
                self.act1 = nn.PReLU()  # one alpha

            def forward(self, x):
                y = self.act(self.conv(x))
                p, idx = nn.functional.max_pool2d(y, 2, 2, return_mask=True)
                u = nn.functional.max_unpool2d(p, idx, 2, 2, output_size=y.shape[2:])
                f = y.flatten(2)
                return self.act1(u), paddle.bmm(f, f.transpose([0, 2, 1]))

        return Net()
    if name == "nms":  # PaddleDetection's exports end with multiclass_nms3 (as ppdet 2.8 calls it)

        class Net(nn.Layer):
            def forward(self, x):
                xy = x[:, :, :2] * 10
                boxes = paddle.concat([xy, xy + x[:, :, 2:4].abs() * 5 + 1], -1)
                scores = nn.functional.sigmoid(x[:, :, 4:7]).transpose([0, 2, 1])
                # score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                # background_label: pixel boxes (+1 sizes), an adaptive threshold, class 0 skipped
                return paddle._C_ops.multiclass_nms3(
                    boxes, scores, None, 0.3, 20, 12, 0.7, False, 0.9, 0
                )

        return Net()
    if name == "yolo":  # a YOLOv3 head's decoding (yolo_box) and pixel-box NMS, as ppdet's

        class Net(nn.Layer):
            def forward(self, x):
                size = paddle.full([paddle.shape(x)[0], 2], 64, "int32")
                boxes, scores = paddle.vision.ops.yolo_box(
                    x, size, [10, 13, 16, 30, 33, 23], 2, 0.01, 16, True, scale_x_y=1.05
                )
                return paddle._C_ops.multiclass_nms3(
                    boxes, scores.transpose([0, 2, 1]), None, 0.01, 100, 20, 0.45, False, 1.0, -1
                )

        return Net()
    if name == "arrays":  # a data-dependent list, popped and sliced (array_pop, slice_array)

        class Net(_Fc4):
            def forward(self, x):
                outs = []
                s = x
                i = paddle.zeros([1], "int64")
                while i < 2 or (s.abs().sum() < 12.0 and i < 6):  # at least two
                    s = self.fc(s) * 1.5 + 0.2
                    outs.append(s)
                    i = i + 1
                outs.append(x)
                last = outs.pop()
                return paddle.concat(outs[1:], 0) + last.sum()

        return Net()
    if name == "matrix_nms":  # PP-YOLOv2's and SOLOv2's NMS: gaussian on pixel boxes, linear

        class Net(nn.Layer):
            def forward(self, x):
                xy = x[:, :, :2] * 10
                boxes = paddle.concat([xy, xy + x[:, :, 2:4].abs() * 5 + 1], -1)
                scores = nn.functional.sigmoid(x[:, :, 4:7]).transpose([0, 2, 1])
                ops = paddle.vision.ops
                # score_threshold, post_threshold, nms_top_k, keep_top_k, use_gaussian,
                # gaussian_sigma, background_label, normalized, return_index, return_rois_num
                g = ops.matrix_nms(
                    boxes, scores, 0.3, 0.35, 20, 12, True, 2.0, 0, False, True, True
                )
                lin = ops.matrix_nms(boxes / 20, scores, 0.2, 0.25, 15, 10, False, 2.0, -1, True)
                return (*g, lin[0])

        return Net()
    if name == "ssd":  # SSD's anchors and box decoding, and a two-stage detector's roi_align

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2D(3, 8, 3, padding=1)

            def forward(self, x):
                ops = paddle.vision.ops
                f = self.conv(x)
                box, var = ops.prior_box(
                    f, x, min_sizes=[4.0], max_sizes=[8.0], aspect_ratios=[2.0], flip=True,
                    clip=True, variance=[0.1, 0.1, 0.2, 0.2],
                )  # fmt: skip
                prior, pvar = box.reshape([-1, 4]), var.reshape([-1, 4])
                deltas = paddle.tile(f[:, :4].flatten(2).transpose([0, 2, 1]), [1, 4, 1])
                dec = ops.box_coder(prior, pvar, deltas, "decode_center_size", True, 0)
                rois = dec[0, :6].abs() * 6
                pooled = ops.roi_align(
                    f[:1], rois, paddle.full([1], 6, "int32"), 2, 1.0, 2, True
                )  # fmt: skip
                return dec, pooled

        return Net()
    if name == "rcnn":  # a two-stage detector's proposals split by FPN level

        class Net(nn.Layer):
            def forward(self, x):  # 4 anchors per cell: a score and 4 deltas each
                ops = paddle.vision.ops
                scores = nn.functional.sigmoid(x[:, :4])
                deltas = x[:, 4:20] * 0.1
                ys, xs = paddle.meshgrid(paddle.arange(4.0), paddle.arange(4.0))
                ctr = (paddle.stack([xs, ys], -1) * 8 + 4).unsqueeze(2)
                sizes = paddle.to_tensor([[8.0, 8.0], [16.0, 16.0], [8.0, 16.0], [16.0, 8.0]])
                anchors = paddle.concat([ctr - sizes / 2, ctr + sizes / 2], -1)
                im = paddle.full([x.shape[0], 2], 32.0)
                rois, probs, num = ops.generate_proposals(
                    scores, deltas, im, anchors, paddle.ones_like(anchors), 30, 10, 0.7, 1.0,
                    1.0, False, True,
                )  # fmt: skip
                multi, restore, _ = ops.distribute_fpn_proposals(rois, 2, 4, 3, 16, False, num)
                return rois, probs, num, *multi, restore

        return Net()
    if name == "select":  # the best k (k computed from data) and the rows they pick

        class Net(_Scaled):
            def forward(self, x):
                x = x * self.scale
                score = x[:, :, 0]
                pos = paddle.sum((x[0, :, 1] > 0).astype("int64"))
                k = paddle.maximum(pos, paddle.ones([], "int64"))
                top, idx = paddle.topk(score, k)
                low, _ = paddle.topk(score, 3, axis=1, largest=False)
                rows = paddle.gather(x[0], idx[0])
                cols = paddle.gather(x, idx[-1], axis=1)
                return top, idx, low, rows, cols

        return Net(3)
    if name == "two_stage":  # a two-stage detector's final NMS: a box per class, rois_num

        class Net(nn.Layer):
            def forward(self, x):  # 8 RoIs per image: a box and 3 class logits each
                flat = x.reshape([-1, 7])
                xy = flat[:, :2] * 10
                base = paddle.concat([xy, xy + flat[:, 2:4].abs() * 5 + 1], -1)
                boxes = paddle.stack([base, base + 1.0, base * 1.1], 1)
                scores = nn.functional.softmax(flat[:, 4:7] * 2, -1)
                num = paddle.full([x.shape[0]], 8, "int32")
                # score_threshold, nms_top_k, keep_top_k, nms_threshold, normalized, nms_eta,
                # background_label: as ppdet's Faster R-CNN (no background column), then
                # normalized boxes with an adaptive threshold and class 0 skipped
                a = paddle._C_ops.multiclass_nms3(boxes, scores, num, 0.2, 5, 6, 0.5, False, 1.0, 3)
                b = paddle._C_ops.multiclass_nms3(
                    boxes / 30, scores, num, 0.1, -1, 4, 0.3, True, 0.8, 0
                )
                return (*a, *b)

        return Net()
    if name == "gather_scatter":  # argsort, gather_nd, nonzero (K from data) and scatter

        class Net(_Scaled):
            def forward(self, x):
                x = x * self.scale
                order = paddle.argsort(x[:, :, 0], axis=1, descending=True)
                idx = paddle.stack([paddle.zeros_like(order[0]), order[0]], -1)
                picked = paddle.gather_nd(x, idx)
                nz = paddle.nonzero(x[0] > 0)
                upd = paddle.scatter(x[0], order[0][:3], picked[:3] * 2)
                ids = paddle.to_tensor([1, 1, 2])
                acc = paddle.scatter(x[0], ids, picked[:3], overwrite=False)
                return order, picked, nz, upd, acc

        return Net(4)
    if name == "detect_more":  # deformable convolutions (v1, v2), RoI pools, NMS

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2D(4, 8, 3, padding=1)
                self.off = nn.Conv2D(4, 18, 3, padding=1)
                self.mask = nn.Conv2D(4, 9, 3, padding=1)
                self.dcn = paddle.vision.ops.DeformConv2D(4, 8, 3, padding=1)

            def forward(self, x):
                ops = paddle.vision.ops
                f = self.conv(x)
                off = self.off(x) * 0.5
                d1 = self.dcn(x, off)
                d2 = self.dcn(x, off, nn.functional.sigmoid(self.mask(x)))
                b = f[0, 0, :6, :4].abs() * 2
                boxes = paddle.concat([b[:, :2], b[:, :2] + b[:, 2:4] + 1], -1)
                num = paddle.full([1], 6, "int32")
                rp = ops.roi_pool(f[:1], boxes, num, 2, 1.0)
                ps = ops.psroi_pool(f[:1], boxes, num, 2, 1.0)
                cats = paddle.to_tensor([0, 1, 0, 1, 0, 1])
                keep = ops.nms(boxes, 0.3, f[0, 1, :6, 0], cats, [0, 1], 4)
                return d1, d2, rp, ps, keep, ops.nms(boxes, 0.2)

        return Net()
    if name == "math":  # elementwise math, scans, reductions, normalizations, sampling, pads
        return _math_net(paddle, nn)
    if name == "cond":  # if/else on a mean, an early return, a while on two conditions

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(6, 6)

            def forward(self, x):
                h = self.fc(x)
                if h.max() > 4.0:
                    return h / h.max(), paddle.full([1], -1, "int64")
                if h.mean() > 0:
                    y = paddle.tanh(h) * 2.0
                else:
                    y = h - 1.0
                i = paddle.zeros([1], "int64")
                while y.abs().sum() < 100.0 and i < 10:
                    y = y * 1.5 + 0.1
                    i = i + 1
                return y, i

        return Net()
    if name == "loop":  # for over the (open) time axis, outputs appended to a list

        class Net(_Fc4):
            def forward(self, x):
                outs = []
                h = paddle.zeros([x.shape[0], 4])
                for t in range(x.shape[1]):
                    h = paddle.tanh(self.fc(x[:, t]) + h)
                    outs.append(h)
                return paddle.stack(outs, 1), h

        return Net()
    if name == "brk":  # a while with break and nested ifs

        class Net(_Fc4):
            def forward(self, x):
                i = paddle.to_tensor(0)
                s = paddle.zeros_like(x)
                while i < 20:
                    s = s + self.fc(x)
                    if s.sum() > 5.0:
                        break
                    if s.mean() < -3.0:
                        s = s * 0.5
                    i += 1
                return s, i

        return Net()
    if name == "rnn_exit":  # a GRU cell stepped until its state saturates

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.cell = nn.GRUCell(4, 4)

            def forward(self, x):
                h = paddle.zeros([x.shape[0], 4])
                n = paddle.shape(x)[1]
                t = paddle.zeros([], "int64")
                while t < n:
                    _, h = self.cell(x[:, t], h)
                    if paddle.abs(h).max() > 0.6:
                        break
                    t = t + 1
                return h, t

        return Net()
    if name == "collect":  # a list appended in a loop that stops on a data condition

        class Net(_Fc4):
            def forward(self, x):
                outs = []
                s = x
                i = paddle.zeros([1], "int64")
                while s.abs().sum() < 12.0 and i < 6:
                    s = self.fc(s) * 1.5 + 0.2
                    outs.append(s)
                    i = i + 1
                return paddle.concat(outs, 0)

        return Net()
    if name == "encoder":  # a loop over the open time axis keeping only the last state

        class Net(_Fc4):
            def forward(self, x):
                h = paddle.zeros([x.shape[0], 4])
                for t in range(x.shape[1]):
                    h = paddle.tanh(self.fc(x[:, t]) + h * 0.5)
                return h

        return Net()
    raise KeyError(name)


def _axis(b) -> dict:
    return {"axis": -1}


def _legacy_op(paddle, op_type, orig, names, attrs_of, out_dtype=None):
    """``orig`` in dynamic mode; in static mode (PIR off) it appends the 2.x op ``op_type``
    (inputs ``X``/``Y`` from the arguments named x/y, attributes ``attrs_of(arguments)``,
    output ``Out`` of ``out_dtype`` or x's dtype)."""
    from paddle.base.layer_helper import LayerHelper

    def fn(*args, **kwargs):
        if paddle.in_dynamic_mode():
            return orig(*args, **kwargs)
        bound = dict(zip(names, args), **kwargs)
        helper = LayerHelper(op_type)
        x = bound[names[0]]
        out = helper.create_variable_for_type_inference(out_dtype or x.dtype)
        inputs = {k.upper(): [bound[k]] for k in names if k in ("x", "y")}
        helper.append_op(type=op_type, inputs=inputs, outputs={"Out": [out]}, attrs=attrs_of(bound))
        return out

    return fn


def _math_net(paddle, nn):
    """The ``math`` fixture: one of each op ``math_ops`` adds, on small maps."""
    import paddle.nn.functional as F

    class Net(nn.Layer):
        def __init__(self):
            super().__init__()
            self.gn = nn.GroupNorm(2, 4)
            self.inorm = nn.InstanceNorm2D(4)
            self.theta = self.create_parameter([2, 3])

        def forward(self, x):  # x [B, 4, 4, 4]
            u = x * 0.4
            b = paddle.shape(x)[0]
            grid = F.affine_grid(self.theta.unsqueeze(0).tile([b, 1, 1]), [b, 4, 5, 5], False)
            unary = [
                paddle.sin, paddle.cos, paddle.tan, paddle.atan, paddle.sinh, paddle.cosh,
                paddle.erf, paddle.expm1, F.softsign, F.mish, F.selu, F.tanhshrink,
            ]  # fmt: skip
            return [
                *(f(u) for f in unary),
                paddle.asin(u.clip(-0.9, 0.9)), paddle.acos(u.clip(-0.9, 0.9)),
                paddle.floor(x), paddle.ceil(x), paddle.sign(x), paddle.trunc(x * 3),
                paddle.round(x * 3), paddle.reciprocal(x.abs() + 1), paddle.square(x),
                paddle.log1p(x.abs()), paddle.log2(x.abs() + 1), paddle.log10(x.abs() + 1),
                F.softplus(x, 2.0, 10.0), F.elu(x, 0.5), F.celu(x, 0.7),
                F.thresholded_relu(x, 0.3), F.hardtanh(x, -0.5, 0.5),
                paddle.pow(x.abs(), 1.5), paddle.pow(x.abs() + 0.5, u),
                paddle.remainder(x * 5, paddle.full([1], 1.5)), paddle.atan2(x, u + 0.1),
                paddle.fmax(x, u), paddle.fmin(x, u), paddle.heaviside(x, u), paddle.lerp(x, u, 0.3),
                paddle.bitwise_and((x * 4).astype("int32"), paddle.to_tensor(3, "int32")),
                paddle.cumsum(x, axis=2), paddle._C_ops.cumsum(x, -1, False, True, True),
                paddle.cumprod(u, dim=3), paddle.flip(x, [1, 3]), paddle.tril(x, -1),
                paddle.triu(x, 1), F.pixel_shuffle(x, 2), F.pixel_unshuffle(x, 2),
                F.channel_shuffle(x, 2), paddle.logsumexp(x, axis=[2, 3]),
                paddle.linalg.norm(x, p=3, axis=-1), paddle.prod(u, axis=1),
                paddle.any(x > 1, axis=2), paddle.all(x > -1, axis=[1, 2]),
                paddle.isnan(x / x.abs()).astype("int32"), paddle.isinf(1 / (x * 0)).astype("int32"),
                self.gn(x), self.inorm(x), F.grid_sample(x, grid, align_corners=False),
                F.grid_sample(x, u[:, :2].transpose([0, 2, 3, 1]), "nearest", "border", True),
                F.pad(x, [1, 2, 0, 1], mode="reflect"), F.pad(x, [1, 1, 2, 0], value=0.5),
                F.pad(x, [1, 0, 1, 2], mode="replicate"), paddle.einsum("bchw,bcwk->bchk", x, u),
                paddle.linspace(0.0, 1.0, 7),
                F.one_hot((x[:, 0, 0].abs() * 2).astype("int64").clip(0, 4), 5),
                paddle.sort(x, axis=2, descending=True), paddle.kthvalue(x, 2, axis=-1)[0],
                paddle.median(x, axis=1), paddle.std(x, axis=2), paddle.var(x, axis=[1, 3]),
            ]  # fmt: skip

    return Net()


def _legacy_static_fixes(paddle) -> None:
    """Paddle 3.3.1 with PIR off cannot trace ``paddle.matmul``, ``tanh``, ``sigmoid``,
    ``argmax``, ``F.gelu``, ... (they are bound to the PIR-only C functions) nor an ``nn.LSTM``
    built in dynamic mode (its dropout-state buffer has no place). In static mode these append
    the ops Paddle 2.x wrote instead (``matmul_v2``, ``tanh``, ``arg_max``, ``gelu``, ...); in
    dynamic mode they call the originals."""
    legacy = functools.partial(_legacy_op, paddle)

    paddle.matmul = legacy(
        "matmul_v2",
        paddle.matmul,
        ["x", "y", "transpose_x", "transpose_y"],
        lambda b: {
            "trans_x": bool(b.get("transpose_x", False)),
            "trans_y": bool(b.get("transpose_y", False)),
        },
    )
    sys.modules["paddle.tensor"].matmul = paddle.matmul  # nn.MultiHeadAttention's spelling
    for mod in (paddle, paddle.nn.functional):
        for name in ("tanh", "sigmoid", "exp", "sqrt", "log", "rsqrt", "abs"):
            if hasattr(mod, name):
                setattr(mod, name, legacy(name, getattr(mod, name), ["x"], lambda b: {}))
    for name, op_type in (("maximum", "elementwise_max"), ("minimum", "elementwise_min")):
        setattr(paddle, name, legacy(op_type, getattr(paddle, name), ["x", "y"], _axis))
    paddle.multiply = legacy("elementwise_mul", paddle.multiply, ["x", "y"], _axis)
    paddle.sum = legacy(
        "reduce_sum",
        paddle.sum,
        ["x", "axis", "dtype", "keepdim"],
        lambda b: {
            "dim": list(b["axis"]) if b.get("axis") is not None else [0],
            "keep_dim": bool(b.get("keepdim", False)),
            "reduce_all": b.get("axis") is None,
        },
    )
    paddle.nn.functional.gelu = legacy(
        "gelu",
        paddle.nn.functional.gelu,
        ["x", "approximate"],
        lambda b: {"approximate": bool(b.get("approximate", False))},
    )
    paddle.argmax = legacy(
        "arg_max",
        paddle.argmax,
        ["x", "axis", "keepdim"],
        lambda b: {
            "axis": int(b.get("axis", -1)),
            "keepdims": bool(b.get("keepdim", False)),
            "flatten": False,
            "dtype": 3,
        },
    )


def _legacy_flow_fixes(paddle) -> None:
    """More of ``_legacy_static_fixes`` for the control-flow models (applied after the other
    models are exported, so their programs stay as recorded): the comparisons, logical ops and
    the reductions ``Variable`` methods call, as the 2.x ops ``less_than``, ``logical_not``,
    ``reduce_max``, ..."""
    legacy = functools.partial(_legacy_op, paddle)

    paddle.logical_not = legacy("logical_not", paddle.logical_not, ["x"], lambda b: {}, paddle.bool)
    for name in ("logical_and", "logical_or"):
        setattr(
            paddle, name, legacy(name, getattr(paddle, name), ["x", "y"], lambda b: {}, paddle.bool)
        )
    for name in ("greater_than", "less_than", "greater_equal", "less_equal", "equal", "not_equal"):
        fn = legacy(name, getattr(paddle, name), ["x", "y"], _axis, paddle.bool)
        setattr(paddle, name, fn)

    def reduce(op_type, orig):
        return legacy(
            op_type,
            orig,
            ["x", "axis", "keepdim"],
            lambda b: {
                "dim": list(b["axis"]) if b.get("axis") is not None else [0],
                "keep_dim": bool(b.get("keepdim", False)),
                "reduce_all": b.get("axis") is None,
            },
        )

    paddle.mean = reduce("reduce_mean", paddle.mean)
    paddle.max = reduce("reduce_max", paddle.max)
    var = paddle.base.framework.Variable

    def v_mean(self, *a, **k):
        return paddle.mean(self, *a, **k)

    def v_max(self, *a, **k):
        return paddle.max(self, *a, **k)

    def v_sum(self, *a, **k):
        return paddle.sum(self, *a, **k)

    def v_abs(self):
        return paddle.abs(self)

    var.mean, var.max, var.sum, var.abs = v_mean, v_max, v_sum, v_abs


def export(fmt: str, workdir: str) -> None:
    """(subprocess) Build, export and run every model in the format chosen by the environment."""
    import paddle

    if fmt == "legacy":
        _legacy_static_fixes(paddle)

    results = {}
    for name, (iname, shape, dtype, batches) in INPUTS.items():
        if fmt == "legacy" and name in PIR_ONLY:
            continue
        if fmt == "legacy" and name == FLOW[0]:
            _legacy_flow_fixes(paddle)
        model = build(name)
        rng = np.random.RandomState(sum(map(ord, name)))
        state = {
            k: (rng.standard_normal(v.shape) * 0.3).astype(v.numpy().dtype)
            for k, v in model.state_dict().items()
        }
        for k, v in state.items():  # batch-norm variances must stay positive
            if k.endswith("_variance"):
                state[k] = np.abs(v) + 0.5
        model.set_state_dict(state)
        model.eval()
        if fmt == "legacy":  # see _legacy_static_fixes
            for sub in model.sublayers():
                if isinstance(sub, paddle.nn.layer.rnn.RNNBase):
                    sub._dropout_state = paddle.zeros([0], "uint8")
        prefix = os.path.join(workdir, f"{name}_{fmt}")
        spec = paddle.static.InputSpec([None, *shape], dtype, iname)
        paddle.jit.save(model, prefix, input_spec=[spec])
        prog = prefix + (".json" if fmt == "pir" else ".pdmodel")
        config = paddle.inference.Config(prog, prefix + ".pdiparams")
        config.disable_gpu()
        if name in NO_ONEDNN:
            config.disable_mkldnn()
        pred = paddle.inference.create_predictor(config)
        runs = []
        for b in batches:
            rs = np.random.RandomState(b)
            full = [b, *(OPEN_DIM[b] if d is None else d for d in shape)]
            if dtype.startswith("int"):
                x = rs.randint(0, 20, full).astype(dtype)
            elif name in FLOW:
                x = (rs.standard_normal(full) * SCALE[b]).astype(dtype)
            else:
                x = rs.standard_normal(full).astype(dtype)
            pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(x)
            pred.run()
            outs = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
            runs.append(
                {
                    "input": x.tolist(),
                    "outputs": [o.tolist() for o in outs],
                    "shapes": [list(o.shape) for o in outs],
                }
            )
        results[name] = {
            "input_names": pred.get_input_names(),
            "output_names": pred.get_output_names(),
            "runs": runs,
        }
    with open(os.path.join(workdir, f"outputs_{fmt}.json"), "w") as f:
        json.dump(results, f)


def main() -> None:
    os.chdir("/tmp")
    OUT.mkdir(parents=True, exist_ok=True)
    for fmt, env in FORMATS.items():
        subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--export", fmt, str(OUT)],
            env={**os.environ, **env},
            check=True,
            cwd="/tmp",
        )
    record = {"paddle_version": None, "models": {}}
    import paddle

    record["paddle_version"] = paddle.__version__
    for fmt in FORMATS:
        path = OUT / f"outputs_{fmt}.json"
        res = json.loads(path.read_text())
        path.unlink()
        for name, r in res.items():
            m = record["models"].setdefault(name, {"input": INPUTS[name][:3], "formats": {}})
            m["formats"][fmt] = r
    for p in OUT.glob("*.pdiparams.info"):  # pickle side file of the legacy format: unused
        p.unlink()
    (OUT / "outputs.json").write_text(json.dumps(record) + "\n")
    for p in sorted(OUT.iterdir()):
        print(f"{p.name:32s} {p.stat().st_size:8d}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--export":
        sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
        export(sys.argv[2], sys.argv[3])
    else:
        main()
