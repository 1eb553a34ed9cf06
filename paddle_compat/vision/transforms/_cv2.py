"""The few OpenCV routines Paddle's cv2 transform backend calls, emulated with numpy so that
numpy images transform without opencv-python: ``resize``, ``warp_affine``,
``warp_perspective``, the gray and HSV color conversions, ``lut``, ``copy_make_border`` and
``flip``. Images are HWC (or HW); like cv2, a single-channel HxWx1 input comes back HxW.

8-bit arithmetic follows OpenCV 4.x's fixed-point rules. Measured against
opencv-python-headless 4.14 (x86-64) on random images: nearest, bilinear and area resizing,
every warp (nearest, bilinear, bicubic, Lanczos; affine and perspective), the gray and HSV
conversions, LUT, borders and flips are bit-exact; bicubic resizing of 8-bit images is off by
one level in about 0.5% of pixels (OpenCV's rounding there is not reproduced), Lanczos in
about 1 pixel in 10^4; float images agree to float32 rounding."""

from __future__ import annotations

import math

import numpy as np

INTER = ("nearest", "bilinear", "area", "bicubic", "lanczos")
_COEF_SCALE = 2048  # OpenCV's INTER_RESIZE_COEF_SCALE (11 fractional bits)


class error(Exception):  # noqa: N801 - named as cv2.error, the type Paddle's callers see
    """Raised where OpenCV raises ``cv2.error`` (an unsupported dtype or channel count)."""


def _split_channels(img: np.ndarray) -> tuple[np.ndarray, bool]:
    """(HxWxC view, whether the input was 2-D)."""
    if img.ndim == 2:
        return img[:, :, None], True
    return img, False


def _squeeze(out: np.ndarray) -> np.ndarray:
    """cv2 returns single-channel images as HxW."""
    return out[:, :, 0] if out.ndim == 3 and out.shape[2] == 1 else out


def _scalar(value, channels: int) -> np.ndarray:
    """cv2's Scalar from a number or sequence: a number fills channel 0 only (others 0)."""
    if isinstance(value, str):
        raise error("Scalar value for argument 'value' is not numeric")
    vals = [float(value)] if np.isscalar(value) else [float(v) for v in value]
    vals = (vals + [0.0] * 4)[:4]
    return np.array([vals[c] if c < 4 else 0.0 for c in range(channels)])


def _saturate(x: np.ndarray, dtype) -> np.ndarray:
    """saturate_cast: round half to even, clip to the integer range."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return x.astype(dtype)
    info = np.iinfo(dtype)
    return np.clip(np.rint(x), info.min, info.max).astype(dtype)


def flip(img: np.ndarray, code: int) -> np.ndarray:
    """cv2.flip: 1 left-right, 0 top-bottom."""
    return _squeeze(np.ascontiguousarray(img[:, ::-1] if code == 1 else img[::-1]))


def lut(img: np.ndarray, table: np.ndarray) -> np.ndarray:
    if img.dtype not in (np.uint8, np.int8):
        raise error("(-215:Assertion failed) LUT needs an 8-bit image")
    idx = img.astype(np.uint8) if img.dtype == np.int8 else img
    return _squeeze(table[idx])


def copy_make_border(img, top, bottom, left, right, mode: str, value=0) -> np.ndarray:
    """cv2.copyMakeBorder ('edge' = BORDER_REPLICATE, 'reflect' = BORDER_REFLECT_101,
    'symmetric' = BORDER_REFLECT), numpy's padding for the same modes."""
    arr, _ = _split_channels(img)
    widths = ((top, bottom), (left, right), (0, 0))
    if mode == "constant":
        fill = _saturate(_scalar(value, arr.shape[2]), arr.dtype)
        out = np.empty(
            (arr.shape[0] + top + bottom, arr.shape[1] + left + right, arr.shape[2]), arr.dtype
        )
        out[...] = fill
        out[top : top + arr.shape[0], left : left + arr.shape[1]] = arr
        return _squeeze(out)
    return _squeeze(np.pad(arr, widths, mode))


# -- color ------------------------------------------------------------------------------------
def _check_color_input(arr: np.ndarray) -> None:
    if arr.shape[2] not in (3, 4):
        raise error(
            "(-2:Unspecified error) Invalid number of channels in input image: "
            f"'VScn::contains(scn)' where 'scn' is {arr.shape[2]}"
        )
    if arr.dtype not in (np.uint8, np.uint16, np.float32):
        raise error("(-2:Unspecified error) Unsupported depth of input image")


