"""paddle.vision.transforms: every functional and class transform on PIL images, numpy HWC
arrays (Paddle's cv2 backend) and CHW Tensors, the random ones under fixed seeds, and errors
(goldens from real Paddle).

Paddle's numpy path calls OpenCV: record with opencv-python-headless 4.x importable, e.g.
``pip install --target /work/cv2-site --no-deps 'opencv-python-headless<5'`` and
``PYTHONPATH=/work/cv2-site`` before ``tools/record_goldens.py vision_transforms``."""

import random

import numpy as np
import paddle.vision.transforms as T
import paddle.vision.transforms.functional as F
from _util import expect_error, rng
from PIL import Image

import paddle

IMG = rng(0).integers(0, 256, (6, 8, 3)).astype(np.uint8)
GRAY = rng(1).integers(0, 256, (6, 8)).astype(np.uint8)
BIG = rng(2).integers(0, 256, (11, 13, 3)).astype(np.uint8)
FIMG = (rng(3).random((6, 8, 3)) * 255).astype(np.float32)
# bicubic/area numpy resizes and float warps: compared as floats within one level
TOLERANCE = {
    "case_resize_numpy_approx": (0.0, 1.0),
    "case_geometry_tensor": (1e-4, 1e-4),
    "case_random_geometry": (1e-4, 1e-4),
    "case_color_tensor": (1e-5, 1e-5),
    "case_hue_tensor_uint8": (0.0, 1.0),
}


def _pil(a=IMG, mode=None):
    return Image.fromarray(a, mode) if mode else Image.fromarray(a)


def _chw(a=IMG, dtype="float32", scale=255.0):
    t = paddle.to_tensor(a.transpose(2, 0, 1).copy())
    return t.astype("uint8") if dtype == "uint8" else t.astype(dtype) / scale


def out(x):
    """Transform outputs as plain values: PIL images become mode, size and pixels."""
    if isinstance(x, Image.Image):
        return {"mode": x.mode, "size": list(x.size), "pixels": np.asarray(x)}
    if isinstance(x, np.ndarray):
        return np.ascontiguousarray(x)
    if isinstance(x, tuple | list):
        return [out(v) for v in x]
    if isinstance(x, dict):
        return {k: out(v) for k, v in x.items()}
    return x


def err(fn):
    return expect_error(lambda: out(fn()))


def three(fn, t_img=None):
    """``fn`` on the PIL, numpy and Tensor forms of IMG."""
    t_img = _chw() if t_img is None else t_img
    return {"pil": err(lambda: fn(_pil())), "np": err(lambda: fn(IMG)), "t": err(lambda: fn(t_img))}


def case_to_tensor():
    o = {}
    for mode in ("RGB", "L", "1", "I", "F", "RGBA", "LA", "P", "YCbCr", "HSV", "CMYK"):
        img = _pil().convert(mode)
        o[mode] = [F.to_tensor(img), F.to_tensor(img, "HWC")]
    o["np_hwc"] = [F.to_tensor(IMG), F.to_tensor(IMG, "HWC"), F.to_tensor(GRAY)]
    o["np_float"] = [F.to_tensor(FIMG), F.to_tensor(FIMG.astype("float64"), "HWC")]
    o["np_int"] = F.to_tensor(IMG.astype("int32"))
    t = _chw()
    o["tensor"] = [F.to_tensor(t), F.to_tensor(t, "HWC"), F.to_tensor(t, "hwc")]
    o["bad_format"] = [
        err(lambda: F.to_tensor(IMG, "NCHW")),
        err(lambda: F.to_tensor(_pil(), "chw")),
    ]
    o["bad_type"] = [err(lambda: F.to_tensor([1, 2])), err(lambda: F.to_tensor(IMG[None]))]
    o["class"] = [
        T.ToTensor()(IMG),
        T.ToTensor("HWC")(_pil()),
        err(lambda: T.ToTensor(keys=("image", "mask"))((IMG, GRAY))),
    ]
    return o


