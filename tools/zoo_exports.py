"""Model-zoo check of Paddle's program files: real Paddle 3.3.1 exports models of PaddleClas
2.6.0 (12 backbones), PaddleSeg 2.8.0 (10 segmentation models) or PaddleDetection 2.6.0
(PP-YOLOE-s without and with NMS, PicoDet-S-LCNet, YOLOv3-MobileNetV1, a Faster R-CNN with
FPN, a DETR, a RetinaNet), built unchanged from
the package registry's wheels and seeded, with ``paddle.jit.save`` (PIR ``.json``;
``--formats pir,legacy`` also tries the 2.x ``.pdmodel`` with PIR off, which Paddle 3.3.1
cannot trace for these models); Paddle Inference runs them, and paddle-compat's ``paddle.inference`` runs the
same files: first outputs compared, latency of one call at batch 1 (one thread each; ratio =
paddle-compat / Paddle).

    pip download --no-deps paddleclas==2.6.0 -d /tmp/pcls && cd /tmp/pcls && unzip -q -o *.whl
    .venv/bin/python tools/zoo_exports.py --zoo paddleclas --root /tmp/pcls/paddleclas
    # PaddleSeg imports six, pyyaml, filelock, requests, scikit-learn, opencv in Paddle's venv
    pip download --no-deps paddleseg==2.8.0 -d /tmp/pseg && cd /tmp/pseg && unzip -q -o *.whl
    .venv/bin/python tools/zoo_exports.py --zoo paddleseg --root /tmp/pseg [--only UNet,ENet]
    # PaddleDetection also imports tqdm, pycocotools, matplotlib, pandas
    pip download --no-deps paddledet==2.6.0 -d /tmp/pdet && cd /tmp/pdet && unzip -q -o *.whl
    .venv/bin/python tools/zoo_exports.py --zoo paddledet --root /tmp/pdet  # PP-YOLOE-s
    .venv/bin/python tools/zoo_exports.py --zoo paddledet_yolov3 --root /tmp/pdet
    .venv/bin/python tools/zoo_exports.py --zoo paddledet_rcnn --root /tmp/pdet
    .venv/bin/python tools/zoo_exports.py --zoo paddledet_more --root /tmp/pdet

The exported files (hundreds of MB) stay in ``--out``; nothing is written to the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddleclas_backbones import _BUILD, _PREAMBLE, BACKBONES  # noqa: E402

FORMATS = {"pir": ".json", "legacy": ".pdmodel"}
BATCH = 2  # the compared outputs; latency at batch 1

# PaddleSeg 2.8.0's models, as its configs build them (4 classes), from its wheel's root
SEG_MODELS = {
    "PPLiteSeg": "M.PPLiteSeg(num_classes=4, backbone=B.STDC1())",
    "UNet": "M.UNet(num_classes=4)",
    "DeepLabV3P": "M.DeepLabV3P(num_classes=4, backbone=B.ResNet18_vd(output_stride=8), "
    "backbone_indices=(0, 3))",
    "BiSeNetV2": "M.BiSeNetV2(num_classes=4)",
    "FastSCNN": "M.FastSCNN(num_classes=4)",
    "SegFormer": "M.SegFormer(num_classes=4, backbone=B.MixVisionTransformer_B0(), "
    "embedding_dim=256)",
    "OCRNet": "M.OCRNet(num_classes=4, backbone=B.HRNet_W18_Small_V1(), backbone_indices=[0])",
    "TopFormer": "M.TopFormer(num_classes=4, backbone=B.TopTransformer_Base())",
    "ENet": "M.ENet(num_classes=4)",
    "PSPNet": "M.PSPNet(num_classes=4, backbone=B.ResNet18_vd(output_stride=8))",
}
_SEG_BUILD = r"""
import json, os, sys
import numpy as np
import paddle
sys.path.insert(0, sys.argv[1])
import paddleseg.models as M
from paddleseg.models import backbones as B
SEG = json.loads(os.environ["ZOO_SEG_MODELS"])

def build(spec):
    paddle.seed(0)
    model = eval(SEG[spec.split(":")[1]])
    model.eval()
    return model
