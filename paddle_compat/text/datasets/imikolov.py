"""The PTB language-model data of Mikolov's simple-examples tarball: n-grams or
(source, target) sequences of word ids."""

from __future__ import annotations

import collections
import tarfile

import numpy as np

from ...io import Dataset
from ...vision.datasets._local import local_file

__all__: list[str] = []

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
MD5 = "30177ea32e27c525793142b6bf2c8e2d"
_DATA = "./simple-examples/data/ptb.{}.txt"


def word_count(f, word_freq=None):
    """Add the word counts of the lines of ``f`` (plus one ``<s>`` and ``<e>`` per line)."""
    if word_freq is None:
        word_freq = collections.defaultdict(int)
    for line in f:
        for w in line.strip().split():
            word_freq[w] += 1
        word_freq["<s>"] += 1
        word_freq["<e>"] += 1
    return word_freq


class Imikolov(Dataset):
    """PTB sentences (``mode`` 'train' or 'test'). 'NGRAM' items are ``window_size`` int64
    0-D arrays (the ids of one window over ``<s> words <e>``); 'SEQ' items are (``<s>`` +
    ids, ids + ``<e>``), skipping sentences longer than ``window_size`` when it is positive.
    The vocabulary counts train + valid words (kept: more than ``min_word_freq`` times);
    words from the files are bytes, ``'<s>'``, ``'<e>'`` and ``'<unk>'`` are str (as Paddle)."""

    def __init__(
        self,
        data_file: str | None = None,
        data_type: str = "NGRAM",
        window_size: int = -1,
        mode: str = "train",
        min_word_freq: int = 50,
        download: bool = True,
    ) -> None:
        assert data_type.upper() in ("NGRAM", "SEQ"), (
            f"data type should be 'NGRAM', 'SEQ', but got {data_type}"
        )
        self.data_type = data_type.upper()
        assert mode.lower() in ("train", "test"), f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.window_size = window_size
        self.min_word_freq = min_word_freq
        if data_file is None:
            assert download, "data_file is not set and downloading automatically disabled"
        self.data_file = local_file(data_file, URL, MD5, "imikolov", download, "data_file")
        self.word_idx = self._build_work_dict(min_word_freq)
        self._load_anno()

    def word_count(self, f, word_freq=None):
        """Add the word counts of the lines of ``f`` (plus one ``<s>`` and ``<e>`` per line)."""
        return word_count(f, word_freq)

    def _build_work_dict(self, cutoff: int) -> dict:
        with tarfile.open(self.data_file) as tar:
            freq = self.word_count(tar.extractfile(_DATA.format("train")))
            freq = self.word_count(tar.extractfile(_DATA.format("valid")), freq)
        # Paddle drops the str key '<unk>' here; the file's words are bytes, so b'<unk>' stays
        freq.pop("<unk>", None)
        kept = [x for x in freq.items() if x[1] > self.min_word_freq]
        kept.sort(key=lambda x: (-x[1], x[0]))
        if not kept:
            raise ValueError(
                f"Imikolov: no word occurs more than min_word_freq={self.min_word_freq} "
                "times, so the vocabulary is empty"
            )
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load_anno(self) -> None:
        self.data = []
        unk = self.word_idx["<unk>"]
        with tarfile.open(self.data_file) as tar:
            for line in tar.extractfile(_DATA.format(self.mode)):
                if self.data_type == "NGRAM":
                    assert self.window_size > -1, "Invalid gram length"
                    words = ["<s>", *line.strip().split(), "<e>"]
                    if len(words) >= self.window_size:
                        ids = [self.word_idx.get(w, unk) for w in words]
                        n = self.window_size
                        self.data.extend(tuple(ids[i - n : i]) for i in range(n, len(ids) + 1))
                else:
                    ids = [self.word_idx.get(w, unk) for w in line.strip().split()]
                    src = [self.word_idx["<s>"], *ids]
                    if self.window_size > 0 and len(src) > self.window_size:
                        continue
                    self.data.append((src, [*ids, self.word_idx["<e>"]]))

    def __getitem__(self, idx: int):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
