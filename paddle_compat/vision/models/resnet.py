"""ResNet, ResNeXt and Wide ResNet (``paddle.vision.models.resnet``)."""

from __future__ import annotations

from collections.abc import Callable

from ... import nn
from ..._ops.manipulation import flatten
from ._utils import build

__all__: list[str] = []

_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
# Paddle's pretrained weights: arch -> (url, md5)
model_urls: dict[str, tuple[str, str]] = {
    arch: (f"{_HAPI}{arch}.pdparams", md5)
    for arch, md5 in {
        "resnet18": "cf548f46534aa3560945be4b95cd11c4",
        "resnet34": "8d2275cf8706028345f78ac0e1d31969",
        "resnet50": "ca6f485ee1ab0492d38f323885b0ad80",
        "resnet101": "02f35f034ca3858e1e54d4036443c92d",
        "resnet152": "7ad16a2f1e7333859ff986138630fd7a",
        "resnext50_32x4d": "dc47483169be7d6f018fcbb7baf8775d",
        "resnext50_64x4d": "063d4b483e12b06388529450ad7576db",
        "resnext101_32x4d": "967b090039f9de2c8d06fe994fb9095f",
        "resnext101_64x4d": "98e04e7ca616a066699230d769d03008",
        "resnext152_32x4d": "18ff0beee21f2efc99c4b31786107121",
        "resnext152_64x4d": "77c4af00ca42c405fa7f841841959379",
        "wide_resnet50_2": "0282f804d73debdab289bd9fea3fa6dc",
        "wide_resnet101_2": "d4360a2d23657f059216f5d5a1a9ac93",
    }.items()
}


def _conv(cin: int, cout: int, k: int, stride=1, padding=0, **kw) -> nn.Conv2D:
    return nn.Conv2D(cin, cout, k, stride=stride, padding=padding, bias_attr=False, **kw)


class BasicBlock(nn.Layer):
    """Two 3x3 conv-BN layers with a residual connection (ResNet-18/34)."""

    expansion: int = 1

    def __init__(
        self,
        inplanes: int,
        planes: int,
        stride=1,
        downsample: nn.Layer | None = None,
        groups: int = 1,
        base_width: int = 64,
        dilation: int = 1,
        norm_layer: Callable[..., nn.Layer] | None = None,
    ) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        self.conv1 = _conv(inplanes, planes, 3, stride, 1)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU()
        self.conv2 = _conv(planes, planes, 3, 1, 1)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


class BottleneckBlock(nn.Layer):
    """1x1 reduce, 3x3 (grouped) and 1x1 expand conv-BN layers with a residual connection."""

    expansion: int = 4

    def __init__(
        self,
        inplanes: int,
        planes: int,
        stride=1,
        downsample: nn.Layer | None = None,
        groups: int = 1,
        base_width: int = 64,
        dilation: int = 1,
        norm_layer: Callable[..., nn.Layer] | None = None,
    ) -> None:
        super().__init__()
        norm_layer = norm_layer or nn.BatchNorm2D
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = _conv(inplanes, width, 1)
        self.bn1 = norm_layer(width)
        self.conv2 = _conv(width, width, 3, stride, dilation, groups=groups, dilation=dilation)
        self.bn2 = norm_layer(width)
        self.conv3 = _conv(width, planes * self.expansion, 1)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU()
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        identity = x if self.downsample is None else self.downsample(x)
        return self.relu(out + identity)


_DEPTHS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3]}
_DEPTHS[152] = [3, 8, 36, 3]