"""
# PaddleDetection 2.6.0's PP-YOLOE-s (ppyoloe_crn_s_300e_coco's values, 4 classes) as its
# export runs it (image, scale_factor): without NMS, and with the config's NMS called as
# PaddleDetection 2.8 calls it (ppdet 2.6's multiclass_nms appends a 2.x op, which Paddle
# 3.3.1's PIR export refuses)
_DET_BUILD = r"""
import json, os, sys
import numpy as np
import paddle
from paddle import nn
sys.path.insert(0, sys.argv[1])
from ppdet.modeling.backbones.cspresnet import CSPResNet
from ppdet.modeling.necks.custom_pan import CustomCSPPAN
from ppdet.modeling.heads.ppyoloe_head import PPYOLOEHead

class PPYOLOE(nn.Layer):
    def __init__(self):
        super().__init__()
        self.backbone = CSPResNet(
            layers=[3, 6, 6, 3], channels=[64, 128, 256, 512, 1024], return_idx=[1, 2, 3],
            use_large_stem=True, width_mult=0.5, depth_mult=0.33)
        self.neck = CustomCSPPAN(
            in_channels=[i.channels for i in self.backbone.out_shape],
            out_channels=[768, 384, 192], stage_num=1, block_num=3, act="swish", spp=True,
            width_mult=0.5, depth_mult=0.33)
        self.head = PPYOLOEHead(
            in_channels=[i.channels for i in self.neck.out_shape], num_classes=4,
            fpn_strides=[32, 16, 8], grid_cell_scale=5.0, grid_cell_offset=0.5,
            static_assigner_epoch=-1, exclude_nms=True)

    def forward(self, image, scale_factor):
        feats = self.neck(self.backbone({"image": image}))
        boxes, scores, _ = self.head.post_process(self.head(feats), scale_factor)
        return boxes, scores

class PPYOLOEWithNMS(PPYOLOE):
    # the config's MultiClassNMS, called as PaddleDetection 2.8 calls it under PIR (score
    # threshold 0.005, not 0.01: an untrained head scores about its prior, 0.01)
    def forward(self, image, scale_factor):
        boxes, scores = super().forward(image, scale_factor)
        out, _, num = paddle._C_ops.multiclass_nms3(
            boxes, scores, None, 0.005, 1000, 300, 0.7, True, 1.0, -1)
        return out, num

from ppdet.modeling.backbones.mobilenet_v1 import MobileNet
from ppdet.modeling.necks.yolo_fpn import YOLOv3FPN
from ppdet.modeling.heads.yolo_head import YOLOv3Head
from ppdet.modeling.layers import YOLOBox

class YOLOv3(nn.Layer):
    # yolov3_mobilenet_v1_270e_coco's values, 4 classes: yolo_box decoding, pixel-box NMS
    def __init__(self):
        super().__init__()
        self.backbone = MobileNet(scale=1, feature_maps=[4, 6, 13], with_extra_blocks=False,
                                  extra_block_filters=[])
        self.neck = YOLOv3FPN(in_channels=[i.channels for i in self.backbone.out_shape])
        self.head = YOLOv3Head(in_channels=[i.channels for i in self.neck.out_shape],
                               num_classes=4)
        self.decode = YOLOBox(num_classes=4)

    def forward(self, image, im_shape, scale_factor):
        outs = self.head(self.neck(self.backbone({"image": image})))
        boxes, scores = self.decode(outs, self.head.mask_anchors, im_shape, scale_factor)
        out, _, num = paddle._C_ops.multiclass_nms3(
            boxes, scores, None, 0.005, 1000, 100, 0.45, False, 1.0, -1)
        return out, num

from ppdet.modeling.backbones.lcnet import LCNet
from ppdet.modeling.necks.lc_pan import LCPAN
from ppdet.modeling.heads.pico_head import PicoFeat, PicoHeadV2
from ppdet.modeling.losses.varifocal_loss import VarifocalLoss
from ppdet.modeling.losses.gfocal_loss import DistributionFocalLoss
from ppdet.modeling.losses.iou_loss import GIoULoss
from ppdet.modeling.assigners.atss_assigner import ATSSAssigner
from ppdet.modeling.assigners.task_aligned_assigner import TaskAlignedAssigner

