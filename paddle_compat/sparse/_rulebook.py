"""The index work of sparse convolution and pooling, on the host (indices are data): which
output sites are active and, for each output site and kernel offset, which input row feeds
it (a neighbour map [n_out, kernel_volume]; ``n_in`` marks "none").

A regular conv's active outputs are every site some input reaches through some kernel
offset; a submanifold conv's are those whose linear index in the output grid is an input
site's linear index in the input grid (Paddle resets its padding to ``kernel // 2`` and its
stride to 1, so with an odd kernel and dilation 1 the grids agree and the output sites are
the input's; otherwise this is Paddle's rule, reproduced). Output sites come sorted (batch, then spatial
coordinates in order), as Paddle's CPU kernels give them. Offset ``k`` of kernel position
``(k_d, k_h, k_w)`` (C order) maps input coordinate ``i`` to output ``(i + pad - k * dil) /
stride``: the cross-correlation of Paddle's dense conv with weights [*kernel, C_in, C_out].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Rulebook:
    out_indices: np.ndarray  # [1 + nsp, n_out] int64: batch, spatial coordinates
    out_spatial: tuple[int, ...]
    neighbours: np.ndarray  # [n_out, kernel_volume] int32, n_in where no input feeds
    n_in: int  # distinct input sites
    # the distinct input site of each input row when some site is stored twice (an
    # uncoalesced input: Paddle counts every copy), else None
    duplicates: np.ndarray | None = None


def out_size(size: int, k: int, pad: int, dil: int, stride: int) -> int:
    """Paddle's output length (C++ integer division, which truncates toward zero)."""
    num = size + 2 * pad - dil * (k - 1) - 1
    return int(np.trunc(num / stride)) + 1


def _offsets(kernel) -> np.ndarray:
    """[nsp, kernel_volume]: the kernel positions in C order."""
    vol = int(np.prod(kernel))
    return np.stack(np.unravel_index(np.arange(vol), tuple(kernel))).astype(np.int64)


def _lin(batch, coords, dims) -> np.ndarray:
    """Batch-major linear keys of coordinates [nsp, ...] in a grid of ``dims``."""
    key = batch
    for c, d in zip(coords, dims):
        key = key * d + c
    return key


def _unlin(keys, dims) -> np.ndarray:
    out = []
    for d in reversed(dims):
        out.append(keys % d)
        keys = keys // d
    out.append(keys)
    return np.stack(out[::-1])


def _build(indices, spatial, kernel, pad, dil, stride, subm: bool) -> Rulebook:
    idx = np.asarray(indices).astype(np.int64)
    nsp = len(spatial)
    in_keys, first, inverse = np.unique(
        _lin(idx[0], idx[1:], spatial), return_index=True, return_inverse=True
    )
    duplicates = inverse.astype(np.int32) if len(in_keys) < idx.shape[1] else None
    if duplicates is not None:
        idx = idx[:, first]
    batch, coords, n_in = idx[0], idx[1:], idx.shape[1]
    if subm:
        pad, stride = [k // 2 for k in kernel], [1] * nsp
    out_sp = tuple(out_size(*a) for a in zip(spatial, kernel, pad, dil, stride))
    off = _offsets(kernel)  # [nsp, K]
    vol = off.shape[1]
    pad_, dil_, st_ = (np.asarray(v, np.int64)[:, None, None] for v in (pad, dil, stride))
    num = coords[:, None, :] + pad_ - off[:, :, None] * dil_  # [nsp, K, n_in]
    out = num // st_
    # the whole window must lie in the padded input (Paddle's check: no output at all where
    # the kernel is larger than the padded input, though the output size is then 1)
    last = coords[:, None, :] + (np.asarray(kernel)[:, None, None] - 1 - off[:, :, None]) * dil_
    fits = last - pad_ < np.asarray(spatial, np.int64)[:, None, None]
    ok = ((num % st_ == 0) & (num >= 0) & fits).all(axis=0)  # [K, n_in]
    keys = _lin(np.broadcast_to(batch, (vol, n_in)), np.where(ok, out, 0), out_sp)
    if subm:  # an output's linear index (in the output grid) must be an input's (in its own)
        pos = np.searchsorted(in_keys, keys).clip(max=max(len(in_keys) - 1, 0))
        ok &= in_keys[pos] == keys
    k_ids, in_ids = np.nonzero(ok)
    hit = keys[k_ids, in_ids]
    out_keys, pos = np.unique(hit, return_inverse=True)
    nbr = np.full((len(out_keys), vol), n_in, np.int32)
    nbr[pos, k_ids] = in_ids
    out_idx = _unlin(out_keys, out_sp) if len(out_keys) else np.zeros((1 + nsp, 0), np.int64)
    return Rulebook(out_idx.reshape(1 + nsp, -1), out_sp, nbr, n_in, duplicates)


def merge_duplicates(vt, rb: Rulebook, how: str):
    """The values of the distinct input sites: duplicates summed (conv, which is linear) or
    their max (pooling)."""
    if rb.duplicates is None:
        return vt
    import jax

    from .._core.registry import run_kernel

    seg = jax.ops.segment_sum if how == "sum" else jax.ops.segment_max
    n = rb.n_in
    key = ("sparse_merge_duplicates", how, n)
    return run_kernel(key, lambda: lambda v, i: seg(v, i, num_segments=n), [vt, rb.duplicates])


def rulebook(x, kernel, pad, dil, stride, subm: bool) -> Rulebook:
    """The rulebook of sparse COO Tensor ``x`` [N, *spatial, C] for this geometry, kept on
    ``x`` while it lives (Paddle keeps rulebooks by a conv's ``key``; here any conv or pool
    of the same geometry on the same input reuses its rulebook)."""
    geo = (tuple(kernel), tuple(pad), tuple(dil), tuple(stride), subm)
    books = x.__dict__.setdefault("_sp_rulebooks", {})
    rb = books.get(geo)
    if rb is None:
        spatial = tuple(x._sp_shape[1:-1])
        rb = books[geo] = _build(x._sp_indices, spatial, kernel, pad, dil, stride, subm)
    return rb