class ResNet(nn.Layer):
    """ResNet of ``depth`` 18/34/50/101/152 built from ``block``; ``width`` is the base width
    of a bottleneck group and ``groups`` its cardinality (ResNeXt, Wide ResNet).
    ``num_classes <= 0`` drops the classifier, ``with_pool=False`` the global average pool."""

    def __init__(
        self,
        block: type[BasicBlock | BottleneckBlock],
        depth: int = 50,
        width: int = 64,
        num_classes: int = 1000,
        with_pool: bool = True,
        groups: int = 1,
    ) -> None:
        super().__init__()
        layers = _DEPTHS[depth]
        self.groups = groups
        self.base_width = width
        self.num_classes = num_classes
        self.with_pool = with_pool
        self._norm_layer = nn.BatchNorm2D
        self.inplanes = 64
        self.dilation = 1
        self.conv1 = _conv(3, self.inplanes, 7, 2, 3)
        self.bn1 = self._norm_layer(self.inplanes)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2)
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2)
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2)
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((1, 1))
        if num_classes > 0:
            self.fc = nn.Linear(512 * block.expansion, num_classes)

    def _make_layer(self, block, planes: int, blocks: int, stride: int = 1, dilate: bool = False):
        norm_layer = self._norm_layer
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        out = planes * block.expansion
        downsample = None
        if stride != 1 or self.inplanes != out:
            downsample = nn.Sequential(_conv(self.inplanes, out, 1, stride), norm_layer(out))
        layers = [
            block(
                self.inplanes,
                planes,
                stride,
                downsample,
                self.groups,
                self.base_width,
                previous_dilation,
                norm_layer,
            )
        ]
        self.inplanes = out
        for _ in range(1, blocks):
            layers.append(
                block(
                    self.inplanes,
                    planes,
                    groups=self.groups,
                    base_width=self.base_width,
                    norm_layer=norm_layer,
                )
            )
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.fc(flatten(x, 1))
        return x


def _resnet(arch: str, block, depth: int, pretrained: bool, **kwargs) -> ResNet:
    return build(lambda: ResNet(block, depth, **kwargs), arch, pretrained, model_urls)


def resnet18(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNet-18."""
    return _resnet("resnet18", BasicBlock, 18, pretrained, **kwargs)


def resnet34(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNet-34."""
    return _resnet("resnet34", BasicBlock, 34, pretrained, **kwargs)


def resnet50(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNet-50."""
    return _resnet("resnet50", BottleneckBlock, 50, pretrained, **kwargs)


def resnet101(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNet-101."""
    return _resnet("resnet101", BottleneckBlock, 101, pretrained, **kwargs)


def resnet152(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNet-152."""
    return _resnet("resnet152", BottleneckBlock, 152, pretrained, **kwargs)


def _resnext(depth: int, groups: int, pretrained: bool, kwargs: dict) -> ResNet:
    kwargs.update(groups=groups, width=4)  # fixed by the architecture, as in Paddle
    arch = f"resnext{depth}_{groups}x4d"
    return _resnet(arch, BottleneckBlock, depth, pretrained, **kwargs)


def resnext50_32x4d(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNeXt-50 with 32 groups of width 4."""
    return _resnext(50, 32, pretrained, kwargs)


def resnext50_64x4d(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNeXt-50 with 64 groups of width 4."""
    return _resnext(50, 64, pretrained, kwargs)


def resnext101_32x4d(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNeXt-101 with 32 groups of width 4."""
    return _resnext(101, 32, pretrained, kwargs)


def resnext101_64x4d(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNeXt-101 with 64 groups of width 4."""
    return _resnext(101, 64, pretrained, kwargs)


def resnext152_32x4d(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNeXt-152 with 32 groups of width 4."""
    return _resnext(152, 32, pretrained, kwargs)


def resnext152_64x4d(pretrained: bool = False, **kwargs) -> ResNet:
    """ResNeXt-152 with 64 groups of width 4."""
    return _resnext(152, 64, pretrained, kwargs)


def wide_resnet50_2(pretrained: bool = False, **kwargs) -> ResNet:
    """Wide ResNet-50-2 (bottleneck width 128)."""
    kwargs["width"] = 128
    return _resnet("wide_resnet50_2", BottleneckBlock, 50, pretrained, **kwargs)


def wide_resnet101_2(pretrained: bool = False, **kwargs) -> ResNet:
    """Wide ResNet-101-2 (bottleneck width 128)."""
    kwargs["width"] = 128
    return _resnet("wide_resnet101_2", BottleneckBlock, 101, pretrained, **kwargs)
