"""Badly configured nn layers and functionals get Paddle's exception type, and a message that
names what Paddle's names: each entry records the exception type and which of the listed words
(argument names, the shapes involved) the message contains. The words are chosen from Paddle
3.3.1's own message, so its golden lists all of them. Also: the conv layers' private padding
attributes (_padding_algorithm, _updated_padding) that PaddleClas/PaddleSeg read."""

import numpy as np
import paddle.nn.functional as F
from _util import normalize, randn

import paddle
from paddle import nn

# Paddle 3.3.1 behaviour not recorded here (this project raises a clear ValueError instead):
# - a conv kernel larger than the padded input: Conv2D returns a tensor of shape [1, 4, -1, -1]
#   (and MKL prints "Parameter 11 was incorrect"), Conv1D/Conv3D raise RuntimeError
#   "(PreconditionNotMet) The meta data must be valid"; an output size of exactly 0 returns an
#   empty tensor after the same MKL complaint;
# - Embedding ids < 0 return a row of whatever memory precedes the table (no error);
# - LSTM sequence_length values larger than the time steps abort the process (glibc malloc
#   assertion);
# - a conv layer built with another rank's data_format (Conv2D(data_format="NCL"),
#   Conv3D(data_format="NHWC")) is accepted, then treated as channels-first, fails with a
#   broadcast error or an IndexError depending on the string (here: ValueError when built);
# - Embedding(4, 2, padding_idx=-5) is accepted (here: ValueError, as for padding_idx=4);
# - affine_grid with theta [N, 3, 3] for a 4-D out_shape returns a grid; theta [N, 2, 3] for a
#   5-D out_shape raises RuntimeError "(PreconditionNotMet) Tensor's dimension is out of bound";
# - max_unpool1d's output_size check rejects every size ("dim 0 must be between 0 and 2"); here
#   it is the 2-D/3-D rule (default - stride, default + stride).


def _t(*shape, dtype="float32"):
    return paddle.to_tensor(randn(*shape).astype(dtype))


def _ids(v):
    return paddle.to_tensor(np.array(v, dtype="int64"))


def _z(*shape, dtype="float32"):
    return paddle.zeros(list(shape), dtype=dtype)


def expect_error_naming(fn, *words):
    """Like ``_util.expect_error``, plus ``names``: which of ``words`` the exception's message contains."""
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - we record whatever Paddle raises
        msg = str(e)
        return {"error": type(e).__name__, "names": [w for w in words if w in msg]}
    return {"no_error": normalize(out)}


def _table(rows):
    return [expect_error_naming(fn, *words) for fn, *words in rows]


# -- convolutions -----------------------------------------------------------------------------
def case_conv_channels():
    x1, x2, x3 = _t(1, 2, 8), _t(1, 2, 5, 5), _t(1, 2, 5, 5, 5)
    return _table(
        [
            (lambda: nn.Conv1D(3, 4, 3)(x1), "channels is 2", "channels is 3", "groups"),
            (lambda: nn.Conv2D(3, 4, 3)(x2), "[1, 2, 5, 5]", "[4, 3, 3, 3]", "channels"),
            (lambda: nn.Conv3D(3, 4, 3)(x3), "[1, 2, 5, 5, 5]", "[4, 3, 3, 3, 3]", "groups"),
            (lambda: nn.Conv1DTranspose(3, 4, 3)(x1), "input channels", "filter channels"),
            (lambda: nn.Conv2DTranspose(3, 4, 3)(x2), "[1, 2, 5, 5]", "[3, 4, 3, 3]"),
            (lambda: nn.Conv3DTranspose(3, 4, 3)(x3), "[1, 2, 5, 5, 5]", "[3, 4, 3, 3, 3]"),
            (
                lambda: nn.Conv2D(3, 4, 3, data_format="NHWC")(_t(1, 5, 5, 2)),
                "[1, 5, 5, 2]",
                "NHWC",
                "channels is 2",
            ),
            (lambda: F.conv2d(_t(1, 3, 5, 5), _t(4, 2, 3, 3)), "[4, 2, 3, 3]", "channels is 3"),
            (lambda: nn.Conv2D(3, 4, 3, groups=2), "in_channels", "groups"),
            (
                lambda: nn.Conv2D(4, 3, 3, groups=2)(_t(1, 4, 5, 5)),
                "output",
                "groups",
                "[3, 2, 3, 3]",
            ),
        ]
    )