class PicoDet(nn.Layer):
    # picodet_s_320_coco_lcnet's values, 4 classes: LCNet, LCPAN, PicoHeadV2 and its NMS
    def __init__(self):
        super().__init__()
        self.backbone = LCNet(scale=0.75, feature_maps=[3, 4, 5])
        self.neck = LCPAN(in_channels=[i.channels for i in self.backbone.out_shape],
                          out_channels=96, use_depthwise=True, num_features=4)
        feat = PicoFeat(feat_in=96, feat_out=96, num_convs=2, num_fpn_stride=4,
                        norm_type="bn", share_cls_reg=True, use_se=True)
        self.head = PicoHeadV2(conv_feat=feat, num_classes=4, fpn_stride=[8, 16, 32, 64],
                               feat_in_chan=96, prior_prob=0.01, reg_max=7, cell_offset=0.5,
                               grid_cell_scale=5.0, static_assigner_epoch=100,
                               use_align_head=True,
                               loss_class=VarifocalLoss(use_sigmoid=True, iou_weighted=True),
                               loss_dfl=DistributionFocalLoss(loss_weight=0.5),
                               loss_bbox=GIoULoss(loss_weight=2.5),
                               static_assigner=ATSSAssigner(topk=9),
                               assigner=TaskAlignedAssigner(topk=13, alpha=1.0, beta=6.0))

    def forward(self, image, scale_factor):
        scores, boxes = self.head.forward_eval(self.neck(self.backbone({"image": image})))
        sy, sx = paddle.split(scale_factor, 2, axis=-1)
        boxes = boxes / paddle.concat([sx, sy, sx, sy], -1).reshape([-1, 1, 4])
        out, _, num = paddle._C_ops.multiclass_nms3(
            boxes, scores, None, 0.025, 1000, 100, 0.6, True, 1.0, -1)
        return out, num

from ppdet.modeling.backbones.resnet import ResNet
from ppdet.modeling.necks.fpn import FPN
from ppdet.modeling.proposal_generator.rpn_head import RPNHead
from ppdet.modeling.heads.bbox_head import BBoxHead, TwoFCHead
from ppdet.modeling.layers import RCNNBox

class FasterRCNN(nn.Layer):
    # faster_rcnn_r50_fpn_1x_coco's structure on a ResNet-18 with a 64-channel FPN, 4 classes,
    # one image per call (the RPN's export path, as ppdet exports it for ONNX: its batch loop
    # reads a Tensor as a Python int, which fails in Paddle 3.3.1 with numpy 2); the final NMS
    # with rois_num as PaddleDetection 2.8 calls it
    def __init__(self):
        super().__init__()
        self.backbone = ResNet(depth=18, variant="b", norm_type="bn", freeze_at=0,
                               return_idx=[0, 1, 2, 3], num_stages=4)
        self.neck = FPN(in_channels=[c.channels for c in self.backbone.out_shape],
                        out_channel=64)
        self.rpn_head = RPNHead(
            anchor_generator=dict(aspect_ratios=[0.5, 1.0, 2.0],
                                  anchor_sizes=[[32], [64], [128], [256], [512]],
                                  strides=[4, 8, 16, 32, 64]),
            test_proposal=dict(min_size=0.0, nms_thresh=0.7, pre_nms_top_n=200,
                               post_nms_top_n=100),
            in_channel=64, export_onnx=True)
        self.bbox_head = BBoxHead(
            head=TwoFCHead(in_channel=64, out_channel=128, resolution=7), in_channel=128,
            roi_extractor=dict(resolution=7, sampling_ratio=0, aligned=True,
                               spatial_scale=[0.25, 0.125, 0.0625, 0.03125]),
            num_classes=4)
        self.decode = RCNNBox(num_classes=4)

    def forward(self, image, im_shape):
        inputs = {"image": image, "im_shape": im_shape}
        feats = self.neck(self.backbone(inputs))
        rois, rois_num, _ = self.rpn_head(feats, inputs)
        rois_num = rois_num.reshape([1]).astype("int32")  # the export path gives a 0-D count
        preds, _ = self.bbox_head(feats, rois, rois_num, None)
        (boxes, num), scores = self.decode(preds, (rois, rois_num), im_shape, None)
        out, _, num = paddle._C_ops.multiclass_nms3(
            boxes, scores, num, 0.05, -1, 100, 0.5, True, 1.0, 4)
        return out, num

from ppdet.modeling.transformers import DETRTransformer
from ppdet.modeling.heads import DETRHead
from ppdet.modeling.post_process import DETRBBoxPostProcess

