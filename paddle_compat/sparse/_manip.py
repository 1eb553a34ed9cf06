"""``paddle.sparse`` reshape, transpose, slice, sum and softmax: index work on the host
(numpy), values through the dense ops. Eager only; no autograd through sparse values.
Cases where Paddle 3.3.1 returns inconsistent results (a COO Tensor with dense dims through
transpose/softmax/reshape changing the dense dims, a 3-D CSR sum) raise here instead."""

from __future__ import annotations

import builtins

import jax
import jax.numpy as jnp
import numpy as np

from .._core.tensor import Tensor
from ._math import _check_sparse, _coords
from ._tensor import SparseCooTensor, SparseCsrTensor, _strides, coo_to_csr


def _coo_parts(x):
    """(indices [sd, nnz] host int64, values, shape, sparse_dim) of a COO or CSR Tensor."""
    idx = _coords(x)
    return idx, x._sp_values, list(x._sp_shape), idx.shape[0]


def _like(x, idx, vals, shape, coalesced=False, stop_gradient=None):
    sg = x.stop_gradient if stop_gradient is None else stop_gradient
    if isinstance(x, SparseCsrTensor):
        return coo_to_csr(idx, vals, shape, sg)
    return SparseCooTensor(jnp.asarray(idx), vals, shape, sg, coalesced=coalesced)


def _no_dense_dims(x, op: str) -> None:
    if isinstance(x, SparseCooTensor) and x._sp_values.ndim > 1:
        raise NotImplementedError(
            f"paddle.sparse.{op} of a COO Tensor with dense dims is not supported by "
            "paddle-compat (Paddle 3.3.1 returns inconsistent results there)"
        )


def _reshape_shape(shape, old, numel):
    shape = [int(s) for s in shape]
    out = [old[i] if s == 0 else s for i, s in enumerate(shape)]
    if -1 in out:
        known = int(np.prod([s for s in out if s != -1], dtype=np.int64))
        out[out.index(-1)] = numel // known if known else 0
    cap = int(np.prod(out, dtype=np.int64))
    if cap != numel:
        raise ValueError(
            "(InvalidArgument) The 'shape' in ReshapeOp is invalid. The input tensor X'size "
            f"must be equal to the capacity of 'shape'. But received X's shape = {list(old)}, "
            f"X's size = {numel}, 'shape' is {shape}, the capacity of 'shape' is {cap}."
        )
    return out


def reshape(x, shape, name=None):
    """The same entries in a new shape (0 copies a dim, -1 is inferred); a COO Tensor's
    dense dims must stay the trailing dims."""
    _check_sparse(x, "reshape")
    idx, vals, old, sd = _coo_parts(x)
    new = _reshape_shape(shape, old, int(np.prod(old, dtype=np.int64)))
    dense = old[sd:]
    if dense and new[len(new) - len(dense) :] != dense:
        raise NotImplementedError(
            "paddle.sparse.reshape: changing the dense dims of a COO Tensor is not supported by "
            "paddle-compat (Paddle 3.3.1 returns inconsistent results there)"
        )
    new_sd = len(new) - len(dense)
    lin = (idx * _strides(old[:sd])[:, None]).sum(axis=0)
    new_idx = np.stack(np.unravel_index(lin, new[:new_sd])).reshape(new_sd, -1).astype(np.int64)
    return _like(x, new_idx, vals, new)


def transpose(x, perm, name=None):
    """The entries with their coordinates permuted (CSR: re-sorted by row)."""
    _check_sparse(x, "transpose")
    _no_dense_dims(x, "transpose")
    idx, vals, old, _ = _coo_parts(x)
    perm = [int(p) % len(old) for p in perm]
    return _like(x, idx[perm], vals, [old[p] for p in perm])


def slice(x, axes, starts, ends, name=None):  # noqa: A001 - Paddle's name
    """The entries inside ``starts[i] <= coord < ends[i]`` along ``axes[i]`` (negative bounds
    count from the end, as Python slices), shifted to the new origin."""
    _check_sparse(x, "slice")
    axes, starts, ends = list(axes), list(starts), list(ends)
    for n, what in ((len(starts), "starts"), (len(ends), "ends")):
        if n != len(axes):
            raise ValueError(
                f"(InvalidArgument) The length of axes ({len(axes)}) and length of {what} ({n}) "
                "should be same."
            )
    idx, vals, shape, sd = _coo_parts(x)
    keep = np.ones(idx.shape[1], bool)
    new_shape = list(shape)
    lows = np.zeros(len(shape), np.int64)
    for a, s, e in zip(axes, starts, ends, strict=True):
        a = int(a) % len(shape)
        if a >= sd:
            raise NotImplementedError(
                "paddle.sparse.slice along a dense dim of a COO Tensor is not supported by "
                "paddle-compat (Paddle 3.3.1 returns an empty Tensor there)"
            )
        lo, hi, _ = builtins.slice(int(s), int(e)).indices(shape[a])
        hi = max(hi, lo)
        keep &= (idx[a] >= lo) & (idx[a] < hi)
        new_shape[a] = hi - lo
        lows[a] = lo
    sel = np.nonzero(keep)[0]
    new_idx = idx[:, sel] - lows[:sd, None]
    return _like(x, new_idx, vals[jnp.asarray(sel)], new_shape)


