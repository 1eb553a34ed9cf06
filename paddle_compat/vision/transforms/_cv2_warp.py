"""OpenCV's geometric warps emulated with numpy for Paddle's cv2 backend:
``get_rotation_matrix_2d``, ``warp_affine``, ``get_perspective_transform`` and
``warp_perspective`` with a constant border, through OpenCV's fixed-point remap: source
coordinates in 1/32 pixel, integer weight tables summing to 2**15."""

from __future__ import annotations

import math

import numpy as np

from ._cv2 import _cubic_coeffs, _lanczos4_coeffs, _saturate, _scalar, _split_channels, _squeeze
from ._cv2 import error as cv2_error

_AB_BITS, _INTER_BITS = 10, 5
_AB_SCALE, _TAB = 1 << _AB_BITS, 1 << _INTER_BITS
_REMAP_SCALE = 1 << 15


def get_rotation_matrix_2d(center, angle: float, scale: float) -> np.ndarray:
    """The 2x3 forward map rotating by ``angle`` degrees (counter-clockwise) and scaling about
    ``center``."""
    rad = angle * math.pi / 180
    alpha, beta = math.cos(rad) * scale, math.sin(rad) * scale
    cx, cy = center
    return np.array(
        [[alpha, beta, (1 - alpha) * cx - beta * cy], [-beta, alpha, beta * cx + (1 - alpha) * cy]]
    )


def _invert_affine(m: np.ndarray) -> list[float]:
    m0, m1, m2, m3, m4, m5 = (float(v) for v in m.reshape(-1))
    d = m0 * m4 - m1 * m3
    d = 1.0 / d if d != 0 else 0.0
    a11, a22 = m4 * d, m0 * d
    m1, m3 = m1 * -d, m3 * -d
    b1 = -a11 * m2 - m1 * m5
    b2 = -m3 * m2 - a22 * m5
    return [a11, m1, b1, m3, a22, b2]


def _round_int(x: np.ndarray) -> np.ndarray:
    """saturate_cast<int>(double): round half to even."""
    return np.rint(x).astype(np.int64)


def _fetch(arr: np.ndarray, ys: np.ndarray, xs: np.ndarray, cval: np.ndarray) -> np.ndarray:
    """arr[ys, xs] with ``cval`` where the index falls outside (BORDER_CONSTANT)."""
    h, w, _ = arr.shape
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    vals = arr[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]
    return np.where(inside[..., None], vals, cval)


def _tab_1d(kind: str) -> np.ndarray:
    """Per 1/32 fraction, the 1-D float32 weights of ``kind``."""
    x = np.arange(_TAB, dtype=np.float32) / np.float32(_TAB)
    if kind == "bicubic":
        return _cubic_coeffs(x)
    if kind == "lanczos":
        return _lanczos4_coeffs(x)
    return np.stack([np.float32(1) - x, x], -1)


def _tab_2d(kind: str) -> tuple[np.ndarray, np.ndarray]:
    """[32*32, k, k] weights per (y, x) fraction: float32 ones (float images) and integer ones
    summing to 2**15 (8/16-bit images; OpenCV's initInterTab2D)."""
    t = _tab_1d(kind)
    k = t.shape[1]
    ftab = np.einsum("ik,jl->ijkl", t, t).astype(np.float32).reshape(_TAB * _TAB, k, k)
    itab = np.rint(ftab * np.float32(_REMAP_SCALE)).astype(np.int64)
    lo = k // 2  # OpenCV corrects the rounding on the 2x2 block from (k/2, k/2)
    for n in np.nonzero(itab.sum((1, 2)) != _REMAP_SCALE)[0]:  # never needed for bilinear
        diff = int(itab[n].sum()) - _REMAP_SCALE
        block = itab[n, lo : lo + 2, lo : lo + 2]
        pick = np.argmax(block) if diff < 0 else np.argmin(block)
        r, c = np.unravel_index(pick, (2, 2))
        itab[n, lo + r, lo + c] -= diff
    return ftab, itab


