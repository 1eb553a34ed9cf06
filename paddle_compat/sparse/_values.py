"""Autograd through a sparse Tensor's stored values: a sparse Tensor may keep the ``Tensor``
its values came from (``_sp_vt``), so ops that compute new values from it (conv, pooling,
batch norm, activations), ``values()`` and ``to_dense()`` stay on the tape. A sparse leaf
(``stop_gradient=False`` set on it) gets a values Tensor on first use, whose gradient is its
``grad`` as a sparse Tensor of the same structure."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .._core.registry import run_kernel
from .._core.tensor import Tensor
from ._tensor import SparseCooTensor, coo_dense


def values_tensor(x) -> Tensor:
    """The Tensor of ``x``'s stored values, connected to the tape when ``x`` carries one."""
    vt = x.__dict__.get("_sp_vt")
    if vt is None:
        vt = Tensor(x._sp_values, stop_gradient=x.stop_gradient)
        x.__dict__["_sp_vt"] = vt
    elif vt._node is None and vt.stop_gradient != x.stop_gradient:
        vt.stop_gradient = x.stop_gradient  # a leaf follows its sparse Tensor's flag
    return vt


def attach_values(x, vt: Tensor):
    """``x`` (a new sparse Tensor holding ``vt``'s array) keeps ``vt`` as its values Tensor."""
    x.__dict__["_sp_vt"] = vt
    return x


def coo_from(indices, vt: Tensor, shape, coalesced: bool = True) -> SparseCooTensor:
    """A COO Tensor of host or device ``indices`` and the values Tensor ``vt``."""
    out = SparseCooTensor(
        jnp.asarray(indices), vt._value, shape, vt.stop_gradient, coalesced=coalesced
    )
    return attach_values(out, vt)


def dense_tensor(x) -> Tensor:
    """``x.to_dense()`` of a COO Tensor, differentiable in its values (a duplicated index
    keeps its last value, as Paddle)."""
    vt = values_tensor(x)
    shape = tuple(x._sp_shape)
    key = ("sparse_coo_to_dense", shape)
    out = run_kernel(key, lambda: lambda i, v: coo_dense(i, v, shape), [x._sp_indices, vt])
    return out


def gather_values(dense: Tensor, idx: np.ndarray) -> Tensor:
    """The entries of ``dense`` at host COO indices ``idx`` [sparse_dim, nnz] (differentiable)."""
    key = ("sparse_gather_values", idx.shape[0])
    return run_kernel(key, lambda: lambda a, i: a[tuple(i)], [dense, jnp.asarray(idx)])


def sparse_grad(x):
    """``x.grad`` of a sparse leaf: its values Tensor's gradient in ``x``'s structure (None
    for the output of ``sparse_coo_tensor``, which Paddle does not count as a leaf)."""
    vt = x.__dict__.get("_sp_vt")
    if vt is None or vt.grad is None or x.__dict__.get("_sp_created") or x._grad is not None:
        return x._grad
    if not isinstance(x, SparseCooTensor):
        return None
    return SparseCooTensor(
        x._sp_indices, vt.grad._value, x._sp_shape, False, coalesced=x._sp_coalesced
    )