def case_resize_pil():
    o = {}
    for interp in ("nearest", "bilinear", "bicubic", "box", "lanczos", "hamming"):
        o[interp] = [out(F.resize(_pil(BIG), (5, 7), interp)), out(F.resize(_pil(BIG), 4, interp))]
    o["int_tall"] = out(F.resize(_pil(BIG.transpose(1, 0, 2).copy()), 5))
    o["same_short"] = out(F.resize(_pil(), 6))
    o["gray"] = out(F.resize(_pil(GRAY), (9, 3)))
    o["bad_size"] = [err(lambda: F.resize(_pil(), (1, 2, 3))), err(lambda: F.resize(_pil(), 2.5))]
    o["bad_interp"] = err(lambda: F.resize(_pil(), 4, "area"))
    o["class"] = [out(T.Resize(4)(_pil())), out(T.Resize((3, 5), "nearest")(_pil()))]
    o["class_assert"] = expect_error(lambda: T.Resize((1, 2, 3)))
    return o


def case_resize_numpy():
    o = {}
    for interp in ("nearest", "bilinear"):
        o[interp] = [
            F.resize(BIG, (5, 7), interp), F.resize(BIG, (17, 19), interp), F.resize(BIG, 4, interp),
            F.resize(IMG, (3, 4), interp), F.resize(BIG[:, :, :1], (7, 5), interp),
            F.resize(GRAY, (9, 3), interp), F.resize(FIMG, (4, 9), interp),
        ]  # fmt: skip
    o["lanczos"] = [F.resize(BIG, (5, 7), "lanczos"), F.resize(IMG, (9, 3), "lanczos")]
    o["area_int"] = [F.resize(IMG, (3, 4), "area"), F.resize(BIG[:10, :12], (5, 4), "area")]
    o["same_short"] = F.resize(IMG, 6) is IMG
    o["bad"] = [err(lambda: F.resize(IMG, (1, 2, 3))), err(lambda: F.resize(IMG, 4, "box"))]
    o["class"] = [T.Resize(3)(BIG), T.Resize((4, 4), "nearest")(IMG)]
    return o


def case_resize_numpy_approx():
    """OpenCV's bicubic and area shrinks: compared as float32 within one gray level."""
    return {
        interp: [
            F.resize(a, s, interp).astype("float32")
            for a, s in ((BIG, (5, 7)), (IMG, (9, 11)), (BIG, 4))
        ]
        for interp in ("bicubic", "area")
    }


def case_resize_tensor():
    t, tb = _chw(), _chw(BIG)
    o = {k: F.resize(tb, (5, 7), k) for k in ("bilinear", "nearest", "bicubic")}
    o["int"] = [F.resize(tb, 4), F.resize(_chw(BIG.transpose(1, 0, 2).copy()), 5)]
    o["same"] = F.resize(t, 6)
    o["batch"] = err(lambda: F.resize(paddle.stack([t, t]), (3, 4)))
    o["bad"] = [err(lambda: F.resize(t, (1, 2, 3))), err(lambda: F.resize(t[0], (2, 2)))]
    o["class"] = T.Resize((3, 3))(t)
    return o


def case_pad():
    o = {}
    for mode in ("constant", "edge", "reflect", "symmetric"):
        for p in (1, (1, 2), [2, 0, 1, 3]):
            o[f"{mode}_{p}"] = three(lambda img, p=p, mode=mode: F.pad(img, p, 0, mode))
    o["fill"] = [three(lambda img: F.pad(img, 1, 9)), three(lambda img: F.pad(img, 1, (1, 2, 3)))]
    o["gray"] = [
        out(F.pad(_pil(GRAY), 2, 7)),
        F.pad(GRAY, 2, 7),
        F.pad(IMG[:, :, :1], (1, 2), 5, "reflect"),
    ]
    o["palette"] = out(F.pad(_pil().convert("P"), 1, padding_mode="edge"))
    o["bad"] = {
        "padding_type": three(lambda img: F.pad(img, "1")),
        "padding_len": three(lambda img: F.pad(img, (1, 2, 3))),
        "fill_type": three(lambda img: F.pad(img, 1, None)),
        "mode_type": three(lambda img: F.pad(img, 1, 0, 3)),
        "mode": three(lambda img: F.pad(img, 1, 0, "wrap")),
        "float_padding": three(lambda img: F.pad(img, 1.5, 0, "edge")),
        "type": err(lambda: F.pad([1], 1)),
    }
    o["class"] = [
        out(T.Pad(1)(_pil())),
        T.Pad([1, 2], fill=[3, 4, 5])(IMG),
        T.Pad((1, 1), padding_mode="edge")(_chw()),
    ]
    o["class_bad"] = [
        expect_error(lambda: T.Pad((1, 2, 3))),
        expect_error(lambda: T.Pad(1, padding_mode="x")),
    ]
    return o


