"""The sparse Tensor methods (``x.indices()``, ``x.to_sparse_coo(2)``, ...), for sparse and
dense Tensors alike, with Paddle's errors where a layout has no such method. The Tensor
methods in ``_core/tensor_api.py`` call these."""

from __future__ import annotations

from .._core.tensor import Tensor
from ._tensor import (
    SparseCooTensor,
    SparseCsrTensor,
    _csr_dims_check,
    coalesce_parts,
    coo_to_csr,
    csr_coo_indices,
    dense_to_coo,
)
from ._values import dense_tensor, values_tensor


def _only(what: str) -> SystemError:
    return SystemError(f"(Fatal) this method is only effective for {what}")


def _unimplemented(op: str) -> NotImplementedError:
    return NotImplementedError(
        f"(Unimplemented) The kernel of ({op}) for input tensors is unimplemented, please "
        "check the type of input tensors."
    )


def is_sparse_coo(x) -> bool:
    return isinstance(x, SparseCooTensor)


def is_sparse_csr(x) -> bool:
    return isinstance(x, SparseCsrTensor)


def nnz(x) -> int:
    if isinstance(x, SparseCooTensor | SparseCsrTensor):
        return int(x._sp_values.shape[0])
    raise _only("SparseCooTensor or SparseCsrTensor")


def indices(x) -> Tensor:
    if isinstance(x, SparseCooTensor):
        return Tensor(x._sp_indices, stop_gradient=True)
    raise _only("SparseCooTensor")


def values(x) -> Tensor:
    if isinstance(x, SparseCooTensor | SparseCsrTensor):
        if not x.stop_gradient:  # on the tape (see _values.py)
            return values_tensor(x)
        return x._part_tensor(x._sp_values)
    raise _unimplemented("values")


def crows(x) -> Tensor:
    if isinstance(x, SparseCsrTensor):
        return Tensor(x._sp_crows, stop_gradient=True)
    raise _only("SparseCsrTensor")


def cols(x) -> Tensor:
    if isinstance(x, SparseCsrTensor):
        return Tensor(x._sp_cols, stop_gradient=True)
    raise _only("SparseCsrTensor")


def sparse_dim(x) -> int:
    if isinstance(x, SparseCooTensor):
        return int(x._sp_indices.shape[0])
    if isinstance(x, SparseCsrTensor):
        return 2
    return 0


def dense_dim(x) -> int:
    if isinstance(x, SparseCooTensor):
        return x._sp_values.ndim - 1
    if isinstance(x, SparseCsrTensor):
        return 0
    return x.ndim


def to_dense(x) -> Tensor:
    if isinstance(x, SparseCooTensor) and not x.stop_gradient:
        return dense_tensor(x)
    if isinstance(x, SparseCooTensor | SparseCsrTensor):
        return Tensor(x._densify(), stop_gradient=x.stop_gradient)
    raise _unimplemented("to_dense")


def to_sparse_coo(x, sparse_dim: int) -> SparseCooTensor:
    """A dense Tensor's first ``sparse_dim`` dims become sparse; a CSR Tensor keeps all its
    dims sparse (Paddle ignores ``sparse_dim`` there); a COO Tensor is returned as is."""
    if isinstance(x, SparseCooTensor):
        return x
    if isinstance(x, SparseCsrTensor):
        idx = csr_coo_indices(x._sp_crows, x._sp_cols, x._sp_shape)
        import jax.numpy as jnp

        return SparseCooTensor(
            jnp.asarray(idx), x._sp_values, x._sp_shape, x.stop_gradient, coalesced=True
        )
    if not isinstance(sparse_dim, int) or isinstance(sparse_dim, bool):
        raise TypeError(
            "(InvalidType) to_sparse_coo(): argument (position 2) must be long, but got "
            f"{type(sparse_dim).__name__}"
        )
    return dense_to_coo(x, sparse_dim)


def to_sparse_csr(x) -> SparseCsrTensor:
    if isinstance(x, SparseCsrTensor):
        return x
    if isinstance(x, SparseCooTensor):
        return coo_to_csr(x._sp_indices, x._sp_values, x._sp_shape, x.stop_gradient)
    _csr_dims_check(x.shape)
    coo = dense_to_coo(x, x.ndim, "dense_to_csr")
    return coo_to_csr(coo._sp_indices, coo._sp_values, coo._sp_shape, x.stop_gradient)


def coalesce(x) -> SparseCooTensor:
    """Sorted, duplicate-free indices with the duplicates' values summed."""
    if not isinstance(x, SparseCooTensor):
        raise _unimplemented("coalesce")
    idx, vals = coalesce_parts(x._sp_indices, x._sp_values, x._sp_shape)
    return SparseCooTensor(idx, vals, x._sp_shape, True, coalesced=True)


def is_coalesced(x) -> bool:
    """True only for a COO Tensor made by ``coalesce`` or a conversion (Paddle keeps a flag;
    a created Tensor is False even with sorted unique indices)."""
    if not isinstance(x, SparseCooTensor):
        raise TypeError("(InvalidType) Method is_coalesced only support sparse coo tensor.")
    return bool(x._sp_coalesced)


def is_same_shape(x, y) -> bool:
    if not isinstance(y, Tensor):
        raise ValueError(
            f"(InvalidArgument) argument (position 1) must be Tensor, but got {type(y).__name__}"
        )
    return list(x.shape) == list(y.shape)
