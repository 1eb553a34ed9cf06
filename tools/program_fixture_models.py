"""The models behind tests/data/paddle_programs beyond the plain layer stacks (those are in
``record_paddle_programs.build``): indexing and detection ops, math, control flow. Built under
real Paddle 3.3.1 by ``tools/record_paddle_programs.py``, which exports and runs them."""

from __future__ import annotations


def build_more(name: str):
    """The fixtures beyond the plain layers: indexing, detection heads and NMS, math, and the
    control-flow models (Tensor ``if``/``while``/``break``/early ``return``, a list appended in
    a loop, as ``paddle.jit.save`` converts them)."""
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