def case_crop_flip():
    o = {
        "crop": three(lambda img: F.crop(img, 1, 2, 3, 4)),
        "crop_out": three(lambda img: F.crop(img, 4, 6, 4, 4)),
        "center": [
            three(lambda img: F.center_crop(img, 4)),
            three(lambda img: F.center_crop(img, (3, 5))),
        ],
        "hflip": three(F.hflip),
        "vflip": three(F.vflip),
        "flip_1ch": [F.hflip(IMG[:, :, :1]), F.vflip(IMG[:, :, :1]), F.hflip(GRAY), F.vflip(GRAY)],
        "flip_gray_pil": [out(F.hflip(_pil(GRAY))), out(F.vflip(_pil(GRAY)))],
        "bad": [
            err(lambda: F.hflip([1])),
            err(lambda: F.crop("x", 0, 0, 1, 1)),
            err(lambda: F.vflip(_chw()[0])),
        ],
        "class": three(T.CenterCrop(3)),
        "transpose": [
            T.Transpose()(IMG),
            T.Transpose()(_pil(GRAY)),
            T.Transpose((1, 0, 2))(_chw()),
        ],
    }
    return o


def case_color_pil_numpy():
    o = {}
    for f in (0.0, 0.5, 1.7):
        o[f"brightness_{f}"] = [out(F.adjust_brightness(_pil(), f)), F.adjust_brightness(IMG, f)]
        o[f"contrast_{f}"] = [out(F.adjust_contrast(_pil(), f)), F.adjust_contrast(IMG, f)]
        np.random.seed(7)
        o[f"saturation_{f}"] = [out(F.adjust_saturation(_pil(), f)), F.adjust_saturation(IMG, f)]
    for h in (-0.5, -0.2, 0.0, 0.3, 0.5):
        o[f"hue_{h}"] = [out(F.adjust_hue(_pil(), h)), F.adjust_hue(IMG, h)]
    o["gray_pil"] = [out(F.adjust_hue(_pil(GRAY), 0.2)), out(F.adjust_brightness(_pil(GRAY), 0.5))]
    o["np_1ch"] = [F.adjust_brightness(IMG[:, :, :1], 0.5), F.adjust_contrast(IMG[:, :, :1], 2.0)]
    o["np_float"] = [F.adjust_brightness(FIMG, 1.5), err(lambda: F.adjust_contrast(FIMG, 0.5))]
    o["bad"] = [
        err(lambda: F.adjust_hue(_pil(), 0.6)), err(lambda: F.adjust_hue(IMG, -0.7)),
        err(lambda: F.adjust_brightness([1], 0.5)), err(lambda: F.adjust_hue(GRAY, 0.1)),
    ]  # fmt: skip
    return o


def case_color_tensor():
    t, tu = _chw(), _chw(dtype="uint8")
    o = {}
    for name, fn in (
        ("brightness", F.adjust_brightness), ("contrast", F.adjust_contrast),
        ("saturation", F.adjust_saturation),
    ):  # fmt: skip
        o[name] = [fn(t, 0.6), fn(t, 1.5), err(lambda fn=fn: fn(tu, 0.6)), fn(t[:1], 0.5)]
        o[name + "_bad"] = [
            err(lambda fn=fn: fn(t, -1.0)),
            err(lambda fn=fn: fn(paddle.concat([t, t[:1]]), 0.5)),
        ]
    o["hue"] = [
        F.adjust_hue(t, 0.2),
        F.adjust_hue(t, -0.45),
        F.adjust_hue(t[:1], 0.3),
        F.adjust_hue(tu[:1], 0.3),
    ]
    o["hue_bad"] = [err(lambda: F.adjust_hue(t, 0.7)), err(lambda: F.adjust_hue(t[:2], 0.1))]
    o["gray"] = [F.to_grayscale(t), F.to_grayscale(t, 3), err(lambda: F.to_grayscale(tu))]
    return o


def case_hue_tensor_uint8():
    """uint8 hue goes through float32 [0, 1] and is truncated back: within one level."""
    out_u8 = F.adjust_hue(_chw(dtype="uint8"), 0.3)
    return {"dtype": str(out_u8.dtype).replace("paddle.", ""), "values": out_u8.astype("float32")}


