"""``paddle.sparse.nn.functional`` conv2d/conv3d and their submanifold forms on COO Tensors
[N, *spatial, C] (channels last) with weights [*kernel, C_in, C_out]. The output sites come
from the host rulebook (``_rulebook.py``); the values are one gather of each output site's
neighbours and one GEMM with the flattened weight (JAX, on the tape)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._core.registry import run_kernel
from .._core.tensor import Tensor
from ..nn._layers.conv import _update_padding
from ..utils.layers_utils import convert_to_list
from ._rulebook import Rulebook, merge_duplicates, rulebook
from ._tensor import SparseCooTensor
from ._values import coo_from, values_tensor

_FORMATS = {2: "NHWC", 3: "NDHWC"}
_KERNEL_AXES = {2: "(H, W, C, OC)", 3: "(D, H, W, C, OC)"}
_FLOATS = ("float32", "float64")
# the gathered [n_out, kernel_volume * C_in] block above this many elements: one GEMM per
# kernel offset (a scan) instead of one for all
_GATHER_LIMIT = 1 << 25


def _gemm_kernel():
    def f(values, weight, nbr):
        n_out, vol = nbr.shape
        w = weight.reshape(vol * weight.shape[-2], weight.shape[-1])
        g = jnp.take(values, nbr, axis=0, mode="fill", fill_value=0)
        return jnp.matmul(g.reshape(n_out, w.shape[0]), w, precision="highest")

    return f


def _scan_kernel():
    def f(values, weight, nbr):
        n_out, vol = nbr.shape
        w = weight.reshape(vol, weight.shape[-2], weight.shape[-1])

        def step(acc, kw):
            k_nbr, wk = kw
            g = jnp.take(values, k_nbr, axis=0, mode="fill", fill_value=0)
            return acc + jnp.matmul(g, wk, precision="highest"), None

        acc0 = jnp.zeros((n_out, w.shape[-1]), jnp.result_type(values, weight))
        return jax.lax.scan(step, acc0, (nbr.T, w))[0]

    return f


def conv_values(vt: Tensor, weight: Tensor, rb: Rulebook) -> Tensor:
    """The output values [n_out, C_out] of the rulebook's sites (differentiable)."""
    n_out, vol = rb.neighbours.shape
    if n_out * vol * int(weight.shape[-2]) > _GATHER_LIMIT:
        return run_kernel(("sparse_conv_scan",), _scan_kernel, [vt, weight, rb.neighbours])
    return run_kernel(("sparse_conv_gemm",), _gemm_kernel, [vt, weight, rb.neighbours])


# -- arguments and Paddle's errors ---------------------------------------------------------------
def unimplemented(op: str) -> NotImplementedError:
    return NotImplementedError(
        f"(Unimplemented) The kernel of ({op}) for input tensors is unimplemented, please "
        "check the type of input tensors."
    )


def check_float(x, kernel: str) -> None:
    name = x.dtype.name
    if name not in _FLOATS:
        raise RuntimeError(
            f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {name}) of kernel "
            f"`{kernel}` is not registered. Selected wrong DataType `{name}`. Paddle support "
            "following DataTypes: float64, float32."
        )


def check_channels_values(x, op: str) -> None:
    """A COO input whose channels are its values' one dense dim."""
    if x._sp_values.ndim != 2 or x._sp_indices.shape[0] != len(x._sp_shape) - 1:
        raise ValueError(
            f"{op}: the input must be a COO Tensor with sparse_dim {len(x._sp_shape) - 1} "
            f"(its channels stored as the values' last dim), but got sparse_dim "
            f"{x._sp_indices.shape[0]}"
        )


def conv_padding(padding, nsp: int, data_format: str) -> list[int]:
    """Paddle's conv padding forms -> one pad per spatial axis (Paddle's kernel reads the
    first ``nsp`` entries of an asymmetric [lo0, hi0, lo1, hi1, ...] list)."""
    _, pads = _update_padding(padding, nsp, data_format)
    if not all(p >= 0 for p in pads):
        raise ValueError(
            f"Invalid padding, all value should be larger than or equal to 0, but received: {pads}"
        )
    return [int(p) for p in pads[:nsp]]


