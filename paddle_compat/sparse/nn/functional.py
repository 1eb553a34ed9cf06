"""``paddle.sparse.nn.functional``: activations of a sparse Tensor's stored values, and
convolution and max pooling of COO Tensors."""

from __future__ import annotations

from .._math import _map_values


def relu(x, name=None):
    """``max(x, 0)`` of the stored values."""
    from ...nn import functional as F

    return _map_values(x, F.relu, "relu")


def relu6(x, name=None):
    """``min(max(x, 0), 6)`` of the stored values."""
    from ...nn import functional as F

    return _map_values(x, F.relu6, "relu6")


def leaky_relu(x, negative_slope: float = 0.01, name=None):
    """``x if x >= 0 else negative_slope * x`` of the stored values."""
    from ...nn import functional as F

    return _map_values(x, lambda v: F.leaky_relu(v, negative_slope), "leaky_relu")


def softmax(x, axis: int = -1, name=None):
    """Softmax over the last axis among each row's stored values."""
    from .._manip import softmax as _softmax

    return _softmax(x, axis)


def conv2d(
    x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NHWC", name=None
):
    """2-D convolution of a COO Tensor [N, H, W, C] with weight [kH, kW, C_in, C_out]: an
    output site is active where some input site reaches it."""
    from .._conv import sparse_conv

    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, data_format, 2, False)


def conv3d(
    x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NDHWC", name=None
):
    """3-D convolution of a COO Tensor [N, D, H, W, C] with weight [kD, kH, kW, C_in, C_out]:
    an output site is active where some input site reaches it."""
    from .._conv import sparse_conv

    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, data_format, 3, False)


def subm_conv2d(
    x,
    weight,
    bias=None,
    stride=1,
    padding=0,
    dilation=1,
    groups=1,
    data_format="NHWC",
    key=None,
    name=None,
):
    """Submanifold 2-D convolution: the output sites are the input's (the padding is
    ``kernel // 2`` and the stride 1 whatever is given, as Paddle). ``key`` is accepted; the
    rulebook is reused for any conv of the same geometry on the same input."""
    from .._conv import sparse_conv

    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, data_format, 2, True)


def subm_conv3d(
    x,
    weight,
    bias=None,
    stride=1,
    padding=0,
    dilation=1,
    groups=1,
    data_format="NDHWC",
    key=None,
    name=None,
):
    """Submanifold 3-D convolution: the output sites are the input's (the padding is
    ``kernel // 2`` and the stride 1 whatever is given, as Paddle). ``key`` is accepted; the
    rulebook is reused for any conv of the same geometry on the same input."""
    from .._conv import sparse_conv

    return sparse_conv(x, weight, bias, stride, padding, dilation, groups, data_format, 3, True)


def subm_conv2d_igemm(
    x,
    weight,
    bias=None,
    stride=1,
    padding=0,
    dilation=1,
    groups=1,
    data_format="NHWC",
    key=None,
    name=None,
):
    """``subm_conv2d`` (Paddle's implicit-GEMM GPU kernel; the same numbers here, where
    Paddle's CPU build has no such kernel)."""
    return subm_conv2d(x, weight, bias, stride, padding, dilation, groups, data_format, key)


def subm_conv3d_igemm(
    x,
    weight,
    bias=None,
    stride=1,
    padding=0,
    dilation=1,
    groups=1,
    data_format="NDHWC",
    key=None,
    name=None,
):
    """``subm_conv3d`` (Paddle's implicit-GEMM GPU kernel; the same numbers here, where
    Paddle's CPU build has no such kernel)."""
    return subm_conv3d(x, weight, bias, stride, padding, dilation, groups, data_format, key)


def max_pool3d(
    x, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NDHWC", name=None
):
    """Max pooling of a COO Tensor [N, D, H, W, C] over each window's active sites."""
    from .._pool import max_pool3d as _max_pool3d

    return _max_pool3d(x, kernel_size, stride, padding, ceil_mode, data_format)
