"""paddle.text beyond the goldens (tests/cases/text.py): what paddle-compat does where Paddle
would download (a clear error naming the file and Paddle's cache path), the WMT16 dictionary
cache, and viterbi_decode inside to_static."""

import os
import sys

import numpy as np
import pytest

import paddle
from paddle_compat.vision.datasets import _local

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "cases"))
import text as cases  # noqa: E402


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setattr(_local, "DATA_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize(
    "make, cached",
    [
        (lambda: paddle.text.UCIHousing(), "uci_housing/housing.data"),
        (lambda: paddle.text.Imdb(), "imdb/imdb%2FaclImdb_v1.tar.gz"),
        (lambda: paddle.text.Imikolov(window_size=2), "imikolov/imikolov%2Fsimple-examples.tgz"),
        (lambda: paddle.text.Movielens(), "sentiment/movielens%2Fml-1m.zip"),
        (lambda: paddle.text.Conll05st(), "conll05st/conll05st-tests.tar.gz"),
        (lambda: paddle.text.WMT14(dict_size=5), "wmt14/wmt14.tgz"),
        (lambda: paddle.text.WMT16(src_dict_size=5, trg_dict_size=5), "wmt16/wmt16.tar.gz"),
    ],
)
def test_never_downloads(data_home, make, cached):
    with pytest.raises(RuntimeError, match="does not download") as e:
        make()
    assert str(data_home / cached) in str(e.value) and "md5" in str(e.value)


def test_conll05st_embedding_file_only_needed_by_get_embedding(tmp_path, data_home):
    path, p = cases._write_conll(str(tmp_path))
    ds = paddle.text.Conll05st(path, p["word"], p["verb"], p["target"])
    assert len(ds) == 3 and ds.emb_file is None
    with pytest.raises(RuntimeError, match="emb_file"):
        ds.get_embedding()


def test_wmt16_caches_its_dictionaries(tmp_path, data_home):
    path = tmp_path / "wmt16.tar.gz"
    import tarfile

    with tarfile.open(path, "w:gz") as tar:
        cases._add(tar, "wmt16/train", cases.WMT16_TRAIN.encode())
    ds = paddle.text.WMT16(str(path), src_dict_size=6, trg_dict_size=40)
    assert len(ds) == 3  # Paddle would fail here: its cache folder did not exist
    assert (data_home / "wmt16" / "en_6.dict").read_text().split() == [
        "<s>", "<e>", "<unk>", "a", "man", "dog",
    ]  # fmt: skip
    assert ds.get_dict("en") == ds.src_dict


def test_viterbi_decode_to_static():
    """Compiled, the path keeps seq_len columns: Paddle's path, then zeros; one compile serves
    every lengths."""
    pot, trans = paddle.to_tensor(cases.POT), paddle.to_tensor(cases.TRANS)
    decode = paddle.jit.to_static(paddle.text.viterbi_decode)
    for lens in ([3, 2, 1], [5, 1, 1], [2, 2, 2]):
        lengths = paddle.to_tensor(np.array(lens))
        scores, path = decode(pot, trans, lengths)
        want_scores, want_path = paddle.text.viterbi_decode(pot, trans, lengths)
        np.testing.assert_array_equal(scores.numpy(), want_scores.numpy())
        assert path.shape == [3, 5] and want_path.shape == [3, max(lens)]
        np.testing.assert_array_equal(path.numpy()[:, : max(lens)], want_path.numpy())
        assert not path.numpy()[:, max(lens) :].any()
