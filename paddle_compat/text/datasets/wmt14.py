"""WMT14 French-English (Paddle's small ``wmt14.tgz``): source ids, target ids and the
next-token target ids of every tab-separated sentence pair."""

from __future__ import annotations

import tarfile

import numpy as np

from ...io import Dataset
from ...vision.datasets._local import local_file

__all__: list[str] = []

URL_DEV_TEST = "http://www-lium.univ-lemans.fr/~schwenk/cslm_joint_paper/data/dev+test.tgz"
MD5_DEV_TEST = "7d7897317ddd8ba0ae5c5fa7248d3ff5"
URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"

START = "<s>"
END = "<e>"
UNK = "<unk>"
UNK_IDX = 2


def _first_lines_dict(f, size: int) -> dict[str, int]:
    """The first ``size`` lines of ``f``: word -> line number."""
    out = {}
    for i, line in enumerate(f):
        if i >= size:
            break
        out[line.strip().decode()] = i
    return out


class WMT14(Dataset):
    """WMT14 (``mode`` 'train', 'test' or 'gen'): items are (src ids, trg ids, trg next ids)
    int64 arrays; the dictionaries are the first ``dict_size`` lines of the tarball's
    ``src.dict`` / ``trg.dict``; pairs longer than 80 ids are skipped."""

    def __init__(
        self,
        data_file: str | None = None,
        mode: str = "train",
        dict_size: int = -1,
        download: bool = True,
    ) -> None:
        assert mode.lower() in ("train", "test", "gen"), (
            f"mode should be 'train', 'test' or 'gen', but got {mode}"
        )
        self.mode = mode.lower()
        self.data_file = local_file(data_file, URL_TRAIN, MD5_TRAIN, "wmt14", download, "data_file")
        assert dict_size > 0, "dict_size should be set as positive number"
        self.dict_size = dict_size
        self._load_data()

    def _load_data(self) -> None:
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            names = [m.name for m in tar]

            def one(suffix: str) -> str:
                found = [n for n in names if n.endswith(suffix)]
                assert len(found) == 1
                return found[0]

            self.src_dict = _first_lines_dict(tar.extractfile(one("src.dict")), self.dict_size)
            self.trg_dict = _first_lines_dict(tar.extractfile(one("trg.dict")), self.dict_size)
            suffix = f"{self.mode}/{self.mode}"
            for name in (n for n in names if n.endswith(suffix)):
                for line in tar.extractfile(name):
                    pair = line.decode().strip().split("\t")
                    if len(pair) != 2:
                        continue
                    src = [self.src_dict.get(w, UNK_IDX) for w in [START, *pair[0].split(), END]]
                    trg = [self.trg_dict.get(w, UNK_IDX) for w in pair[1].split()]
                    if len(src) > 80 or len(trg) > 80:
                        continue
                    trg_next = [*trg, self.trg_dict[END]]
                    self.src_ids.append(src)
                    self.trg_ids.append([self.trg_dict[START], *trg])
                    self.trg_ids_next.append(trg_next)

    def __getitem__(self, idx: int):
        return (
            np.array(self.src_ids[idx]),
            np.array(self.trg_ids[idx]),
            np.array(self.trg_ids_next[idx]),
        )

    def __len__(self) -> int:
        return len(self.src_ids)

    def get_dict(self, reverse: bool = False):
        """(source dict, target dict); ``reverse``: id -> word."""
        src, trg = self.src_dict, self.trg_dict
        if reverse:
            src = {v: k for k, v in src.items()}
            trg = {v: k for k, v in trg.items()}
        return src, trg