def to_gray(img: np.ndarray, rgb: bool) -> np.ndarray:
    """cvtColor RGB2GRAY (``rgb``) or BGR2GRAY: 0.299 R + 0.587 G + 0.114 B, in 15-bit fixed
    point for integer images (OpenCV 4.x's weights 9798, 19235, 3735)."""
    arr, _ = _split_channels(img)
    _check_color_input(arr)
    r, g, b = (
        (arr[..., 0], arr[..., 1], arr[..., 2]) if rgb else (arr[..., 2], arr[..., 1], arr[..., 0])
    )
    if arr.dtype == np.float32:
        f = np.float32
        first, last = (r, b) if rgb else (b, r)
        w_first, w_last = (f(0.299), f(0.114)) if rgb else (f(0.114), f(0.299))
        return (first * w_first + g * f(0.587)) + last * w_last
    y = r.astype(np.int64) * 9798 + g.astype(np.int64) * 19235 + b.astype(np.int64) * 3735
    return ((y + (1 << 14)) >> 15).astype(arr.dtype)


def _hsv_tables():
    i = np.arange(1, 256, dtype=np.float64)
    sdiv = np.concatenate([[0], np.rint((255 << 12) / i)]).astype(np.int64)
    hdiv = np.concatenate([[0], np.rint((256 << 12) / (6.0 * i))]).astype(np.int64)
    return sdiv, hdiv


_SDIV, _HDIV256 = _hsv_tables()


def bgr_to_hsv_full(img: np.ndarray) -> np.ndarray:
    """cvtColor BGR2HSV_FULL of a uint8 image (hue in [0, 256)), OpenCV's integer tables."""
    arr, _ = _split_channels(img)
    _check_color_input(arr)
    b, g, r = (arr[..., k].astype(np.int64) for k in range(3))
    v = np.maximum(np.maximum(b, g), r)
    vmin = np.minimum(np.minimum(b, g), r)
    diff = v - vmin
    s = (diff * _SDIV[v] + (1 << 11)) >> 12
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * _HDIV256[diff] + (1 << 11)) >> 12
    h = np.where(h < 0, h + 256, h)
    return np.stack([np.clip(h, 0, 255), s, v], axis=-1).astype(np.uint8)


def hsv_full_to_bgr(img: np.ndarray) -> np.ndarray:
    """cvtColor HSV2BGR_FULL of a uint8 image: hue read as 0..255 (OpenCV's full range back),
    float32 sector math, rounded."""
    f = np.float32
    hsv = img.astype(f)
    h = np.fmod(hsv[..., 0] * f(6.0 / 255), f(6.0))
    s = hsv[..., 1] * f(1.0 / 255.0)
    v = hsv[..., 2] * f(1.0 / 255.0)
    sector = np.floor(h)
    frac = (h - sector).astype(f)
    tab = np.stack(
        [v, v * (f(1) - s), v * (f(1) - s * frac), v * (f(1) - s * (f(1) - frac))], axis=-1
    ).astype(f)
    order = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])
    bgr = np.take_along_axis(tab, order[sector.astype(np.int64) % 6], axis=-1)
    bgr = np.where((s == 0)[..., None], v[..., None], bgr)
    return np.clip(np.rint(bgr * f(255.0)), 0, 255).astype(np.uint8)


# -- resize -----------------------------------------------------------------------------------
def _cubic_coeffs(x: np.ndarray) -> np.ndarray:
    f = np.float32
    a = f(-0.75)
    x = x.astype(f)
    c0 = ((a * (x + f(1)) - f(5) * a) * (x + f(1)) + f(8) * a) * (x + f(1)) - f(4) * a
    c1 = ((a + f(2)) * x - (a + f(3))) * x * x + f(1)
    c2 = ((a + f(2)) * (f(1) - x) - (a + f(3))) * (f(1) - x) * (f(1) - x) + f(1)
    return np.stack([c0, c1, c2, f(1) - c0 - c1 - c2], -1)