def case_grayscale_normalize():
    o = {
        "gray": [three(F.to_grayscale), three(lambda img: F.to_grayscale(img, 3))],
        "gray_bad": [three(lambda img: F.to_grayscale(img, 2)), err(lambda: F.to_grayscale(GRAY))],
        "gray_class": [out(T.Grayscale()(_pil())), T.Grayscale(3)(IMG)],
    }
    mean, std = [10.0, 120.0, 250.0], [2.0, 50.0, 100.0]
    o["norm_t"] = [
        F.normalize(_chw(), [0.5] * 3, [0.25] * 3),
        F.normalize(_chw().transpose((1, 2, 0)), mean, std, "HWC"),
    ]
    o["norm_np"] = [F.normalize(IMG, mean, std, "HWC"), F.normalize(IMG, mean, std, "HWC", True)]
    o["norm_np_chw"] = F.normalize(IMG.transpose(2, 0, 1), mean, std, "CHW", True)
    o["norm_pil"] = [
        F.normalize(_pil(), mean, std, "HWC"),
        F.normalize(_pil(), 127.5, 127.5, "HWC"),
    ]
    o["norm_bad"] = err(lambda: F.normalize(_chw()[0], mean, std))
    o["norm_class"] = [
        T.Normalize(127.5, 127.5, "HWC")(IMG),
        T.Normalize([0.5] * 3, [0.5] * 3)(_chw()),
    ]
    o["norm_class_rgb"] = T.Normalize(mean, std, "HWC", to_rgb=True)(FIMG)
    return o


def case_erase():
    t = _chw()
    o = {
        "np": F.erase(IMG, 1, 2, 3, 2, np.array([1, 2, 3])),
        "pil": out(F.erase(_pil(), 0, 0, 2, 2, 255)),
        "t": F.erase(t, 1, 1, 2, 3, paddle.to_tensor([0.0, 0.5, 1.0])[:, None, None]),
        "t_scalar": F.erase(t, 0, 0, 6, 1, 0.0),
    }
    a = IMG.copy()
    F.erase(a, 0, 0, 1, 1, 0, inplace=True)
    tt = t.clone()
    F.erase(tt, 0, 0, 1, 1, 7.0, inplace=True)
    o["inplace"] = [a, tt, t]
    o["bad"] = err(lambda: F.erase(t[0], 0, 0, 1, 1, 0.0))
    return o


def case_geometry_pil_numpy():
    o = {}
    for interp in ("nearest", "bilinear", "bicubic"):
        o[f"affine_{interp}"] = [
            out(F.affine(_pil(BIG), 30, (1, -2), 0.8, 10, interp)),
            F.affine(BIG, 30, (1, -2), 0.8, 10, interp),
            out(
                F.affine(
                    _pil(BIG), -45.5, [0, 1], 1.2, [5, -8], interp, fill=(9, 8, 7), center=(3, 4)
                )
            ),
            F.affine(BIG, -45.5, [0, 1], 1.2, [5, -8], interp, fill=(9, 8, 7), center=(3, 4)),
        ]
        o[f"rotate_{interp}"] = [
            out(F.rotate(_pil(BIG), 33, interp)), F.rotate(BIG, 33, interp),
            out(F.rotate(_pil(BIG), 100, interp, expand=True)), F.rotate(BIG, 100, interp, expand=True),
            out(F.rotate(_pil(BIG), -20, interp, center=[2, 3], fill=[5, 6, 7])),
            F.rotate(BIG, -20, interp, center=[2, 3], fill=[5, 6, 7]),
        ]  # fmt: skip
        sp, ep = [[0, 0], [12, 0], [12, 10], [0, 10]], [[2, 1], [11, 0], [12, 9], [1, 10]]
        o[f"perspective_{interp}"] = [
            out(F.perspective(_pil(BIG), sp, ep, interp)), F.perspective(BIG, sp, ep, interp),
            out(F.perspective(_pil(BIG), sp, ep, interp, fill=(1, 2, 3))), F.perspective(BIG, sp, ep, interp, 4),
        ]  # fmt: skip
    o["one_channel"] = [
        F.affine(BIG[:, :, :1], 10, (0, 0), 1.0, 0), F.rotate(BIG[:, :, :1], 10, fill=3),
        F.perspective(BIG[:, :, :1], [[0, 0], [12, 0], [12, 10], [0, 10]], [[1, 1], [12, 0], [12, 10], [0, 10]]),
        err(lambda: F.rotate(_pil(GRAY), 45)), out(F.rotate(_pil(GRAY), 45, fill=(9,))),
    ]  # fmt: skip
    o["numpy_scalar_fill"] = [
        F.rotate(IMG, 30, fill=200),
        F.affine(IMG, 30, (0, 0), 1.0, 0, fill=200),
    ]
    o["bad"] = {
        "angle": three(lambda img: F.affine(img, "1", (0, 0), 1.0, 0)),
        "translate": three(lambda img: F.affine(img, 1, 0, 1.0, 0)),
        "translate_len": three(lambda img: F.affine(img, 1, (0,), 1.0, 0)),
        "scale": three(lambda img: F.affine(img, 1, (0, 0), 0.0, 0)),
        "shear": three(lambda img: F.affine(img, 1, (0, 0), 1.0, "x")),
        "shear_len": three(lambda img: F.affine(img, 1, (0, 0), 1.0, (1, 2, 3))),
        "interp": three(lambda img: F.affine(img, 1, (0, 0), 1.0, 0, 3)),
        "center": three(lambda img: F.affine(img, 1, (0, 0), 1.0, 0, center=3)),
        "np_interp": [err(lambda: F.rotate(IMG, 10, "box")), err(lambda: F.perspective(IMG, [[0, 0]] * 4, [[0, 0]] * 4, "box"))],
    }  # fmt: skip
    return o


