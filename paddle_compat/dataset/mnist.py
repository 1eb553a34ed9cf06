"""``paddle.dataset.mnist``: legacy MNIST readers of (784 float32 pixels in [-1, 1], int label)
from the IDX files in Paddle's cache (``DATA_HOME/mnist``)."""

from __future__ import annotations

import numpy as np

from ..vision.datasets.mnist import _read_idx
from . import common
from ._legacy import legacy

__all__ = []

URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"


def reader_creator(image_filename, label_filename, buffer_size):
    """A reader of (flat float32 image scaled to [-1, 1], int label) from gzipped IDX files,
    decoded ``buffer_size`` samples at a time."""

    def reader():
        (count, rows, cols), pixels = _read_idx(image_filename, 2051, ">IIII")
        (label_count,), labels = _read_idx(label_filename, 2049, ">II")
        images = np.frombuffer(pixels, np.uint8, count=count * rows * cols)
        images = images.reshape(count, rows * cols)
        labels = np.frombuffer(labels, np.uint8, count=label_count)
        for start in range(0, label_count, buffer_size):
            chunk = images[start : start + buffer_size].astype("float32")
            chunk = chunk / 255.0 * 2.0 - 1.0
            for i, image in enumerate(chunk):
                yield image, int(labels[start + i])

    return reader


def _files(image_url, image_md5, label_url, label_md5):
    return (
        common.download(image_url, "mnist", image_md5),
        common.download(label_url, "mnist", label_md5),
    )


@legacy("paddle.vision.datasets.MNIST")
def train():
    """The 60000 training samples."""
    return reader_creator(
        *_files(TRAIN_IMAGE_URL, TRAIN_IMAGE_MD5, TRAIN_LABEL_URL, TRAIN_LABEL_MD5), 100
    )


@legacy("paddle.vision.datasets.MNIST")
def test():
    """The 10000 test samples."""
    return reader_creator(
        *_files(TEST_IMAGE_URL, TEST_IMAGE_MD5, TEST_LABEL_URL, TEST_LABEL_MD5), 100
    )


@legacy("paddle.vision.datasets.MNIST")
def fetch():
    _files(TRAIN_IMAGE_URL, TRAIN_IMAGE_MD5, TRAIN_LABEL_URL, TRAIN_LABEL_MD5)
    _files(TEST_IMAGE_URL, TEST_IMAGE_MD5, TEST_LABEL_URL, TEST_LABEL_MD5)