def case_conv_data_format():
    x1, x2, x3 = _t(1, 3, 5), _t(1, 3, 5, 5), _t(1, 3, 5, 5, 5)
    return _table(
        [
            (lambda: nn.Conv2D(3, 4, 3, data_format="nchw"), "data_format", "nchw"),
            (lambda: nn.Conv1D(3, 4, 3, data_format="NCHW")(x1), "data_format", "NCL", "NLC"),
            (
                lambda: nn.Conv1DTranspose(3, 4, 3, data_format="NCHW")(x1),
                "data_format",
                "NCHW",
                "NLC",
            ),
            (
                lambda: nn.Conv2DTranspose(3, 4, 3, data_format="NCL")(x2),
                "data_format",
                "NCL",
                "NHWC",
            ),
            (
                lambda: nn.Conv3DTranspose(3, 4, 3, data_format="NHWC")(x3),
                "data_format",
                "NCDHW",
                "NDHWC",
            ),
            (lambda: F.conv1d(x1, _t(4, 3, 3), data_format="NCHW"), "data_format", "NCHW", "NLC"),
            (lambda: F.conv2d(x2, _t(4, 3, 3, 3), data_format="NCL"), "data_format", "NCL"),
            (lambda: F.conv3d(x3, _t(4, 3, 3, 3, 3), data_format="NCHW"), "data_format", "NDHWC"),
        ]
    )


def case_conv_geometry():
    x2 = _t(1, 3, 5, 5)
    return _table(
        [
            (lambda: nn.Conv2D(3, 4, 3, padding="FOO"), "padding", "FOO", "SAME", "VALID"),
            (lambda: nn.Conv1D(3, 4, 3, padding="FOO")(_t(1, 3, 6)), "padding", "FOO"),
            (lambda: nn.Conv3D(3, 4, 3, padding="same_"), "padding", "SAME"),
            (lambda: nn.Conv2DTranspose(3, 4, 3, padding="FOO"), "padding", "FOO"),
            (lambda: nn.Conv2D(3, 4, 3, padding=[1, 1, 1]), "padding", "[1, 1, 1]"),
            (lambda: nn.Conv2D(3, 4, 3, padding=[[1, 2], [3, 4]]), "padding", "[[1, 2], [3, 4]]"),
            (lambda: nn.Conv1D(3, 4, 3, padding=[1, 1, 1])(_t(1, 3, 6)), "padding", "[1, 1, 1]"),
            (lambda: nn.Conv2D(3, 4, 3, padding="SAME", padding_mode="reflect"), "padding"),
            (lambda: nn.Conv2D(3, 4, 3, padding_mode="foo"), "padding_mode", "foo"),
            (lambda: nn.Conv2D(3, 4, 3)(_t(1, 3, 5)), "4-D", "[1, 3, 5]"),
            (lambda: nn.Conv3D(3, 4, 3)(x2), "[1, 3, 5, 5]"),
            (lambda: nn.Conv1D(3, 4, 3)(_t(3, 5)), "[3, 5]"),
            (lambda: nn.Conv2DTranspose(3, 4, 3)(_t(1, 3, 5)), "4D", "[1, 3, 5]"),
            (lambda: nn.Conv2D(3, 4, 3, stride=0)(x2), "stride", "0"),
            (
                lambda: nn.Conv2DTranspose(3, 4, 3, stride=2)(x2, output_size=[20, 20]),
                "output_size",
                "[20, 20]",
                "stride",
            ),
            # a kernel that just fits; SAME with dilation
            (lambda: nn.Conv2D(3, 2, 5)(_t(1, 3, 5, 5)).shape,),
            (lambda: nn.Conv2D(3, 2, 3, padding="SAME", dilation=2)(x2).shape,),
        ]
    )


