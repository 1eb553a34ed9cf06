"""Model-zoo check: build PaddleClas 2.6.0 backbones unchanged (the wheel from the package
registry), seeded, and compare one eval forward with real Paddle 3.3.1's.

    pip download --no-deps paddleclas==2.6.0 -d /tmp/pcls && cd /tmp/pcls && unzip -q -o *.whl
    .venv/bin/python tools/paddleclas_backbones.py --root /tmp/pcls/paddleclas

It runs each backbone under both frameworks (real Paddle from the side venv, from ``/``) and
prints the sum and max |logit| of each; the backbone files are imported with empty parent
packages, since PaddleClas's package ``__init__`` files pull in its data pipeline (sklearn,
cv2), and ``ppcls.utils.save_load``/``logger`` are replaced by no-ops (used only for
pretrained weights).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

BACKBONES = (
    "legendary_models.resnet:ResNet50",
    "legendary_models.pp_lcnet:PPLCNet_x1_0",
    "legendary_models.pp_hgnet_v2:PPHGNetV2_B0",
    "legendary_models.mobilenet_v3:MobileNetV3_large_x1_0",
    "legendary_models.vgg:VGG16",
    "legendary_models.swin_transformer:SwinTransformer_tiny_patch4_window7_224",
    "model_zoo.mobilenet_v2:MobileNetV2",
    "model_zoo.efficientnet:EfficientNetB0",
    "model_zoo.vision_transformer:ViT_small_patch16_224",
    "model_zoo.resnext:ResNeXt50_32x4d",  # grouped convolutions
    "model_zoo.regnet:RegNetX_400MF",
    "model_zoo.shufflenet_v2:ShuffleNetV2_x1_0",
)

_PREAMBLE = r"""
import importlib.util, json, os, sys, types
import numpy as np
import paddle
ROOT = sys.argv[1]

def pkg(name):
    if name not in sys.modules:
        m = types.ModuleType(name)
        m.__path__ = [os.path.join(ROOT, *name.split("."))]
        sys.modules[name] = m
    return sys.modules[name]

def load(name):
    parts = name.split(".")
    for i in range(1, len(parts)):
        pkg(".".join(parts[:i]))
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, *parts) + ".py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod

pkg("ppcls"); pkg("ppcls.utils")
su = types.ModuleType("ppcls.utils.save_load")
su.load_dygraph_pretrain = su.load_dygraph_pretrain_from_url = lambda *a, **k: None
sys.modules["ppcls.utils.save_load"] = su
lg = types.ModuleType("ppcls.utils.logger")
for f in ("info", "warning", "error", "debug"):
    setattr(lg, f, lambda *a, **k: None)
sys.modules["ppcls.utils.logger"] = sys.modules["ppcls.utils"].logger = lg
"""
# ``_PREAMBLE`` then ``build(spec)``: a seeded backbone in eval mode (shared with
# tools/zoo_exports.py)
_BUILD = r"""
def build(spec):
    mod_name, fn = spec.split(":")
    paddle.seed(0)
    model = getattr(load("ppcls.arch.backbone." + mod_name), fn)()
    model.eval()
    return model
"""
_RUN = (
    _PREAMBLE
    + _BUILD
    + r"""
out = {}
for spec in sys.argv[2:]:
    try:
        model = build(spec)
        x = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype("float32")
        y = np.asarray(model(paddle.to_tensor(x))).astype("float64")
        out[spec] = [float(y.sum()), float(np.abs(y).max())]
    except Exception as e:
        out[spec] = f"{type(e).__name__}: {str(e)[:200]}"
print(json.dumps(out))
"""
)


def _run(python: str, root: str, env: dict) -> dict:
    res = subprocess.run(
        [python, "-c", _RUN, root, *BACKBONES],
        capture_output=True,
        text=True,
        cwd="/",
        env=env,
        timeout=1800,
    )
    if res.returncode != 0:
        print(res.stderr[-2000:], file=sys.stderr)
        return {}
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, help="the unpacked wheel's paddleclas/ directory")
    ap.add_argument("--paddle-python", default="/work/paddle-venv/bin/python")
    args = ap.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours = _run(sys.executable, args.root, {**os.environ, "PYTHONPATH": repo})
    theirs = _run(args.paddle_python, args.root, dict(os.environ))
    for spec in BACKBONES:
        a, b = ours.get(spec), theirs.get(spec)
        if isinstance(a, list) and isinstance(b, list):
            rel = max(abs(x - y) / max(abs(y), 1e-30) for x, y in zip(a, b))
            print(f"{spec:72} sum {a[0]:.6g} vs {b[0]:.6g}  max rel diff {rel:.1e}")
        else:
            print(f"{spec:72} paddle-compat: {a}  Paddle: {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
