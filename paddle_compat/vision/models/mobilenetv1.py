"""MobileNetV1 (``paddle.vision.models.mobilenetv1``)."""

from __future__ import annotations

from ... import nn
from ..._ops.manipulation import flatten
from ..ops import ConvNormActivation
from ._utils import build

__all__: list[str] = []

# Paddle's pretrained weights: arch -> (url, md5)
model_urls = {
    "mobilenetv1_1.0": (
        "https://paddle-hapi.bj.bcebos.com/models/mobilenetv1_1.0.pdparams",
        "3033ab1975b1670bef51545feb65fc45",
    )
}


class DepthwiseSeparable(nn.Layer):
    """A 3x3 depthwise conv unit then a 1x1 pointwise conv unit (channels scaled by
    ``scale``)."""

    def __init__(
        self,
        in_channels: int,
        out_channels1: int,
        out_channels2: int,
        num_groups: int,
        stride,
        scale: float,
    ) -> None:
        super().__init__()
        mid = int(out_channels1 * scale)
        self._depthwise_conv = ConvNormActivation(
            in_channels,
            mid,
            kernel_size=3,
            stride=stride,
            padding=1,
            groups=int(num_groups * scale),
        )
        self._pointwise_conv = ConvNormActivation(
            mid, int(out_channels2 * scale), kernel_size=1, stride=1, padding=0
        )

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


# (sublayer name, in, out1, out2, groups, stride), channels before scaling
_BLOCKS = [
    ("conv2_1", 32, 32, 64, 32, 1),
    ("conv2_2", 64, 64, 128, 64, 2),
    ("conv3_1", 128, 128, 128, 128, 1),
    ("conv3_2", 128, 128, 256, 128, 2),
    ("conv4_1", 256, 256, 256, 256, 1),
    ("conv4_2", 256, 256, 512, 256, 2),
    *[(f"conv5_{i}", 512, 512, 512, 512, 1) for i in range(1, 6)],
    ("conv5_6", 512, 512, 1024, 512, 2),
    ("conv6", 1024, 1024, 1024, 1024, 1),
]


class MobileNetV1(nn.Layer):
    """MobileNetV1 with channel multiplier ``scale`` (``num_classes <= 0`` drops the
    classifier, ``with_pool=False`` the global average pool)."""

    def __init__(self, scale: float = 1.0, num_classes: int = 1000, with_pool: bool = True):
        super().__init__()
        self.scale = scale
        self.dwsl = []
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvNormActivation(
            in_channels=3, out_channels=int(32 * scale), kernel_size=3, stride=2, padding=1
        )
        for name, cin, c1, c2, groups, stride in _BLOCKS:
            block = DepthwiseSeparable(int(cin * scale), c1, c2, groups, stride, scale)
            self.dwsl.append(self.add_sublayer(name, block))
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for block in self.dwsl:
            x = block(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.fc(flatten(x, 1))
        return x


def mobilenet_v1(pretrained: bool = False, scale: float = 1.0, **kwargs) -> MobileNetV1:
    """MobileNetV1 (pretrained weights exist for ``scale=1.0`` only)."""
    make = lambda: MobileNetV1(scale=scale, **kwargs)  # noqa: E731
    return build(make, f"mobilenetv1_{scale}", pretrained, model_urls)
