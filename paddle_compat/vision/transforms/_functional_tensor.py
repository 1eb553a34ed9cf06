"""The Tensor backend of ``paddle.vision.transforms.functional``: CHW (or NCHW) Tensor images,
computed with paddle ops in the order Paddle computes them (so the float32 results agree), and
the geometric warps through ``grid_sample``."""

from __future__ import annotations

import math
import numbers

import numpy as np

import paddle_compat as paddle
import paddle_compat.nn.functional as F

from ..._core.tensor import Tensor
from ._functional_pil import center_box

_AXES = {"chw": (-3, -2, -1), "hwc": (-1, -3, -2)}  # (channel, height, width) axes


def _assert_image_tensor(img, data_format: str) -> None:
    if (
        not isinstance(img, Tensor)
        or img.ndim < 3
        or img.ndim > 4
        or data_format.lower() not in ("chw", "hwc")
    ):
        raise RuntimeError(
            f"not support [type={type(img)}, ndim={img.ndim}, data_format={data_format}] "
            "paddle image"
        )


def _c_axis(data_format: str) -> int:
    return _AXES[data_format.lower()][0]


def _image_size(img, data_format: str = "CHW") -> tuple[int, int]:
    """(width, height)."""
    _, h_axis, w_axis = _AXES[data_format.lower()]
    return img.shape[w_axis], img.shape[h_axis]


def _no_kernel(op: str, dtype) -> RuntimeError:
    """Paddle's error for an op with no CPU kernel for ``dtype``."""
    name = str(dtype).replace("paddle.", "")
    return RuntimeError(
        f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of kernel `{op}` "
        f"is not registered. Selected wrong DataType `{name}`."
    )


def _blend_images(img1, img2, ratio: float):
    """img2 + ratio * (img1 - img2), clipped to the dtype's range, in img1's dtype (Paddle's
    lerp has float kernels only, so integer images fail there)."""
    if not paddle.is_floating_point(img1):
        raise _no_kernel("lerp", img1.dtype)
    max_value = 1.0 if paddle.is_floating_point(img1) else 255.0
    return paddle.lerp(img2, img1, float(ratio)).clip(0, max_value).astype(img1.dtype)


def normalize(img, mean, std, data_format: str = "CHW"):
    _assert_image_tensor(img, data_format)
    mean = paddle.to_tensor(mean, place=img.place)
    std = paddle.to_tensor(std, place=img.place)
    if _c_axis(data_format) == -3:
        mean, std = mean.reshape([-1, 1, 1]), std.reshape([-1, 1, 1])
    return (img - mean) / std


def to_grayscale(img, num_output_channels: int = 1, data_format: str = "CHW"):
    """Weights (0.2989, 0.5870, 0.1140) cast to the image's dtype (so an integer image gets
    zero weights, as in Paddle), summed over the channel axis."""
    _assert_image_tensor(img, data_format)
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if img.dtype in (paddle.uint8, paddle.int8, paddle.int16):
        raise _no_kernel("multiply", img.dtype)  # Paddle's CPU multiply has no such kernel
    weights = paddle.to_tensor([0.2989, 0.5870, 0.1140], place=img.place).astype(img.dtype)
    c_axis = _c_axis(data_format)
    if c_axis == -3:
        weights = weights.reshape((-1, 1, 1))
    img = (img * weights).sum(axis=c_axis, keepdim=True)
    shape = list(img.shape)
    shape[c_axis] = num_output_channels
    return img.expand(shape)


def _dot3(x, y, w) -> np.ndarray:
    """x * w[0] + y * w[1] + w[2] in w's float dtype, summed left to right (the rounding of
    Paddle's CPU bmm, so that nearest sampling breaks .5 ties as Paddle does)."""
    return (x * w[0] + y * w[1]) + w[2]


def _pixel_centers(ow: int, oh: int, x0: float, y0: float, dtype):
    """Output pixel centers as float arrays [oh, ow] starting at (x0, y0)."""
    xs = (np.arange(ow) + x0).astype(dtype)
    ys = (np.arange(oh) + y0).astype(dtype)
    return np.broadcast_to(xs[None, :], (oh, ow)), np.broadcast_to(ys[:, None], (oh, ow))


