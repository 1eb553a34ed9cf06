"""``paddle.vision.transforms.functional``: image functions that take a PIL image, a numpy
HWC array (Paddle's cv2 rules, here emulated without OpenCV) or a paddle Tensor (CHW), and
send each to the matching backend as Paddle does."""

from __future__ import annotations

import math
import numbers

import numpy as np
from PIL import Image

from ..._core.tensor import Tensor
from . import _functional_numpy as F_np
from . import _functional_pil as F_pil
from . import _functional_tensor as F_t

__all__ = []


def _is_pil_image(img) -> bool:
    return isinstance(img, Image.Image)


def _is_tensor_image(img) -> bool:
    return isinstance(img, Tensor)


def _is_numpy_image(img) -> bool:
    return isinstance(img, np.ndarray) and img.ndim in {2, 3}


def _check_image(img, name: str = "img") -> None:
    if not (_is_pil_image(img) or _is_numpy_image(img) or _is_tensor_image(img)):
        raise TypeError(
            f"{name} should be PIL Image or Tensor Image or ndarray with dim=[2 or 3]. "
            f"Got {type(img)}"
        )


def _dispatch(img, pil, tensor, numpy, *args):
    """Check ``img`` and run the backend for its type (PIL, then Tensor, then numpy)."""
    _check_image(img)
    if _is_pil_image(img):
        return pil(img, *args)
    if _is_tensor_image(img):
        return tensor(img, *args)
    return numpy(img, *args)


def to_tensor(pic, data_format: str = "CHW"):
    """PIL image or HWC array -> Tensor in ``data_format`` (uint8 scaled to float32 [0, 1]);
    a Tensor is returned as is for 'CHW' and transposed (1, 2, 0) otherwise."""
    _check_image(pic, "pic")
    if _is_pil_image(pic):
        return F_pil.to_tensor(pic, data_format)
    if _is_numpy_image(pic):
        return F_np.to_tensor(pic, data_format)
    return pic if data_format.lower() == "chw" else pic.transpose((1, 2, 0))


def resize(img, size, interpolation: str = "bilinear"):
    """Resize to ``size`` (h, w), or scale the shorter side to an int ``size`` keeping the
    aspect ratio (the longer side truncated)."""
    return _dispatch(img, F_pil.resize, F_t.resize, F_np.resize, size, interpolation)


def pad(img, padding, fill=0, padding_mode: str = "constant"):
    """Pad the borders: ``padding`` is an int, (left/right, top/bottom) or (left, top, right,
    bottom); modes 'constant', 'edge', 'reflect', 'symmetric'."""
    return _dispatch(img, F_pil.pad, F_t.pad, F_np.pad, padding, fill, padding_mode)


def crop(img, top: int, left: int, height: int, width: int):
    """The box of ``height`` x ``width`` whose top-left corner is (top, left)."""
    return _dispatch(img, F_pil.crop, F_t.crop, F_np.crop, top, left, height, width)


def center_crop(img, output_size):
    """Crop the center to ``output_size`` (an int or (h, w))."""
    return _dispatch(img, F_pil.center_crop, F_t.center_crop, F_np.center_crop, output_size)


def hflip(img):
    """Flip left-right."""
    return _dispatch(img, F_pil.hflip, F_t.hflip, F_np.hflip)


def vflip(img):
    """Flip top-bottom."""
    return _dispatch(img, F_pil.vflip, F_t.vflip, F_np.vflip)


def adjust_brightness(img, brightness_factor: float):
    """Scale brightness (0 gives black, 1 the original); numpy arrays are cast to uint8."""
    _check_image(img)
    if _is_pil_image(img):
        return F_pil.adjust_brightness(img, brightness_factor)
    if _is_numpy_image(img):
        return F_np.adjust_brightness(img.astype(np.uint8), brightness_factor)
    return F_t.adjust_brightness(img, brightness_factor)


def adjust_contrast(img, contrast_factor: float):
    """Scale contrast (0 gives the mean gray, 1 the original)."""
    _check_image(img)
    if _is_pil_image(img):
        return F_pil.adjust_contrast(img, contrast_factor)
    if _is_numpy_image(img):
        return F_np.adjust_contrast(img, contrast_factor)
    return F_t.adjust_contrast(img, contrast_factor)


def adjust_saturation(img, saturation_factor: float):
    """Scale saturation (0 gives gray, 1 the original); Paddle's numpy path draws its blend
    factor from ``np.random`` instead."""
    _check_image(img)
    if _is_pil_image(img):
        return F_pil.adjust_saturation(img, saturation_factor)
    if _is_numpy_image(img):
        return F_np.adjust_saturation(img, saturation_factor)
    return F_t.adjust_saturation(img, saturation_factor)


def adjust_hue(img, hue_factor: float):
    """Rotate the hue by ``hue_factor`` turns (in [-0.5, 0.5])."""
    _check_image(img)
    if _is_pil_image(img):
        return F_pil.adjust_hue(img, hue_factor)
    if _is_numpy_image(img):
        return F_np.adjust_hue(img, hue_factor)
    return F_t.adjust_hue(img, hue_factor)