class DETR(nn.Layer):
    # DETR's structure on a ResNet-18, narrowed (64 wide, 4 heads, 1 encoder and 2 decoder
    # layers, 20 queries, 4 classes) with its box post-process
    def __init__(self):
        super().__init__()
        self.backbone = ResNet(depth=18, variant="b", norm_type="bn", freeze_at=0,
                               return_idx=[3], num_stages=4)
        self.transformer = DETRTransformer(
            num_queries=20, backbone_num_channels=512, hidden_dim=64, nhead=4,
            num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=128)
        self.head = DETRHead(num_classes=4, hidden_dim=64, nhead=4, loss=None)
        self.post = DETRBBoxPostProcess(num_classes=4, num_top_queries=20)

    def forward(self, image, im_shape, scale_factor):
        inputs = {"image": image, "im_shape": im_shape, "scale_factor": scale_factor}
        feats = self.backbone(inputs)
        preds = self.head(self.transformer(feats, None, inputs), feats)
        return self.post(preds, im_shape, scale_factor)

from ppdet.modeling import ops as _ppdet_ops
from ppdet.modeling.architectures import RetinaNet as _RetinaNet
from ppdet.modeling.heads import RetinaHead
from ppdet.modeling.heads.retina_head import RetinaFeat
from ppdet.modeling.layers import MultiClassNMS
from ppdet.modeling.proposal_generator.anchor_generator import RetinaAnchorGenerator

def _multiclass_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3,
                    normalized=True, nms_eta=1.0, background_label=-1, return_index=False,
                    return_rois_num=True, rois_num=None, name=None):
    # ppdet 2.6's NMS wrapper appends a 2.x op, which Paddle 3.3.1 cannot trace with PIR: the
    # op as PaddleDetection 2.8 calls it, results in the wrapper's dynamic-mode order
    out, index, num = paddle._C_ops.multiclass_nms3(
        bboxes, scores, rois_num, score_threshold, nms_top_k, keep_top_k, nms_threshold,
        normalized, nms_eta, background_label)
    return out, num, index

_ppdet_ops.multiclass_nms = _multiclass_nms

class RetinaNet(nn.Layer):
    # RetinaNet on a ResNet-18 with a 64-channel FPN (P3-P7), 4 classes, ppdet's own head,
    # anchors and MultiClassNMS (score threshold 0.005: an untrained head scores ~0.01)
    def __init__(self):
        super().__init__()
        bb = ResNet(depth=18, variant="b", norm_type="bn", freeze_at=0, return_idx=[1, 2, 3],
                    num_stages=4)
        neck = FPN(in_channels=[c.channels for c in bb.out_shape], out_channel=64,
                   spatial_scales=[1.0 / c.stride for c in bb.out_shape], has_extra_convs=True,
                   extra_stage=2, use_c5=False)
        nms = MultiClassNMS(score_threshold=0.005, nms_top_k=100, keep_top_k=50,
                            nms_threshold=0.5)
        head = RetinaHead(num_classes=4, conv_feat=RetinaFeat(feat_in=64, feat_out=64,
                                                               num_convs=2),
                          anchor_generator=RetinaAnchorGenerator(), bbox_assigner=None,
                          loss_class=None, loss_bbox=None, nms=nms, nms_pre=200)
        self.arch = _RetinaNet(bb, neck, head)

    def forward(self, image, im_shape, scale_factor):
        out = self.arch({"image": image, "im_shape": im_shape, "scale_factor": scale_factor})
        return out["bbox"], out["bbox_num"]

def build(spec):
    paddle.seed(0)
    name = spec.split(":")[1]
    model = {"PPYOLOE_s": PPYOLOE, "PPYOLOE_s_nms": PPYOLOEWithNMS,
             "YOLOv3_MobileNetV1": YOLOv3, "PicoDet_s_LCNet": PicoDet,
             "FasterRCNN_R18_FPN": FasterRCNN, "DETR_R18": DETR,
             "RetinaNet_R18_FPN": RetinaNet}[name]()
    model.eval()
    return model