def case_geometry_tensor():
    t = _chw(BIG)
    sp, ep = [[0, 0], [12, 0], [12, 10], [0, 10]], [[2, 1], [11, 0], [12, 9], [1, 10]]
    o = {}
    for interp in ("nearest", "bilinear"):
        o[interp] = [
            F.affine(t, 30, (1, -2), 0.8, 10, interp),
            F.affine(t, -45.5, [0, 1], 1.2, [5, -8], interp, fill=(9, 8, 7), center=(3, 4)),
            F.rotate(t, 33, interp), F.rotate(t, 100, interp, expand=True),
            F.rotate(t, -20, interp, center=[2, 3], fill=[0.1, 0.2, 0.3]),
            F.perspective(t, sp, ep, interp), F.perspective(t, sp, ep, interp, fill=0.5),
        ]  # fmt: skip
    o["batch"] = F.affine(paddle.stack([t, t * 0.5]), 15, (0, 0), 1.0, 0)
    o["fill_none"] = F.rotate(t, 45, fill=None)
    return o


def case_random_crops():
    o = {}
    random.seed(3)
    np.random.seed(3)
    rrc = T.RandomResizedCrop(4)
    o["rrc"] = [out(rrc(_pil(BIG))), rrc(BIG), rrc(_chw(BIG)), out(rrc(_pil(BIG)))]
    o["rrc_nearest"] = T.RandomResizedCrop((3, 5), scale=(0.5, 1.0), interpolation="nearest")(BIG)
    o["rrc_fallback"] = T.RandomResizedCrop(3, scale=(5.0, 6.0))(BIG)
    o["rrc_fallback_ratio"] = T.RandomResizedCrop(3, scale=(5.0, 6.0), ratio=(2.0, 3.0))(BIG)
    o["rrc_bad"] = [
        expect_error(lambda: T.RandomResizedCrop(3, scale=(1.0, 0.5))),
        expect_error(lambda: T.RandomResizedCrop(3, ratio=(2, 1))),
    ]
    rc = T.RandomCrop(4)
    o["crop"] = [out(rc(_pil(BIG))), rc(BIG), rc(_chw(BIG)), rc(BIG)]
    o["crop_same"] = T.RandomCrop((11, 13))(BIG)
    o["crop_pad"] = [
        T.RandomCrop(5, padding=2, fill=9)(IMG), out(T.RandomCrop((8, 10), pad_if_needed=True)(_pil())),
        T.RandomCrop((8, 10), pad_if_needed=True, padding_mode="edge")(_chw()),
    ]  # fmt: skip
    o["crop_too_big"] = err(lambda: T.RandomCrop(9)(IMG))
    o["flips"] = [T.RandomHorizontalFlip()(IMG) for _ in range(4)] + [
        T.RandomVerticalFlip(0.3)(_chw()) for _ in range(4)
    ]
    o["flip_prob"] = [out(T.RandomHorizontalFlip(1.0)(_pil())), T.RandomVerticalFlip(0.0)(IMG)]
    o["flip_bad"] = [
        expect_error(lambda: T.RandomHorizontalFlip(1.5)),
        expect_error(lambda: T.RandomVerticalFlip(-0.1)),
    ]
    o["state"] = [random.random(), float(np.random.random())]
    return o