def _get_affine_matrix(center, angle, translate, scale, shear) -> list[float]:
    """The inverse affine map (output pixel -> input pixel) of rotate-scale-shear about
    ``center`` followed by ``translate``, as 6 floats (PIL's ``Image.transform`` layout)."""
    rot = math.radians(angle)
    sx, sy = math.radians(shear[0]), math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    # forward map R * S * Sh = [[a, b], [c, d]]; invert it (determinant is scale**2)
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    m = [v / scale for v in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def affine(
    img,
    angle: float,
    translate,
    scale: float,
    shear,
    interpolation: str = "nearest",
    fill=0,
    center=None,
):
    """Rotate by ``angle`` degrees, scale, shear (degrees, x then y) about ``center`` (the image
    center by default) and translate, keeping the size."""
    _check_image(img)
    if not isinstance(angle, int | float):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, list | tuple):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, numbers.Number | list | tuple):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    if not isinstance(interpolation, str):
        raise TypeError("Argument interpolation should be a string")
    angle = float(angle) if isinstance(angle, int) else angle
    translate = list(translate)
    shear = [shear, 0.0] if isinstance(shear, numbers.Number) else list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, list | tuple):
        raise TypeError("Argument center should be a sequence")

    if _is_pil_image(img):
        width, height = img.size
        if center is None:
            center = [width * 0.5, height * 0.5]
        matrix = _get_affine_matrix(center, angle, translate, scale, shear)
        return F_pil.affine(img, matrix, interpolation, fill)
    if _is_numpy_image(img):
        # Paddle reads (width, height) from shape[0:2] here, i.e. swapped
        width, height = img.shape[0:2]
        if center is None:
            center = (width * 0.5, height * 0.5)
        return F_np.affine(img, angle, translate, scale, shear, interpolation, fill, center)
    center_f = [0.0, 0.0]
    if center is not None:
        # Paddle takes height from the last axis and width from the one before it
        height, width = img.shape[-1], img.shape[-2]
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, [width, height])]
    translate_f = [1.0 * t for t in translate]
    matrix = _get_affine_matrix(center_f, angle, translate_f, scale, shear)
    return F_t.affine(img, matrix, interpolation, fill)


def rotate(
    img, angle: float, interpolation: str = "nearest", expand: bool = False, center=None, fill=0
):
    """Rotate counter-clockwise by ``angle`` degrees about ``center``; ``expand`` grows the
    output to hold the whole rotated image."""
    _check_image(img)
    center = tuple(center) if isinstance(center, list) else center
    fill = tuple(fill) if isinstance(fill, list) else fill
    if _is_pil_image(img):
        return F_pil.rotate(img, angle, interpolation, expand, center, fill)
    if _is_tensor_image(img):
        return F_t.rotate(img, angle, interpolation, expand, center, fill)
    return F_np.rotate(img, angle, interpolation, expand, center, fill)


def _get_perspective_coeffs(startpoints, endpoints) -> list:
    """The 8 coefficients of the homography taking ``endpoints`` to ``startpoints`` (least
    squares, as PIL's ``Image.PERSPECTIVE`` wants them)."""
    rows = []
    for (x, y), (u, v) in zip(endpoints, startpoints):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    a = np.array(rows, dtype=np.float64)
    b = np.array(startpoints).reshape([8])
    return list(np.linalg.lstsq(a, b)[0])


def perspective(img, startpoints, endpoints, interpolation: str = "nearest", fill=0):
    """Warp so that the 4 ``startpoints`` (corners, [x, y]) land on ``endpoints``."""
    _check_image(img)
    if _is_pil_image(img):
        coeffs = _get_perspective_coeffs(startpoints, endpoints)
        return F_pil.perspective(img, coeffs, interpolation, fill)
    if _is_tensor_image(img):
        coeffs = _get_perspective_coeffs(startpoints, endpoints)
        return F_t.perspective(img, coeffs, interpolation, fill)
    return F_np.perspective(img, startpoints, endpoints, interpolation, fill)


def to_grayscale(img, num_output_channels: int = 1):
    """Luma of an RGB image with 1 channel or 3 equal channels."""
    return _dispatch(
        img, F_pil.to_grayscale, F_t.to_grayscale, F_np.to_grayscale, num_output_channels
    )


def normalize(img, mean, std, data_format: str = "CHW", to_rgb: bool = False):
    """(img - mean) / std per channel. A Tensor gives a Tensor; a PIL image or numpy array
    gives a numpy array (``to_rgb`` reverses the last axis first, numpy/PIL only)."""
    if _is_tensor_image(img):
        return F_t.normalize(img, mean, std, data_format)
    if _is_pil_image(img):
        img = np.array(img).astype(np.float32)
    return F_np.normalize(img, mean, std, data_format, to_rgb)


def erase(img, i: int, j: int, h: int, w: int, v, inplace: bool = False):
    """Set the box (i, j, h, w) to ``v`` (a Tensor image is CHW, a numpy/PIL image HWC)."""
    if _is_tensor_image(img):
        return F_t.erase(img, i, j, h, w, v, inplace=inplace)
    if _is_pil_image(img):
        return F_pil.erase(img, i, j, h, w, v, inplace=inplace)
    return F_np.erase(img, i, j, h, w, v, inplace=inplace)
