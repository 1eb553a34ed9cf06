"""``paddle.dataset.imdb``: legacy IMDB sentiment readers of (word ids, label) from
``aclImdb_v1.tar.gz`` in Paddle's cache (``DATA_HOME/imdb``). Words are lower-cased ``bytes``
with punctuation removed, as in Paddle; label 0 is positive, 1 negative."""

from __future__ import annotations

import collections
import re
import string
import tarfile

from . import common
from ._legacy import legacy

__all__ = []

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
MD5 = "7c2ac02c03563afcf9b574c7e56c153a"

_PUNCTUATION = string.punctuation.encode("latin-1")


def tokenize(pattern):
    """The token lists of the archive's documents whose names match ``pattern`` (read in
    archive order)."""
    with tarfile.open(common.download(URL, "imdb", MD5)) as tarf:
        member = tarf.next()
        while member is not None:
            if pattern.match(member.name):
                text = tarf.extractfile(member).read().rstrip(b"\n\r")
                yield text.translate(None, _PUNCTUATION).lower().split()
            member = tarf.next()


def build_dict(pattern, cutoff):
    """Word -> id for the words seen more than ``cutoff`` times (most frequent first, ties in
    byte order), plus ``'<unk>'`` last."""
    freq = collections.defaultdict(int)
    for doc in tokenize(pattern):
        for word in doc:
            freq[word] += 1
    kept = sorted(((w, c) for w, c in freq.items() if c > cutoff), key=lambda x: (-x[1], x[0]))
    if not kept:  # Paddle fails here (unpacking an empty zip)
        raise ValueError(f"no word occurs more than {cutoff} times")
    word_idx = {w: i for i, (w, _) in enumerate(kept)}
    word_idx["<unk>"] = len(kept)
    return word_idx


@legacy("paddle.text.datasets.Imdb")
def reader_creator(pos_pattern, neg_pattern, word_idx):
    """A reader of (word ids, label): every positive document (0), then every negative (1)."""
    unk = word_idx["<unk>"]
    samples = []
    for pattern, label in ((pos_pattern, 0), (neg_pattern, 1)):
        for doc in tokenize(pattern):
            samples.append(([word_idx.get(w, unk) for w in doc], label))

    def reader():
        yield from samples

    return reader


@legacy("paddle.text.datasets.Imdb")
def train(word_idx):
    """The training documents."""
    return reader_creator(
        re.compile(r"aclImdb/train/pos/.*\.txt$"),
        re.compile(r"aclImdb/train/neg/.*\.txt$"),
        word_idx,
    )


@legacy("paddle.text.datasets.Imdb")
def test(word_idx):
    """The test documents."""
    return reader_creator(
        re.compile(r"aclImdb/test/pos/.*\.txt$"),
        re.compile(r"aclImdb/test/neg/.*\.txt$"),
        word_idx,
    )


@legacy("paddle.text.datasets.Imdb")
def word_dict():
    """The dictionary of words seen more than 150 times in all documents."""
    return build_dict(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$"), 150)


@legacy("paddle.text.datasets.Imdb")
def fetch():
    common.download(URL, "imdb", MD5)