def case_conv_operands():
    x2 = _t(1, 4, 6, 6)
    return _table(
        [
            (lambda: nn.Conv2D(4, 4, 3, stride=[1, 1, 1])(x2), "stride", "[1, 1, 1]"),
            (lambda: nn.Conv2D(4, 4, [3, 3, 3]), "kernel_size", "[3, 3, 3]"),
            (lambda: nn.Conv2D(4, 4, 3, dilation=0)(x2), "dilation", "0"),
            (lambda: nn.Conv2D(4, 4, 3, padding=-1)(x2), "padding", "-1"),
            (
                lambda: nn.Conv2DTranspose(4, 4, 3, stride=2, output_padding=2)(x2),
                "output_padding",
                "stride",
            ),
            (
                lambda: nn.Conv2DTranspose(4, 4, 3, stride=2)(x2, output_size=[5, 5]),
                "output_size",
                "[5, 5]",
            ),
            (
                lambda: nn.Conv2DTranspose(4, 4, 3, stride=2)(x2, output_size=[13, 13, 13]),
                "output_size",
                "[13, 13, 13]",
            ),
            (lambda: F.conv2d(x2, _t(4, 4, 3, 3), _t(5)), "[5]"),
            (lambda: F.conv2d(x2, _t(4, 4, 3)), "[1, 4, 6, 6]", "[4, 4, 3]"),
            (lambda: nn.Conv2D(4, 4, 3)(paddle.ones([1, 4, 6, 6], "int64")), "int64", "conv2d"),
            (lambda: nn.Conv1D(4, 4, 3)(paddle.ones([1, 4, 6], "int32")), "int32"),
            (
                lambda: nn.Conv2DTranspose(4, 4, 3)(paddle.ones([1, 4, 6, 6], "int64")),
                "int64",
                "conv2d_transpose",
            ),
            (lambda: nn.Conv1D(4, 4, 3)(_t(1, 4, 6, dtype="float64")), "float64", "float32"),
            (lambda: nn.Conv2DTranspose(4, 4, 3)(_t(1, 4, 6, 6, dtype="float64")), "float64"),
            (lambda: nn.Conv2D(4, 8, 3, groups=4)(x2).shape,),
            (lambda: F.conv2d(x2, _t(4, 4, 3, 3), padding="foo"), "padding", "FOO"),
            (lambda: F.conv2d(x2, _t(4, 4, 3, 3), padding=[1, 1, 1]), "padding", "[1, 1, 1]"),
            (lambda: F.conv2d(x2, _t(4, 4, 3, 3), padding=[[1, 1], [1, 1]]), "padding"),
            (
                lambda: F.conv2d(x2, _t(4, 4, 3, 3), padding=[[0, 1], [0, 0], [1, 1], [1, 1]]),
                "Non-zero padding",
                "batch or channel",
            ),
            (lambda: F.conv2d(x2, _t(4, 4, 3, 3), stride=[1, 1, 1]), "stride", "[1, 1, 1]"),
            (lambda: F.conv2d(x2, _t(4, 4, 3, 3), groups=0), "groups", "conv2d"),
            (lambda: F.conv2d(_t(1, 3, 6, 6), _t(4, 3, 3, 3), groups=2), "groups", "3"),
            (lambda: F.conv2d_transpose(_t(1, 3, 6, 6), _t(3, 4, 3, 3), groups=2), "groups", "3"),
        ]
    )


def _conv_padding_attrs(m):
    return [
        getattr(m, "_padding_algorithm", "absent"),
        getattr(m, "_updated_padding", "absent"),
        getattr(m, "_reversed_padding_repeated_twice", "absent"),
        m._padding,
    ]


def case_conv_padding_attributes():
    out = []
    for cls, n in [
        (nn.Conv1D, 1),
        (nn.Conv2D, 2),
        (nn.Conv3D, 3),
        (nn.Conv1DTranspose, 1),
        (nn.Conv2DTranspose, 2),
        (nn.Conv3DTranspose, 3),
    ]:
        cl = {1: "NLC", 2: "NHWC", 3: "NDHWC"}[n]
        pads = [0, 2, [1] * n, tuple([2] * n), [1, 2] * n, [2, 2, 1, 1, 3, 3][: 2 * n]]
        pads += ["SAME", "VALID", "same", "valid", [[0, 0], [0, 0]] + [[1, 2]] * n]
        pads += [[[0, 0], [0, 0]] + [[3, 3]] * n]
        for p in pads:
            out.append(_conv_padding_attrs(cls(2, 2, 3, padding=p)))
        m = cls(2, 2, 3, padding=[[0, 0]] + [[1, 2]] * n + [[0, 0]], data_format=cl)
        out.append(_conv_padding_attrs(m))
        if not cls.__name__.endswith("Transpose"):
            for mode in ["reflect", "replicate", "circular"]:
                out.append(_conv_padding_attrs(cls(2, 2, 3, padding=1, padding_mode=mode)))
    return out


# -- pooling ----------------------------------------------------------------------------------
def case_pool_kernel_larger_than_input():
    x = paddle.to_tensor(np.arange(18, dtype="float32").reshape(1, 2, 3, 3) - 9)
    x1, x3 = x[:, :, 0], x.unsqueeze(2).expand([1, 2, 3, 3, 3])
    return _table(
        [
            (lambda: nn.MaxPool2D(5)(x),),
            (lambda: nn.AvgPool2D(5)(x),),
            (lambda: nn.AvgPool2D(5, exclusive=False)(x),),
            (lambda: nn.MaxPool2D(5, ceil_mode=True)(x),),
            (lambda: nn.MaxPool2D(5, padding=1)(x),),
            (lambda: nn.MaxPool2D(5, return_mask=True)(x),),
            (lambda: nn.MaxPool1D(5)(x1),),
            (lambda: nn.AvgPool1D(5)(x1),),
            (lambda: nn.MaxPool3D(5)(x3),),
            (lambda: nn.AvgPool3D(5)(x3),),
            (lambda: nn.MaxPool2D(4, stride=1)(x).shape,),
            (lambda: nn.MaxPool2D(2, padding=2)(x),),
            (lambda: nn.AvgPool2D(2, padding=2)(x),),
            (lambda: nn.MaxPool2D(7, stride=1)(x), "output", "-3", "(3)", "(7)"),
            (lambda: nn.AvgPool2D(7, stride=1)(x), "output", "-3"),
        ]
    )