_TABS: dict[str, tuple[np.ndarray, np.ndarray]] = {}


def _remap_fixed(arr, xq, yq, kind: str, cval):
    """Remap at fixed-point source coordinates (1/32 pixel units) with the tables of
    ``kind``: integer arithmetic for integer images, float32 for float ones."""
    if kind not in _TABS:
        _TABS[kind] = _tab_2d(kind)
    is_float = arr.dtype.kind == "f"
    tab = _TABS[kind][0 if is_float else 1]
    k = tab.shape[1]
    sx, sy = xq >> _INTER_BITS, yq >> _INTER_BITS
    w = tab[(yq & (_TAB - 1)) * _TAB + (xq & (_TAB - 1))]  # [h, w, k, k]
    work = arr.dtype if is_float else np.int64
    acc = np.zeros((*xq.shape, arr.shape[2]), work)
    off = k // 2 - 1
    for r in range(k):
        for c in range(k):
            px = _fetch(arr, sy - off + r, sx - off + c, cval).astype(work)
            acc = acc + px * w[..., r, c, None].astype(work)
    if is_float:
        return acc
    return _saturate((acc + (1 << 14)) >> 15, arr.dtype)


def _check(arr: np.ndarray, interpolation: str) -> None:
    if arr.dtype not in (np.uint8, np.uint16, np.int16, np.float32, np.float64):
        raise cv2_error(f"(-215:Assertion failed) unsupported depth {arr.dtype} in warp")
    if interpolation not in ("nearest", "bilinear", "area", "bicubic", "lanczos"):
        raise KeyError(interpolation)


def warp_affine(img, m, dsize, interpolation: str = "bilinear", border_value=0) -> np.ndarray:
    """cv2.warpAffine with the forward map ``m`` (2x3) to ``dsize`` = (width, height): the
    inverse map in 10-bit fixed point per pixel, then nearest or the remap tables."""
    arr, _ = _split_channels(img)
    _check(arr, interpolation)
    ow, oh = int(dsize[0]), int(dsize[1])
    cval = _saturate(_scalar(border_value, arr.shape[2]), arr.dtype)
    inv = _invert_affine(np.asarray(m, np.float64))
    xs, ys = np.arange(ow), np.arange(oh)
    if interpolation == "area":
        interpolation = "bilinear"
    adelta = _round_int(inv[0] * xs * _AB_SCALE)
    bdelta = _round_int(inv[3] * xs * _AB_SCALE)
    round_delta = _AB_SCALE // 2 if interpolation == "nearest" else _AB_SCALE // _TAB // 2
    x0 = _round_int((inv[1] * ys + inv[2]) * _AB_SCALE) + round_delta
    y0 = _round_int((inv[4] * ys + inv[5]) * _AB_SCALE) + round_delta
    xq, yq = x0[:, None] + adelta[None, :], y0[:, None] + bdelta[None, :]
    if interpolation == "nearest":
        return _squeeze(_fetch(arr, yq >> _AB_BITS, xq >> _AB_BITS, cval).astype(arr.dtype))
    shift = _AB_BITS - _INTER_BITS
    return _squeeze(_remap_fixed(arr, xq >> shift, yq >> shift, interpolation, cval))


