"""The numpy backend of ``paddle.vision.transforms.functional``: HWC (or HW) arrays with the
results of Paddle's cv2 backend, computed by the numpy emulation of OpenCV in ``_cv2`` /
``_cv2_warp`` (no opencv-python needed). As in Paddle, HxWx1 inputs keep their channel axis
except in ``hflip``, where cv2 drops it."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from . import _cv2, _cv2_warp
from ._functional_pil import _short_side_size, center_box, check_pad_args, unresolved

_MODES = {"constant", "edge", "reflect", "symmetric"}


def _keep_channel(img: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Paddle re-adds the channel axis cv2 drops from HxWx1 images."""
    return out[:, :, np.newaxis] if img.ndim == 3 and img.shape[2] == 1 else out


def _interp(interpolation: str) -> str:
    if interpolation not in _cv2.INTER:
        raise KeyError(interpolation)
    return interpolation


def to_tensor(pic: np.ndarray, data_format: str = "CHW"):
    """HWC (or HW) array -> Tensor; uint8 becomes float32 in [0, 1], other dtypes are kept."""
    import paddle_compat as paddle

    if data_format not in ["CHW", "HWC"]:
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if pic.ndim == 2:
        pic = pic[:, :, None]
    img = paddle.to_tensor(pic.transpose((2, 0, 1)) if data_format == "CHW" else pic)
    if pic.dtype == np.uint8:
        return paddle.cast(img, np.float32) / 255.0
    return img


def resize(img: np.ndarray, size, interpolation: str = "bilinear") -> np.ndarray:
    """cv2.resize to (h, w) = ``size``, or the shorter side to an int ``size``; modes
    'nearest', 'bilinear', 'area', 'bicubic', 'lanczos'."""
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    h, w = img.shape[:2]
    if isinstance(size, int):
        wh = _short_side_size(w, h, size)
        if wh is None:
            return img
    else:
        wh = (size[1], size[0])
    return _keep_channel(img, _cv2.resize(img, wh, _interp(interpolation)))


def pad(img: np.ndarray, padding, fill=0, padding_mode: str = "constant") -> np.ndarray:
    """cv2.copyMakeBorder; a number ``fill`` pads channel 0 only (cv2's Scalar), a tuple
    fills per channel."""
    sides = check_pad_args(padding, fill, padding_mode)
    unresolved(sides)
    left, top, right, bottom = sides
    out = _cv2.copy_make_border(img, top, bottom, left, right, padding_mode, fill)
    return _keep_channel(img, out)


def crop(img: np.ndarray, top: int, left: int, height: int, width: int) -> np.ndarray:
    return img[top : top + height, left : left + width, :]


def center_crop(img: np.ndarray, output_size) -> np.ndarray:
    h, w = img.shape[0:2]
    return crop(img, *center_box(w, h, output_size))


def hflip(img: np.ndarray) -> np.ndarray:
    return _cv2.flip(img, 1)


def vflip(img: np.ndarray) -> np.ndarray:
    return _keep_channel(img, _cv2.flip(img, 0))


def _lut(img: np.ndarray, table: np.ndarray) -> np.ndarray:
    return _keep_channel(img, _cv2.lut(img, table))


def adjust_brightness(img: np.ndarray, brightness_factor: float) -> np.ndarray:
    """Lookup table i -> clip(i * factor) (truncated to uint8)."""
    table = np.array([i * brightness_factor for i in range(0, 256)]).clip(0, 255).astype("uint8")
    return _lut(img, table)


def adjust_contrast(img: np.ndarray, contrast_factor: float) -> np.ndarray:
    """Lookup table i -> clip((i - 74) * factor + 74): Paddle's cv2 path pivots on 74, not on
    the image mean."""
    table = (
        np.array([(i - 74) * contrast_factor + 74 for i in range(0, 256)])
        .clip(0, 255)
        .astype("uint8")
    )
    return _lut(img, table)


def adjust_saturation(img: np.ndarray, saturation_factor: float) -> np.ndarray:
    """Blend with the BGR gray image by alpha ~ U(max(0, 1 - f), 1 + f) drawn from
    ``np.random`` (Paddle's cv2 path randomizes the factor itself)."""
    dtype = img.dtype
    img = img.astype(np.float32)
    alpha = np.random.uniform(max(0, 1 - saturation_factor), 1 + saturation_factor)
    gray = _cv2.to_gray(img, rgb=False)[..., np.newaxis]
    img = img * alpha + gray * (1 - alpha)
    return img.clip(0, 255).astype(dtype)