def case_pool_bad_configuration():
    x1, x2, x3 = _t(1, 3, 4), _t(1, 3, 4, 4), _t(1, 3, 4, 4, 4)
    fmt = ("data_format", "NCL", "NCHW", "NHWC")
    fmt3 = ("data_format", "NCHW", "NCDHW", "NDHWC")
    return _table(
        [
            (lambda: nn.MaxPool2D(2, padding="FOO")(x2), "padding", "FOO", "SAME", "VALID"),
            (lambda: nn.AvgPool2D(2, padding="FOO")(x2), "padding", "FOO"),
            (lambda: nn.MaxPool1D(2, padding="FOO")(x1), "padding", "FOO"),
            (lambda: nn.AvgPool1D(2, padding="FOO")(x1), "padding", "FOO"),
            (lambda: nn.MaxPool3D(2, padding="FOO")(x3), "padding", "FOO"),
            (lambda: nn.MaxPool2D(2, padding=[1, 1, 1])(x2), "padding", "[1, 1, 1]"),
            (lambda: nn.MaxPool2D(2, padding="VALID", ceil_mode=True)(x2), "VALID", "ceil_mode"),
            (lambda: nn.MaxPool2D(2, data_format="NCL")(x2), *fmt),
            (lambda: nn.AvgPool2D(2, data_format="NCL")(x2), *fmt),
            (lambda: nn.MaxPool3D(2, data_format="NCHW")(x3), *fmt3),
            (lambda: nn.AvgPool3D(2, data_format="NCHW")(x3), *fmt3),
            (lambda: nn.AdaptiveAvgPool2D(2, data_format="NCL")(x2), *fmt),
            (lambda: nn.AdaptiveAvgPool3D(2, data_format="NCHW")(x3), *fmt3),
            (lambda: F.max_pool2d(x2, 2, data_format="NCL"), *fmt),
            (lambda: F.avg_pool2d(x2, 2, data_format="NCL"), *fmt),
            (lambda: F.adaptive_max_pool2d(x1, 2), "4-D", "3-D"),
            (lambda: F.adaptive_avg_pool1d(x2, 2), "3-D", "4-D"),
            (lambda: nn.MaxPool2D(2)(x1), "[1, 3, 4]"),
            (lambda: nn.AvgPool2D(2)(x1), "[1, 3, 4]"),
            (lambda: nn.MaxPool1D(2)(x2), "3-D", "4-D"),
            (lambda: nn.MaxPool2D(2, stride=0)(x2), "stride", "0"),
        ]
    )


def case_unpool_lp_pool():
    x2, i2 = _t(1, 4, 6, 6), paddle.zeros([1, 4, 6, 6], "int32")
    x3, i3 = _t(1, 4, 2, 2, 2), paddle.zeros([1, 4, 2, 2, 2], "int32")
    return _table(
        [
            (lambda: F.max_unpool2d(x2, i2, 2, output_size=[9, 9]), "output_size", "[9, 9]"),
            (lambda: F.max_unpool2d(x2, i2, 2, output_size=[10, 10]), "between 10 and 14"),
            (lambda: F.max_unpool2d(x2, i2, 2, output_size=[14, 14]), "between 10 and 14"),
            (lambda: F.max_unpool2d(x2, i2, 2, output_size=[13, 11]).shape,),
            (lambda: F.max_unpool2d(x2, i2, 2, output_size=[1, 4, 13, 13]).shape,),
            (lambda: F.max_unpool3d(x3, i3, 2, output_size=[9, 9, 9]), "between 2 and 6"),
            (lambda: F.lp_pool2d(x2, 0, 2), "norm_type", "0"),
            (lambda: nn.LPPool2D(0, 2)(x2), "norm_type", "0"),
            (lambda: F.lp_pool1d(_t(1, 4, 6), 0, 2), "norm_type", "0"),
            (lambda: F.max_pool2d(x2, 2, return_mask=True, data_format="NHWC"), "return_mask"),
        ]
    )


