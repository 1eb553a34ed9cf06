"""MobileNetV3 small and large (``paddle.vision.models.mobilenetv3``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ... import nn
from ..._ops.manipulation import flatten
from ..._ops.math import add
from ..ops import ConvNormActivation
from ._utils import _make_divisible, build

__all__: list[str] = []

_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
# Paddle's pretrained weights: arch -> (url, md5)
model_urls = {
    "mobilenet_v3_small_x1.0": (
        f"{_HAPI}mobilenet_v3_small_x1.0.pdparams",
        "34fe0e7c1f8b00b2b056ad6788d0590c",
    ),
    "mobilenet_v3_large_x1.0": (
        f"{_HAPI}mobilenet_v3_large_x1.0.pdparams",
        "118db5792b4e183b925d8e8e334db3df",
    ),
}


class SqueezeExcitation(nn.Layer):
    """Squeeze-and-excitation: global average pool, 1x1 conv, ``activation``, 1x1 conv,
    ``scale_activation``, then rescale the input channel-wise."""

    def __init__(
        self,
        input_channels: int,
        squeeze_channels: int,
        activation: Callable[..., nn.Layer] = nn.ReLU,
        scale_activation: Callable[..., nn.Layer] = nn.Sigmoid,
    ) -> None:
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2D(1)
        self.fc1 = nn.Conv2D(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2D(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def _scale(self, input):
        scale = self.activation(self.fc1(self.avgpool(input)))
        return self.scale_activation(self.fc2(scale))

    def forward(self, input):
        return self._scale(input) * input


_ACTIVATIONS = {None: None, "relu": nn.ReLU, "hardswish": nn.Hardswish}


class InvertedResidualConfig:
    """One block's settings; channel counts are scaled by ``scale`` and rounded to
    multiples of 8."""

    def __init__(
        self,
        in_channels: int,
        kernel: int,
        expanded_channels: int,
        out_channels: int,
        use_se: bool,
        activation: str | None,
        stride: int,
        scale: float = 1.0,
    ):
        self.in_channels = self.adjust_channels(in_channels, scale=scale)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, scale=scale)
        self.out_channels = self.adjust_channels(out_channels, scale=scale)
        self.use_se = use_se
        if activation not in _ACTIVATIONS:
            raise RuntimeError(f"The activation function is not supported: {activation}")
        self.activation_layer = _ACTIVATIONS[activation]
        self.stride = stride

    @staticmethod
    def adjust_channels(channels, scale=1.0):
        return _make_divisible(channels * scale, 8)


class InvertedResidual(nn.Layer):
    """Optional 1x1 expansion, kxk depthwise conv, optional squeeze-excitation, linear 1x1
    projection; residual when the stride is 1 and channels are kept."""

    def __init__(
        self,
        in_channels: int,
        expanded_channels: int,
        out_channels: int,
        filter_size: int,
        stride: int,
        use_se: bool,
        activation_layer: Callable[..., nn.Layer],
        norm_layer: Callable[..., nn.Layer],
    ) -> None:
        super().__init__()
        self.use_res_connect = stride == 1 and in_channels == out_channels
        self.use_se = use_se
        self.expand = in_channels != expanded_channels
        unit = partial(ConvNormActivation, norm_layer=norm_layer)
        if self.expand:
            self.expand_conv = unit(
                in_channels,
                expanded_channels,
                kernel_size=1,
                stride=1,
                padding=0,
                activation_layer=activation_layer,
            )
        self.bottleneck_conv = unit(
            expanded_channels,
            expanded_channels,
            kernel_size=filter_size,
            stride=stride,
            padding=int((filter_size - 1) // 2),
            groups=expanded_channels,
            activation_layer=activation_layer,
        )
        if use_se:
            self.mid_se = SqueezeExcitation(
                expanded_channels,
                _make_divisible(expanded_channels // 4),
                scale_activation=nn.Hardsigmoid,
            )
        self.linear_conv = unit(
            expanded_channels,
            out_channels,
            kernel_size=1,
            stride=1,
            padding=0,
            activation_layer=None,
        )

    def forward(self, x):
        identity = x
        if self.expand:
            x = self.expand_conv(x)
        x = self.bottleneck_conv(x)
        if self.use_se:
            x = self.mid_se(x)
        x = self.linear_conv(x)
        return add(identity, x) if self.use_res_connect else x


class MobileNetV3(nn.Layer):
    """MobileNetV3 body from a list of ``InvertedResidualConfig``; the classifier's hidden
    width is ``last_channel`` (``num_classes <= 0`` drops the classifier, ``with_pool=False``
    the global average pool)."""

    def __init__(
        self,
        config: list[InvertedResidualConfig],
        last_channel: int,
        scale: float = 1.0,
        num_classes: int = 1000,
        with_pool: bool = True,
    ) -> None:
        super().__init__()
        self.config = config
        self.scale = scale
        self.last_channel = last_channel
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.firstconv_in_channels = config[0].in_channels
        self.lastconv_in_channels = config[-1].in_channels
        self.lastconv_out_channels = self.lastconv_in_channels * 6
        norm_layer = partial(nn.BatchNorm2D, epsilon=0.001, momentum=0.99)
        self.conv = ConvNormActivation(
            3,
            self.firstconv_in_channels,
            kernel_size=3,
            stride=2,
            padding=1,
            groups=1,
            activation_layer=nn.Hardswish,
            norm_layer=norm_layer,
        )
        self.blocks = nn.Sequential(
            *[
                InvertedResidual(
                    c.in_channels,
                    c.expanded_channels,
                    c.out_channels,
                    c.kernel,
                    c.stride,
                    c.use_se,
                    c.activation_layer,
                    norm_layer,
                )
                for c in config
            ]
        )
        self.lastconv = ConvNormActivation(
            self.lastconv_in_channels,
            self.lastconv_out_channels,
            kernel_size=1,
            stride=1,
            padding=0,
            groups=1,
            norm_layer=norm_layer,
            activation_layer=nn.Hardswish,
        )
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(self.lastconv_out_channels, last_channel),
                nn.Hardswish(),
                nn.Dropout(p=0.2),
                nn.Linear(last_channel, num_classes),
            )

    def forward(self, x):
        x = self.lastconv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(flatten(x, 1))
        return x


# (in, kernel, expanded, out, use_se, activation, stride)
_SMALL = [
    (16, 3, 16, 16, True, "relu", 2),
    (16, 3, 72, 24, False, "relu", 2),
    (24, 3, 88, 24, False, "relu", 1),
    (24, 5, 96, 40, True, "hardswish", 2),
    (40, 5, 240, 40, True, "hardswish", 1),
    (40, 5, 240, 40, True, "hardswish", 1),
    (40, 5, 120, 48, True, "hardswish", 1),
    (48, 5, 144, 48, True, "hardswish", 1),
    (48, 5, 288, 96, True, "hardswish", 2),
    (96, 5, 576, 96, True, "hardswish", 1),
    (96, 5, 576, 96, True, "hardswish", 1),
]
_LARGE = [
    (16, 3, 16, 16, False, "relu", 1),
    (16, 3, 64, 24, False, "relu", 2),
    (24, 3, 72, 24, False, "relu", 1),
    (24, 5, 72, 40, True, "relu", 2),
    (40, 5, 120, 40, True, "relu", 1),
    (40, 5, 120, 40, True, "relu", 1),
    (40, 3, 240, 80, False, "hardswish", 2),
    (80, 3, 200, 80, False, "hardswish", 1),
    (80, 3, 184, 80, False, "hardswish", 1),
    (80, 3, 184, 80, False, "hardswish", 1),
    (80, 3, 480, 112, True, "hardswish", 1),
    (112, 3, 672, 112, True, "hardswish", 1),
    (112, 5, 672, 160, True, "hardswish", 2),
    (160, 5, 960, 160, True, "hardswish", 1),
    (160, 5, 960, 160, True, "hardswish", 1),
]


class MobileNetV3Small(MobileNetV3):
    """MobileNetV3-Small with width multiplier ``scale``."""

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True):
        config = [InvertedResidualConfig(*row, scale) for row in _SMALL]
        super().__init__(
            config,
            last_channel=_make_divisible(1024 * scale, 8),
            scale=scale,
            with_pool=with_pool,
            num_classes=num_classes,
        )


class MobileNetV3Large(MobileNetV3):
    """MobileNetV3-Large with width multiplier ``scale``."""

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True):
        config = [InvertedResidualConfig(*row, scale) for row in _LARGE]
        super().__init__(
            config,
            last_channel=_make_divisible(1280 * scale, 8),
            scale=scale,
            with_pool=with_pool,
            num_classes=num_classes,
        )


def _mobilenet_v3(arch: str, cls, pretrained: bool, scale: float, **kwargs):
    make = lambda: cls(scale=scale, **kwargs)  # noqa: E731
    return build(make, f"{arch}_x{scale}", pretrained, model_urls)


def mobilenet_v3_small(pretrained: bool = False, scale: float = 1.0, **kwargs) -> MobileNetV3Small:
    """MobileNetV3-Small (pretrained weights exist for ``scale=1.0`` only)."""
    return _mobilenet_v3("mobilenet_v3_small", MobileNetV3Small, pretrained, scale, **kwargs)


def mobilenet_v3_large(pretrained: bool = False, scale: float = 1.0, **kwargs) -> MobileNetV3Large:
    """MobileNetV3-Large (pretrained weights exist for ``scale=1.0`` only)."""
    return _mobilenet_v3("mobilenet_v3_large", MobileNetV3Large, pretrained, scale, **kwargs)