def adjust_hue(img: np.ndarray, hue_factor: float) -> np.ndarray:
    """Shift the hue of BGR2HSV_FULL by ``int(hue_factor * 255)`` (mod 256) and convert
    back."""
    if not (-0.5 <= hue_factor <= 0.5):
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    dtype = img.dtype
    hsv = _cv2.bgr_to_hsv_full(img.astype(np.uint8))
    h = (hsv[..., 0].astype(np.int32) + int(hue_factor * 255)) % 256
    hsv = np.stack([h.astype(np.uint8), hsv[..., 1], hsv[..., 2]], axis=-1)
    return _cv2.hsv_full_to_bgr(hsv).astype(dtype)


def affine(img, angle, translate, scale, shear, interpolation="nearest", fill=0, center=None):
    """Paddle's cv2 affine: rotation-scale about ``center`` plus shear, whose translation
    column is then replaced by ``translate`` (so ``center`` only changes the shear mixing)."""
    h, w = img.shape[0:2]
    if isinstance(fill, int):
        fill = (fill,) * 3
    if center is None:
        center = (w / 2.0, h / 2.0)
    r = _cv2_warp.get_rotation_matrix_2d(center, angle, scale)
    sx = math.tan(shear[0] * math.pi / 180)
    sy = math.tan(shear[1] * math.pi / 180)
    m = np.ones([2, 3])
    m[0] = r[0] + sy * r[1]
    m[1] = r[1] + sx * r[0]
    m[0, 2], m[1, 2] = translate
    out = _cv2_warp.warp_affine(img, m, (w, h), _interp(interpolation), fill)
    return _keep_channel(img, out)


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """cv2 rotation about ``center`` (default the image center); ``expand`` grows the output
    to the rotated corners' bounding box."""
    h, w = img.shape[0:2]
    if center is None:
        center = (w / 2.0, h / 2.0)
    m = _cv2_warp.get_rotation_matrix_2d(center, angle, 1)
    if expand:
        rad = -math.radians(angle)
        a, b = round(math.cos(rad), 15), round(math.sin(rad), 15)
        c, d = round(-math.sin(rad), 15), round(math.cos(rad), 15)
        tx = a * -center[0] + b * -center[1] + center[0]
        ty = c * -center[0] + d * -center[1] + center[1]
        xs, ys = [], []
        for x, y in ((0, 0), (w, 0), (w, h), (0, h)):
            xs.append(a * x + b * y + tx)
            ys.append(c * x + d * y + ty)
        nw = math.ceil(max(xs)) - math.floor(min(xs))
        nh = math.ceil(max(ys)) - math.floor(min(ys))
        m[0, 2] += (nw - w) * 0.5
        m[1, 2] += (nh - h) * 0.5
        w, h = int(nw), int(nh)
    out = _cv2_warp.warp_affine(img, m, (w, h), _interp(interpolation), fill)
    return _keep_channel(img, out)


def perspective(img, startpoints, endpoints, interpolation="nearest", fill=0):
    h, w = img.shape[0:2]
    m = _cv2_warp.get_perspective_transform(
        np.array(startpoints, dtype="float32"), np.array(endpoints, dtype="float32")
    )
    out = _cv2_warp.warp_perspective(img, m, (w, h), _interp(interpolation), fill)
    return _keep_channel(img, out)


def to_grayscale(img: np.ndarray, num_output_channels: int = 1) -> np.ndarray:
    """RGB2GRAY as HxWx1, or broadcast (read-only) to the input's shape for 3 channels."""
    if num_output_channels == 1:
        return _cv2.to_gray(img, rgb=True)[:, :, np.newaxis]
    if num_output_channels == 3:
        return np.broadcast_to(_cv2.to_gray(img, rgb=True)[:, :, np.newaxis], img.shape)
    raise ValueError("num_output_channels should be either 1 or 3")


def normalize(img, mean, std, data_format: str = "CHW", to_rgb: bool = False):
    """(img - mean) / std with float32 mean/std shaped for ``data_format``; ``to_rgb``
    reverses the last axis first."""
    shape = (-1, 1, 1) if data_format == "CHW" else (1, 1, -1)
    mean = np.float32(np.array(mean).reshape(shape))
    std = np.float32(np.array(std).reshape(shape))
    if to_rgb:
        img = img[..., ::-1]
    return (img - mean) / std


def erase(img: np.ndarray, i: int, j: int, h: int, w: int, v, inplace: bool = False):
    if not inplace:
        img = img.copy()
    img[i : i + h, j : j + w, ...] = v
    return img
