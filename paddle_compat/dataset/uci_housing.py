"""``paddle.dataset.uci_housing``: legacy Boston housing readers of (13 normalized features,
[price]) from ``housing.data`` in Paddle's cache (``DATA_HOME/uci_housing``); the first 80% of
the rows are the training set."""

from __future__ import annotations

import numpy as np

from . import common
from ._legacy import legacy

__all__ = []

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = [
    "CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B",
    "LSTAT",
]  # fmt: skip

UCI_TRAIN_DATA = None
UCI_TEST_DATA = None


def load_data(filename, feature_num=14, ratio=0.8):
    """Read the table once: each feature column becomes (x - mean) / (max - min); the first
    ``ratio`` of the rows go to ``UCI_TRAIN_DATA``, the rest to ``UCI_TEST_DATA``."""
    global UCI_TRAIN_DATA, UCI_TEST_DATA
    if UCI_TRAIN_DATA is not None and UCI_TEST_DATA is not None:
        return
    data = np.fromfile(filename, sep=" ")
    data = data.reshape(data.shape[0] // feature_num, feature_num)
    maximums, minimums = data.max(axis=0), data.min(axis=0)
    avgs = data.sum(axis=0) / data.shape[0]
    for i in range(feature_num - 1):
        data[:, i] = (data[:, i] - avgs[i]) / (maximums[i] - minimums[i])
    offset = int(data.shape[0] * ratio)
    UCI_TRAIN_DATA, UCI_TEST_DATA = data[:offset], data[offset:]


def _rows(which):
    load_data(common.download(URL, "uci_housing", MD5))
    return globals()[which]


@legacy("paddle.text.datasets.UCIHousing")
def train():
    """A reader of the training rows as (features, [price]) float64 arrays."""
    rows = _rows("UCI_TRAIN_DATA")

    def reader():
        for d in rows:
            yield d[:-1], d[-1:]

    return reader


@legacy("paddle.text.datasets.UCIHousing")
def test():
    """A reader of the test rows as (features, [price]) float64 arrays."""
    rows = _rows("UCI_TEST_DATA")

    def reader():
        for d in rows:
            yield d[:-1], d[-1:]

    return reader


@legacy("paddle.text.datasets.UCIHousing")
def predict_reader():
    """The features of the first test row, as a 1-tuple."""
    return (_rows("UCI_TEST_DATA")[0][:-1],)


@legacy("paddle.text.datasets.UCIHousing")
def fetch():
    common.download(URL, "uci_housing", MD5)
