"""Normalization layers. BatchNorm keeps its running statistics in the non-trainable
Parameters ``_mean`` and ``_variance`` (state_dict keys ``_mean``/``_variance``, as in Paddle)."""

from __future__ import annotations

import math

from ...framework import ParamAttr
from .. import functional as F
from .._layer import Layer
from ..initializer import Constant
from ._base import default_dtype_name, dtype_name, name_suffix

__all__ = [
    "BatchNorm",
    "BatchNorm1D",
    "BatchNorm2D",
    "BatchNorm3D",
    "SyncBatchNorm",
    "LayerNorm",
    "GroupNorm",
    "InstanceNorm1D",
    "InstanceNorm2D",
    "InstanceNorm3D",
    "LocalResponseNorm",
]


def _stat(layer: Layer, n: int, value: float, name: str | None):
    attr = ParamAttr(name=name, initializer=Constant(value), trainable=False, do_model_average=True)
    dt = "float32" if layer._dtype in ("float16", "bfloat16") else layer._dtype
    p = layer.create_parameter([n], attr=attr, dtype=dt)
    p.stop_gradient = True
    return p


class _BatchNormBase(Layer):
    _ndims: tuple[int, ...] = ()
    _formats: tuple[str, ...] = ()

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NCHW",
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=default_dtype_name())
        self._fuse_with_relu = self._in_place = False
        self._num_features, self._momentum, self._epsilon = num_features, momentum, epsilon
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._data_format, self._use_global_stats, self._name = (
            data_format,
            use_global_stats,
            name,
        )
        self.weight = self.create_parameter(
            [num_features], attr=weight_attr, dtype=self._dtype, default_initializer=Constant(1.0)
        )
        self.bias = self.create_parameter(
            [num_features], attr=bias_attr, dtype=self._dtype, is_bias=True
        )
        # a named layer names its statistics <name>_mean / <name>_variance (reusing the
        # name raises ValueError, as Paddle)
        self._mean = _stat(self, num_features, 0.0, f"{name}_mean" if name else None)
        self._variance = _stat(self, num_features, 1.0, f"{name}_variance" if name else None)

    def _check_input(self, x):
        if self._ndims and len(x.shape) not in self._ndims:
            dims = " or ".join(f"{d}D" for d in self._ndims)
            raise ValueError(f"expected {dims} input (got {len(x.shape)}D input)")
        if self._formats and self._data_format not in self._formats:
            raise ValueError(
                f"data_format must be one of {self._formats}, but got {self._data_format}"
            )

    def forward(self, input):  # noqa: A002
        self._check_input(input)
        if self._ndims != (4,) and self._formats:
            # Paddle runs 1-D/3-D batch norm as NCHW/NHWC and keeps that format (and repr)
            cl = self._data_format in ("NLC", "NDHWC")
            self._data_format = "NHWC" if cl else "NCHW"
        return F.batch_norm(
            input,
            self._mean,
            self._variance,
            weight=self.weight,
            bias=self.bias,
            training=self.training,
            momentum=self._momentum,
            epsilon=self._epsilon,
            data_format=self._data_format,
            use_global_stats=self._use_global_stats,
        )

    def extra_repr(self) -> str:
        s = f"num_features={self._num_features}, momentum={self._momentum}, epsilon={self._epsilon}"
        if self._data_format != "NCHW":
            s += f", data_format={self._data_format}"
        return s + name_suffix(self._name)


class BatchNorm1D(_BatchNormBase):
    """Batch normalization over [N, C] or [N, C, L] (NC/NCL/NLC) inputs."""

    _ndims, _formats = (2, 3), ("NC", "NCL", "NLC", "NCHW", "NHWC")

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NCL",
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            num_features,
            momentum,
            epsilon,
            weight_attr,
            bias_attr,
            data_format,
            use_global_stats,
            name,
        )


class BatchNorm2D(_BatchNormBase):
    """Batch normalization over [N, C, H, W] (or NHWC) inputs."""

    _ndims, _formats = (4,), ("NCHW", "NHWC")


class BatchNorm3D(_BatchNormBase):
    """Batch normalization over [N, C, D, H, W] (or NDHWC) inputs."""

    _ndims, _formats = (5,), ("NCDHW", "NDHWC", "NCHW", "NHWC")

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NCDHW",
        use_global_stats: bool | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(
            num_features,
            momentum,
            epsilon,
            weight_attr,
            bias_attr,
            data_format,
            use_global_stats,
            name,
        )


