"""``paddle.vision.datasets``: Paddle's image datasets, read from local files in Paddle's
formats. Nothing is downloaded: a dataset whose file is not given is looked up in Paddle's
cache (``~/.cache/paddle/dataset/<name>/``), else the error says what to fetch."""

from __future__ import annotations

from .cifar import Cifar10, Cifar100
from .flowers import Flowers
from .folder import DatasetFolder, ImageFolder
from .mnist import MNIST, FashionMNIST
from .voc2012 import VOC2012

__all__ = [
    "DatasetFolder",
    "ImageFolder",
    "MNIST",
    "FashionMNIST",
    "Flowers",
    "Cifar10",
    "Cifar100",
    "VOC2012",
]
