"""Sparse COO and CSR Tensors: ``paddle.Tensor`` subclasses that hold their parts as dense
arrays (COO: ``indices`` [sparse_dim, nnz] + ``values`` [nnz, *dense_dims]; CSR: ``crows``,
``cols``, ``values``) plus the shape. The dense array (``_val``) is built only when something
reads it (a dense op, ``numpy()``); shape, dtype and place come from the parts.

Index work with data-dependent sizes (coalesce, dense -> sparse) runs on the host (numpy),
eagerly; value arrays stay JAX arrays.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core.tensor import Size, Tensor
from .._core.tensor_repr import _place_str, format_array

_PLACEHOLDER = jnp.zeros((0,), jnp.float32)


class _SparseTensor(Tensor):
    """Common part of the COO and CSR Tensors: the shape, the lazily built dense array."""

    def __init__(self, values: jax.Array, shape, stop_gradient: bool = True):
        self.__dict__["_sp_values"] = values
        self.__dict__["_sp_shape"] = tuple(int(d) for d in shape)
        self.__dict__["_sp_dense"] = None
        Tensor.__init__(self, _PLACEHOLDER, stop_gradient)

    @property
    def _val(self):
        d = self.__dict__["_sp_dense"]
        if d is None:
            d = self._densify()
            self.__dict__["_sp_dense"] = d
        return d

    @_val.setter
    def _val(self, value) -> None:
        self.__dict__["_sp_dense"] = None if value is _PLACEHOLDER else value

    # -- metadata without building the dense array --------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._sp_shape)

    @property
    def ndim(self) -> int:
        return len(self._sp_shape)

    def dim(self) -> int:
        return len(self._sp_shape)

    @property
    def size(self) -> int:
        return int(np.prod(self._sp_shape, dtype=np.int64))

    @property
    def dtype(self) -> _dt.DType:
        return _dt.to_dtype(self._sp_values.dtype)

    @property
    def place(self):
        from .._core.place import place_of

        return place_of(self._sp_values)

    @property
    def is_sparse(self):
        return lambda: True

    def is_dense(self, /) -> bool:
        return False

    def _head(self) -> str:
        return (
            f"Tensor(shape={list(self._sp_shape)}, dtype={self.dtype}, "
            f"place={_place_str(self)}, stop_gradient={self.stop_gradient}, \n"
        )

    def _part(self, name: str, a) -> str:
        return f"       {name}=" + format_array(a, 7 + len(name) + 1)

    def _part_tensor(self, a) -> Tensor:
        return Tensor(a, stop_gradient=self.stop_gradient)

    @property
    def grad(self):
        """A sparse leaf's gradient: a sparse Tensor of its structure (see _values.py)."""
        from ._values import sparse_grad

        return sparse_grad(self)

    @grad.setter
    def grad(self, g) -> None:
        Tensor.grad.fset(self, g)


class SparseCooTensor(_SparseTensor):
    """A COO Tensor: int ``indices`` [sparse_dim, nnz] and ``values`` [nnz, *dense_dims]."""

    def __init__(self, indices, values, shape, stop_gradient=True, coalesced=False):
        self.__dict__["_sp_indices"] = indices
        self.__dict__["_sp_coalesced"] = coalesced
        super().__init__(values, shape, stop_gradient)

    def _densify(self):
        return coo_dense(self._sp_indices, self._sp_values, self._sp_shape)

    def __repr__(self) -> str:
        return (
            self._head()
            + self._part("indices", self._sp_indices)
            + ", \n"
            + self._part("values", self._sp_values)
            + ")"
        )

    __str__ = __repr__


class SparseCsrTensor(_SparseTensor):
    """A CSR Tensor (2-D, or 3-D as a batch): ``crows``, ``cols``, ``values`` (1-D each)."""

    def __init__(self, crows, cols, values, shape, stop_gradient=True):
        self.__dict__["_sp_crows"] = crows
        self.__dict__["_sp_cols"] = cols
        super().__init__(values, shape, stop_gradient)

    def _densify(self):
        idx = csr_coo_indices(self._sp_crows, self._sp_cols, self._sp_shape)
        return coo_dense(jnp.asarray(idx), self._sp_values, self._sp_shape)

    def __repr__(self) -> str:
        return (
            self._head()
            + self._part("crows", self._sp_crows)
            + ", \n"
            + self._part("cols", self._sp_cols)
            + ", \n"
            + self._part("values", self._sp_values)
            + ")"
        )

    __str__ = __repr__


# -- conversions between layouts ---------------------------------------------------------------
def _strides(dims) -> np.ndarray:
    return np.array([int(np.prod(dims[i + 1 :], dtype=np.int64)) for i in range(len(dims))])


def coo_dense(indices, values, shape):
    """The dense array of COO parts; a duplicated index keeps its last value (as Paddle)."""
    shape = tuple(shape)
    if indices.ndim == 1:  # a full sparse.sum: 1-D indices [0] and a 0-D value
        indices, values = indices.reshape(1, -1), values.reshape(-1)
    sd = indices.shape[0]
    nnz = indices.shape[1]
    n = int(np.prod(shape[:sd], dtype=np.int64))
    if nnz == 0 or n == 0:
        return jnp.zeros(shape, values.dtype)
    lin = jnp.sum(indices.astype(jnp.int64) * jnp.asarray(_strides(shape[:sd]))[:, None], axis=0)
    last = jnp.full((n,), -1, jnp.int64).at[lin].max(jnp.arange(nnz, dtype=jnp.int64))
    picked = values[jnp.maximum(last, 0)]
    keep = (last >= 0).reshape((n,) + (1,) * (values.ndim - 1))
    flat = jnp.where(keep, picked, jnp.zeros((), values.dtype))
    return flat.reshape(shape)


