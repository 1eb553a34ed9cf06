"""``paddle.sparse.nn.functional.max_pool3d``: the max of each window's active sites (the
zeros between them do not count), per channel, at the sites a regular conv of the window's
size would make active. Its gradient goes to every input equal to its window's max, as
Paddle's."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._core.registry import run_kernel
from ..nn._layers.conv import _update_padding
from ..utils.layers_utils import convert_to_list
from ._conv import check_channels_values, check_float, check_geometry
from ._rulebook import merge_duplicates, rulebook
from ._tensor import SparseCooTensor
from ._values import coo_from, values_tensor


def _gathered(values, nbr):
    return jnp.take(values, nbr, axis=0, mode="fill", fill_value=-jnp.inf)  # [n_out, K, C]


def _max_kernel():
    @jax.custom_vjp
    def f(values, nbr):
        return _gathered(values, nbr).max(axis=1)

    def fwd(values, nbr):
        out = f(values, nbr)
        return out, (values, nbr, out)

    def bwd(res, g):
        values, nbr, out = res
        hit = _gathered(values, nbr) == out[:, None, :]
        contrib = jnp.where(hit, g[:, None, :], jnp.zeros((), g.dtype))
        n_in, c = values.shape
        flat = nbr.reshape(-1)
        grad = jnp.zeros((n_in, c), g.dtype).at[flat].add(contrib.reshape(-1, c), mode="drop")
        return grad, None

    f.defvjp(fwd, bwd)
    return f


def _pool_padding(padding, ceil_mode) -> list[int]:
    if isinstance(padding, str) and padding.upper() == "VALID" and ceil_mode:
        raise ValueError(
            'When Attr(padding) is "VALID", Attr(ceil_mode) must be False. Received '
            "ceil_mode: True."
        )
    try:
        _, pads = _update_padding(padding, 3, "NDHWC")
    except ValueError as e:
        if str(e).startswith("In valid padding"):
            raise ValueError(f"Invalid padding: {padding}") from None
        raise
    if not all(p >= 0 for p in pads):
        raise ValueError(f"max_pool3d: the padding must not be negative, but received {pads}")
    return [int(p) for p in pads[:3]]  # Paddle's kernel reads the first three entries


def max_pool3d(
    x, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NDHWC", name=None
):
    """Max pooling of a 5-D COO Tensor [N, D, H, W, C]. ``ceil_mode`` does not change the
    output shape (as in Paddle 3.3.1); "SAME" pads nothing."""
    assert isinstance(x, SparseCooTensor), (
        "Currently, sparse.relu only support the input of SparseCooTensor"
    )
    assert data_format == "NDHWC", (
        "Currently, sparse.max_pool3d only support data format of 'NDHWC'"
    )
    kernel = convert_to_list(kernel_size, 3, "pool_size")
    stride = kernel if stride is None else convert_to_list(stride, 3, "pool_stride")
    pad = _pool_padding(padding, ceil_mode)
    if len(x.shape) != 5:
        raise ValueError(
            "(InvalidArgument) the shape of x should be (N, D, H, W, C)\n  [Hint: Expected "
            f"x_dims.size() == 5, but received x_dims.size():{len(x.shape)} != 5:5.]"
        )
    check_float(x, "maxpool_coo")
    check_channels_values(x, "max_pool3d")
    check_geometry(list(x.shape[1:-1]), kernel, pad, [1, 1, 1], stride)
    rb = rulebook(x, kernel, pad, [1, 1, 1], stride, False)
    vt = merge_duplicates(values_tensor(x), rb, "max")
    vals = run_kernel(("sparse_max_pool",), _max_kernel, [vt, rb.neighbours])
    shape = [x.shape[0], *rb.out_spatial, x.shape[-1]]
    return coo_from(rb.out_indices.astype(x._sp_indices.dtype), vals, shape)