"""
# zoo -> (build code, model specs "module:name", inputs: [name, spec shape, feed shape
# without the batch dim, "randn" or a fill value])
_IMAGE = ["x", [None, 3, 224, 224], [3, 224, 224], "randn"]
ZOOS = {
    "paddleclas": (_PREAMBLE + _BUILD, BACKBONES, [_IMAGE]),
    "paddleseg": (_SEG_BUILD, [f"seg:{n}" for n in SEG_MODELS],
                  [["x", [None, 3, None, None], [3, 128, 128], "randn"]]),
    "paddledet": (_DET_BUILD, ["det:PPYOLOE_s", "det:PPYOLOE_s_nms", "det:PicoDet_s_LCNet"],
                  [["image", [None, 3, None, None], [3, 160, 160], "randn"],
                   ["scale_factor", [None, 2], [2], 1.0]]),
    "paddledet_yolov3": (_DET_BUILD, ["det:YOLOv3_MobileNetV1"],
                         [["image", [None, 3, None, None], [3, 160, 160], "randn"],
                          ["im_shape", [None, 2], [2], 160.0],
                          ["scale_factor", [None, 2], [2], 1.0]]),
    "paddledet_rcnn": (_DET_BUILD, ["det:FasterRCNN_R18_FPN"],
                       [["image", [None, 3, None, None], [3, 160, 160], "randn"],
                        ["im_shape", [None, 2], [2], 160.0]]),
}  # fmt: skip
ZOOS["paddledet_more"] = (
    _DET_BUILD,
    ["det:DETR_R18", "det:RetinaNet_R18_FPN"],
    ZOOS["paddledet_yolov3"][2],
)
# the compared outputs' batch where it is not BATCH (Faster R-CNN's export path: one image)
ZOO_BATCH = {"paddledet_rcnn": 1}

# under real Paddle: export each model (argv: root, out, fmt, specs...; env: the inputs)
_EXPORT = r"""
OUT, FMT = sys.argv[2], sys.argv[3]
INPUTS = json.loads(os.environ["ZOO_INPUTS"])
res = {}
for spec in sys.argv[4:]:
    name = spec.split(":")[1]
    try:
        model = build(spec)
        xs = [paddle.static.InputSpec(shape, "float32", n) for n, shape, _, _ in INPUTS]
        paddle.jit.save(model, os.path.join(OUT, f"{name}_{FMT}", "inference"), input_spec=xs)
        res[spec] = "ok"
    except Exception as e:
        res[spec] = f"{type(e).__name__}: {str(e)[:300]}"
print(json.dumps(res))
"""

# under either framework: run the exported files with paddle.inference (argv: tag, out,
# names...; the tag names the saved output: out_P.npy from Paddle, out_C.npy from ours)
_INFER = r"""
import json, os, sys, time
import numpy as np
import paddle
TAG, OUT, BATCH = sys.argv[1], sys.argv[2], int(sys.argv[3])
INPUTS = json.loads(os.environ["ZOO_INPUTS"])
res = {}
for name in sys.argv[4:]:
    for fmt, ext in (("pir", ".json"), ("legacy", ".pdmodel")):
        prefix = os.path.join(OUT, f"{name}_{fmt}", "inference")
        if not os.path.exists(prefix + ext):
            continue
        try:
            config = paddle.inference.Config(prefix + ext, prefix + ".pdiparams")
            config.disable_gpu()
            config.set_cpu_math_library_num_threads(1)
            if os.environ.get("ZOO_NO_ONEDNN"):
                config.disable_mkldnn()
            pred = paddle.inference.create_predictor(config)
            hs = [pred.get_input_handle(n) for n, _, _, _ in INPUTS]
            o = pred.get_output_handle(pred.get_output_names()[0])
            rng = np.random.default_rng(0)
            xs = [
                (rng.standard_normal((BATCH, *feed)) if kind == "randn"
                 else np.full((BATCH, *feed), kind)).astype("float32")
                for _, _, feed, kind in INPUTS
            ]
            for h, x in zip(hs, xs):
                h.copy_from_cpu(x)
            pred.run()
            y = o.copy_to_cpu()
            np.save(os.path.join(OUT, f"{name}_{fmt}", f"out_{TAG}.npy"), y)
            x1 = [x[:1].copy() for x in xs]
            best = float("inf")
            for i in range(8):
                t = time.perf_counter()
                for h, x in zip(hs, x1):
                    h.copy_from_cpu(x)
                pred.run()
                o.copy_to_cpu()
                if i >= 2:
                    best = min(best, time.perf_counter() - t)
            res[f"{name}_{fmt}"] = best * 1e3
        except Exception as e:
            res[f"{name}_{fmt}"] = f"{type(e).__name__}: {str(e)[:300]}"