def _lu_solve(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """Gaussian elimination with partial pivoting in OpenCV's operation order (DECOMP_LU);
    None for a singular system."""
    a, b = a.copy(), b.copy()
    m = len(b)
    for i in range(m):
        k = i + int(np.argmax(np.abs(a[i:, i])))
        if abs(a[k, i]) < np.finfo(np.float64).eps * 100:
            return None
        if k != i:
            a[[i, k], i:] = a[[k, i], i:]
            b[[i, k]] = b[[k, i]]
        d = -1 / a[i, i]
        for j in range(i + 1, m):
            alpha = a[j, i] * d
            a[j, i + 1 :] += alpha * a[i, i + 1 :]
            b[j] += alpha * b[i]
    for i in range(m - 1, -1, -1):
        acc = b[i]
        for k in range(i + 1, m):
            acc -= a[i, k] * b[k]
        b[i] = acc / a[i, i]
    return b


def get_perspective_transform(src, dst) -> np.ndarray:
    """The 3x3 homography taking the 4 ``src`` points to ``dst`` (float32 points; the 8x8
    system solved as OpenCV does)."""
    src, dst = np.asarray(src, np.float32), np.asarray(dst, np.float32)
    a, b = np.zeros((8, 8)), np.zeros(8)
    for i in range(4):
        (x, y), (u, v) = src[i], dst[i]
        a[i, :3] = a[i + 4, 3:6] = [x, y, 1]
        a[i, 6:] = [-x * u, -y * u]  # float32 products, as OpenCV's Point2f arithmetic
        a[i + 4, 6:] = [-x * v, -y * v]
        b[i], b[i + 4] = u, v
    sol = _lu_solve(a, b)
    return np.append(np.zeros(8) if sol is None else sol, 1.0).reshape(3, 3)


def _invert3(m: np.ndarray) -> np.ndarray:
    """OpenCV's closed-form 3x3 inverse (adjugate / determinant; zeros when singular)."""
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if det == 0:
        return np.zeros((3, 3))
    r = 1.0 / det
    return np.array(
        [
            [(e * i - f * h) * r, (c * h - b * i) * r, (b * f - c * e) * r],
            [(f * g - d * i) * r, (a * i - c * g) * r, (c * d - a * f) * r],
            [(d * h - e * g) * r, (b * g - a * h) * r, (a * e - b * d) * r],
        ]
    )


def warp_perspective(img, m, dsize, interpolation: str = "bilinear", border_value=0) -> np.ndarray:
    """cv2.warpPerspective with the forward homography ``m`` to ``dsize`` = (width, height)."""
    arr, _ = _split_channels(img)
    _check(arr, interpolation)
    ow, oh = int(dsize[0]), int(dsize[1])
    cval = _saturate(_scalar(border_value, arr.shape[2]), arr.dtype)
    inv = _invert3(np.asarray(m, np.float64))
    # OpenCV walks blocks of bw columns: each block's start, then + m[.,0] * offset
    bh = min(16, oh)
    bw = min(1024 // bh, ow)
    xs, ys = np.meshgrid(np.arange(ow, dtype=np.float64), np.arange(oh, dtype=np.float64))
    xb = (xs // bw) * bw
    x0 = (inv[0, 0] * xb + inv[0, 1] * ys + inv[0, 2]) + inv[0, 0] * (xs - xb)
    y0 = (inv[1, 0] * xb + inv[1, 1] * ys + inv[1, 2]) + inv[1, 0] * (xs - xb)
    w = (inv[2, 0] * xb + inv[2, 1] * ys + inv[2, 2]) + inv[2, 0] * (xs - xb)
    if interpolation == "area":
        interpolation = "bilinear"
    big = float(np.iinfo(np.int32).max)
    if interpolation == "nearest":
        with np.errstate(divide="ignore", invalid="ignore"):
            wf = np.where(w != 0, 1.0 / w, 0.0)
        xq = _round_int(np.clip(x0 * wf, -big, big))
        yq = _round_int(np.clip(y0 * wf, -big, big))
        return _squeeze(_fetch(arr, yq, xq, cval).astype(arr.dtype))
    with np.errstate(divide="ignore", invalid="ignore"):
        wf = np.where(w != 0, _TAB / w, 0.0)
    xq = _round_int(np.clip(x0 * wf, -big, big))
    yq = _round_int(np.clip(y0 * wf, -big, big))
    return _squeeze(_remap_fixed(arr, xq, yq, interpolation, cval))