class SyncBatchNorm(_BatchNormBase):
    """Batch normalization; on one process the same as BatchNorm (statistics are not yet
    synchronized across data-parallel processes)."""

    def __init__(
        self,
        num_features: int,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(
            num_features, momentum, epsilon, weight_attr, bias_attr, data_format, None, name
        )
        # Paddle's SyncBatchNorm keeps a frozen weight of ones / bias of zeros for a False attr
        for key, value, is_bias in (("weight", 1.0, False), ("bias", 0.0, True)):
            if getattr(self, key) is None:
                attr = ParamAttr(initializer=Constant(value), trainable=False)
                p = self.create_parameter([num_features], attr=attr, is_bias=is_bias)
                setattr(self, key, p)

    @classmethod
    def _sync_class_of(cls, layer: Layer) -> type:
        """The SyncBatchNorm class that ``convert_sync_batchnorm`` puts in place of ``layer``."""
        return SyncBatchNorm

    @classmethod
    def convert_sync_batchnorm(cls, layer: Layer) -> Layer:
        """Replace every BatchNorm1D/2D/3D in ``layer`` (and ``layer`` itself) by a
        SyncBatchNorm with its settings that shares its weight, bias and running statistics
        (named ParamAttrs get a ``_sync`` suffix); legacy ``BatchNorm`` is kept."""
        out = layer
        if isinstance(layer, _BatchNormBase):
            for attr in (layer._weight_attr, layer._bias_attr):
                if isinstance(attr, ParamAttr) and attr.name is not None:
                    attr.name += "_sync"
            out = cls._sync_class_of(layer)(
                layer._num_features,
                layer._momentum,
                layer._epsilon,
                layer._weight_attr,
                layer._bias_attr,
                layer._data_format,
                layer._name,
            )
            if layer._weight_attr is not False and layer._bias_attr is not False:
                out.weight, out.bias = layer.weight, layer.bias
            out._mean, out._variance = layer._mean, layer._variance
        for name, sub in layer.named_children():
            out.add_sublayer(name, cls.convert_sync_batchnorm(sub))
        return out


class BatchNorm(Layer):
    """Legacy batch normalization (``paddle.nn.BatchNorm``): optional activation ``act``,
    ``is_test`` forces the running statistics."""

    def __init__(
        self,
        num_channels: int,
        act: str | None = None,
        is_test: bool = False,
        momentum: float = 0.9,
        epsilon: float = 1e-05,
        param_attr=None,
        bias_attr=None,
        dtype="float32",
        data_layout: str = "NCHW",
        in_place: bool = False,
        moving_mean_name: str | None = None,
        moving_variance_name: str | None = None,
        do_model_average_for_mean_and_var: bool = True,
        use_global_stats: bool = False,
        trainable_statistics: bool = False,
    ) -> None:
        super().__init__(dtype=dtype_name(dtype))
        self._fuse_with_relu = self._in_place = False
        self._param_attr, self._bias_attr = param_attr, bias_attr
        self._act, self._is_test, self._momentum, self._epsilon = act, is_test, momentum, epsilon
        self._data_layout, self._use_global_stats = data_layout, use_global_stats
        self._trainable_statistics = trainable_statistics
        self.weight = self.create_parameter(
            [num_channels], attr=param_attr, dtype=self._dtype, default_initializer=Constant(1.0)
        )
        self.bias = self.create_parameter(
            [num_channels], attr=bias_attr, dtype=self._dtype, is_bias=True
        )
        self._mean = _stat(self, num_channels, 0.0, moving_mean_name)
        self._variance = _stat(self, num_channels, 1.0, moving_variance_name)

    def forward(self, input):  # noqa: A002
        training = self.training and not self._is_test
        if self._use_global_stats:
            ugs = True
        elif self._trainable_statistics and not training:
            ugs = False
        else:
            ugs = None
        y = F.batch_norm(
            input,
            self._mean,
            self._variance,
            weight=self.weight,
            bias=self.bias,
            training=training,
            momentum=self._momentum,
            epsilon=self._epsilon,
            data_format=self._data_layout,
            use_global_stats=ugs,
        )
        if self._act is None:
            return y
        return getattr(F, self._act)(y)


class LayerNorm(Layer):
    """Normalize over the trailing ``normalized_shape`` axes; weight (ones) and bias (zeros)
    are flat with prod(normalized_shape) entries."""

    def __init__(
        self,
        normalized_shape,
        epsilon: float = 1e-05,
        *,
        elementwise_affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
        weight_attr=None,
        bias_attr=None,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=dtype_name(dtype))
        self._weight_attr, self._bias_attr, self._device = weight_attr, bias_attr, None
        if isinstance(normalized_shape, int):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon, self._name = epsilon, name
        n = [math.prod(self._normalized_shape)]
        if not elementwise_affine:
            weight_attr = bias_attr = False
        elif not bias:
            bias_attr = False
        self.weight = (
            None
            if weight_attr is False
            else self.create_parameter(
                n, attr=weight_attr, dtype=self._dtype, default_initializer=Constant(1.0)
            )
        )
        self.bias = (
            None
            if bias_attr is False
            else self.create_parameter(n, attr=bias_attr, dtype=self._dtype, is_bias=True)
        )

    def forward(self, input):  # noqa: A002
        return F.layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self) -> str:
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class GroupNorm(Layer):
    """Normalize over groups of channels; per-channel weight (ones) and bias (zeros)."""

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        epsilon: float = 1e-05,
        *,
        affine: bool = True,
        device=None,
        dtype=None,
        weight_attr=None,
        bias_attr=None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=dtype_name(dtype))
        self._weight_attr, self._bias_attr, self._device = weight_attr, bias_attr, None
        self._num_groups, self._num_channels, self._epsilon = num_groups, num_channels, epsilon
        self._data_format, self._name = data_format, name
        if not affine:
            weight_attr = bias_attr = False
        self.weight = (
            None
            if weight_attr is False
            else self.create_parameter(
                [num_channels],
                attr=weight_attr,
                dtype=self._dtype,
                default_initializer=Constant(1.0),
            )
        )
        self.bias = (
            None
            if bias_attr is False
            else self.create_parameter(
                [num_channels], attr=bias_attr, dtype=self._dtype, is_bias=True
            )
        )

    def forward(self, input):  # noqa: A002
        return F.group_norm(
            input, self._num_groups, self._epsilon, self.weight, self.bias, self._data_format
        )

    def extra_repr(self) -> str:
        return (
            f"num_groups={self._num_groups}, num_channels={self._num_channels}, "
            f"epsilon={self._epsilon}"
        )


