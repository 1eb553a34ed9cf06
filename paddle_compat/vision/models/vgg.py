"""VGG 11/13/16/19, with or without batch norm (``paddle.vision.models.vgg``)."""

from __future__ import annotations

from typing import Literal

from ... import nn
from ..._ops.manipulation import flatten
from ._utils import build

__all__: list[str] = []

# Paddle's pretrained weights: arch -> (url, md5)
model_urls = {
    "vgg16": (
        "https://paddle-hapi.bj.bcebos.com/models/vgg16.pdparams",
        "89bbffc0f87d260be9b8cdc169c991c4",
    ),
    "vgg19": (
        "https://paddle-hapi.bj.bcebos.com/models/vgg19.pdparams",
        "23b18bb13d8894f60f54e642be79a0dd",
    ),
}


class VGG(nn.Layer):
    """VGG: ``features`` (see ``make_layers``), a 7x7 adaptive average pool and a three-layer
    classifier (``num_classes <= 0`` drops it, ``with_pool=False`` drops the pool)."""

    def __init__(self, features: nn.Layer, num_classes: int = 1000, with_pool: bool = True):
        super().__init__()
        self.features = features
        self.num_classes = num_classes
        self.with_pool = with_pool
        if with_pool:
            self.avgpool = nn.AdaptiveAvgPool2D((7, 7))
        if num_classes > 0:
            self.classifier = nn.Sequential(
                nn.Linear(512 * 7 * 7, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, 4096),
                nn.ReLU(),
                nn.Dropout(),
                nn.Linear(4096, num_classes),
            )

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.avgpool(x)
        if self.num_classes > 0:
            x = self.classifier(flatten(x, 1))
        return x


def make_layers(cfg: list[int | Literal["M"]], batch_norm: bool = False) -> nn.Sequential:
    """VGG's feature extractor from a config: an int is a 3x3 conv (+BN) + ReLU with that many
    channels, ``'M'`` a 2x2 max pool."""
    layers: list[nn.Layer] = []
    cin = 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2D(kernel_size=2, stride=2))
            continue
        layers.append(nn.Conv2D(cin, v, kernel_size=3, padding=1))
        if batch_norm:
            layers.append(nn.BatchNorm2D(v))
        layers.append(nn.ReLU())
        cin = v
    return nn.Sequential(*layers)


def _cfg(*stages: int) -> list:
    widths = (64, 128, 256, 512, 512)
    return [x for w, n in zip(widths, stages) for x in [w] * n + ["M"]]


cfgs = {"A": _cfg(1, 1, 2, 2, 2), "B": _cfg(2, 2, 2, 2, 2), "D": _cfg(2, 2, 3, 3, 3)}
cfgs["E"] = _cfg(2, 2, 4, 4, 4)


def _vgg(name: str, cfg: str, batch_norm: bool, pretrained: bool, **kwargs) -> VGG:
    arch = name + "_bn" if batch_norm else name
    make = lambda: VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)  # noqa: E731
    return build(make, arch, pretrained, model_urls)


def vgg11(pretrained: bool = False, batch_norm: bool = False, **kwargs) -> VGG:
    """VGG-11 (config A)."""
    return _vgg("vgg11", "A", batch_norm, pretrained, **kwargs)


def vgg13(pretrained: bool = False, batch_norm: bool = False, **kwargs) -> VGG:
    """VGG-13 (config B)."""
    return _vgg("vgg13", "B", batch_norm, pretrained, **kwargs)


def vgg16(pretrained: bool = False, batch_norm: bool = False, **kwargs) -> VGG:
    """VGG-16 (config D)."""
    return _vgg("vgg16", "D", batch_norm, pretrained, **kwargs)


def vgg19(pretrained: bool = False, batch_norm: bool = False, **kwargs) -> VGG:
    """VGG-19 (config E)."""
    return _vgg("vgg19", "E", batch_norm, pretrained, **kwargs)
