"""Common layers: Linear, Bilinear, Embedding, dropouts, Flatten/Identity, padding, upsampling,
pixel/channel shuffles, Unfold/Fold, distances."""

from __future__ import annotations

from typing import Any

from ..._core.registry import call_op
from ..._core.tensor import Tensor
from .. import functional as F
from .._layer import Layer
from ._base import default_dtype_name, dtype_name, name_suffix

__all__ = [
    "Linear",
    "Bilinear",
    "Embedding",
    "Dropout",
    "Dropout2D",
    "Dropout3D",
    "AlphaDropout",
    "FeatureAlphaDropout",
    "Flatten",
    "Identity",
    "Pad1D",
    "Pad2D",
    "Pad3D",
    "ZeroPad1D",
    "ZeroPad2D",
    "ZeroPad3D",
    "Upsample",
    "UpsamplingNearest2D",
    "UpsamplingBilinear2D",
    "PixelShuffle",
    "PixelUnshuffle",
    "ChannelShuffle",
    "Unfold",
    "Fold",
    "CosineSimilarity",
    "PairwiseDistance",
    "Unflatten",
    "ReflectionPad1D",
    "ReflectionPad2D",
    "ReflectionPad3D",
    "ReplicationPad1D",
    "ReplicationPad2D",
    "ReplicationPad3D",
    "CircularPad1D",
    "CircularPad2D",
    "CircularPad3D",
    "ConstantPad1D",
    "ConstantPad2D",
    "ConstantPad3D",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
    "UpsamplingNearest2d",
    "UpsamplingBilinear2d",
]


class Linear(Layer):
    """y = x @ weight + bias with weight of shape [in_features, out_features] (XavierUniform)
    and bias [out_features] (zeros)."""

    def __init__(
        self,
        in_features: int,
        out_features: int,
        weight_attr=None,
        bias_attr=None,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=default_dtype_name())
        self._in_features, self._out_features, self.name = in_features, out_features, name
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self.weight = self.create_parameter(
            [in_features, out_features], attr=weight_attr, dtype=self._dtype, is_bias=False
        )
        self.bias = self.create_parameter(
            [out_features], attr=bias_attr, dtype=self._dtype, is_bias=True
        )

    def forward(self, input):  # noqa: A002 - Paddle's name
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self._in_features}, out_features={self._out_features}, "
            f"dtype={self._dtype}" + name_suffix(self.name)
        )


class Bilinear(Layer):
    """out = x1 @ weight[k] @ x2 + bias[k]; weight [out, in1, in2], bias [1, out]."""

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        weight_attr=None,
        bias_attr=None,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=default_dtype_name())
        self._in1, self._in2, self._out, self._name = (
            in1_features,
            in2_features,
            out_features,
            name,
        )
        self.weight = self.create_parameter(
            [out_features, in1_features, in2_features],
            attr=weight_attr,
            dtype=self._dtype,
            is_bias=False,
        )
        self.bias = self.create_parameter(
            [1, out_features], attr=bias_attr, dtype=self._dtype, is_bias=True
        )

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self._in1}, in2_features={self._in2}, "
            f"out_features={self._out}, dtype={self._dtype}" + name_suffix(self._name)
        )


class Embedding(Layer):
    """Lookup table [num_embeddings, embedding_dim] (XavierUniform; the padding_idx row starts
    at zero and gets no gradient)."""

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx=None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        *,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight=None,
        _freeze: bool = False,
        device=None,
        dtype=None,
        weight_attr=None,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=dtype_name(dtype))
        if num_embeddings <= 0 or embedding_dim <= 0:
            raise ValueError(
                "num_embeddings and embedding_dim must be greater than 0, got "
                f"{num_embeddings} and {embedding_dim}"
            )
        if padding_idx is not None and not -num_embeddings <= padding_idx < num_embeddings:
            raise ValueError(f"padding_idx must be within [-{num_embeddings}, {num_embeddings})")
        self._num_embeddings, self._embedding_dim = num_embeddings, embedding_dim
        self._padding_idx = padding_idx
        self._max_norm, self._norm_type = max_norm, norm_type
        self._sparse, self._scale_grad_by_freq, self._name = sparse, scale_grad_by_freq, name
        self._size, self._weight_attr, self._device = (
            [num_embeddings, embedding_dim],
            weight_attr,
            device,
        )
        self._is_distributed = self._remote_prefetch = False
        self.weight = self.create_parameter(
            [num_embeddings, embedding_dim], attr=weight_attr, dtype=self._dtype, is_bias=False
        )
        if _weight is not None:
            self.weight.set_value(_weight)
        if padding_idx is not None:
            row = padding_idx % num_embeddings
            self.weight._set_value(self.weight._value.at[row].set(0))
        if _freeze:
            self.weight.stop_gradient = True

    def forward(self, x):
        return F.embedding(
            x, self.weight, self._padding_idx, self._max_norm, self._norm_type, self._sparse
        )

    def extra_repr(self) -> str:
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        s += f", sparse={self._sparse}, scale_grad_by_freq={self._scale_grad_by_freq}"
        return s + name_suffix(self._name)