def case_random_color():
    random.seed(11)
    np.random.seed(11)
    o = {
        "brightness": [out(T.BrightnessTransform(0.4)(_pil())), T.BrightnessTransform(0.4)(IMG), T.BrightnessTransform(0.4)(_chw())],
        "contrast": [out(T.ContrastTransform(0.4)(_pil())), T.ContrastTransform(0.4)(IMG), T.ContrastTransform(0.4)(_chw())],
        "saturation": [out(T.SaturationTransform(0.4)(_pil())), T.SaturationTransform(0.4)(IMG), T.SaturationTransform(0.4)(_chw())],
        "hue": [out(T.HueTransform(0.4)(_pil())), T.HueTransform(0.4)(IMG), T.HueTransform(0.4)(_chw())],
        "identity": [T.BrightnessTransform(0)(IMG), T.HueTransform(0)(IMG), err(lambda: T.ContrastTransform([1, 1])(IMG))],
        "ranges": [T.BrightnessTransform([0.5, 0.7]).value, T.HueTransform(0.2).value, T.SaturationTransform(2).value],
    }  # fmt: skip
    cj = T.ColorJitter(0.4, 0.4, 0.4, 0.4)
    o["jitter"] = [out(cj(_pil())), cj(IMG), cj(_chw()), out(T.ColorJitter(hue=0.1)(_pil()))]
    o["bad"] = [
        expect_error(lambda: T.BrightnessTransform(-1)), expect_error(lambda: T.ContrastTransform(-0.5)),
        expect_error(lambda: T.ContrastTransform((0.5, 1.5))), expect_error(lambda: T.HueTransform(0.7).value),
        expect_error(lambda: T.HueTransform([-0.6, 0.2])), expect_error(lambda: T.SaturationTransform("x")),
        expect_error(lambda: T.SaturationTransform([2, 1])),
    ]  # fmt: skip
    o["state"] = [random.random(), float(np.random.random())]
    return o


def case_random_geometry():
    random.seed(5)
    np.random.seed(5)
    paddle.seed(5)
    o = {}
    ra = T.RandomAffine(30, translate=(0.2, 0.1), scale=(0.8, 1.2), shear=(-5, 5, -3, 3))
    o["affine"] = [out(ra(_pil(BIG))), ra(BIG), ra(_chw(BIG))]
    o["affine_plain"] = [
        T.RandomAffine([-10, 10], shear=8, interpolation="bilinear", fill=None)(BIG)
    ]
    rr = T.RandomRotation(40, expand=True)
    o["rotation"] = [
        out(rr(_pil(BIG))),
        rr(BIG),
        rr(_chw(BIG)),
        T.RandomRotation((5, 9), "bilinear", center=(1, 2), fill=(1, 2, 3))(BIG),
    ]
    rp = T.RandomPerspective(prob=1.0, distortion_scale=0.6)
    o["perspective"] = [out(rp(_pil(BIG))), rp(BIG), rp(_chw(BIG)), T.RandomPerspective(0.0)(IMG)]
    o["perspective_params"] = rp.get_params(13, 11, 0.5)
    re = T.RandomErasing(prob=1.0, value=[1, 2, 3])
    o["erasing"] = [
        out(re(_pil(BIG))),
        re(BIG),
        re(_chw(BIG)),
        T.RandomErasing(prob=1.0, value=7)(BIG),
    ]
    o["erasing_random"] = [
        T.RandomErasing(1.0, value="random")(FIMG),
        T.RandomErasing(1.0, value="random")(_chw(BIG)),
    ]
    o["erasing_fallback"] = T.RandomErasing(1.0, scale=(0.99, 1.0), ratio=(1.0, 1.0))(IMG)
    o["erasing_skip"] = T.RandomErasing(0.0)(IMG)
    o["state"] = [random.random(), float(np.random.random())]
    o["bad"] = {
        "degrees": [expect_error(lambda: T.RandomAffine(-1)), expect_error(lambda: T.RandomAffine([1, 2, 3]))],
        "interp": expect_error(lambda: T.RandomAffine(1, interpolation="box")),
        "translate": [expect_error(lambda: T.RandomAffine(1, translate=(2, 0))), expect_error(lambda: T.RandomAffine(1, translate=1))],
        "scale": expect_error(lambda: T.RandomAffine(1, scale=(0, 1))),
        "shear": [expect_error(lambda: T.RandomAffine(1, shear=(1, 2, 3))), expect_error(lambda: T.RandomAffine(1, shear=-2))],
        "fill": expect_error(lambda: T.RandomAffine(1, fill=object())),
        "center": expect_error(lambda: T.RandomAffine(1, center=(1,))),
        "rotation": [expect_error(lambda: T.RandomRotation(-3)), expect_error(lambda: T.RandomRotation((1, 2, 3)))],
        "persp": [expect_error(lambda: T.RandomPerspective(2)), expect_error(lambda: T.RandomPerspective(0.5, 2)),
                  expect_error(lambda: T.RandomPerspective(interpolation="area"))],
        "erasing": [expect_error(lambda: T.RandomErasing(value="x")), expect_error(lambda: T.RandomErasing(scale=(0.5, 0.1))),
                    expect_error(lambda: T.RandomErasing(1.0, value=[1, 2])(IMG)), expect_error(lambda: T.RandomErasing(prob=2))],
    }  # fmt: skip
    return o


