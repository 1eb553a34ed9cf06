"""``paddle.sparse`` math: unary ops on the stored values (the structure is kept, as in Paddle),
``cast``, ``pow``, ``mask_as`` and the elementwise ``add``/``subtract``/``multiply``/``divide``
of two sparse Tensors of one layout. Eager only; the ops on stored values keep them on the
tape (``_values.py``), the binary ones do not."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._tensor import (
    SparseCooTensor,
    SparseCsrTensor,
    coo_to_csr,
    csr_coo_indices,
)
from ._values import attach_values, values_tensor


def _check_sparse(x, op: str) -> None:
    if not isinstance(x, SparseCooTensor | SparseCsrTensor):
        raise NotImplementedError(
            f"(Unimplemented) The kernel of ({op}) for input tensors is unimplemented, please "
            "check the type of input tensors."
        )


def _with_values(x, vals, stop_gradient: bool | None = None, indices=None):
    """``x``'s structure with new values (and, for COO, optionally new-dtype indices)."""
    sg = x.stop_gradient if stop_gradient is None else stop_gradient
    if isinstance(x, SparseCooTensor):
        idx = x._sp_indices if indices is None else indices
        return SparseCooTensor(idx, vals, x._sp_shape, sg, coalesced=x._sp_coalesced)
    crows, cols = x._sp_crows, x._sp_cols
    if indices is not None:
        crows, cols = crows.astype(indices), cols.astype(indices)
    return SparseCsrTensor(crows, cols, vals, x._sp_shape, sg)


def _map_values(x, fn, op: str, stop_gradient: bool | None = None):
    _check_sparse(x, op)
    out = fn(values_tensor(x))  # on the tape (see _values.py)
    res = _with_values(x, out._value, stop_gradient)
    return res if res.stop_gradient else attach_values(res, out)


def _unary(name: str, doc: str):
    def op(x, name=None):
        import paddle_compat as paddle

        return _map_values(x, getattr(paddle, fn_name), fn_name)

    fn_name = name
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{doc}`` of a sparse Tensor's stored values; the structure is kept."
    return op


_UNARY = {
    "sin": "sin(x)",
    "tan": "tan(x)",
    "asin": "asin(x)",
    "atan": "atan(x)",
    "sinh": "sinh(x)",
    "tanh": "tanh(x)",
    "asinh": "asinh(x)",
    "atanh": "atanh(x)",
    "sqrt": "sqrt(x)",
    "square": "x * x",
    "log1p": "log(1 + x)",
    "abs": "|x|",
    "neg": "-x",
    "expm1": "exp(x) - 1",
    "rad2deg": "x * 180 / pi",
    "deg2rad": "x * pi / 180",
}
for _n, _d in _UNARY.items():
    globals()[_n] = _unary(_n, _d)
del _n, _d


def isnan(x, name=None):
    """``isnan`` of the stored values (a bool sparse Tensor, stop_gradient True)."""
    import paddle_compat as paddle

    return _map_values(x, paddle.isnan, "isnan", stop_gradient=True)


def pow(x, factor, name=None):  # noqa: A001 - Paddle's name
    """``x ** factor`` of the stored values."""
    import paddle_compat as paddle

    return _map_values(x, lambda v: paddle.pow(v, factor), "pow")


def cast(x, index_dtype=None, value_dtype=None, name=None):
    """The stored indices (COO) or crows/cols (CSR) cast to ``index_dtype`` and the values to
    ``value_dtype`` (each only when given; Paddle's values are unusable without
    ``value_dtype``)."""
    from .._core import dtype as _dt

    _check_sparse(x, "cast")
    vals = x._sp_values
    if value_dtype is not None:
        vals = vals.astype(_dt.to_dtype(value_dtype).np)
    idx = None
    if index_dtype is not None:
        idx = _dt.to_dtype(index_dtype).np
        if isinstance(x, SparseCooTensor):
            idx = x._sp_indices.astype(idx)
    return _with_values(x, vals, indices=idx)