# -- dropout ----------------------------------------------------------------------------------
class Dropout(Layer):
    """Zero elements with probability p in training (identity in eval for upscale_in_train)."""

    def __init__(
        self,
        p: float = 0.5,
        inplace: bool = False,
        axis=None,
        mode: str = "upscale_in_train",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.p, self.inplace, self.axis, self.mode, self.name = p, inplace, axis, mode, name

    def forward(self, input):  # noqa: A002
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self) -> str:
        return (
            f"p={self.p}, axis={self.axis}, mode={self.mode}"
            + name_suffix(self.name)
            + f", inplace={self.inplace}"
        )


class Dropout2D(Layer):
    """Zero whole channels of a 4-D input with probability p in training."""

    _fn = staticmethod(F.dropout2d)
    _default_format = "NCHW"

    def __init__(
        self, p: float = 0.5, data_format: str | None = None, name: str | None = None
    ) -> None:
        super().__init__()
        self.p, self.name = p, name
        self.data_format = data_format or self._default_format

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}" + name_suffix(self.name)


class Dropout3D(Dropout2D):
    """Zero whole channels of a 5-D input with probability p in training."""

    _fn = staticmethod(F.dropout3d)
    _default_format = "NCDHW"


class AlphaDropout(Layer):
    """Dropout that keeps selu's self-normalizing statistics."""

    _fn = staticmethod(F.alpha_dropout)

    def __init__(self, p: float = 0.5, name: str | None = None) -> None:
        super().__init__()
        self.p, self.name = p, name

    def forward(self, input):  # noqa: A002
        return type(self)._fn(input, p=self.p, training=self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}" + name_suffix(self.name)


class FeatureAlphaDropout(AlphaDropout):
    """AlphaDropout over whole channels."""

    _fn = staticmethod(F.feature_alpha_dropout)


# -- shape utilities --------------------------------------------------------------------------
class Flatten(Layer):
    """Flatten the axes start_axis..stop_axis into one."""

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input):  # noqa: A002
        return call_op("flatten", input, start_axis=self.start_axis, stop_axis=self.stop_axis)


