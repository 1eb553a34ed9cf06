"""``paddle.sparse.sparse_coo_tensor`` and ``sparse_csr_tensor`` with Paddle's checks."""

from __future__ import annotations

import numpy as np

from .._core import dtype as _dt
from .._core.tensor import Tensor
from ._tensor import SparseCooTensor, SparseCsrTensor
from ._values import attach_values

_INT_KINDS = ("int8", "int16", "int32", "int64")


def _index_tensor(a) -> Tensor:
    from .. import to_tensor

    t = a if isinstance(a, Tensor) else to_tensor(a)
    if t.dtype.name not in _INT_KINDS:
        raise TypeError("the dtype of indices must be 'int8' or 'int16' or 'int32' or 'int64'")
    return t


def _values_tensor(values, dtype, op: str) -> Tensor:
    from .. import to_tensor

    t = values if isinstance(values, Tensor) else to_tensor(values)
    if dtype is not None and t.dtype != _dt.to_dtype(dtype):
        t = t.astype(dtype)
    if t.dtype.name == "bool":
        raise RuntimeError(
            "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), bool) of kernel "
            f"`{op}` is not registered. Selected wrong DataType `bool`."
        )
    return t


def sparse_coo_tensor(
    indices, values, shape=None, dtype=None, place=None, stop_gradient: bool = True
) -> SparseCooTensor:
    """A COO Tensor from ``indices`` [sparse_dim, nnz] and ``values`` [nnz, *dense_dims];
    ``shape`` defaults to the smallest that holds every index (Paddle compares a given
    shape with it as Python lists do)."""
    idx = _index_tensor(indices)
    vals = _values_tensor(values, dtype, "sparse_coo_tensor")
    if idx.ndim != 2:
        raise ValueError("'indices' must be 2-D.")
    nnz = idx.shape[1]
    if nnz != vals.shape[0]:
        raise ValueError(
            "the indices and values must have same number of non-zero, but get "
            f"{nnz} and {vals.shape[0]}"
        )
    if nnz == 0:
        raise ValueError(
            "(InvalidArgument) Cannot perform reduction along an axis (1) that has a size of "
            "0. \n  [Hint: Expected x.dims().at(i) != 0, but received x.dims().at(i):0 == 0:0.]"
        )
    sparse_dim, dense_dim = idx.shape[0], vals.ndim - 1
    min_shape = list(np.asarray(idx._value).max(axis=1) + 1)
    min_shape += [np.int64(d) for d in vals.shape[1:]]
    if shape is None:
        shape = min_shape
    else:
        shape = list(shape)
        if shape < min_shape:
            raise ValueError(f"the minimum shape required is {min_shape}, but get {shape}")
        if len(shape) != sparse_dim + dense_dim:
            raise ValueError(
                f"the number of dimensions(len(shape) must be sparse_dim({sparse_dim}) + "
                f"dense_dim({dense_dim}), but get {len(shape)}"
            )
    out = SparseCooTensor(idx._value, vals._value, shape, stop_gradient)
    out.__dict__["_sp_created"] = True  # not a leaf for gradients (as Paddle)
    if not stop_gradient and not vals.stop_gradient:  # gradients reach ``values``
        attach_values(out, vals)
    return out


def sparse_csr_tensor(
    crows, cols, values, shape=None, dtype=None, place=None, stop_gradient: bool = True
) -> SparseCsrTensor:
    """A CSR Tensor (2-D, or 3-D: a batch of matrices whose crows follow each other)."""
    cr = _index_tensor(crows)
    co = _index_tensor(cols)
    vals = _values_tensor(values, dtype, "sparse_csr_tensor")
    if cr.ndim != 1 or co.ndim != 1 or vals.ndim != 1:
        raise ValueError("The 'crows', 'cols' and 'values' must be 1-D.")
    crh = np.asarray(cr._value)
    if shape is None:
        cols_max = int(np.asarray(co._value).max()) + 1 if co.shape[0] else 0
        shape = [len(crh) - 1, cols_max]
    shape = list(shape)
    if len(shape) not in (2, 3):
        raise ValueError(f"SparseCsrTensor only support 2-D or 3-D matrix. but get shape {shape}")
    rows = shape[-2]
    if len(shape) == 2:
        if len(crh) != rows + 1:
            raise ValueError(
                f"The length({len(crh)}) of crows must be equal to the rows({rows})+1 of matrix."
            )
        if crh[0] != 0:
            raise ValueError("the 0th value of crows must be 0")
        if crh[-1] != vals.shape[0]:
            raise ValueError("the last value of crows must be equal the number of non-zero")
    else:
        if len(crh) != shape[0] * (rows + 1):
            raise ValueError(
                f"The length({len(crh)}) of crows must be equal to the rows({rows})+1 of matrix."
            )
    if co.shape[0] != vals.shape[0]:
        raise ValueError("the length of cols must be same as length of values")
    return SparseCsrTensor(cr._value, co._value, vals._value, shape, stop_gradient)
