"""paddle.nn.functional vision helpers: affine_grid, grid_sample, temporal_shift, pdist."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import NO_TORCH_KEYWORDS, op

_F = dict(namespaces=("paddle.nn.functional",), method=None)


def _base_coords(n: int, align_corners: bool) -> np.ndarray:
    if align_corners:
        return np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(1)
    return (np.arange(n) * 2.0 + 1.0) / n - 1.0


@op("affine_grid", tensors=("theta",), **_F)
def affine_grid(
    theta: jax.Array, out_shape: Sequence[int], align_corners: bool = True
) -> jax.Array:
    """Sampling grid [N, H, W, 2] (x, y in [-1, 1]) of the affine maps ``theta`` [N, 2, 3]
    (or [N, D, H, W, 3] from [N, 3, 4] for 5-D ``out_shape``)."""
    out_shape = [int(s) for s in out_shape]
    if theta.ndim != 3:
        raise ValueError(
            "(InvalidArgument) The input Theta's dimensions size should be 3. But received "
            f"Theta's dimensions size=[{theta.ndim}], Theta's dimensions={list(theta.shape)}."
        )
    n = theta.shape[0]  # Paddle takes the batch from theta, not from out_shape
    if len(out_shape) == 4:
        _, _, h, w = out_shape
        if theta.shape[1:] != (2, 3):
            raise ValueError(
                f"theta of affine_grid for a 4-D out_shape must be [N, 2, 3], "
                f"got {list(theta.shape)}"
            )
        xs, ys = _base_coords(w, align_corners), _base_coords(h, align_corners)
        gx, gy = np.meshgrid(xs, ys)  # [H, W]
        base = np.stack([gx, gy, np.ones_like(gx)], -1).reshape(-1, 3)
        grid = jnp.einsum("pk,nck->npc", jnp.asarray(base, theta.dtype), theta)
        return grid.reshape(n, h, w, 2)
    if len(out_shape) == 5:
        _, _, d, h, w = out_shape
        if theta.shape[1:] != (3, 4):
            raise ValueError(
                f"theta of affine_grid for a 5-D out_shape must be [N, 3, 4], "
                f"got {list(theta.shape)}"
            )
        zs = _base_coords(d, align_corners)
        ys, xs = _base_coords(h, align_corners), _base_coords(w, align_corners)
        gz, gy, gx = np.meshgrid(zs, ys, xs, indexing="ij")
        base = np.stack([gx, gy, gz, np.ones_like(gx)], -1).reshape(-1, 4)
        grid = jnp.einsum("pk,nck->npc", jnp.asarray(base, theta.dtype), theta)
        return grid.reshape(n, d, h, w, 3)
    raise ValueError(f"out_shape of affine_grid must have 4 or 5 entries, got {out_shape}")


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, lo, hi):
    """Reflect ``coord`` into [lo, hi] (twice the span is the period)."""
    span = hi - lo
    if span <= 0:
        return jnp.zeros_like(coord)
    c = jnp.abs(coord - lo)
    flips = jnp.floor(c / span)
    extra = c - flips * span
    return jnp.where(jnp.mod(flips, 2) == 0, extra + lo, span - extra + lo)


def _source_coord(coord, size, padding_mode, align_corners):
    c = _unnormalize(coord, size, align_corners)
    if padding_mode == "border":
        c = jnp.clip(c, 0, size - 1)
    elif padding_mode == "reflection":
        c = _reflect(c, 0.0, size - 1.0) if align_corners else _reflect(c, -0.5, size - 0.5)
        c = jnp.clip(c, 0, size - 1)
    return c


@op("grid_sample", tensors=("x", "grid"), **_F)
def grid_sample(
    x: jax.Array,
    grid: jax.Array,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool = True,
) -> jax.Array:
    """Sample x [N, C, H, W] at the normalized (x, y) locations of grid [N, Ho, Wo, 2], or x
    [N, C, D, H, W] at the (x, y, z) locations of grid [N, Do, Ho, Wo, 3] (bilinear, i.e.
    trilinear for 5-D, or nearest; zeros/border/reflection outside)."""
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"The mode of grid_sample must be 'bilinear' or 'nearest', got {mode}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(
            f"The padding_mode of grid_sample must be 'zeros', 'border' or "
            f"'reflection', got {padding_mode}"
        )
    if x.ndim not in (4, 5):
        raise ValueError(
            f"Input(X) of grid_sample should be a 4-D or 5-D Tensor, but received X dimension "
            f"size({x.ndim}), shape {list(x.shape)}"
        )
    if grid.ndim != x.ndim:
        raise ValueError(
            f"Input(Grid) of GridSampleOp should be {x.ndim}-D Tensor, but received Grid "
            f"dimension size({grid.ndim}), shape {list(grid.shape)}"
        )
    nsp = x.ndim - 2
    if grid.shape[-1] != nsp:
        raise ValueError(
            f"Input(Grid) dimension[{x.ndim - 1}] should be {nsp}, but received "
            f"{grid.shape[-1]} (grid shape {list(grid.shape)})"
        )
    if grid.shape[0] != x.shape[0]:
        raise ValueError(
            "Input(X) and Input(Grid) dimension[0] should be equal, but received X "
            f"dimension[0]({x.shape[0]}) != Grid dimension[0]({grid.shape[0]})"
        )
    n, c, *sizes = x.shape
    # grid's last dim lists (x, y[, z]): the innermost spatial dim first
    coords = [
        _source_coord(grid[..., nsp - 1 - d].astype(x.dtype), sizes[d], padding_mode, align_corners)
        for d in range(nsp)
    ]
    flat = x.reshape(n, c, -1)

    def gather(idx):  # idx: one integer-valued coordinate array per spatial dim
        valid, lin = None, None
        for i, size in zip(idx, sizes):
            ok = (i >= 0) & (i <= size - 1)
            valid = ok if valid is None else valid & ok
            i = jnp.clip(i, 0, size - 1).astype(jnp.int32)
            lin = i if lin is None else lin * size + i
        vals = jnp.take_along_axis(flat, lin.reshape(n, 1, -1), axis=2)
        vals = vals.reshape(n, c, *lin.shape[1:])
        return jnp.where(valid[:, None], vals, jnp.zeros((), x.dtype))

    if mode == "nearest":
        return gather([jnp.round(g) for g in coords])
    lows = [jnp.floor(g) for g in coords]
    fracs = [g - lo for g, lo in zip(coords, lows)]
    out = None
    for corner in itertools.product((0, 1), repeat=nsp):  # 4 or 8 corners
        weight = None
        for bit, f in zip(corner, fracs):
            w = f if bit else 1 - f
            weight = w if weight is None else weight * w
        term = gather([lo + bit for lo, bit in zip(lows, corner)]) * weight[:, None]
        out = term if out is None else out + term
    return out


@op("temporal_shift", **_F)
def temporal_shift(
    x: jax.Array, seg_num: int, shift_ratio: float = 0.25, data_format: str = "NCHW"
) -> jax.Array:
    """Shift a fraction of channels one step along time (x is [N * seg_num, C, H, W])."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(
            f"Attr(data_format) should be 'NCHW' or 'NHWC'. Received Attr(data_format): "
            f"{data_format}."
        )
    if x.ndim != 4:
        raise ValueError(
            "Input(X) rank should be 4 in shape of [N*T, C, H, W], but received X "
            f"rank({x.ndim}), shape {list(x.shape)}"
        )
    if x.shape[0] % seg_num:
        raise ValueError(
            "Input(X) dimension[0] should be divided exactly by Attr(seg_num), but received X "
            f"dimension[0]({x.shape[0]}) mod seg_num({seg_num}) != 0"
        )
    if shift_ratio >= 0.5:
        raise ValueError(f"Attr(shift_ratio) should be less than 0.5, but received {shift_ratio}")
    if data_format == "NHWC":
        x = jnp.moveaxis(x, -1, 1)
    nt, c, h, w = x.shape
    v = x.reshape(nt // seg_num, seg_num, c, h, w)
    c1 = int(c * shift_ratio)
    c2 = int(c * 2 * shift_ratio)
    zero = jnp.zeros_like(v[:, :1])
    back = jnp.concatenate([v[:, 1:], zero], axis=1)  # out[t] = x[t + 1]
    fwd = jnp.concatenate([zero, v[:, :-1]], axis=1)  # out[t] = x[t - 1]
    out = jnp.concatenate([fwd[:, :, :c1], back[:, :, c1:c2], v[:, :, c2:]], axis=2)
    out = out.reshape(nt, c, h, w)
    return jnp.moveaxis(out, 1, -1) if data_format == "NHWC" else out


@op("pdist", namespaces=("paddle.nn.functional", "paddle"), method=None, aliases=NO_TORCH_KEYWORDS)
def pdist(x: jax.Array, p: float = 2.0, name: str | None = None) -> jax.Array:
    """p-norm distances between all row pairs i < j of x [N, M] (condensed, N(N-1)/2)."""
    if x.ndim != 2:
        raise AssertionError(f"The x must be 2-dimensional, but received shape {list(x.shape)}")
    i, j = np.triu_indices(x.shape[0], k=1)
    d = jnp.abs(x[i] - x[j])
    if p == float("inf"):
        return jnp.max(d, axis=-1)
    if p == 0:
        return jnp.sum((d != 0).astype(x.dtype), axis=-1)
    if p == 2:
        return jnp.sqrt(jnp.sum(d * d, axis=-1))
    return jnp.sum(d**p, axis=-1) ** (1.0 / p)