def _lanczos4_coeffs(x: np.ndarray) -> np.ndarray:
    s45 = 0.70710678118654752440084436210485
    cs = np.array(
        [[1, 0], [-s45, -s45], [0, 1], [s45, -s45], [-1, 0], [s45, s45], [0, -1], [-s45, s45]]
    )
    x = x.astype(np.float64)
    y0 = -(x + 3) * math.pi * 0.25
    s0, c0 = np.sin(y0), np.cos(y0)
    i = np.arange(8)
    y = -(x[:, None] + 3 - i) * math.pi * 0.25
    with np.errstate(divide="ignore", invalid="ignore"):  # x == 0 rows are replaced below
        k = ((cs[:, 0] * s0[:, None] + cs[:, 1] * c0[:, None]) / (y * y)).astype(np.float32)
        total = np.zeros(len(x))
        for j in range(8):  # summed in order, as OpenCV does
            total = total + k[:, j]
        k = (k * (1.0 / total)[:, None]).astype(np.float32)
    tiny = x < np.finfo(np.float32).eps
    k[tiny] = np.eye(8, dtype=np.float32)[3]
    # x == 1 (a fraction rounded up to 1 in float32) hits a zero denominator: its limit is
    # the next pixel, which reproduces OpenCV's output there
    k[~np.isfinite(k).all(1)] = np.eye(8, dtype=np.float32)[4]
    return k