print(json.dumps(res))
"""


def _run(python: str, code: str, args: list[str], env: dict) -> dict:
    """Run ``code`` from a file (Paddle's to_static reads a Layer's source) under ``python``;
    the JSON dict it prints last."""
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix="_zoo.py", delete=False) as f:
        f.write(code)
    res = subprocess.run(
        [python, f.name, *args],
        capture_output=True,
        text=True,
        cwd="/",
        env=env,
        timeout=3600,
    )
    os.unlink(f.name)
    if res.returncode != 0:
        print(res.stderr[-3000:], file=sys.stderr)
        return {}
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--zoo", default="paddleclas", choices=sorted(ZOOS))
    ap.add_argument(
        "--root", required=True, help="paddleclas: the wheel's paddleclas/; paddleseg: its root"
    )
    ap.add_argument("--out", default="/tmp/pcls_exports")
    ap.add_argument("--only", default="", help="comma-separated backbone names")
    ap.add_argument("--paddle-python", default="/work/paddle-venv/bin/python")
    ap.add_argument("--skip-export", action="store_true", help="reuse the files in --out")
    ap.add_argument(
        "--formats",
        default="pir",
        help="pir (Paddle 3.x's export), legacy (2.x, PIR off: Paddle 3.3.1's dy2static cannot "
        "trace these backbones's nn.Sequential with PIR off), or both",
    )
    args = ap.parse_args()
    build, all_specs, inputs = ZOOS[args.zoo]
    specs = [s for s in all_specs if not args.only or s.split(":")[1] in args.only.split(",")]
    names = [s.split(":")[1] for s in specs]
    os.makedirs(args.out, exist_ok=True)
    env = {
        **os.environ,
        "ZOO_SEG_MODELS": json.dumps(SEG_MODELS),
        "ZOO_INPUTS": json.dumps(inputs),
    }
    if args.zoo != "paddleclas":  # Paddle 3.3.1's oneDNN executor cannot run pd_op.*_interp
        env["ZOO_NO_ONEDNN"] = "1"
    if not args.skip_export:
        t = time.time()
        for fmt in args.formats.split(","):
            flags = {"FLAGS_enable_pir_api": "0"} if fmt == "legacy" else {}
            done = _run(
                args.paddle_python, build + _EXPORT, [args.root, args.out, fmt, *specs],
                {**env, **flags},
            )  # fmt: skip
            for spec, status in done.items():
                if status != "ok":
                    print(f"export {spec} ({fmt}) failed under Paddle: {status}")
        print(f"exported in {time.time() - t:.0f} s")
    batch = str(ZOO_BATCH.get(args.zoo, BATCH))
    theirs = _run(args.paddle_python, _INFER, ["P", args.out, batch, *names], env)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours = _run(sys.executable, _INFER, ["C", args.out, batch, *names], {**env, "PYTHONPATH": repo})
    print(f"{'model':36s} {'format':7s} {'max |diff| / max |y|':>22s} {'ours ms':>8s} "
          f"{'Paddle ms':>9s} {'ratio':>6s}")  # fmt: skip
    for name in names:
        for fmt in args.formats.split(","):
            key = f"{name}_{fmt}"
            a, b = ours.get(key), theirs.get(key)
            if not (isinstance(a, float) and isinstance(b, float)):
                print(f"{name:36s} {fmt:7s} paddle-compat: {a}  Paddle: {b}")
                continue
            d = os.path.join(args.out, key)
            y_ours, y_ref = (
                np.load(os.path.join(d, "out_C.npy")),
                np.load(os.path.join(d, "out_P.npy")),
            )
            if y_ours.shape != y_ref.shape:
                print(f"{name:36s} {fmt:7s} shapes {y_ours.shape} vs Paddle's {y_ref.shape}")
                continue
            scale = max(float(np.abs(y_ref).max(initial=0.0)), 1e-30)
            diff = float(np.abs(y_ours - y_ref).max(initial=0.0)) / scale
            print(f"{name:36s} {fmt:7s} {diff:22.1e} {a:8.2f} {b:9.2f} {a / b:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
