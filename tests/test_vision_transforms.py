"""paddle.vision.transforms behaviour that goldens cannot hold (the values themselves are
checked against real Paddle in tests/cases/vision_transforms.py): the public surface, object
identity and in-place semantics, printed errors, to_static, pickling, and, where
opencv-python is installed, the numpy emulation of OpenCV against OpenCV itself."""

from __future__ import annotations

import pickle
import random

import numpy as np
import paddle.vision.transforms as T
import paddle.vision.transforms.functional as F
import pytest
from PIL import Image

import paddle
from paddle_compat.vision.transforms import _cv2, _cv2_warp

PADDLE_ALL = [
    "BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop",
    "RandomHorizontalFlip", "RandomVerticalFlip", "Transpose", "Normalize",
    "BrightnessTransform", "SaturationTransform", "ContrastTransform", "HueTransform",
    "ColorJitter", "RandomCrop", "Pad", "RandomAffine", "RandomRotation", "RandomPerspective",
    "Grayscale", "ToTensor", "RandomErasing", "to_tensor", "hflip", "vflip", "resize", "pad",
    "affine", "rotate", "perspective", "to_grayscale", "crop", "center_crop",
    "adjust_brightness", "adjust_contrast", "adjust_hue", "normalize", "erase",
]  # fmt: skip
IMG = np.random.default_rng(0).integers(0, 256, (6, 8, 3)).astype(np.uint8)


def test_public_surface():
    assert T.__all__ == PADDLE_ALL
    for name in PADDLE_ALL:
        assert getattr(T, name) is getattr(
            T.functional if name[0].islower() else T.transforms, name
        )
    assert F.adjust_saturation  # public in functional, not re-exported (as in Paddle)
    assert not hasattr(T, "adjust_saturation")
    assert paddle.vision.Resize is T.Resize and paddle.vision.to_tensor is F.to_tensor
    assert T.Resize.__module__ == T.RandomAffine.__module__ == T.transforms.__name__


@pytest.mark.parametrize(
    "name, check",
    [
        ("resize_same_short_side_is_input", lambda: F.resize(IMG, 6) is IMG),
        ("pil_resize_same_short_side_is_input", lambda: (p := Image.fromarray(IMG)) is F.resize(p, 6)),
        ("tensor_resize_same_is_input", lambda: (t := paddle.ones([3, 6, 8])) is F.resize(t, 6)),
        ("gray3_is_readonly_view", lambda: not F.to_grayscale(IMG, 3).flags.writeable),
        ("to_tensor_chw_tensor_is_input", lambda: (t := paddle.ones([3, 2, 2])) is F.to_tensor(t)),
        ("hflip_drops_single_channel", lambda: F.hflip(IMG[:, :, :1]).shape == (6, 8)),
        ("vflip_keeps_single_channel", lambda: F.vflip(IMG[:, :, :1]).shape == (6, 8, 1)),
        ("numpy_scalar_fill_is_channel0_only", lambda: F.pad(IMG, 1, 9)[0, 0].tolist() == [9, 0, 0]),
        ("cv2_error_name", lambda: type(_raises(lambda: F.adjust_contrast(IMG * 1.0, 2))).__name__ == "error"),
        ("uint8_tensor_blend_refused", lambda: isinstance(_raises(lambda: F.adjust_brightness(paddle.ones([3, 2, 2], "uint8"), 2)), RuntimeError)),
        ("saturation_numpy_draws_np_random", lambda: _np_draws(lambda: F.adjust_saturation(IMG, 0.5)) == 1),
        ("rrc_draws_np_random", lambda: _np_draws(lambda: T.RandomResizedCrop(3)(IMG)) >= 2),
    ],
)  # fmt: skip
def test_behaviour(name, check):
    assert check(), name