def _affine_grid(theta: np.ndarray, w: int, h: int, ow: int, oh: int):
    """Normalized sampling grid [1, oh, ow, 2] of output pixel centers (origin at the image
    center) mapped through the inverse affine ``theta`` (6 values)."""
    theta = np.asarray(theta).reshape(2, 3)
    dt = theta.dtype.type
    scaled = theta / np.array([[0.5 * w], [0.5 * h]], theta.dtype)
    x, y = _pixel_centers(ow, oh, -ow * 0.5 + 0.5, -oh * 0.5 + 0.5, theta.dtype)
    grid = np.stack([_dot3(x, y, scaled[0]), _dot3(x, y, scaled[1])], -1).astype(dt)
    return paddle.to_tensor(grid[None])


def _grid_transform(img, grid, mode: str, fill):
    """``grid_sample`` (zeros outside) and, with a ``fill``, paint the outside with it: a
    ones channel sampled alongside tells inside (nearest: >= 0.5) from outside (bilinear:
    blended by its value)."""
    if img.shape[0] > 1:
        grid = grid.expand([img.shape[0], *grid.shape[1:]])
    if fill is not None:
        dummy = paddle.ones((img.shape[0], 1, img.shape[2], img.shape[3]), dtype=img.dtype)
        img = paddle.concat((img, dummy), axis=1)
    img = F.grid_sample(img, grid, mode=mode, padding_mode="zeros", align_corners=False)
    if fill is None:
        return img
    mask = img[:, -1:, :, :].tile([1, img.shape[1] - 1, 1, 1])
    img = img[:, :-1, :, :]
    n_fill = len(fill) if isinstance(fill, tuple | list) else 1
    fill_img = paddle.to_tensor(fill).reshape((1, n_fill, 1, 1)).astype(img.dtype).expand_as(img)
    if mode == "nearest":
        mask = paddle.cast(mask < 0.5, img.dtype)
        return img * (1.0 - mask) + mask * fill_img
    return img * mask + (1.0 - mask) * fill_img


def _to_nchw(img, data_format: str):
    return img if data_format.lower() == "chw" else img.transpose((0, 3, 1, 2))


def _from_nchw(img, data_format: str):
    return img if data_format.lower() == "chw" else img.transpose((0, 2, 3, 1))


def affine(img, matrix, interpolation: str = "nearest", fill=None, data_format: str = "CHW"):
    """Warp by the inverse affine ``matrix`` (6 floats, centered coordinates)."""
    ndim = len(img.shape)
    if ndim == 3:
        img = img.unsqueeze(0)
    img = _to_nchw(img, data_format)
    h, w = img.shape[-2], img.shape[-1]
    grid = _affine_grid(np.array(matrix, np.float32), w=w, h=h, ow=w, oh=h)
    if isinstance(fill, int):
        fill = (fill,) * 3
    out = _from_nchw(_grid_transform(img, grid, mode=interpolation, fill=fill), data_format)
    return out.squeeze(0) if ndim == 3 else out


def _rotation_matrix(angle: float, center, w: int, h: int):
    """The inverse rotation [1, 2, 3] (float32, Paddle's rounding) about ``center``."""
    rad = math.radians(-angle % 360)
    cx, cy = (0.0, 0.0) if center is None else [p - s * 0.5 for p, s in zip(center, [w, h])]
    m = np.array(
        [math.cos(rad), math.sin(rad), 0.0, -math.sin(rad), math.cos(rad), 0.0], np.float32
    )
    f32 = np.float32
    m[2] += f32(f32(m[0] * f32(-cx)) + f32(m[1] * f32(-cy))) + f32(cx)
    m[5] += f32(f32(m[3] * f32(-cx)) + f32(m[4] * f32(-cy))) + f32(cy)
    return m


def rotate(
    img, angle, interpolation="nearest", expand=False, center=None, fill=None, data_format="CHW"
):
    """Rotate counter-clockwise; ``expand`` sizes the output to the rotated corners' box."""
    img = img.unsqueeze(0)
    w, h = _image_size(img, data_format)
    img = _to_nchw(img, data_format)
    matrix = _rotation_matrix(angle, center, w, h)
    ow, oh = w, h
    if expand:
        cx = np.array([-0.5 * w, -0.5 * w, 0.5 * w, 0.5 * w], np.float32)
        cy = np.array([-0.5 * h, 0.5 * h, 0.5 * h, -0.5 * h], np.float32)
        px, py = _dot3(cx, cy, matrix[:3]), _dot3(cx, cy, matrix[3:])
        ow = int(np.ceil(px.max()) - np.floor(px.min()))
        oh = int(np.ceil(py.max()) - np.floor(py.min()))
    grid = _affine_grid(matrix, w, h, ow, oh)
    out = _grid_transform(img, grid, mode=interpolation, fill=fill)
    return _from_nchw(out, data_format).squeeze(0)