def mask_as(x, mask, name=None):
    """The entries of dense ``x`` at ``mask``'s stored positions, in ``mask``'s layout."""
    _check_sparse(mask, "mask_as")
    if x.dtype != mask.dtype:
        raise ValueError(
            f"(InvalidArgument) The type of data we are trying to retrieve ({mask.dtype.name}) "
            f"does not match the type of data ({x.dtype.name}) currently contained in the "
            "container."
        )
    idx = _coords(mask)
    vals = x._value[tuple(idx)]
    return _with_values(mask, vals, stop_gradient=True)


# -- binary ------------------------------------------------------------------------------------
def _coords(x) -> np.ndarray:
    """The stored positions of a sparse Tensor as COO indices (host)."""
    if isinstance(x, SparseCooTensor):
        return np.asarray(x._sp_indices).astype(np.int64)
    return csr_coo_indices(x._sp_crows, x._sp_cols, x._sp_shape)


def _binary(x, y, op: str, dense_fn, full: bool):
    _check_sparse(x, op)
    if not isinstance(y, Tensor):
        raise ValueError(
            f"(InvalidArgument) {op}(): argument 'y' (position 1) must be Tensor, but got "
            f"{type(y).__name__}"
        )
    if not isinstance(y, SparseCooTensor | SparseCsrTensor):
        raise NotImplementedError("(Unimplemented) Not support Sparse + Dense in GPU mode")
    if type(x) is not type(y):
        raise NotImplementedError(
            f"(Unimplemented) The kernel of ({op}) for input tensors is unimplemented, please "
            "check the type of input tensors."
        )
    out = dense_fn(x.to_dense(), y.to_dense())
    if isinstance(x, SparseCooTensor):
        sd = x._sp_indices.shape[0]
        if sd != y._sp_indices.shape[0]:
            raise ValueError(f"{op}: the sparse Tensors have different sparse_dim")
    else:
        sd = len(x._sp_shape)
    sparse_shape = tuple(out.shape[:sd])
    mask = np.ones(sparse_shape, bool) if full else np.zeros(sparse_shape, bool)
    if not full:
        for t in (x, y):
            mask[tuple(_coords(t)[:sd])] = True
    import jax.numpy as jnp

    idx = np.stack(np.nonzero(mask)).astype(np.int64).reshape(sd, -1)
    vals = out._value[tuple(jnp.asarray(i) for i in idx)]
    sg = x.stop_gradient and y.stop_gradient
    if isinstance(x, SparseCooTensor):
        return SparseCooTensor(jnp.asarray(idx), vals, out.shape, sg, coalesced=True)
    return coo_to_csr(idx, vals, list(out.shape), sg)


def add(x, y, name=None):
    """``x + y`` of two sparse Tensors of one layout: stored where either stores."""
    import paddle_compat as paddle

    return _binary(x, y, "add", paddle.add, full=False)


def subtract(x, y, name=None):
    """``x - y`` of two sparse Tensors of one layout: stored where either stores."""
    import paddle_compat as paddle

    return _binary(x, y, "subtract", paddle.subtract, full=False)


def multiply(x, y, name=None):
    """``x * y``: of two sparse Tensors (stored where either stores), or of a sparse Tensor
    and a number (the values scaled)."""
    import paddle_compat as paddle

    if isinstance(y, int | float) and not isinstance(y, bool):
        return _map_values(x, lambda v: paddle.multiply(v, paddle.to_tensor(y, v.dtype)), "mul")
    return _binary(x, y, "multiply", paddle.multiply, full=False)


def divide(x, y, name=None):
    """``x / y``: of two sparse Tensors (every position is stored, 0/0 is nan as in Paddle),
    or of a sparse Tensor and a number (the values divided)."""
    import paddle_compat as paddle

    if isinstance(y, int | float) and not isinstance(y, bool):
        return _map_values(x, lambda v: paddle.divide(v, paddle.to_tensor(y, v.dtype)), "div")
    return _binary(x, y, "divide", paddle.divide, full=True)
