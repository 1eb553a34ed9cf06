"""IMDB movie reviews (aclImdb tarball): each review as word ids and a label (0 positive, 1
negative); the vocabulary is every word of train+test seen more than ``cutoff`` times."""

from __future__ import annotations

import collections
import re
import string
import tarfile

import numpy as np

from ...io import Dataset
from ...vision.datasets._local import local_file

__all__: list[str] = []

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
MD5 = "7c2ac02c03563afcf9b574c7e56c153a"

_REVIEW = re.compile(r"aclImdb/(train|test)/(pos|neg)/.*\.txt$")
_PUNCTUATION = string.punctuation.encode("latin-1")


def _words(raw: bytes) -> list[bytes]:
    """Paddle's tokenizer: drop trailing newlines and ASCII punctuation, lower-case, split on
    whitespace (words stay bytes)."""
    return raw.rstrip(b"\n\r").translate(None, _PUNCTUATION).lower().split()


class Imdb(Dataset):
    """IMDB sentiment data (``mode`` 'train' or 'test'): items are (word ids int64 [n], label
    int64 [1]); positive reviews come first. ``word_idx`` maps words (bytes) to ids and
    ``'<unk>'`` to the last id."""

    def __init__(
        self,
        data_file: str | None = None,
        mode: str = "train",
        cutoff: int = 150,
        download: bool = True,
    ) -> None:
        assert mode.lower() in ("train", "test"), f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = local_file(data_file, URL, MD5, "imdb", download, "data_file")
        reviews = self._read_reviews()
        self.word_idx = self._build_word_dict(reviews, cutoff)
        self._load_anno(reviews)

    def _read_reviews(self) -> list[tuple[str, str, list[bytes]]]:
        """(split, sentiment, words) of every review, in the tarball's order."""
        reviews = []
        with tarfile.open(self.data_file) as tar:
            for member in tar:
                m = _REVIEW.match(member.name)
                if m:
                    reviews.append((m.group(1), m.group(2), _words(tar.extractfile(member).read())))
        return reviews

    @staticmethod
    def _build_word_dict(reviews, cutoff: int) -> dict:
        freq = collections.Counter(w for _, _, words in reviews for w in words)
        kept = sorted(((w, n) for w, n in freq.items() if n > cutoff), key=lambda x: (-x[1], x[0]))
        if not kept:
            raise ValueError(
                f"Imdb: no word occurs more than cutoff={cutoff} times in {len(reviews)} "
                "reviews, so the vocabulary is empty"
            )
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _load_anno(self, reviews) -> None:
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, sentiment in enumerate(("pos", "neg")):
            for split, kind, words in reviews:
                if split == self.mode and kind == sentiment:
                    self.docs.append([self.word_idx.get(w, unk) for w in words])
                    self.labels.append(label)

    def __getitem__(self, idx: int):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self) -> int:
        return len(self.docs)
