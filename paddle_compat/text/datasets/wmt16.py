"""WMT16 Multi30K English-German (``wmt16.tar.gz``): source ids, target ids and next-token
target ids per tab-separated pair; the word dictionaries are built from ``wmt16/train`` and
cached as ``<DATA_HOME>/wmt16/<lang>_<size>.dict``, as Paddle does."""

from __future__ import annotations

import os
import tarfile
from collections import defaultdict

import numpy as np

from ...io import Dataset
from ...vision.datasets import _local

__all__: list[str] = []

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
DATA_MD5 = "0c38be43600334966403524a40dcd81e"

TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220

START_MARK = "<s>"
END_MARK = "<e>"
UNK_MARK = "<unk>"


def _dict_path(lang: str, dict_size: int) -> str:
    return os.path.join(_local.DATA_HOME, "wmt16", f"{lang}_{dict_size}.dict")


class WMT16(Dataset):
    """WMT16 (``mode`` 'train', 'test' or 'val'; ``lang`` the source language 'en' or 'de'):
    items are (src ids, trg ids, trg next ids) int64 arrays. As in Paddle, both dictionaries
    are counted from the source-language column, a cached dictionary with the right number of
    lines is reused, and ``get_dict`` ignores ``reverse``. Unlike Paddle, the cache folder is
    created when missing."""

    def __init__(
        self,
        data_file: str | None = None,
        mode: str = "train",
        src_dict_size: int = -1,
        trg_dict_size: int = -1,
        lang: str = "en",
        download: bool = True,
    ) -> None:
        assert mode.lower() in ("train", "test", "val"), (
            f"mode should be 'train', 'test' or 'val', but got {mode}"
        )
        self.mode = mode.lower()
        self.data_file = _local.local_file(
            data_file, DATA_URL, DATA_MD5, "wmt16", download, "data_file"
        )
        self.lang = lang
        assert src_dict_size > 0, "dict_size should be set as positive number"
        assert trg_dict_size > 0, "dict_size should be set as positive number"
        en, de = (
            (TOTAL_EN_WORDS, TOTAL_DE_WORDS) if lang == "en" else (TOTAL_DE_WORDS, TOTAL_EN_WORDS)
        )
        self.src_dict_size = min(src_dict_size, en)
        self.trg_dict_size = min(trg_dict_size, de)
        self.src_dict = self._load_dict(lang, src_dict_size)
        self.trg_dict = self._load_dict("de" if lang == "en" else "en", trg_dict_size)
        self.data = self._load_data()

    def _load_dict(self, lang: str, dict_size: int, reverse: bool = False) -> dict:
        path = _dict_path(lang, dict_size)
        found = False
        if os.path.exists(path):
            with open(path, "rb") as f:
                found = len(f.readlines()) == dict_size
        if not found:
            self._build_dict(path, dict_size, lang)
        with open(path, "rb") as f:
            words = [line.strip().decode() for line in f]
        if reverse:
            return dict(enumerate(words))
        return {w: i for i, w in enumerate(words)}

    def _build_dict(self, dict_path: str, dict_size: int, lang: str) -> None:
        counts = defaultdict(int)
        column = 0 if self.lang == "en" else 1  # Paddle counts the source language for both
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile("wmt16/train"):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                for w in pair[column].split():
                    counts[w] += 1
        os.makedirs(os.path.dirname(dict_path), exist_ok=True)
        with open(dict_path, "wb") as out:
            out.write(f"{START_MARK}\n{END_MARK}\n{UNK_MARK}\n".encode())
            ranked = sorted(counts.items(), key=lambda x: x[1], reverse=True)
            if dict_size >= 3:  # Paddle stops at dict_size lines; a smaller size never stops
                ranked = ranked[: dict_size - 3]
            for word, _ in ranked:
                out.write(word.encode() + b"\n")

    def _load_data(self) -> None:
        start, end, unk = (self.src_dict[m] for m in (START_MARK, END_MARK, UNK_MARK))
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile(f"wmt16/{self.mode}"):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                src = [self.src_dict.get(w, unk) for w in pair[src_col].split()]
                trg = [self.trg_dict.get(w, unk) for w in pair[1 - src_col].split()]
                self.src_ids.append([start, *src, end])
                self.trg_ids.append([start, *trg])
                self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx: int):
        return (
            np.array(self.src_ids[idx]),
            np.array(self.trg_ids[idx]),
            np.array(self.trg_ids_next[idx]),
        )

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, lang: str, reverse: bool = False) -> dict:
        """The word -> id dictionary of ``lang`` (Paddle ignores ``reverse`` here)."""
        size = self.src_dict_size if lang == self.lang else self.trg_dict_size
        assert os.path.exists(_dict_path(lang, size)), "Word dictionary does not exist. "
        return self._load_dict(lang, size)