class _Flip(T.BaseTransform):
    """A keyed transform in the style of Paddle's BaseTransform example."""

    def _get_params(self, inputs):
        return {"flip": random.random() < 0.5, "size": inputs[0].shape[:2][::-1]}

    def _apply_image(self, image):
        return F.hflip(image) if self.params["flip"] else image

    def _apply_boxes(self, boxes):
        return boxes if not self.params["flip"] else [self.params["size"][0], boxes]


def case_base_compose():
    random.seed(1)
    o = {"keys": [_Flip(keys=("image", "boxes"))((IMG, [1, 2], "extra")) for _ in range(3)]}
    o["single"] = _Flip()(IMG)
    o["fewer_inputs"] = _Flip(keys=("image", "boxes"))(IMG)
    o["unsupported_call"] = expect_error(lambda: T.Resize(3, keys=("image", "boxes"))((IMG, [1])))
    o["bad_keys"] = [
        expect_error(lambda: T.Resize(3, keys=("image", "label"))),
        expect_error(lambda: T.Resize(3, keys=3)),
    ]
    o["str_keys"] = expect_error(lambda: T.Resize(3, keys="image"))
    o["base_apply"] = expect_error(lambda: T.BaseTransform()(IMG))
    comp = T.Compose(
        [T.Resize(4), T.CenterCrop(3), T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)]
    )
    o["compose"] = [comp(_pil(BIG)), comp(BIG)]
    keys = ("image", "image")
    o["compose_tuple"] = T.Compose([T.Resize(4, keys=keys), T.ToTensor(keys=keys)])((BIG, GRAY))
    o["compose_mask"] = err(lambda: T.Compose([T.Resize(4, keys=("image", "mask"))])((BIG, BIG)))
    o["compose_error"] = expect_error(lambda: T.Compose([T.Resize(4), T.Pad("x")])(IMG))
    o["compose_repr"] = repr(T.Compose([])).splitlines()
    return o


def case_numpy_wide_rows():
    """Rows wider than OpenCV's vector loops (the emulation must agree there too)."""
    wide = rng(4).integers(0, 256, (37, 150, 3)).astype(np.uint8)
    sp, ep = [[0, 0], [149, 0], [149, 36], [0, 36]], [[5, 3], [140, 0], [149, 30], [2, 36]]
    return {
        "resize": [F.resize(wide, (23, 97)), F.resize(wide, (80, 301)), F.resize(wide, 20), F.resize(wide, (37, 75), "nearest")],
        "resize_1ch": F.resize(wide[:, :, :1], (50, 211)),
        "warps": [
            F.rotate(wide, 17, "bilinear"), F.rotate(wide, -71, "nearest", expand=True),
            F.affine(wide, 12, (3, -4), 0.9, (4, -6), "bilinear", fill=(10, 20, 30)),
            F.perspective(wide, sp, ep, "bilinear"), F.perspective(wide, sp, ep, "nearest", (1, 2, 3)),
        ],
        "color": [F.adjust_hue(wide, 0.27), F.adjust_hue(wide, -0.4), F.to_grayscale(wide), F.adjust_brightness(wide, 0.7)],
        "pad": [F.pad(wide, (3, 40, 5, 2), 0, "reflect"), F.pad(wide, 60, 0, "symmetric")],
    }  # fmt: skip