def _perspective_grid(coeffs: np.ndarray, ow: int, oh: int):
    """Normalized grid [1, oh, ow, 2] of the homography ``coeffs`` (8 values) at the output
    pixel centers."""
    dt = coeffs.dtype.type
    x, y = _pixel_centers(ow, oh, 0.5, 0.5, coeffs.dtype)
    half = np.array([0.5 * ow, 0.5 * oh], coeffs.dtype)
    den = _dot3(x, y, np.array([coeffs[6], coeffs[7], 1], coeffs.dtype))
    gx = _dot3(x, y, coeffs[0:3] / half[0]) / den - dt(1)
    gy = _dot3(x, y, coeffs[3:6] / half[1]) / den - dt(1)
    return paddle.to_tensor(np.stack([gx, gy], -1).astype(dt)[None])


def perspective(img, coeffs, interpolation="nearest", fill=None, data_format="CHW"):
    ndim = len(img.shape)
    if ndim == 3:
        img = img.unsqueeze(0)
    img = _to_nchw(img, data_format)
    ow, oh = img.shape[-1], img.shape[-2]
    dtype = img.dtype if paddle.is_floating_point(img) else paddle.float32
    np_dtype = np.dtype(str(dtype).replace("paddle.", ""))
    grid = _perspective_grid(np.array([float(c) for c in coeffs], np_dtype), ow=ow, oh=oh)
    out = _from_nchw(_grid_transform(img, grid, mode=interpolation, fill=fill), data_format)
    return out.squeeze(0) if ndim == 3 else out


def vflip(img, data_format: str = "CHW"):
    _assert_image_tensor(img, data_format)
    return img.flip(axis=[_AXES[data_format.lower()][1]])


def hflip(img, data_format: str = "CHW"):
    _assert_image_tensor(img, data_format)
    return img.flip(axis=[_AXES[data_format.lower()][2]])


def crop(img, top: int, left: int, height: int, width: int, data_format: str = "CHW"):
    _assert_image_tensor(img, data_format)
    if _c_axis(data_format) == -3:
        return img[:, top : top + height, left : left + width]
    return img[top : top + height, left : left + width, :]


def erase(img, i: int, j: int, h: int, w: int, v, inplace: bool = False):
    """Set ``img[..., i:i+h, j:j+w] = v`` (on a copy unless ``inplace``)."""
    _assert_image_tensor(img, "CHW")
    if not inplace:
        img = img.clone()
    img[..., i : i + h, j : j + w] = v
    return img


def center_crop(img, output_size, data_format: str = "CHW"):
    _assert_image_tensor(img, data_format)
    return crop(img, *center_box(*_image_size(img, data_format), output_size), data_format)


def pad(img, padding, fill=0, padding_mode="constant", data_format="CHW"):
    """``nn.functional.pad`` ('edge' is 'replicate'; 'symmetric' is refused)."""
    _assert_image_tensor(img, data_format)
    if not isinstance(padding, numbers.Number | list | tuple):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, numbers.Number | str | list | tuple):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, list | tuple) and len(padding) not in [2, 4]:
        raise ValueError(
            f"Padding must be an int or a 2, or 4 element tuple, not a {len(padding)} element tuple"
        )
    assert padding_mode in ["constant", "edge", "reflect", "symmetric"], (
        "Padding mode should be either constant, edge, reflect or symmetric"
    )
    if isinstance(padding, int):
        pads = [padding] * 4
    elif len(padding) == 2:
        pads = [padding[0], padding[0], padding[1], padding[1]]
    else:
        pads = [padding[0], padding[2], padding[1], padding[3]]
    if padding_mode == "edge":
        padding_mode = "replicate"
    elif padding_mode == "symmetric":
        raise ValueError("Do not support symmetric mode")
    out = F.pad(
        img.unsqueeze(0),
        pad=pads,
        mode=padding_mode,
        value=float(fill),
        data_format="N" + data_format,
    )
    return out.squeeze(0)


def resize(img, size, interpolation: str = "bilinear", data_format: str = "CHW"):
    """``nn.functional.interpolate`` to (h, w) = ``size``, or the shorter side to ``size``."""
    _assert_image_tensor(img, data_format)
    if not (isinstance(size, int) or (isinstance(size, tuple | list) and len(size) == 2)):
        raise TypeError(f"Got inappropriate size arg: {size}")
    if isinstance(size, int):
        w, h = _image_size(img, data_format)
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        oh, ow = (int(size * h / w), size) if w < h else (size, int(size * w / h))
    else:
        oh, ow = size
    out = F.interpolate(
        img.unsqueeze(0),
        size=(oh, ow),
        mode=interpolation.lower(),
        data_format="N" + data_format.upper(),
    )
    return out.squeeze(0)