class Identity(Layer):
    """Return the input unchanged (any constructor arguments are ignored)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input):  # noqa: A002
        return input


# -- padding ----------------------------------------------------------------------------------
class _PadNd(Layer):
    _n = 2
    _default_format = "NCHW"

    def __init__(
        self,
        padding,
        mode: str = "constant",
        value: float = 0.0,
        data_format: str | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        if isinstance(padding, int):
            padding = [padding] * (2 * self._n)
        # kept as given (a tuple or Tensor prints as such, as in Paddle); Paddle's names
        self.padding, self._mode, self.value = padding, mode, value
        self._data_format, self._name = data_format or self._default_format, name

    def forward(self, x):
        pad = self.padding.tolist() if isinstance(self.padding, Tensor) else list(self.padding)
        return F.pad(x, pad, mode=self._mode, value=self.value, data_format=self._data_format)

    def extra_repr(self) -> str:
        return (
            f"padding={self.padding}, mode={self._mode}, value={self.value}, "
            f"data_format={self._data_format}" + name_suffix(self._name)
        )


class Pad1D(_PadNd):
    """Pad the L axis by [left, right] (constant/reflect/replicate/circular)."""

    _n, _default_format = 1, "NCL"


class Pad2D(_PadNd):
    """Pad H and W by [left, right, top, bottom]."""

    _n, _default_format = 2, "NCHW"


class Pad3D(_PadNd):
    """Pad D, H and W by [left, right, top, bottom, front, back]."""

    _n, _default_format = 3, "NCDHW"


class ZeroPad1D(Pad1D):
    """Zero-pad the L axis."""

    def __init__(self, padding, data_format: str | None = None, name: str | None = None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad2D(Pad2D):
    """Zero-pad H and W by [left, right, top, bottom]."""

    def __init__(self, padding, data_format: str | None = None, name: str | None = None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad3D(Pad3D):
    """Zero-pad D, H and W."""

    def __init__(self, padding, data_format: str | None = None, name: str | None = None):
        super().__init__(padding, "constant", 0.0, data_format, name)


def _mode_pad(base, mode: str, doc: str):
    def __init__(self, padding, data_format: str | None = None, name: str | None = None):
        base.__init__(self, padding, mode, 0.0, data_format, name)

    name = {"reflect": "Reflection", "replicate": "Replication", "circular": "Circular"}[mode]
    cls = type(f"{name}Pad{base._n}D", (base,), {"__init__": __init__, "__doc__": doc})
    cls.__module__ = __name__
    return cls


def _constant_pad(base):
    def __init__(
        self, padding, value: float, data_format: str | None = None, name: str | None = None
    ):
        base.__init__(self, padding, "constant", value, data_format, name)

    cls = type(
        f"ConstantPad{base._n}D",
        (base,),
        {"__init__": __init__, "__doc__": "Pad with a constant ``value``."},
    )
    cls.__module__ = __name__
    return cls


ReflectionPad1D = _mode_pad(Pad1D, "reflect", "Reflect-pad the L axis.")
ReflectionPad2D = _mode_pad(Pad2D, "reflect", "Reflect-pad H and W.")
ReflectionPad3D = _mode_pad(Pad3D, "reflect", "Reflect-pad D, H and W.")
ReplicationPad1D = _mode_pad(Pad1D, "replicate", "Edge-pad the L axis.")
ReplicationPad2D = _mode_pad(Pad2D, "replicate", "Edge-pad H and W.")
ReplicationPad3D = _mode_pad(Pad3D, "replicate", "Edge-pad D, H and W.")
CircularPad1D = _mode_pad(Pad1D, "circular", "Wrap-pad the L axis.")
CircularPad2D = _mode_pad(Pad2D, "circular", "Wrap-pad H and W.")
CircularPad3D = _mode_pad(Pad3D, "circular", "Wrap-pad D, H and W.")
ConstantPad1D = _constant_pad(Pad1D)
ConstantPad2D = _constant_pad(Pad2D)
ConstantPad3D = _constant_pad(Pad3D)
(
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
) = (
    ReflectionPad1D,
    ReflectionPad2D,
    ReflectionPad3D,
    ReplicationPad1D,
    ReplicationPad2D,
    ReplicationPad3D,
    CircularPad1D,
    CircularPad2D,
    CircularPad3D,
    ConstantPad1D,
    ConstantPad2D,
    ConstantPad3D,
    ZeroPad1D,
    ZeroPad2D,
    ZeroPad3D,
)


class Unflatten(Layer):
    """Split axis ``axis`` into ``shape``."""

    def __init__(self, axis: int, shape, name: str | None = None) -> None:
        super().__init__()
        self.axis, self.shape, self.name = axis, shape, name

    def forward(self, input):  # noqa: A002
        nd = len(input.shape)
        ax = self.axis % nd
        shape = list(self.shape.tolist() if isinstance(self.shape, Tensor) else self.shape)
        new = list(input.shape[:ax]) + shape + list(input.shape[ax + 1 :])
        return call_op("reshape", input, new)

    def extra_repr(self) -> str:
        return f"axis={self.axis}, shape={self.shape}" + name_suffix(self.name)


# -- upsampling -------------------------------------------------------------------------------
class Upsample(Layer):
    """Resize with ``paddle.nn.functional.interpolate``."""

    def __init__(
        self,
        size=None,
        scale_factor=None,
        mode: str = "nearest",
        align_corners: bool = False,
        align_mode: int = 0,
        data_format=None,
        recompute_scale_factor=None,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format = (
            align_corners,
            align_mode,
            data_format,
        )
        self.recompute_scale_factor, self.name = recompute_scale_factor, name

    def forward(self, x):
        if self.data_format is None:  # Paddle fills it in on the first call (shown by repr)
            self.data_format = {3: "NCW", 4: "NCHW", 5: "NCDHW"}.get(len(x.shape))
        return F.interpolate(
            x,
            size=self.size,
            scale_factor=self.scale_factor,
            mode=self.mode,
            align_corners=self.align_corners,
            align_mode=self.align_mode,
            data_format=self.data_format,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        main = (
            f"scale_factor={self.scale_factor}"
            if self.scale_factor is not None
            else f"size={self.size}"
        )
        return (
            f"{main}, mode={self.mode}, align_corners={self.align_corners}, "
            f"align_mode={self.align_mode}, data_format={self.data_format}" + name_suffix(self.name)
        )


class UpsamplingNearest2D(Layer):
    """Nearest-neighbour 2-D upsampling."""

    _mode, _align = "nearest", False

    def __init__(
        self, size=None, scale_factor=None, data_format: str = "NCHW", name: str | None = None
    ) -> None:
        super().__init__()
        self.size, self.scale_factor, self.data_format, self.name = (
            size,
            scale_factor,
            data_format,
            name,
        )

    def forward(self, x):
        return F.interpolate(
            x,
            size=self.size,
            scale_factor=self.scale_factor,
            mode=self._mode,
            align_corners=self._align,
            align_mode=0,
            data_format=self.data_format,
        )

    def extra_repr(self) -> str:
        main = (
            f"scale_factor={self.scale_factor}"
            if self.scale_factor is not None
            else f"size={self.size}"
        )
        return f"{main}, data_format={self.data_format}" + name_suffix(self.name)


class UpsamplingBilinear2D(UpsamplingNearest2D):
    """Bilinear 2-D upsampling with align_corners=True."""

    _mode, _align = "bilinear", True


class _Factor(Layer):
    _fn = None
    _label = "upscale_factor"
    _checked = None  # how Paddle's int / positive checks name the factor (None: no checks)

    def __init__(self, factor: int, data_format: str = "NCHW", name: str | None = None):
        if self._checked is not None:
            if not isinstance(factor, int) or isinstance(factor, bool):
                raise TypeError(f"{self._checked} must be int type")
            if factor <= 0:
                raise ValueError(f"{self._checked} must be positive")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(
                f"Data format should be 'NCHW' or 'NHWC'.But receive data format: {data_format}"
            )
        super().__init__()
        self._factor, self._data_format, self._name = factor, data_format, name

    def forward(self, x):
        return type(self)._fn(x, self._factor, self._data_format)

    def extra_repr(self) -> str:
        s = f"{self._label}={self._factor}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        return s + name_suffix(self._name)


class PixelShuffle(_Factor):
    """[N, C*r*r, H, W] -> [N, C, H*r, W*r]."""

    _fn = staticmethod(F.pixel_shuffle)


class PixelUnshuffle(_Factor):
    """[N, C, H*r, W*r] -> [N, C*r*r, H, W]."""

    _fn, _label = staticmethod(F.pixel_unshuffle), "downscale_factor"
    _checked = "Downscale factor"


class ChannelShuffle(_Factor):
    """Interleave channel groups."""

    _fn, _label = staticmethod(F.channel_shuffle), "groups"
    _checked = "groups"


class Unfold(Layer):
    """im2col: sliding blocks of [N, C, H, W] -> [N, C*kh*kw, L]."""

    def __init__(
        self, kernel_sizes, dilations=1, paddings=0, strides=1, name: str | None = None
    ) -> None:
        super().__init__()
        self.kernel_sizes, self.dilations, self.paddings, self.strides, self.name = (
            kernel_sizes,
            dilations,
            paddings,
            strides,
            name,
        )

    def forward(self, input):  # noqa: A002
        return F.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, "
            f"padding={self.paddings}, stride={self.strides}" + name_suffix(self.name)
        )


class Fold(Unfold):
    """col2im: sum sliding blocks back into [N, C, H, W]."""

    def __init__(
        self,
        output_sizes,
        kernel_sizes,
        dilations=1,
        paddings=0,
        strides=1,
        name: str | None = None,
    ) -> None:
        super().__init__(kernel_sizes, dilations, paddings, strides, name)
        self.output_sizes = output_sizes

    def forward(self, input):  # noqa: A002
        return F.fold(
            input, self.output_sizes, self.kernel_sizes, self.strides, self.paddings, self.dilations
        )


class CosineSimilarity(Layer):
    """Cosine similarity of x1 and x2 along ``axis``."""

    def __init__(self, axis: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"


class PairwiseDistance(Layer):
    """p-norm of x - y + epsilon along the last axis."""

    def __init__(
        self, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False, name: str | None = None
    ) -> None:
        super().__init__()
        self.p, self.epsilon, self.keepdim, self.name = p, epsilon, keepdim, name

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self) -> str:
        s = f"p={self.p}"
        if self.epsilon != 1e-6:
            s += f", epsilon={self.epsilon}"
        if self.keepdim:
            s += ", keepdim=True"
        return s + name_suffix(self.name)


UpsamplingNearest2d, UpsamplingBilinear2d = UpsamplingNearest2D, UpsamplingBilinear2D