# -- linear, embedding, normalization ---------------------------------------------------------
def case_linear_embedding():
    return _table(
        [
            (lambda: nn.Linear(4, 3)(_t(2, 5)), "[5]", "[4]"),
            (lambda: nn.Linear(4, 3)(_t(2, 6, 5)), "[5]", "[4]"),
            (lambda: F.linear(_t(2, 5), _t(4, 3)), "[5]", "[4]"),
            (lambda: F.linear(_t(2, 4), _t(4, 3), _t(5)), "[2, 3]", "[5]"),
            (lambda: nn.Embedding(4, 2)(_ids([1, 5])), "< 4", "got 5"),
            (lambda: nn.Embedding(4, 2, padding_idx=4), "padding_idx", "[-4, 4)"),
            (lambda: F.embedding(_ids([1]), _t(4, 2), padding_idx=4), "padding_idx", "[-4, 4)"),
            (lambda: nn.Embedding(4, 2)(_t(2)), "int32", "int64", "float32"),
            (lambda: nn.Embedding(4, 2, padding_idx=-1)(_ids([3, 1])).shape,),
            (lambda: F.embedding(_ids([1]), _t(4)), "lookup table", "[4]"),
            (lambda: F.dropout(_t(2, 3), axis=5), "axis", "5"),
            (lambda: F.dropout2d(_t(3, 6, 6)), "dimensions of x", "4", "3"),
            (lambda: F.dropout(_t(2, 3), p=1.5), "p "),
            (lambda: F.one_hot(_ids([5]), 3), "depth", "(5)", "(3)"),
        ]
    )


def case_norm_mismatch():
    return _table(
        [
            (lambda: nn.BatchNorm2D(3)(_t(2, 4, 3, 3)), "scale", "[4]", "[3]"),
            (lambda: nn.BatchNorm1D(3)(_t(2, 4)), "scale", "[4]", "[3]"),
            (lambda: nn.BatchNorm3D(3)(_t(2, 4, 3, 3, 3)), "scale", "[4]", "[3]"),
            (lambda: nn.BatchNorm2D(3).eval()(_t(2, 4, 3, 3)), "scale", "[4]", "[3]"),
            (
                lambda: nn.BatchNorm2D(3, data_format="NHWC")(_t(2, 3, 3, 4)),
                "scale",
                "[4]",
                "[3]",
            ),
            (
                lambda: F.batch_norm(_t(2, 4, 3), paddle.zeros([3]), paddle.ones([3])),
                "mean",
                "[4]",
                "[3]",
            ),
            (lambda: nn.BatchNorm2D(3)(_t(2, 3, 3)), "4D", "3D"),
            (lambda: nn.BatchNorm1D(3)(_t(2, 3, 3, 3)), "4D"),
            (lambda: nn.BatchNorm3D(3)(_t(2, 3, 3, 3)), "5D", "4D"),
            (lambda: nn.BatchNorm2D(3, data_format="NCL")(_t(2, 3, 3, 3)), "data_format", "NHWC"),
            (lambda: nn.LayerNorm(4)(_t(2, 5)), "normalized_shape", "[4]", "[2, 5]"),
            (lambda: nn.LayerNorm([3, 4])(_t(2, 4, 3)), "normalized_shape", "[3, 4]", "[2, 4, 3]"),
            (lambda: nn.LayerNorm([2, 3, 4])(_t(3, 4)), "normalized_shape", "[2, 3, 4]"),
            (lambda: F.layer_norm(_t(2, 5), 4), "normalized_shape", "[4]", "[2, 5]"),
            (lambda: F.layer_norm(_t(2, 4), 4, weight=_t(5)), "Scale", "[5]", "[4]"),
            (lambda: nn.GroupNorm(2, 4)(_t(2, 6, 3)), "channels", "[4]", "[6]"),
            (lambda: nn.InstanceNorm2D(3)(_t(2, 4, 3, 3)), "scale", "[4]", "[3]"),
            (
                lambda: F.instance_norm(_t(1, 4, 3, 3), weight=_z(4), bias=_z(3)),
                "bias",
                "[4]",
                "[3]",
            ),
            (lambda: F.group_norm(_t(1, 4, 3, 3), 3), "num_groups", "4", "3"),
            (lambda: nn.LayerNorm(6, epsilon=0.01)(_t(2, 6)), "epsilon", "0.001", "[0.01]"),
            (lambda: F.layer_norm(_t(2, 6), 6, epsilon=-1.0), "epsilon", "[-1"),
            (lambda: nn.LayerNorm(6, epsilon=0.001)(_t(2, 6)).shape,),
            (lambda: F.local_response_norm(_t(2, 4), 3), "3D", "2"),
        ]
    )


