"""MobileNetV2 (``paddle.vision.models.mobilenetv2``)."""

from __future__ import annotations

from collections.abc import Callable

from ... import nn
from ..._ops.manipulation import flatten
from ..ops import ConvNormActivation
from ._utils import _make_divisible, build

__all__: list[str] = []

# Paddle's pretrained weights: arch -> (url, md5)
model_urls = {
    "mobilenetv2_1.0": (
        "https://paddle-hapi.bj.bcebos.com/models/mobilenet_v2_x1.0.pdparams",
        "0340af0a901346c8d46f4529882fb63d",
    )
}


class InvertedResidual(nn.Layer):
    """Inverted residual: optional 1x1 expansion (ReLU6), 3x3 depthwise (ReLU6), linear 1x1
    projection; residual when the stride is 1 and channels are kept."""

    def __init__(
        self,
        inp: int,
        oup: int,
        stride: int,
        expand_ratio: float,
        norm_layer: Callable[..., nn.Layer] = nn.BatchNorm2D,
    ) -> None:
        super().__init__()
        self.stride = stride
        assert stride in [1, 2]
        hidden = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers: list[nn.Layer] = []
        if expand_ratio != 1:
            layers.append(
                ConvNormActivation(
                    inp, hidden, kernel_size=1, norm_layer=norm_layer, activation_layer=nn.ReLU6
                )
            )
        layers += [
            ConvNormActivation(
                hidden,
                hidden,
                stride=stride,
                groups=hidden,
                norm_layer=norm_layer,
                activation_layer=nn.ReLU6,
            ),
            nn.Conv2D(hidden, oup, 1, 1, 0, bias_attr=False),
            norm_layer(oup),
        ]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


# (expansion t, channels c, repeats n, first stride s)
_SETTING = [
    [1, 16, 1, 1],
    [6, 24, 2, 2],
    [6, 32, 3, 2],
    [6, 64, 4, 2],
    [6, 96, 3, 1],
    [6, 160, 3, 2],
    [6, 320, 1, 1],
]


class MobileNetV2(nn.Layer):
    """MobileNetV2 with width multiplier ``scale`` (``num_classes <= 0`` drops the classifier,
    ``with_pool=False`` the global average pool)."""

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        norm_layer = nn.BatchNorm2D
        cin = _make_divisible(32 * scale, 8)
        self.last_channel = _make_divisible(1280 * max(1.0, scale), 8)
        features: list[nn.Layer] = [
            ConvNormActivation(3, cin, stride=2, norm_layer=norm_layer, activation_layer=nn.ReLU6)
        ]
        for t, c, n, s in _SETTING:
            cout = _make_divisible(c * scale, 8)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(
                    InvertedResidual(cin, cout, stride, expand_ratio=t, norm_layer=norm_layer)
                )
                cin = cout
        features.append(
            ConvNormActivation(
                cin,
                self.last_channel,
                kernel_size=1,
                norm_layer=norm_layer,
                activation_layer=nn.ReLU6,
            )
        )
        self.features = nn.Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Dropout(0.2), nn.Linear(self.last_channel, num_classes)
            )

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.classifier(flatten(x, 1))
        return x


def mobilenet_v2(pretrained: bool = False, scale: float = 1.0, **kwargs) -> MobileNetV2:
    """MobileNetV2 (pretrained weights exist for ``scale=1.0`` only)."""
    make = lambda: MobileNetV2(scale=scale, **kwargs)  # noqa: E731
    return build(make, f"mobilenetv2_{scale}", pretrained, model_urls)