def _axis_taps(n_in: int, n_out: int, scale: float, inv_scale: float, mode: str, clamp: bool):
    """Source offsets [n_out, k] (clipped to the image) and float32 weights [n_out, k] along
    one axis, as OpenCV's generic resize lays them out; bilinear weights of columns past the
    edge are clamped (``clamp``, the x axis), those of rows are not."""
    ksize = {"bilinear": 2, "area": 2, "bicubic": 4, "lanczos": 8}[mode]
    d = np.arange(n_out)
    if mode == "area":
        sx = np.floor(d * scale).astype(np.int64)
        fx = ((d + 1) - (sx + 1) * inv_scale).astype(np.float32)
        fx = np.where(fx <= 0, np.float32(0), fx - np.floor(fx)).astype(np.float32)
    else:
        fx = ((d + 0.5) * scale - 0.5).astype(np.float32)
        sx = np.floor(fx).astype(np.int64)
        fx = (fx - sx).astype(np.float32)
    if mode in ("bilinear", "area") and clamp:
        low, high = sx < 0, sx >= n_in - 1
        fx = np.where(low | high, np.float32(0), fx)
        sx = np.where(low, 0, np.where(high, n_in - 1, sx))
    if mode in ("bilinear", "area"):
        w = np.stack([np.float32(1) - fx, fx], -1)
    else:
        w = _cubic_coeffs(fx) if mode == "bicubic" else _lanczos4_coeffs(fx)
    offs = sx[:, None] + np.arange(ksize) - (ksize // 2 - 1)
    return np.clip(offs, 0, n_in - 1), w


def _resize_separable(arr, ow, oh, mode, sx_scale, sy_scale):
    h, w, _ = arr.shape
    xo, xw = _axis_taps(w, ow, sx_scale, ow / w, mode, clamp=True)
    yo, yw = _axis_taps(h, oh, sy_scale, oh / h, mode, clamp=False)
    if arr.dtype == np.uint8 and mode != "bicubic":
        ixw = np.rint(xw * np.float32(_COEF_SCALE)).astype(np.int64)
        iyw = np.rint(yw * np.float32(_COEF_SCALE)).astype(np.int64)
        rows = (arr[:, xo, :].astype(np.int64) * ixw[None, :, :, None]).sum(2)  # [h, ow, c]
        taps = rows[yo]  # [oh, k, ow, c]
        if mode in ("bilinear", "area"):
            return _vertical_linear_8u(taps, iyw)
        acc = (taps * iyw[:, :, None, None]).sum(1)
        return np.clip((acc + (1 << 21)) >> 22, 0, 255).astype(np.uint8)
    if arr.dtype == np.uint8:  # bicubic: measured closest to float weights, rounded once
        rows = (arr[:, xo, :].astype(np.float64) * xw[None, :, :, None]).sum(2)
        return _saturate((rows[yo] * yw[:, :, None, None]).sum(1), arr.dtype)
    work = np.float64 if arr.dtype == np.float64 else np.float32
    rows = (arr[:, xo, :].astype(work) * xw.astype(work)[None, :, :, None]).sum(2)
    out = (rows[yo] * yw.astype(work)[:, :, None, None]).sum(1)
    return _saturate(out, arr.dtype)


def _vertical_linear_8u(taps: np.ndarray, iyw: np.ndarray) -> np.ndarray:
    """OpenCV's last bilinear pass (its vector form, measured to cover every row width): the
    two 22-bit products are taken through 16 bits and rounded once more."""
    s0, s1 = taps[:, 0], taps[:, 1]
    b0, b1 = iyw[:, 0, None, None], iyw[:, 1, None, None]
    out = ((b0 * (s0 >> 4)) >> 16) + ((b1 * (s1 >> 4)) >> 16)
    return np.clip((out + 2) >> 2, 0, 255).astype(np.uint8)


def _resize_nearest(arr, ow, oh):
    h, w, _ = arr.shape
    xs = np.minimum(np.floor(np.arange(ow) * (1.0 / (ow / w))).astype(np.int64), w - 1)
    ys = np.minimum(np.floor(np.arange(oh) * (1.0 / (oh / h))).astype(np.int64), h - 1)
    return arr[ys][:, xs]


def _resize_area_fast(arr, ow, oh, kx, ky):
    """Integer-factor shrink: the mean of each kx x ky block (8-bit 2x2: (sum + 2) >> 2)."""
    h, w, c = arr.shape
    blocks = arr[: oh * ky, : ow * kx].reshape(oh, ky, ow, kx, c)
    total = blocks.astype(np.float64).sum((1, 3))
    if arr.dtype == np.uint8 and kx == ky == 2:
        return ((total.astype(np.int64) + 2) >> 2).astype(np.uint8)
    scale = np.float32(1.0 / (kx * ky))
    work = np.float64 if arr.dtype == np.float64 else np.float32  # OpenCV: float32 sum * scale
    return _saturate((total.astype(work) * scale).astype(work), arr.dtype)


def _area_tab(n_in: int, n_out: int, scale: float):
    """Per output index: list of (source index, float32 weight) covering its cell."""
    tab = []
    for d in range(n_out):
        f1 = d * scale
        f2 = f1 + scale
        cell = min(scale, n_in - f1)
        s1, s2 = math.ceil(f1), math.floor(f2)
        s2 = min(s2, n_in - 1)
        s1 = min(s1, s2)
        taps = []
        if s1 - f1 > 1e-3:
            taps.append((s1 - 1, (s1 - f1) / cell))
        taps += [(s, 1.0 / cell) for s in range(s1, s2)]
        if f2 - s2 > 1e-3:
            taps.append((s2, min(min(f2 - s2, 1.0), cell) / cell))
        tab.append(taps)
    return tab


def _resize_area(arr, ow, oh, sx, sy):
    """Non-integral shrink: each source row's float32 cell sums, accumulated down the rows in
    OpenCV's order."""
    f = np.float32
    src = arr.astype(f)
    buf = np.zeros((arr.shape[0], ow, arr.shape[2]), f)
    for d, taps in enumerate(_area_tab(arr.shape[1], ow, sx)):
        for s_, a in taps:
            buf[:, d] = buf[:, d] + src[:, s_] * f(a)
    out = np.zeros((oh, ow, arr.shape[2]), f)
    for d, taps in enumerate(_area_tab(arr.shape[0], oh, sy)):
        acc = np.zeros((ow, arr.shape[2]), f)
        for s_, b in taps:
            acc = acc + f(b) * buf[s_]
        out[d] = acc
    return _saturate(out, arr.dtype)


def resize(img: np.ndarray, dsize: tuple[int, int], interpolation: str) -> np.ndarray:
    """cv2.resize to ``dsize`` = (width, height)."""
    ow, oh = int(dsize[0]), int(dsize[1])
    if ow <= 0 or oh <= 0:
        raise error("(-215:Assertion failed) !dsize.empty() in function 'resize'")
    arr, _ = _split_channels(img)
    if arr.dtype not in (np.uint8, np.uint16, np.int16, np.float32, np.float64):
        raise error(f"(-215:Assertion failed) unsupported depth {arr.dtype} in function 'resize'")
    h, w, _ = arr.shape
    if interpolation == "nearest":
        return _squeeze(_resize_nearest(arr, ow, oh))
    sx, sy = 1.0 / (ow / w), 1.0 / (oh / h)
    isx, isy = round(sx), round(sy)
    integral = abs(sx - isx) < np.finfo(float).eps and abs(sy - isy) < np.finfo(float).eps
    mode = interpolation
    if mode == "bilinear" and integral and isx == 2 and isy == 2:
        mode = "area"
    if mode == "area" and sx >= 1 and sy >= 1:
        if integral:
            return _squeeze(_resize_area_fast(arr, ow, oh, isx, isy))
        return _squeeze(_resize_area(arr, ow, oh, sx, sy))
    return _squeeze(_resize_separable(arr, ow, oh, mode, sx, sy))
