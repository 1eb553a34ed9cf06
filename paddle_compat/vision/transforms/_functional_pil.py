"""The PIL backend of ``paddle.vision.transforms.functional``: each function takes and
returns a ``PIL.Image`` (``to_tensor`` returns a Tensor) and does what Paddle's PIL path does,
with Pillow's own resampling."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

_INTERP = {
    "nearest": Image.Resampling.NEAREST,
    "bilinear": Image.Resampling.BILINEAR,
    "bicubic": Image.Resampling.BICUBIC,
    "box": Image.Resampling.BOX,
    "lanczos": Image.Resampling.LANCZOS,
    "hamming": Image.Resampling.HAMMING,
}
_PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def to_tensor(pic: Image.Image, data_format: str = "CHW"):
    """The image as an [H, W, C] (or [C, H, W]) Tensor: 8-bit modes become float32 in [0, 1],
    'I' and 'I;16' int32, 'F' float32; mode '1' is scaled to 255 first."""
    import paddle_compat as paddle

    if data_format not in ["CHW", "HWC"]:
        raise ValueError(f"data_format should be CHW or HWC. Got {data_format}")
    if pic.mode in ("I", "I;16"):
        arr = np.asarray(pic, np.int32)
    elif pic.mode == "F":
        arr = np.asarray(pic, np.float32)
    elif pic.mode == "1":
        arr = np.asarray(pic, np.uint8) * np.uint8(255)
    else:
        arr = np.asarray(pic)
    channels = 3 if pic.mode == "YCbCr" else 1 if pic.mode == "I;16" else len(pic.mode)
    img = paddle.to_tensor(arr)
    if arr.dtype == np.uint8:
        img = paddle.cast(img, "float32") / 255.0
    img = img.reshape([pic.size[1], pic.size[0], channels])
    return img.transpose([2, 0, 1]) if data_format == "CHW" else img


def _short_side_size(w: int, h: int, size: int):
    """(ow, oh) with the shorter side ``size``, or None when it already is."""
    if (w <= h and w == size) or (h <= w and h == size):
        return None
    if w < h:
        return size, int(size * h / w)
    return int(size * w / h), size


def _check_size(size) -> None:
    if not (isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")


def resize(img, size, interpolation: str = "bilinear"):
    """``Image.resize`` to (h, w) = ``size`` or the shorter side to an int ``size``."""
    _check_size(size)
    if isinstance(size, int):
        wh = _short_side_size(*img.size, size)
        return img if wh is None else img.resize(wh, _INTERP[interpolation])
    return img.resize(size[::-1], _INTERP[interpolation])


def check_pad_args(padding, fill, padding_mode) -> tuple[int, int, int, int] | None:
    """Paddle's checks of ``pad``'s arguments; returns (left, top, right, bottom), or None for
    a float ``padding`` (it passes Paddle's checks but is never unpacked)."""
    if not isinstance(padding, numbers.Number | list | tuple):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, numbers.Number | str | list | tuple):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, Sequence) and len(padding) not in [2, 4]:
        raise ValueError(
            f"Padding must be an int or a 2, or 4 element tuple, not a {len(padding)} element tuple"
        )
    assert padding_mode in _PAD_MODES, (
        "Padding mode should be either constant, edge, reflect or symmetric"
    )
    if isinstance(padding, int):
        return padding, padding, padding, padding
    if isinstance(padding, Sequence) and len(padding) == 2:
        return padding[0], padding[1], padding[0], padding[1]
    if isinstance(padding, Sequence):
        return tuple(padding)
    return None


def unresolved(sides) -> None:
    """Paddle fails with an UnboundLocalError where it uses the sides of a float padding."""
    if sides is None:
        raise UnboundLocalError(
            "cannot access local variable 'pad_top' where it is not associated with a value"
        )