def _csr_sum(x, axis, dtype):
    import paddle_compat as paddle

    shape = list(x._sp_shape)
    if len(shape) != 2:
        raise NotImplementedError(
            "paddle.sparse.sum of a 3-D CSR Tensor is not supported by paddle-compat (Paddle "
            "3.3.1 returns inconsistent results there)"
        )
    vals = Tensor(x._sp_values)
    if axis is None:
        total = paddle.sum(vals, dtype=dtype)._value.reshape(1)
        one = jnp.asarray(np.array([0, 1], np.int64))
        return SparseCsrTensor(one, jnp.zeros((1,), jnp.int64), total, [1, 1], x.stop_gradient)
    axes = [axis] if isinstance(axis, int) else list(axis)
    if len(axes) != 1 or axes[0] != -1:
        raise NotImplementedError(
            "(Unimplemented) `axis` of SumCsrKernel only support None or -1 now.More number "
            "will be supported in the future."
        )
    idx = _coords(x)
    rows = np.unique(idx[0])
    seg = np.searchsorted(rows, idx[0])
    s = jax.ops.segment_sum(paddle.cast(vals, _sum_dtype(vals, dtype))._value, seg, len(rows))
    counts = np.bincount(rows, minlength=shape[0])
    crows = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    cols = jnp.zeros((len(rows),), jnp.int64)
    return SparseCsrTensor(jnp.asarray(crows), cols, s, [shape[0], 1], x.stop_gradient)


def _sum_dtype(vals, dtype):
    import paddle_compat as paddle

    return paddle.sum(Tensor(vals._value[:0]), dtype=dtype).dtype


def sum(x, axis=None, dtype=None, keepdim: bool = False, name=None):  # noqa: A001
    """The sum over ``axis`` (all when None) as a sparse Tensor: stored at the projections of
    the stored positions (a full COO sum: shape [1], 1-D indices [0], a 0-D value)."""
    import paddle_compat as paddle

    _check_sparse(x, "sum")
    if isinstance(x, SparseCsrTensor):
        return _csr_sum(x, axis, dtype)
    idx, vals, shape, sd = _coo_parts(x)
    nd = len(shape)
    if axis is None:
        total = paddle.sum(Tensor(vals), dtype=dtype)._value
        if keepdim:
            z = np.zeros((nd, 1), np.int64)
            return SparseCooTensor(jnp.asarray(z), total.reshape(1), [1] * nd, x.stop_gradient)
        z = jnp.zeros((1,), jnp.int64)
        return SparseCooTensor(z, total, [1], x.stop_gradient, coalesced=True)
    axes = sorted({int(a) % nd for a in ([axis] if isinstance(axis, int) else axis)})
    if len(axes) > 1:
        raise NotImplementedError(
            "paddle.sparse.sum over several axes is not supported by paddle-compat (Paddle "
            "3.3.1 sums over the first one only)"
        )
    sparse_axes = [a for a in axes if a < sd]
    dense_axes = [a - sd + 1 for a in axes if a >= sd]
    v = Tensor(vals)
    if dense_axes:
        v = paddle.sum(v, axis=dense_axes, dtype=dtype, keepdim=keepdim)
    elif dtype is not None:
        v = paddle.cast(v, dtype)
    else:
        v = paddle.cast(v, _sum_dtype(v, None))
    out_dense = [
        1 if i + sd in axes else d
        for i, d in enumerate(shape[sd:])
        if keepdim or i + sd not in axes
    ]
    if not sparse_axes:
        out_shape = shape[:sd] + out_dense
        return SparseCooTensor(jnp.asarray(idx), v._value, out_shape, x.stop_gradient)
    # reduced sparse axes: Paddle drops them when every dim is sparse and keepdim is False,
    # else keeps them as size-1 dims
    drop = not keepdim and sd == nd
    kept = [i for i in range(sd) if not (drop and i in sparse_axes)]
    proj = idx[kept].copy()
    for j, i in enumerate(kept):
        if i in sparse_axes:
            proj[j] = 0
    sparse_shape = [1 if i in sparse_axes else shape[i] for i in kept]
    lin = (proj * _strides(sparse_shape)[:, None]).sum(axis=0)
    uniq, first, inverse = np.unique(lin, return_index=True, return_inverse=True)
    s = jax.ops.segment_sum(v._value, jnp.asarray(inverse), num_segments=len(uniq))
    return SparseCooTensor(
        jnp.asarray(proj[:, first]), s, sparse_shape + out_dense, x.stop_gradient, coalesced=True
    )


def softmax(x, axis: int = -1, name=None):
    """Softmax over the last axis among each row's stored values (absent entries are not
    part of it)."""
    _check_sparse(x, "softmax")
    if axis != -1:
        raise NotImplementedError(
            "(Unimplemented) SparseCsrTensor only support axis=-1 for softmax, which is faster "
            "when reading data by row (axis=-1)"
        )
    _no_dense_dims(x, "nn.functional.softmax")
    idx, vals, shape, _ = _coo_parts(x)
    rows = (idx[:-1] * _strides(shape[:-1])[:, None]).sum(axis=0)
    uniq, seg = np.unique(rows, return_inverse=True)
    seg = jnp.asarray(seg)
    n = len(uniq)
    m = jax.ops.segment_max(vals, seg, n)
    e = jnp.exp(vals - m[seg])
    out = e / jax.ops.segment_sum(e, seg, n)[seg]
    if isinstance(x, SparseCsrTensor):
        return SparseCsrTensor(x._sp_crows, x._sp_cols, out, shape, x.stop_gradient)
    return SparseCooTensor(x._sp_indices, out, shape, x.stop_gradient, x._sp_coalesced)