# -- resizing, pixel shuffle, padding ---------------------------------------------------------
def case_resize_shuffle_pad():
    x = _t(1, 4, 4, 4)
    fmt = ("data_format", "NCL", "NCHW", "NHWC")
    return _table(
        [
            (lambda: F.interpolate(x, scale_factor=2, data_format="NCL"), *fmt),
            (lambda: nn.Upsample(scale_factor=2, data_format="NCL")(x), *fmt),
            (lambda: F.interpolate(_t(1, 3, 4), scale_factor=2, data_format="NCHW"), "4-D"),
            (lambda: F.interpolate(x, scale_factor=2, mode="foo"), "bilinear", "nearest"),
            (lambda: F.interpolate(x, scale_factor=2, mode="linear"), "linear", "3-D"),
            (lambda: F.interpolate(_t(1, 3, 4), scale_factor=2, mode="bilinear"), "4-D"),
            (lambda: F.interpolate(x, size=[8, 8], scale_factor=2), "size", "scale_factor"),
            (lambda: F.interpolate(x), "size", "scale_factor"),
            (lambda: F.interpolate(x, size=[8, 8, 8]), "size"),
            (lambda: F.interpolate(x, scale_factor=-1), "scale"),
            (lambda: F.interpolate(x, size=[0, 8]), "size", "greater than 0"),
            (
                lambda: nn.Upsample(scale_factor=2, mode="nearest", align_corners=True)(x),
                "align_corners",
            ),
            (lambda: F.pixel_shuffle(x, 2, data_format="NCL"), "data_format", "NCL"),
            (lambda: F.pixel_unshuffle(x, 2, data_format="NCL"), "data_format", "NCL"),
            (lambda: F.channel_shuffle(x, 2, data_format="NCL"), "data_format", "NCL"),
            (lambda: F.pixel_shuffle(_t(1, 6, 2, 2), 2), "upscale_factor", "[6]"),
            (lambda: F.pixel_shuffle(_t(1, 4, 2), 2), "4-D", "3"),
            (lambda: F.pixel_unshuffle(_t(1, 1, 3, 3), 2), "[2]", "[3]"),
            (lambda: F.channel_shuffle(_t(1, 3, 2, 2), 2), "[2]", "[3]"),
            (lambda: F.pad(x, [1, 1, 1, 1], data_format="NCL"), "data format", "NCL"),
            (lambda: F.pad(x, [1, 1, 1, 1], mode="foo"), "mode", "foo"),
            (lambda: F.pad(x, [1, 1, 1], mode="reflect"), "paddings"),
            (lambda: F.pad(x, [5, 5, 5, 5], mode="reflect"), "reflect", "(4)", "(5)"),
            (lambda: nn.Dropout2D(data_format="NCL")(x), *fmt),
            (lambda: F.unfold(x, 5), "(4, 4)", "(5, 5)"),
        ]
    )


def case_vision_helpers():
    x, theta = _t(1, 3, 4, 4), _t(2, 2, 3)
    return _table(
        [
            (lambda: F.grid_sample(x, _t(1, 4, 4, 3)), "Grid", "dimension[3]", "2", "3"),
            (lambda: F.grid_sample(x, _t(2, 4, 4, 2)), "Grid", "(1)", "(2)"),
            (lambda: F.grid_sample(x, _t(1, 4, 2)), "Grid", "4-D", "(3)"),
            (lambda: F.grid_sample(_t(1, 3, 4), _t(1, 4, 4, 2)), "4-D", "(3)"),
            (lambda: F.grid_sample(_t(1, 2, 3, 4, 5), _t(1, 2, 2, 2, 2)), "dimension[4]", "3", "2"),
            (lambda: F.grid_sample(x, _t(1, 4, 4, 2), mode="bicubic"), "mode", "bicubic"),
            (lambda: F.grid_sample(x, _t(1, 4, 4, 2), padding_mode="foo"), "padding", "foo"),
            (lambda: F.affine_grid(theta, [1, 3, 4, 4]),),
            (lambda: F.affine_grid(_t(2, 3), [1, 3, 4, 4]), "Theta", "[2, 3]"),
            (lambda: F.temporal_shift(_t(6, 4, 2, 2), seg_num=4), "seg_num", "(6)", "(4)"),
            (lambda: F.temporal_shift(_t(4, 4, 2, 2), 2, shift_ratio=0.6), "shift_ratio", "0.6"),
            (lambda: F.temporal_shift(_t(4, 4, 2, 2), 2, data_format="NCL"), "data_format", "NCL"),
            (lambda: F.temporal_shift(_t(4, 4, 2), seg_num=2), "rank", "(3)"),
            (lambda: F.pdist(_t(2, 3, 4)), "2-dimensional"),
        ]
    )


