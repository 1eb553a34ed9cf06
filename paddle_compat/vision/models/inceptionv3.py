"""Inception v3 (``paddle.vision.models.inceptionv3``)."""

from __future__ import annotations

import math

from ... import nn
from ..._ops.manipulation import concat, reshape
from ...framework import ParamAttr
from ...nn.initializer import Uniform
from ..ops import ConvNormActivation
from ._utils import build

__all__: list[str] = []

# Paddle's pretrained weights: arch -> (url, md5)
model_urls = {
    "inception_v3": (
        "https://paddle-hapi.bj.bcebos.com/models/inception_v3.pdparams",
        "649a4547c3243e8b59c656f41fe330b8",
    )
}


def _cna(cin: int, cout: int, kernel_size, stride=1, padding=0) -> ConvNormActivation:
    """Conv2D (no bias) + BatchNorm2D + ReLU."""
    return ConvNormActivation(
        in_channels=cin,
        out_channels=cout,
        kernel_size=kernel_size,
        stride=stride,
        padding=padding,
        activation_layer=nn.ReLU,
    )


def _avg_pool() -> nn.AvgPool2D:
    return nn.AvgPool2D(kernel_size=3, stride=1, padding=1, exclusive=False)


class InceptionStem(nn.Layer):
    """Five conv units and two 3x3/2 max pools: 299x299x3 -> 35x35x192."""

    def __init__(self) -> None:
        super().__init__()
        self.conv_1a_3x3 = _cna(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _cna(32, 32, 3)
        self.conv_2b_3x3 = _cna(32, 64, 3, padding=1)
        self.max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _cna(64, 80, 1)
        self.conv_4a_3x3 = _cna(80, 192, 3)

    def forward(self, x):
        x = self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x)))
        x = self.conv_4a_3x3(self.conv_3b_1x1(self.max_pool(x)))
        return self.max_pool(x)