class _InstanceNormBase(Layer):
    _default_format = "NCHW"
    _ranks: tuple[int, ...] = (4,)  # the input ranks forward accepts (Paddle's ValueError)

    def __init__(
        self,
        num_features: int,
        epsilon: float = 1e-05,
        momentum: float = 0.9,
        weight_attr=None,
        bias_attr=None,
        data_format: str | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=default_dtype_name())
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._num_features, self._epsilon, self._momentum = num_features, epsilon, momentum
        self._data_format, self._name = data_format or self._default_format, name
        if weight_attr is False or bias_attr is False:
            self.scale = self.bias = None
        else:
            self.scale = self.create_parameter(
                [num_features],
                attr=weight_attr,
                dtype=self._dtype,
                default_initializer=Constant(1.0),
            )
            self.bias = self.create_parameter(
                [num_features], attr=bias_attr, dtype=self._dtype, is_bias=True
            )

    def forward(self, input):  # noqa: A002
        if len(input.shape) not in self._ranks:
            want = " or ".join(f"{r}D" for r in self._ranks)
            raise ValueError(f"expected {want} input (got {len(input.shape)}D input)")
        return F.instance_norm(
            input,
            weight=self.scale,
            bias=self.bias,
            eps=self._epsilon,
            data_format=self._data_format,
        )

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    """Instance normalization of [N, C, L] inputs (parameters ``scale`` and ``bias``)."""

    _default_format = "NCL"
    _ranks = (2, 3)


class InstanceNorm2D(_InstanceNormBase):
    """Instance normalization of [N, C, H, W] inputs."""

    _default_format = "NCHW"
    _ranks = (4,)


class InstanceNorm3D(_InstanceNormBase):
    """Instance normalization of [N, C, D, H, W] inputs."""

    _default_format = "NCDHW"
    _ranks = (5,)


class LocalResponseNorm(Layer):
    """Normalize by the squared sum over ``size`` neighbouring channels."""

    def __init__(
        self,
        size: int,
        alpha: float = 0.0001,
        beta: float = 0.75,
        k: float = 1.0,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format, self.name = data_format, name

    def forward(self, input):  # noqa: A002
        return F.local_response_norm(
            input, self.size, self.alpha, self.beta, self.k, self.data_format
        )

    def extra_repr(self) -> str:
        s = f"size={self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
        if self.data_format != "NCHW":
            s += f", data_format={self.data_format}"
        return s + name_suffix(self.name)