def _channels(img) -> int:
    return img.shape[-3]


def adjust_brightness(img, brightness_factor: float):
    _assert_image_tensor(img, "CHW")
    assert brightness_factor >= 0, "brightness_factor should be non-negative."
    assert _channels(img) in [1, 3], "channels of input should be either 1 or 3."
    return _blend_images(img, paddle.zeros_like(img, img.dtype), brightness_factor)


def adjust_contrast(img, contrast_factor: float):
    """Blend with the mean of the grayscale image."""
    _assert_image_tensor(img, "chw")
    assert contrast_factor >= 0, "contrast_factor should be non-negative."
    channels = _channels(img)
    dtype = img.dtype if paddle.is_floating_point(img) else paddle.float32
    if channels == 1:
        gray = img
    elif channels == 3:
        gray = to_grayscale(img)
    else:
        raise ValueError("channels of input should be either 1 or 3.")
    target = paddle.mean(gray.astype(dtype), axis=(-3, -2, -1), keepdim=True)
    return _blend_images(img, target, contrast_factor)


def adjust_saturation(img, saturation_factor: float):
    """Blend with the grayscale image."""
    _assert_image_tensor(img, "CHW")
    assert saturation_factor >= 0, "saturation_factor should be non-negative."
    channels = _channels(img)
    if channels == 1:
        return img
    if channels != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    return _blend_images(img, to_grayscale(img), saturation_factor)


def _rgb_to_hsv(img):
    """RGB in [0, 1] -> HSV (all in [0, 1]) on the channel axis -3."""
    maxc, minc = img.max(axis=-3), img.min(axis=-3)
    is_equal = paddle.equal(maxc, minc)
    ones = paddle.ones_like(maxc)
    delta = maxc - minc
    s = delta / paddle.where(is_equal, ones, maxc)
    r, g, b = img.unbind(axis=-3)
    divisor = paddle.where(is_equal, ones, delta)
    rc, gc, bc = (maxc - r) / divisor, (maxc - g) / divisor, (maxc - b) / divisor
    hr = (maxc == r).astype(maxc.dtype) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)).astype(maxc.dtype) * (rc - bc + 2.0)
    hb = ((maxc != r) & (maxc != g)).astype(maxc.dtype) * (gc - rc + 4.0)
    h = (hr + hg + hb) / 6.0 + 1.0
    return paddle.stack([h - h.trunc(), s, maxc], axis=-3)


def _hsv_to_rgb(img):
    """HSV -> RGB: the sector i = floor(6h) picks (v, q, p, t) per channel."""
    h, s, v = img.unbind(axis=-3)
    f = h * 6.0
    i = paddle.floor(f)
    f = f - i
    i = i.astype(paddle.int32) % 6
    p = paddle.clip(v * (1.0 - s), 0.0, 1.0)
    q = paddle.clip(v * (1.0 - s * f), 0.0, 1.0)
    t = paddle.clip(v * (1.0 - s * (1.0 - f)), 0.0, 1.0)
    mask = paddle.equal(
        i.unsqueeze(axis=-3), paddle.arange(6, dtype=i.dtype).reshape((-1, 1, 1))
    ).astype(img.dtype)
    table = paddle.stack(
        [
            paddle.stack([v, q, p, p, t, v], axis=-3),
            paddle.stack([t, v, v, q, p, p], axis=-3),
            paddle.stack([p, p, t, v, v, q], axis=-3),
        ],
        axis=-4,
    )
    return paddle.einsum("...ijk, ...xijk -> ...xjk", mask, table)


def adjust_hue(img, hue_factor: float):
    """Shift the hue in HSV; uint8 images go through float [0, 1] and are truncated back."""
    _assert_image_tensor(img, "CHW")
    assert hue_factor >= -0.5 and hue_factor <= 0.5, "hue_factor should be in range [-0.5, 0.5]"
    channels = _channels(img)
    if channels == 1:
        return img
    if channels != 3:
        raise ValueError("channels of input should be either 1 or 3.")
    dtype = img.dtype
    if dtype == paddle.uint8:
        img = img.astype(paddle.float32) / 255.0
    h, s, v = _rgb_to_hsv(img).unbind(axis=-3)
    h = h + hue_factor
    out = _hsv_to_rgb(paddle.stack([h - h.floor(), s, v], axis=-3))
    if dtype == paddle.uint8:
        out = (out * 255.0).astype(dtype)
    return out