# -- attention --------------------------------------------------------------------------------
def case_attention_configuration():
    b, seq, e, h = 2, 3, 8, 2
    q, q4 = _t(b, seq, e), _t(b, seq, h, 4)

    def mha(**kw):
        return nn.MultiHeadAttention(e, h, **kw)

    def sdpa(*args, **kw):
        return F.scaled_dot_product_attention(*args, **kw)

    return _table(
        [
            (lambda: nn.MultiHeadAttention(8, 3), "embed_dim", "num_heads"),
            (lambda: nn.MultiHeadAttention(0, 2), "embed_dim", "0"),
            (lambda: nn.MultiHeadAttention(8, 0), "num_heads", "0"),
            (lambda: nn.TransformerEncoderLayer(8, 3, 16), "embed_dim", "num_heads"),
            (lambda: nn.TransformerDecoderLayer(8, 3, 16), "embed_dim", "num_heads"),
            (lambda: nn.Transformer(8, 3, 1, 1, 16), "embed_dim", "num_heads"),
            (lambda: mha(kdim=6)(q, _t(b, seq, e), _t(b, seq, e)), "[8]", "[6]"),
            (lambda: mha()(_t(b, seq, e + 1)), "[9]", "[8]"),
            (lambda: mha()(q, attn_mask=_z(b, seq, seq + 1)), "[2, 2, 3, 3]", "[2, 3, 4]"),
            (lambda: mha()(q, attn_mask=_z(b, h + 1, seq, seq)), "[2, 2, 3, 3]", "[2, 3, 3, 3]"),
            (lambda: mha()(q, attn_mask=_z(seq + 1, seq)), "[2, 2, 3, 3]", "[4, 3]"),
            (lambda: mha()(q, _t(b + 1, seq, e), _t(b + 1, seq, e)), "[2]", "[3]"),
            (lambda: mha()(q, attn_mask=_z(seq, seq, dtype="int64")).shape,),
            (lambda: mha()(q, attn_mask=_z(seq, seq, dtype="float64")).shape,),
            (lambda: nn.TransformerEncoderLayer(8, 2, 16)(q, _z(b, seq, seq + 1)), "[2, 3, 4]"),
            (lambda: nn.TransformerEncoderLayer(8, 2, 16)(_t(b, seq, 6)), "[6]", "[8]"),
            (lambda: sdpa(q4, q4, q4, attn_mask=_z(b, h, seq, seq + 1)), "[2, 2, 3, 4]"),
            (lambda: sdpa(q4, q4, q4, attn_mask=_z(b + 1, h, seq, seq)), "[3, 2, 3, 3]"),
            (lambda: sdpa(q4, q4, q4, attn_mask=_z(seq + 1, seq)), "[2, 2, 3, 3]", "[4, 3]"),
            (
                lambda: sdpa(q4, q4, q4, attn_mask=_z(b, h, seq, seq, dtype="int64")),
                "float32",
                "int64",
            ),
            (
                lambda: sdpa(q4, q4, q4, attn_mask=_z(b, h, seq, seq, dtype="float64")),
                "float32",
                "float64",
            ),
            (lambda: sdpa(q4, _t(b, seq, h, 5), _t(b, seq, h, 5)), "[4]", "[5]"),
            (lambda: sdpa(q4, _t(b, seq, h + 1, 4), _t(b, seq, h + 1, 4)), "query(2)", "key(3)"),
            (lambda: sdpa(_t(b, seq, 3, 4), _t(b, seq, 2, 4), _t(b, seq, 2, 4)), "query(3)"),
            (lambda: sdpa(q4, _t(b + 1, seq, h, 4), _t(b + 1, seq, h, 4)), "[2]", "[3]"),
            (lambda: sdpa(q4, _t(b, seq, h, 4), _t(b, seq + 1, h, 4)), "[3]", "[4]"),
            (lambda: sdpa(q4, q4.astype("float64"), q4), "float32", "float64"),
        ]
    )


# -- recurrent layers -------------------------------------------------------------------------
def case_rnn_configuration():
    b, seq, i, h = 3, 4, 5, 6
    x = _t(b, seq, i)
    lens = paddle.to_tensor(np.array([2, 3], dtype="int64"))
    return _table(
        [
            (lambda: nn.LSTM(i + 1, h)(x), "5", "6"),
            (lambda: nn.GRU(i + 1, h)(x), "5", "6"),
            (lambda: nn.SimpleRNN(i + 1, h, time_major=True)(x), "5", "6"),
            (lambda: nn.LSTM(i, h)(x, (_z(1, b, h + 1), _z(1, b, h))), "1, 3, 7"),
            (lambda: nn.LSTM(i, h)(x, (_z(1, b, h), _z(1, b, h + 1))), "1, 3, 7"),
            (lambda: nn.GRU(i, h)(x, _z(1, b, h + 1)), "7", "6"),
            (lambda: nn.SimpleRNN(i, h)(x, _z(1, b, h + 1)), "7", "6"),
            (lambda: nn.LSTM(i, h, num_layers=2)(x, (_z(1, b, h),) * 2), "num_layers", "dim:1"),
            (lambda: nn.GRU(i, h, direction="bidirect")(x, _z(1, b, h)), "num_layers", "dim:1"),
            (lambda: nn.SimpleRNN(i, h, num_layers=3)(x, _z(2, b, h)), "num_layers:3", "dim:2"),
            (lambda: nn.LSTM(i, h)(x, (_z(1, b + 1, h),) * 2), "batch size", "3 and 4"),
            (lambda: nn.GRU(i, h)(x, _z(1, b + 1, h)), "batch size", "3 and 4"),
            (lambda: nn.LSTM(i, h)(x, (_z(b, h), _z(b, h))), "rank", "3", "2"),
            (lambda: nn.LSTM(i, h)(x, _z(1, b, h)), "LSTM", "2", "1"),
            (lambda: nn.GRU(i, h)(x, (_z(1, b, h), _z(1, b, h))), "GRU", "2"),
            (lambda: nn.LSTM(i, h, direction="backward"), "direction", "backward"),
            (lambda: nn.GRU(i, h, direction="bi"), "direction", "bi"),
            (lambda: nn.SimpleRNN(i, h, direction="Forward"), "direction", "Forward"),
            (lambda: nn.LSTM(i, h)(x, sequence_length=lens), "SequenceLength", "batch_size"),
            (
                lambda: nn.GRU(i, h)(x, sequence_length=_ids([[2, 3, 1]])),
                "SequenceLength",
                "is 3",
                "is 1",
            ),
            (lambda: nn.RNN(nn.GRUCell(i, h))(x, sequence_length=lens),),
            (lambda: nn.LSTM(i, h)(_t(b, seq, i, 1)), "rank", "4"),
            (lambda: nn.LSTMCell(i + 1, h)(x[:, 0]), "[5]", "[6]"),
            (lambda: nn.GRUCell(i, h)(x[:, 0], _z(b, h + 1)), "[7]", "[6]"),
            (lambda: nn.GRUCell(i, h)(x[:, 0], _z(b + 1, h)), "[3, 6]", "[4, 6]"),
            (lambda: nn.LSTMCell(i, h)(x[:, 0], (_z(b, h), _z(b, h + 1))), "[3, 6]", "[3, 7]"),
        ]
    )