class InceptionA(nn.Layer):
    """1x1, 5x5, double-3x3 and pool branches (35x35 grid)."""

    def __init__(self, num_channels: int, pool_features: int) -> None:
        super().__init__()
        self.branch1x1 = _cna(num_channels, 64, 1)
        self.branch5x5_1 = _cna(num_channels, 48, 1)
        self.branch5x5_2 = _cna(48, 64, 5, padding=2)
        self.branch3x3dbl_1 = _cna(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cna(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cna(96, 96, 3, padding=1)
        self.branch_pool = _avg_pool()
        self.branch_pool_conv = _cna(num_channels, pool_features, 1)

    def forward(self, x):
        b5 = self.branch5x5_2(self.branch5x5_1(x))
        b3 = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        bp = self.branch_pool_conv(self.branch_pool(x))
        return concat([self.branch1x1(x), b5, b3, bp], axis=1)


class InceptionB(nn.Layer):
    """Grid reduction 35x35 -> 17x17: strided 3x3, double-3x3 and max-pool branches."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3 = _cna(num_channels, 384, 3, stride=2)
        self.branch3x3dbl_1 = _cna(num_channels, 64, 1)
        self.branch3x3dbl_2 = _cna(64, 96, 3, padding=1)
        self.branch3x3dbl_3 = _cna(96, 96, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        b3 = self.branch3x3dbl_3(self.branch3x3dbl_2(self.branch3x3dbl_1(x)))
        return concat([self.branch3x3(x), b3, self.branch_pool(x)], axis=1)


class InceptionC(nn.Layer):
    """Factorized 7x7 branches (17x17 grid)."""

    def __init__(self, num_channels: int, channels_7x7: int) -> None:
        super().__init__()
        c7 = channels_7x7
        self.branch1x1 = _cna(num_channels, 192, 1)
        self.branch7x7_1 = _cna(num_channels, c7, 1)
        self.branch7x7_2 = _cna(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7_3 = _cna(c7, 192, (7, 1), padding=(3, 0))
        self.branch7x7dbl_1 = _cna(num_channels, c7, 1)
        self.branch7x7dbl_2 = _cna(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_3 = _cna(c7, c7, (1, 7), padding=(0, 3))
        self.branch7x7dbl_4 = _cna(c7, c7, (7, 1), padding=(3, 0))
        self.branch7x7dbl_5 = _cna(c7, 192, (1, 7), padding=(0, 3))
        self.branch_pool = _avg_pool()
        self.branch_pool_conv = _cna(num_channels, 192, 1)

    def forward(self, x):
        b7 = self.branch7x7_3(self.branch7x7_2(self.branch7x7_1(x)))
        bd = x
        for i in range(1, 6):
            bd = getattr(self, f"branch7x7dbl_{i}")(bd)
        bp = self.branch_pool_conv(self.branch_pool(x))
        return concat([self.branch1x1(x), b7, bd, bp], axis=1)


class InceptionD(nn.Layer):
    """Grid reduction 17x17 -> 8x8."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch3x3_1 = _cna(num_channels, 192, 1)
        self.branch3x3_2 = _cna(192, 320, 3, stride=2)
        self.branch7x7x3_1 = _cna(num_channels, 192, 1)
        self.branch7x7x3_2 = _cna(192, 192, (1, 7), padding=(0, 3))
        self.branch7x7x3_3 = _cna(192, 192, (7, 1), padding=(3, 0))
        self.branch7x7x3_4 = _cna(192, 192, 3, stride=2)
        self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)

    def forward(self, x):
        b3 = self.branch3x3_2(self.branch3x3_1(x))
        b7 = x
        for i in range(1, 5):
            b7 = getattr(self, f"branch7x7x3_{i}")(b7)
        return concat([b3, b7, self.branch_pool(x)], axis=1)


class InceptionE(nn.Layer):
    """Expanded-filter-bank module with split 1x3/3x1 branches (8x8 grid)."""

    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.branch1x1 = _cna(num_channels, 320, 1)
        self.branch3x3_1 = _cna(num_channels, 384, 1)
        self.branch3x3_2a = _cna(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3_2b = _cna(384, 384, (3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = _cna(num_channels, 448, 1)
        self.branch3x3dbl_2 = _cna(448, 384, 3, padding=1)
        self.branch3x3dbl_3a = _cna(384, 384, (1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = _cna(384, 384, (3, 1), padding=(1, 0))
        self.branch_pool = _avg_pool()
        self.branch_pool_conv = _cna(num_channels, 192, 1)

    def forward(self, x):
        b3 = self.branch3x3_1(x)
        b3 = concat([self.branch3x3_2a(b3), self.branch3x3_2b(b3)], axis=1)
        bd = self.branch3x3dbl_2(self.branch3x3dbl_1(x))
        bd = concat([self.branch3x3dbl_3a(bd), self.branch3x3dbl_3b(bd)], axis=1)
        bp = self.branch_pool_conv(self.branch_pool(x))
        return concat([self.branch1x1(x), b3, bd, bp], axis=1)


class InceptionV3(nn.Layer):
    """Inception v3 for 299x299 inputs (``num_classes <= 0`` drops the classifier,
    ``with_pool=False`` the global average pool)."""

    def __init__(self, num_classes: int = 1000, with_pool: bool = True) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.layers_config = {
            "inception_a": [[192, 256, 288], [32, 64, 64]],
            "inception_b": [288],
            "inception_c": [[768, 768, 768, 768], [128, 160, 160, 192]],
            "inception_d": [768],
            "inception_e": [1280, 2048],
        }
        cfg = self.layers_config
        self.inception_stem = InceptionStem()
        blocks = nn.LayerList()
        for args in zip(*cfg["inception_a"]):
            blocks.append(InceptionA(*args))
        for c in cfg["inception_b"]:
            blocks.append(InceptionB(c))
        for args in zip(*cfg["inception_c"]):
            blocks.append(InceptionC(*args))
        for c in cfg["inception_d"]:
            blocks.append(InceptionD(c))
        for c in cfg["inception_e"]:
            blocks.append(InceptionE(c))
        self.inception_block_list = blocks
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            stdv = 1.0 / math.sqrt(2048 * 1.0)
            self.fc = nn.Linear(
                2048,
                num_classes,
                weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
                bias_attr=ParamAttr(),
            )

    def forward(self, x):
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(reshape(x, shape=[-1, 2048])))
        return x


def inception_v3(pretrained: bool = False, **kwargs) -> InceptionV3:
    """Inception v3."""
    return build(lambda: InceptionV3(**kwargs), "inception_v3", pretrained, model_urls)