def _raises(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return e
    return None


def _np_draws(fn) -> int:
    """How many np.random doubles ``fn`` consumed (by replaying the stream)."""
    np.random.seed(0)
    random.seed(0)
    fn()
    after = np.random.random()
    np.random.seed(0)
    for n in range(100):
        if np.random.random() == after:
            return n
    return -1


@pytest.mark.parametrize("kind", ["numpy", "tensor"])
def test_erase_inplace(kind):
    img = IMG.copy() if kind == "numpy" else paddle.to_tensor(IMG.transpose(2, 0, 1).copy())
    out = F.erase(img, 0, 0, 2, 2, 0, inplace=True)
    assert out is img
    assert int(np.asarray(img)[..., 0, 0].sum() if kind == "tensor" else img[0, 0].sum()) == 0
    copy = F.erase(out, 3, 3, 1, 1, 5, inplace=False)
    assert copy is not out


def test_compose_reports_failing_transform(capsys):
    with pytest.raises(AssertionError):
        T.Compose([T.Resize(4), T.Pad(1, padding_mode="wrap")])(IMG)
    with pytest.raises(KeyError):
        T.Compose([T.Resize(4, interpolation="box")])(IMG)
    out = capsys.readouterr().out
    assert out.startswith("fail to perform transform [") and "Traceback" in out


def test_tensor_transforms_under_to_static():
    x = paddle.to_tensor(np.random.default_rng(1).random((3, 8, 10)).astype("float32"))

    def f(x):
        y = F.normalize(F.hflip(x), [0.5] * 3, [0.2] * 3)
        y = F.rotate(F.affine(F.resize(y, (6, 7)), 20, (1, 0), 1.0, 5), 30, expand=True)
        y = F.adjust_hue(F.adjust_brightness(y, 0.5), 0.1)
        return F.center_crop(F.pad(y, 2), 3)

    np.testing.assert_allclose(paddle.jit.to_static(f)(x).numpy(), f(x).numpy(), atol=1e-6)


def test_pickle_and_seeded_replay():
    tf = T.Compose([T.RandomResizedCrop(4), T.ColorJitter(0.3, 0.3, 0.3, 0.1), T.ToTensor()])
    tf2 = pickle.loads(pickle.dumps(tf))
    outs = []
    for t in (tf, tf2):
        random.seed(3)
        np.random.seed(3)
        outs.append(t(Image.fromarray(IMG)).numpy())
    np.testing.assert_array_equal(*outs)


# -- the numpy emulation of OpenCV against OpenCV itself (only where opencv-python exists) ----
CV_CASES = [
    ("resize", "nearest", 0), ("resize", "bilinear", 0), ("resize", "area", 0),
    ("resize", "bicubic", 0.01), ("resize", "lanczos", 5e-4),
    ("warp_affine", "nearest", 0), ("warp_affine", "bilinear", 0), ("warp_affine", "bicubic", 0),
    ("warp_perspective", "nearest", 0), ("warp_perspective", "bilinear", 0),
    ("to_gray", None, 0), ("hsv", None, 0), ("border", None, 0),
]  # fmt: skip


@pytest.mark.parametrize("fn, interp, max_mismatch", CV_CASES)
def test_numpy_backend_matches_opencv(fn, interp, max_mismatch):
    cv2 = pytest.importorskip("cv2")
    flags = {"nearest": 0, "bilinear": 1, "bicubic": 2, "area": 3, "lanczos": 4}
    rng = np.random.default_rng(0)
    bad = total = 0
    for _ in range(40):
        h, w = (int(v) for v in rng.integers(2, 40, 2))
        a = rng.integers(0, 256, (h, w, int(rng.choice([1, 3, 4])))).astype(np.uint8)
        if fn == "resize":
            size = tuple(int(v) for v in rng.integers(1, 60, 2))
            ref, got = (
                cv2.resize(a, size, interpolation=flags[interp]),
                _cv2.resize(a, size, interp),
            )
        elif fn == "warp_affine":
            m = cv2.getRotationMatrix2D(
                (w * rng.random(), h * rng.random()), 360 * rng.random(), 1.3
            )
            ref = cv2.warpAffine(a, m, (w, h), flags=flags[interp], borderValue=(5, 6, 7))
            got = _cv2_warp.warp_affine(a, m, (w, h), interp, (5, 6, 7))
        elif fn == "warp_perspective":
            sp = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
            ep = sp + rng.integers(-3, 4, (4, 2)).astype(np.float32)
            m = _cv2_warp.get_perspective_transform(sp, ep)
            np.testing.assert_allclose(
                m, cv2.getPerspectiveTransform(sp, ep), rtol=1e-12, atol=1e-12
            )
            ref = cv2.warpPerspective(a, m, (w, h), flags=flags[interp])
            got = _cv2_warp.warp_perspective(a, m, (w, h), interp)
        elif fn == "to_gray":
            a = np.repeat(a, 3, 2) if a.shape[2] == 1 else a
            ref, got = cv2.cvtColor(a, cv2.COLOR_RGB2GRAY), _cv2.to_gray(a, rgb=True)
        elif fn == "hsv":
            a = np.repeat(a[..., :1], 3, 2) if a.shape[2] == 1 else a[..., :3]
            hsv = cv2.cvtColor(a, cv2.COLOR_BGR2HSV_FULL)
            np.testing.assert_array_equal(_cv2.bgr_to_hsv_full(a), hsv)
            ref, got = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR_FULL), _cv2.hsv_full_to_bgr(hsv)
        else:
            p = [int(v) for v in rng.integers(0, 4, 4)]
            ref = cv2.copyMakeBorder(a, *p, cv2.BORDER_REFLECT, value=3)
            got = _cv2.copy_make_border(a, *p, "symmetric", 3)
        assert ref.shape == got.shape
        bad += int((ref != got).sum())
        total += ref.size
    assert bad <= max_mismatch * total, (bad, total)
