"""``paddle.dataset.imikolov``: legacy Penn Treebank language-model readers (n-grams or
sequence pairs of word ids) from ``simple-examples.tgz`` in Paddle's cache
(``DATA_HOME/imikolov``). Words are ``bytes`` from the archive; ``'<s>'``, ``'<e>'`` and
``'<unk>'`` are ``str``, as in Paddle."""

from __future__ import annotations

import tarfile

from ..text.datasets.imikolov import word_count
from . import common
from ._legacy import legacy

__all__ = []

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
MD5 = "30177ea32e27c525793142b6bf2c8e2d"
TRAIN_FILE = "./simple-examples/data/ptb.train.txt"
TEST_FILE = "./simple-examples/data/ptb.valid.txt"


class DataType:
    NGRAM = 1
    SEQ = 2


def _archive():
    return tarfile.open(common.download(URL, "imikolov", MD5))


def build_dict(min_word_freq=50):
    """Word -> id for the words of the train and valid files seen more than
    ``min_word_freq`` times (most frequent first), plus ``'<unk>'`` last."""
    with _archive() as tf:
        freq = word_count(tf.extractfile(TEST_FILE), word_count(tf.extractfile(TRAIN_FILE)))
    freq.pop("<unk>", None)
    kept = sorted(
        ((w, c) for w, c in freq.items() if c > min_word_freq), key=lambda x: (-x[1], x[0])
    )
    if not kept:  # Paddle fails here (unpacking an empty zip)
        raise ValueError(f"no word occurs more than {min_word_freq} times")
    word_idx = {w: i for i, (w, _) in enumerate(kept)}
    word_idx["<unk>"] = len(kept)
    return word_idx


def reader_creator(filename, word_idx, n, data_type):
    """A reader of the ``n``-grams of ids of each line with ``<s>``/``<e>`` added
    (``DataType.NGRAM``), or of (``<s>`` + ids, ids + ``<e>``) pairs of lines no longer than
    ``n`` (``DataType.SEQ``; ``n <= 0``: any length)."""

    def reader():
        with _archive() as tf:
            unk = word_idx["<unk>"]
            for line in tf.extractfile(filename):
                if data_type == DataType.NGRAM:
                    assert n > -1, "Invalid gram length"
                    words = ["<s>", *line.strip().split(), "<e>"]
                    if len(words) >= n:
                        ids = [word_idx.get(w, unk) for w in words]
                        for i in range(n, len(ids) + 1):
                            yield tuple(ids[i - n : i])
                elif data_type == DataType.SEQ:
                    ids = [word_idx.get(w, unk) for w in line.strip().split()]
                    src, trg = [word_idx["<s>"], *ids], [*ids, word_idx["<e>"]]
                    if n > 0 and len(src) > n:
                        continue
                    yield src, trg
                else:
                    raise AssertionError("Unknown data type")

    return reader


@legacy("paddle.text.datasets.Imikolov")
def train(word_idx, n, data_type=DataType.NGRAM):
    """The training file (``ptb.train.txt``)."""
    return reader_creator(TRAIN_FILE, word_idx, n, data_type)


@legacy("paddle.text.datasets.Imikolov")
def test(word_idx, n, data_type=DataType.NGRAM):
    """The validation file (``ptb.valid.txt``)."""
    return reader_creator(TEST_FILE, word_idx, n, data_type)


@legacy("paddle.text.datasets.Imikolov")
def fetch():
    common.download(URL, "imikolov", MD5)