def check_geometry(spatial, kernel, pad, dil, stride) -> None:
    """Positive strides and dilations and a kernel that fits the padded input (Paddle crashes
    or returns a negative shape)."""
    from ._rulebook import out_size

    for name, vals in (("stride", stride), ("dilation", dil), ("kernel_size", kernel)):
        if any(v <= 0 for v in vals):
            raise ValueError(f"The {name} must be positive, but received {list(vals)}")
    for axis, a in enumerate(zip(spatial, kernel, pad, dil, stride)):
        if out_size(*a) < 0:
            raise ValueError(
                f"the (dilated) kernel along spatial axis {axis} is larger than the padded "
                f"input: the output size would be {out_size(*a)}"
            )


def _check_conv(x, weight, bias, nsp: int, groups, data_format) -> None:
    assert groups == 1, "Currently, only support groups=1"
    if data_format != _FORMATS[nsp]:
        raise ValueError(
            f"Attr(data_format) should be '{_FORMATS[nsp]}'. Received "
            f"Attr(data_format): {data_format}."
        )
    if len(x.shape) != nsp + 2:
        raise ValueError(
            f"Input x should be {nsp + 2}D tensor, but received x with the shape of {x.shape}"
        )


def _check_operands(x, weight, bias, nsp: int) -> None:
    if not isinstance(x, SparseCooTensor):
        raise unimplemented("conv3d")
    if weight.ndim != nsp + 2:
        raise ValueError(
            f"(InvalidArgument) the shape of kernel should be {_KERNEL_AXES[nsp]}\n  [Hint: "
            f"Expected kernel_sizes.size() == {nsp + 2}, but received kernel_sizes.size():"
            f"{weight.ndim} != {nsp + 2}:{nsp + 2}.]"
        )
    check_float(x, "conv3d_coo")
    check_channels_values(x, "conv")
    if weight.dtype != x.dtype:
        raise ValueError(
            f"(InvalidArgument) The type of data we are trying to retrieve ({weight.dtype.name}) "
            f"does not match the type of data ({x.dtype.name}) currently contained in the "
            "container."
        )
    c_in = x.shape[-1]
    if weight.shape[-2] != c_in:
        raise ValueError(
            f"conv: the weight's input channels ({weight.shape[-2]}, its shape is "
            f"{list(weight.shape)}) must equal the input's channels ({c_in})"
        )


def _check_bias(bias, out_shape) -> None:
    """Paddle adds the bias as a sparse + dense add: shapes that do not broadcast are a
    ValueError, any bias but [C_out] is refused."""
    xs, ys = list(out_shape), list(bias.shape)
    n = max(len(xs), len(ys))
    xa, ya = [1] * (n - len(xs)) + xs, [1] * (n - len(ys)) + ys
    for i, (a, b) in enumerate(zip(xa, ya)):
        if a != b and not (0 < a <= 1) and not (0 < b <= 1):
            raise ValueError(
                "(InvalidArgument) Broadcast dimension mismatch. Operands could not be "
                f"broadcast together with the shape of X = {xs} and the shape of Y = {ys}. "
                f"Received [{a}] in X is not equal to [{b}] in Y at i:{i}."
            )
    if ys != [xs[-1]]:
        raise NotImplementedError("(Unimplemented) Not support Sparse + Dense in GPU mode")


def sparse_conv(
    x, weight, bias, stride, padding, dilation, groups, data_format, nsp: int, subm: bool
):
    """The conv (``subm``: submanifold) of a COO Tensor; the output keeps x's index dtype."""
    _check_conv(x, weight, bias, nsp, groups, data_format)
    pad = conv_padding(padding, nsp, data_format)
    stride = convert_to_list(stride, nsp, "stride")
    dilation = convert_to_list(dilation, nsp, "dilation")
    _check_operands(x, weight, bias, nsp)
    kernel = [int(k) for k in weight.shape[:nsp]]
    spatial = list(x.shape[1:-1])
    if subm:
        check_geometry(spatial, kernel, [k // 2 for k in kernel], dilation, [1] * nsp)
    else:
        check_geometry(spatial, kernel, pad, dilation, stride)
    rb = rulebook(x, kernel, pad, dilation, stride, subm)
    vals = conv_values(merge_duplicates(values_tensor(x), rb, "sum"), weight, rb)
    shape = [x.shape[0], *rb.out_spatial, int(weight.shape[-1])]
    if bias is not None:
        from .. import add

        _check_bias(bias, shape)

        vals = add(vals, bias)
    idx = rb.out_indices.astype(x._sp_indices.dtype)
    return coo_from(idx, vals, shape)
