"""SqueezeNet 1.0 and 1.1 (``paddle.vision.models.squeezenet``)."""

from __future__ import annotations

from ... import nn
from ..._ops.manipulation import concat, squeeze
from ...framework import ParamAttr
from ...nn import functional as F
from ._utils import build

__all__: list[str] = []

_URL = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/SqueezeNet{}_pretrained.pdparams"
# Paddle's pretrained weights: arch -> (url, md5)
model_urls = {
    "squeezenet1_0": (_URL.format("1_0"), "30b95af60a2178f03cf9b66cd77e1db1"),
    "squeezenet1_1": (_URL.format("1_1"), "a11250d3a1f91d7131fd095ebbf09eee"),
}


def _conv(cin: int, cout: int, k, **kw) -> nn.Conv2D:
    return nn.Conv2D(cin, cout, k, weight_attr=ParamAttr(), bias_attr=ParamAttr(), **kw)


class MakeFireConv(nn.Layer):
    """Conv2D followed by ReLU."""

    def __init__(self, input_channels: int, output_channels: int, filter_size, padding=0):
        super().__init__()
        self._conv = _conv(input_channels, output_channels, filter_size, padding=padding)

    def forward(self, x):
        return F.relu(self._conv(x))


class MakeFire(nn.Layer):
    """Fire module: a 1x1 squeeze conv feeding parallel 1x1 and 3x3 expand convs."""

    def __init__(
        self,
        input_channels: int,
        squeeze_channels: int,
        expand1x1_channels: int,
        expand3x3_channels: int,
    ) -> None:
        super().__init__()
        self._conv = MakeFireConv(input_channels, squeeze_channels, 1)
        self._conv_path1 = MakeFireConv(squeeze_channels, expand1x1_channels, 1)
        self._conv_path2 = MakeFireConv(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, inputs):
        x = self._conv(inputs)
        return concat([self._conv_path1(x), self._conv_path2(x)], axis=1)


# fire modules (in, squeeze, expand1x1, expand3x3), shared by both versions
_FIRES = [
    (None, 16, 64, 64), (128, 16, 64, 64), (128, 32, 128, 128), (256, 32, 128, 128),
    (256, 48, 192, 192), (384, 48, 192, 192), (384, 64, 256, 256), (512, 64, 256, 256),
]  # fmt: skip
# after which fire modules (1-based) each version max-pools
_POOL_AFTER = {"1.0": (3, 7), "1.1": (2, 4)}


class SqueezeNet(nn.Layer):
    """SqueezeNet ``version`` '1.0' or '1.1'. The final 1x1 conv always exists; with
    ``num_classes <= 0`` it is skipped in forward. ``with_pool`` applies ReLU, global average
    pooling and squeezes to ``[N, C]``."""

    def __init__(self, version: str, num_classes: int = 1000, with_pool: bool = True):
        super().__init__()
        self.version = version
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported_versions = ["1.0", "1.1"]
        assert version in supported_versions, (
            f"supported versions are {supported_versions} but input version is {version}"
        )
        if version == "1.0":
            self._conv = _conv(3, 96, 7, stride=2)
        else:
            self._conv = _conv(3, 64, 3, stride=2, padding=1)
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        first_in = 96 if version == "1.0" else 64
        for i, (cin, *rest) in enumerate(_FIRES):
            setattr(self, f"_conv{i + 1}", MakeFire(cin or first_in, *rest))
        self._drop = nn.Dropout(p=0.5, mode="downscale_in_infer")
        self._conv9 = _conv(512, num_classes, 1)
        self._avg_pool = nn.AdaptiveAvgPool2D(1)

    def forward(self, inputs):
        x = self._pool(F.relu(self._conv(inputs)))
        pool_after = _POOL_AFTER[self.version]
        for i in range(1, 9):
            x = getattr(self, f"_conv{i}")(x)
            if i in pool_after:
                x = self._pool(x)
        if self.num_classes > 0:
            x = self._conv9(self._drop(x))
        if self.with_pool:
            x = squeeze(self._avg_pool(F.relu(x)), axis=[2, 3])
        return x


def squeezenet1_0(pretrained: bool = False, **kwargs) -> SqueezeNet:
    """SqueezeNet 1.0."""
    return build(lambda: SqueezeNet("1.0", **kwargs), "squeezenet1_0", pretrained, model_urls)


def squeezenet1_1(pretrained: bool = False, **kwargs) -> SqueezeNet:
    """SqueezeNet 1.1."""
    return build(lambda: SqueezeNet("1.1", **kwargs), "squeezenet1_1", pretrained, model_urls)