def csr_coo_indices(crows, cols, shape) -> np.ndarray:
    """The COO indices ([2, nnz] or [3, nnz] for a batch) of CSR parts, on the host."""
    crows = np.asarray(crows).astype(np.int64)
    cols = np.asarray(cols).astype(np.int64)
    rows = shape[-2]
    batches = 1 if len(shape) == 2 else shape[0]
    out, start = [], 0
    for b in range(batches):
        cr = crows[b * (rows + 1) : (b + 1) * (rows + 1)]
        counts = np.diff(cr)
        r = np.repeat(np.arange(rows, dtype=np.int64), counts)
        c = cols[start : start + len(r)]
        parts = [r, c] if len(shape) == 2 else [np.full(len(r), b, np.int64), r, c]
        out.append(np.stack(parts))
        start += len(r)
    return np.concatenate(out, axis=1) if out else np.zeros((len(shape), 0), np.int64)


def dense_to_coo(x: Tensor, sparse_dim: int, kernel: str = "dense_to_coo") -> SparseCooTensor:
    a = x._value
    nd = a.ndim
    if sparse_dim > nd:
        raise ValueError(
            "(InvalidArgument) sparse_dim must be less than the size of x.dims()\n"
            f"  [Hint: Expected sparse_dim <= x_dims.size(), but received sparse_dim:{sparse_dim}"
            f" > x_dims.size():{nd}.]"
        )
    if sparse_dim <= 0:
        raise ValueError(
            "(InvalidArgument) sparse_dim must be >0\n"
            f"  [Hint: Expected sparse_dim > 0, but received sparse_dim:{sparse_dim} <= 0:0.]"
        )
    if a.dtype == jnp.bool_:
        raise RuntimeError(
            "(NotFound) The kernel with key (CPU, Undefined(AnyLayout), bool) of kernel "
            f"`{kernel}` is not registered. Selected wrong DataType `bool`."
        )
    host = np.asarray(a)
    mask = host != 0
    if sparse_dim < nd:
        mask = mask.any(axis=tuple(range(sparse_dim, nd)))
    idx = np.stack(np.nonzero(mask)).astype(np.int64).reshape(sparse_dim, -1)
    if not x.stop_gradient:  # the values stay on the tape (see _values.py)
        from ._values import attach_values, gather_values

        vt = gather_values(x, idx)
        out = SparseCooTensor(jnp.asarray(idx), vt._value, a.shape, False, coalesced=True)
        return attach_values(out, vt)
    values = a[tuple(jnp.asarray(i) for i in idx)]
    return SparseCooTensor(jnp.asarray(idx), values, a.shape, x.stop_gradient, coalesced=True)


def _csr_dims_check(shape) -> None:
    if len(shape) not in (2, 3):
        raise ValueError(
            "(InvalidArgument) SparseCsrTensor only support 2-D or 3-D Tensor.\n"
            "  [Hint: Expected valid == true, but received valid:0 != true:1.]"
        )


def coo_to_csr(indices, values, shape, stop_gradient) -> SparseCsrTensor:
    """COO parts (sparse_dim == ndim, 2-D or 3-D) as a CSR Tensor; entries keep their order
    within a row (duplicates stay)."""
    _csr_dims_check(shape)
    if values.ndim != 1:
        raise ValueError(
            "to_sparse_csr: a COO Tensor with dense dims has no CSR form (Paddle returns "
            "garbage here)"
        )
    idx = np.asarray(indices).astype(np.int64)
    rows = shape[-2]
    batches = 1 if len(shape) == 2 else shape[0]
    b = idx[0] if len(shape) == 3 else np.zeros(idx.shape[1], np.int64)
    r = idx[-2]
    order = np.argsort(b * rows + r, kind="stable")
    crows = []
    for k in range(batches):
        counts = np.bincount(r[b == k], minlength=rows)[:rows]
        crows.append(np.concatenate([[0], np.cumsum(counts)]))
    crows = np.concatenate(crows).astype(np.int64)
    cols = idx[-1][order]
    vals = values[jnp.asarray(order)] if len(order) else values
    return SparseCsrTensor(jnp.asarray(crows), jnp.asarray(cols), vals, shape, stop_gradient)


def coalesce_parts(indices, values, shape):
    """Sorted unique indices and the summed values of each."""
    idx = np.asarray(indices).astype(np.int64)
    sd = idx.shape[0]
    lin = (idx * _strides(tuple(shape)[:sd])[:, None]).sum(axis=0)
    uniq, first, inverse = np.unique(lin, return_index=True, return_inverse=True)
    summed = jax.ops.segment_sum(values, jnp.asarray(inverse), num_segments=len(uniq))
    new_idx = np.asarray(indices)[:, first]
    return jnp.asarray(new_idx), summed.astype(values.dtype)