def pad(img, padding, fill=0, padding_mode: str = "constant"):
    """``ImageOps.expand`` for 'constant' (palette kept for mode 'P'), ``np.pad`` otherwise."""
    sides = check_pad_args(padding, fill, padding_mode)
    if isinstance(padding, list):
        padding = tuple(padding)
    if padding_mode == "constant":
        out = ImageOps.expand(img, border=padding, fill=fill)
        if img.mode == "P":
            out.putpalette(img.getpalette())
        return out
    unresolved(sides)
    left, top, right, bottom = sides
    arr = np.asarray(img)
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (arr.ndim - 2)
    out = Image.fromarray(np.pad(arr, widths, padding_mode))
    if img.mode == "P":
        out.putpalette(img.getpalette())
    return out


def crop(img, top: int, left: int, height: int, width: int):
    return img.crop((left, top, left + width, top + height))


def center_box(width: int, height: int, output_size) -> tuple[int, int, int, int]:
    """(top, left, crop_height, crop_width) of the centered crop, as Paddle rounds it."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    crop_h, crop_w = output_size
    return int(round((height - crop_h) / 2.0)), int(round((width - crop_w) / 2.0)), crop_h, crop_w


def center_crop(img, output_size):
    return crop(img, *center_box(*img.size, output_size))


def hflip(img):
    return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


def vflip(img):
    return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)


def adjust_brightness(img, brightness_factor: float):
    return ImageEnhance.Brightness(img).enhance(brightness_factor)


def adjust_contrast(img, contrast_factor: float):
    return ImageEnhance.Contrast(img).enhance(contrast_factor)


def adjust_saturation(img, saturation_factor: float):
    return ImageEnhance.Color(img).enhance(saturation_factor)


def adjust_hue(img, hue_factor: float):
    """Shift the H channel of PIL's HSV by ``int(hue_factor * 255)`` (mod 256); gray-like
    modes ('L', '1', 'I', 'F') are returned unchanged."""
    if not (-0.5 <= hue_factor <= 0.5):
        raise ValueError(f"hue_factor:{hue_factor} is not in [-0.5, 0.5].")
    if img.mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    shifted = (np.array(h, dtype=np.uint8).astype(np.int16) + int(hue_factor * 255)) % 256
    h = Image.fromarray(shifted.astype(np.uint8), "L")
    return Image.merge("HSV", (h, s, v)).convert(img.mode)


def _fill3(fill):
    return (fill,) * 3 if isinstance(fill, int) else fill


def affine(img, matrix, interpolation: str = "nearest", fill=0):
    """``Image.transform`` with the inverse affine ``matrix`` (6 floats), same size."""
    return img.transform(
        img.size, Image.Transform.AFFINE, matrix, _INTERP[interpolation], _fill3(fill)
    )


def rotate(img, angle, interpolation: str = "nearest", expand=False, center=None, fill=0):
    return img.rotate(angle, _INTERP[interpolation], expand, center, fillcolor=_fill3(fill))


def perspective(img, coeffs, interpolation: str = "nearest", fill=0):
    return img.transform(
        img.size, Image.Transform.PERSPECTIVE, coeffs, _INTERP[interpolation], _fill3(fill)
    )


def to_grayscale(img, num_output_channels: int = 1):
    """Mode 'L' (1 channel) or an 'RGB' image of three copies of it."""
    if num_output_channels == 1:
        return img.convert("L")
    if num_output_channels == 3:
        gray = np.array(img.convert("L"), dtype=np.uint8)
        return Image.fromarray(np.dstack([gray, gray, gray]), "RGB")
    raise ValueError("num_output_channels should be either 1 or 3")


def erase(img, i: int, j: int, h: int, w: int, v, inplace: bool = False):
    """A new RGB image with the box set to ``v`` (PIL images are never erased in place)."""
    arr = np.array(img, dtype=np.uint8)
    arr[i : i + h, j : j + w, ...] = v
    return Image.fromarray(arr, "RGB")
