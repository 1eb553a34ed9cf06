"""``paddle.dataset.wmt14``: legacy WMT14 French-English readers of (source ids, target ids,
next target ids) from ``wmt14.tgz`` in Paddle's cache (``DATA_HOME/wmt14``)."""

from __future__ import annotations

import tarfile

from . import common
from ._legacy import legacy

__all__ = []

URL_DEV_TEST = "http://www-lium.univ-lemans.fr/~schwenk/cslm_joint_paper/data/dev+test.tgz"
MD5_DEV_TEST = "7d7897317ddd8ba0ae5c5fa7248d3ff5"
URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"
URL_MODEL = "http://paddlemodels.bj.bcebos.com/wmt%2Fwmt14.tgz"
MD5_MODEL = "0cb4a5366189b6acba876491c8724fa3"

START = "<s>"
END = "<e>"
UNK = "<unk>"
UNK_IDX = 2


def _first_lines_dict(fd, size) -> dict:
    out = {}
    for i, line in enumerate(fd):
        if i >= size:
            break
        out[line.strip().decode()] = i
    return out


def _read_dicts(tar_file, dict_size):
    """The source and target dictionaries: the first ``dict_size`` lines of the archive's
    ``*src.dict`` and ``*trg.dict`` files."""
    with tarfile.open(tar_file, mode="r") as f:
        dicts = []
        for suffix in ("src.dict", "trg.dict"):
            names = [m.name for m in f if m.name.endswith(suffix)]
            assert len(names) == 1
            dicts.append(_first_lines_dict(f.extractfile(names[0]), dict_size))
    return tuple(dicts)


def reader_creator(tar_file, file_name, dict_size):
    """A reader of (``<s>`` source ``<e>`` ids, ``<s>`` target ids, target ``<e>`` ids) for the
    tab-separated sentence pairs of the archive files ending in ``file_name``; pairs longer
    than 80 ids are skipped."""

    def reader():
        src_dict, trg_dict = _read_dicts(tar_file, dict_size)
        with tarfile.open(tar_file, mode="r") as f:
            for name in [m.name for m in f if m.name.endswith(file_name)]:
                for line in f.extractfile(name):
                    parts = line.decode().strip().split("\t")
                    if len(parts) != 2:
                        continue
                    src_ids = [src_dict.get(w, UNK_IDX) for w in [START, *parts[0].split(), END]]
                    trg_ids = [trg_dict.get(w, UNK_IDX) for w in parts[1].split()]
                    if len(src_ids) > 80 or len(trg_ids) > 80:
                        continue
                    yield src_ids, [trg_dict[START], *trg_ids], [*trg_ids, trg_dict[END]]

    return reader


def _train_file():
    return common.download(URL_TRAIN, "wmt14", MD5_TRAIN)


@legacy("paddle.text.datasets.WMT14")
def train(dict_size):
    """The training pairs."""
    return reader_creator(_train_file(), "train/train", dict_size)


@legacy("paddle.text.datasets.WMT14")
def test(dict_size):
    """The test pairs."""
    return reader_creator(_train_file(), "test/test", dict_size)


@legacy("paddle.text.datasets.WMT14")
def gen(dict_size):
    """The generation pairs."""
    return reader_creator(_train_file(), "gen/gen", dict_size)


@legacy("paddle.text.datasets.WMT14")
def get_dict(dict_size, reverse=True):
    """The (source, target) dictionaries; id -> word when ``reverse``."""
    src_dict, trg_dict = _read_dicts(_train_file(), dict_size)
    if reverse:
        src_dict = {v: k for k, v in src_dict.items()}
        trg_dict = {v: k for k, v in trg_dict.items()}
    return src_dict, trg_dict


@legacy("paddle.text.datasets.WMT14")
def fetch():
    _train_file()
    common.download(URL_MODEL, "wmt14", MD5_MODEL)