def case_layer_construction_and_rank():
    """Shuffle layers check their factor and data_format when built; InstanceNorm its rank."""
    ones = paddle.ones
    return _table(
        [
            (lambda: nn.InstanceNorm1D(3)(ones([2, 3, 4, 4])), "2D or 3D", "4D"),
            (lambda: nn.InstanceNorm1D(3)(ones([2, 3])),),
            (lambda: nn.InstanceNorm2D(3)(ones([2, 3, 4])), "4D", "3D"),
            (lambda: nn.InstanceNorm3D(3)(ones([2, 3, 4, 4])), "5D", "4D"),
            (lambda: nn.PixelShuffle(2, data_format="NCL"), "NCHW", "NCL"),
            (lambda: nn.PixelUnshuffle(2, data_format="NCL"), "NCHW", "NCL"),
            (lambda: nn.ChannelShuffle(2, data_format="NCL"), "NCHW", "NCL"),
            (lambda: nn.PixelUnshuffle(0), "Downscale factor", "positive"),
            (lambda: nn.PixelUnshuffle(2.0), "Downscale factor", "int"),
            (lambda: nn.PixelShuffle(0),),
            (lambda: nn.ChannelShuffle(-2), "groups", "positive"),
            (lambda: nn.ChannelShuffle(2.0), "groups", "int"),
        ]
    )


def case_label_dtypes():
    """one_hot takes int32/int64 labels, label_smooth float ones (Paddle's kernel lookup)."""
    t = paddle.to_tensor
    return _table(
        [
            (lambda: F.one_hot(t([1.0, 2.0]), 3), "one_hot", "float32"),
            (lambda: F.one_hot(t([True, False]), 3), "one_hot", "bool"),
            (lambda: F.one_hot(t([1, 2], "int32"), 3),),
            (lambda: F.label_smooth(t([[0, 1]])), "label_smooth", "int64"),
            (lambda: F.label_smooth(t([[0.0, 1.0]], "float64")),),
        ]
    )


def case_one_element_padding_list():
    """A 1-element padding list is the padding of a 1-D op only (Paddle's ValueError)."""
    x, w = paddle.ones([1, 2, 5, 5]), paddle.ones([3, 2, 3, 3])
    x1, w1 = paddle.ones([1, 2, 5]), paddle.ones([3, 2, 3])
    return _table(
        [
            (lambda: F.conv2d(x, w, padding=[1]), "padding", "[1]"),
            (lambda: F.conv2d(x, w, padding=(1,)), "padding"),
            (
                lambda: F.conv3d(
                    paddle.ones([1, 2, 5, 5, 5]), paddle.ones([3, 2, 3, 3, 3]), padding=[1]
                ),
                "padding",
            ),  # fmt: skip
            (lambda: F.conv2d_transpose(x, paddle.ones([2, 3, 3, 3]), padding=[1]), "padding"),
            (lambda: F.max_pool2d(x, 2, padding=[1]), "padding", "[1]"),
            (lambda: F.avg_pool2d(x, 2, padding=[1]), "padding"),
            (lambda: F.lp_pool2d(x, 2, 2, padding=[1]), "padding"),
            (lambda: F.conv1d(x1, w1, padding=[1]),),
            (lambda: F.max_pool1d(x1, 2, padding=[1]),),
        ]
    )
