"""``paddle.dataset.cifar``: legacy CIFAR-10/100 readers of (3072 float32 values in [0, 1],
int label) from the python tarballs in Paddle's cache (``DATA_HOME/cifar``)."""

from __future__ import annotations

import tarfile

import numpy

from .._io._unpickler import restricted_load
from . import common
from ._legacy import legacy

__all__ = []

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"
CIFAR10_URL = URL_PREFIX + "cifar-10-python.tar.gz"
CIFAR10_MD5 = "c58f30108f718f92721af3b95e74349a"
CIFAR100_URL = URL_PREFIX + "cifar-100-python.tar.gz"
CIFAR100_MD5 = "eb9058c3a382ffc7106e4002c42a8d85"


def reader_creator(filename, sub_name, cycle=False):
    """A reader of the samples of the tarball's batches whose names contain ``sub_name`` (in
    archive order; again and again when ``cycle``). Batches are unpickled with the
    restricted unpickler (plain containers and numpy arrays only)."""

    def read_batch(batch):
        labels = batch.get(b"labels", batch.get(b"fine_labels", None))
        assert labels is not None
        for sample, label in zip(batch[b"data"], labels):
            yield (sample / 255.0).astype(numpy.float32), int(label)

    def reader():
        while True:
            with tarfile.open(filename, mode="r") as f:
                for name in [m.name for m in f if sub_name in m.name]:
                    yield from read_batch(restricted_load(f.extractfile(name), encoding="bytes"))
            if not cycle:
                break

    return reader


def _file(url, md5):
    return common.download(url, "cifar", md5)


@legacy("paddle.vision.datasets.Cifar100")
def train100():
    """CIFAR-100 training samples."""
    return reader_creator(_file(CIFAR100_URL, CIFAR100_MD5), "train")


@legacy("paddle.vision.datasets.Cifar100")
def test100():
    """CIFAR-100 test samples."""
    return reader_creator(_file(CIFAR100_URL, CIFAR100_MD5), "test")


@legacy("paddle.vision.datasets.Cifar10")
def train10(cycle=False):
    """CIFAR-10 training samples (``data_batch_*``)."""
    return reader_creator(_file(CIFAR10_URL, CIFAR10_MD5), "data_batch", cycle=cycle)


@legacy("paddle.vision.datasets.Cifar10")
def test10(cycle=False):
    """CIFAR-10 test samples (``test_batch``)."""
    return reader_creator(_file(CIFAR10_URL, CIFAR10_MD5), "test_batch", cycle=cycle)


@legacy("paddle.vision.datasets.Cifar10")
def fetch():
    _file(CIFAR10_URL, CIFAR10_MD5)
    _file(CIFAR100_URL, CIFAR100_MD5)
