"""paddle.reader decorators, the legacy paddle.dataset readers on generated files in a temp
dir (Paddle's cache layout) and paddle.hub on a local hubconf.py (goldens from real Paddle)."""

import gzip
import io
import os
import pickle
import random
import struct
import sys
import tarfile
import tempfile
import warnings

import numpy as np
import paddle.dataset.cifar
import paddle.dataset.common
import paddle.dataset.conll05
import paddle.dataset.imdb
import paddle.dataset.imikolov
import paddle.dataset.mnist
import paddle.dataset.uci_housing
import paddle.dataset.wmt14
import paddle.reader as R
from _util import expect_error

import paddle


def _numbers(n=10, start=0):
    return lambda: iter(range(start, start + n))


def case_reader_decorators():
    pairs = lambda: iter([(1, "a"), (2, "b")])  # noqa: E731
    out = {
        "map": list(R.map_readers(lambda a, b: a * b, _numbers(4), _numbers(5, 1))()),
        "chain": list(R.chain(_numbers(2), _numbers(3, 10))()),
        "compose": list(R.compose(_numbers(2), pairs)()),
        "compose_unchecked": list(R.compose(_numbers(5), pairs, check_alignment=False)()),
        "firstn": list(R.firstn(_numbers(), 3)()),
        "firstn_more": list(R.firstn(_numbers(2), 5)()),
        "buffered": list(R.buffered(_numbers(20), 3)()),
        "xmap_ordered": list(R.xmap_readers(lambda x: x * x, _numbers(30), 4, 5, order=True)()),
        "xmap_any_order": sorted(R.xmap_readers(lambda x: -x, _numbers(30), 3, 4)()),
        "not_aligned": expect_error(lambda: list(R.compose(_numbers(3), pairs)())),
        "not_aligned_is_value_error": issubclass(R.ComposeNotAligned, ValueError),
    }
    calls = []

    def counted():
        calls.append(1)
        return iter([1, 2, 3])

    cached = R.cache(counted)
    out["cache"] = [list(cached()), list(cached()), len(calls)]
    random.seed(7)
    out["shuffle"] = list(R.shuffle(_numbers(10), 4)())
    out["shuffle_big_buffer"] = list(R.shuffle(_numbers(10), 100)())
    return out


def _idx_files(d, n=200, rows=2, cols=3):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (n, rows * cols), dtype=np.uint8)
    labels = rng.integers(0, 10, n, dtype=np.uint8)
    img, lab = os.path.join(d, "img.gz"), os.path.join(d, "lab.gz")
    with gzip.open(img, "wb") as f:
        f.write(struct.pack(">IIII", 2051, n, rows, cols) + images.tobytes())
    with gzip.open(lab, "wb") as f:
        f.write(struct.pack(">II", 2049, n) + labels.tobytes())
    return img, lab


def _tar(path, members):
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))


def case_legacy_image_readers():
    out = {}
    with tempfile.TemporaryDirectory() as d:
        img, lab = _idx_files(d)
        samples = list(paddle.dataset.mnist.reader_creator(img, lab, 100)())
        out["mnist"] = [len(samples), samples[0], samples[-1], samples[57]]
        rng = np.random.default_rng(1)
        batch = {b"data": rng.integers(0, 256, (3, 3072), dtype=np.uint8), b"labels": [3, 1, 4]}
        batch100 = {
            b"data": rng.integers(0, 256, (2, 3072), dtype=np.uint8),
            b"fine_labels": [55, 9],
        }
        path = os.path.join(d, "cifar.tar.gz")
        _tar(
            path,
            {
                "cifar-10-batches-py/data_batch_1": pickle.dumps(batch, protocol=2),
                "cifar-10-batches-py/test_batch": pickle.dumps(batch100, protocol=2),
            },
        )
        train = list(paddle.dataset.cifar.reader_creator(path, "data_batch")())
        out["cifar_train"] = [len(train), train[1][0][:5], train[1][1], train[1][0].dtype.name]
        out["cifar_test"] = [
            s[1] for s in paddle.dataset.cifar.reader_creator(path, "test_batch")()
        ]
        cycled = paddle.dataset.cifar.reader_creator(path, "test_batch", cycle=True)()
        out["cifar_cycle"] = [next(cycled)[1] for _ in range(5)]
    return out


def case_legacy_cache_and_download():
    common = paddle.dataset.common
    saved = common.DATA_HOME
    out = {"data_home_tail": saved.split(os.sep)[-3:]}
    with tempfile.TemporaryDirectory() as d:
        common.DATA_HOME = d
        try:
            os.makedirs(os.path.join(d, "uci_housing"))
            rng = np.random.default_rng(2)
            table = np.round(rng.uniform(0, 50, (10, 14)), 3)
            path = os.path.join(d, "uci_housing", "housing.data")
            np.savetxt(path, table, fmt="%.3f")
            md5 = common.md5file(path)
            out["download_cached"] = os.path.relpath(
                common.download("http://x.org/a/housing.data", "uci_housing", md5), d
            )
            out["save_name"] = os.path.relpath(
                common.download("http://x.org/a/other", "uci_housing", md5, "housing.data"), d
            )
            uci = paddle.dataset.uci_housing
            uci.UCI_TRAIN_DATA = uci.UCI_TEST_DATA = None
            uci.load_data(path)
            out["uci_train"] = list(map(list, uci.UCI_TRAIN_DATA[:2]))
            out["uci_test_rows"] = len(uci.UCI_TEST_DATA)
            uci.UCI_TRAIN_DATA = uci.UCI_TEST_DATA = None
            out["check_exists"] = os.path.relpath(
                common._check_exists_and_download(path, "http://x.org/a", "0", "m", False), d
            )
            out["no_download"] = expect_error(
                lambda: common._check_exists_and_download(None, "http://x.org/a", "0", "m", False)
            )
        finally:
            common.DATA_HOME = saved
    return out


def _imdb_archive(d):
    docs = {
        "aclImdb/train/pos/0_9.txt": b"A great, great film!\n",
        "aclImdb/train/pos/1_8.txt": b"Great acting; great story.",
        "aclImdb/train/neg/0_2.txt": b"Bad film. Bad!",
        "aclImdb/test/pos/0_9.txt": b"great fun",
        "aclImdb/test/neg/0_1.txt": b"so bad, so dull",
    }
    os.makedirs(os.path.join(d, "imdb"))
    path = os.path.join(d, "imdb", "imdb%2FaclImdb_v1.tar.gz")
    _tar(path, docs)
    return path


def _ptb_archive(d):
    os.makedirs(os.path.join(d, "imikolov"))
    path = os.path.join(d, "imikolov", "imikolov%2Fsimple-examples.tgz")
    _tar(
        path,
        {
            "./simple-examples/data/ptb.train.txt": b" the cat sat \n the dog sat on the mat \n",
            "./simple-examples/data/ptb.valid.txt": b" the cat ran <unk> \n",
        },
    )
    return path


def case_legacy_text_readers():
    common = paddle.dataset.common
    saved = common.DATA_HOME
    imdb, imikolov = paddle.dataset.imdb, paddle.dataset.imikolov
    saved_md5 = imdb.MD5, imikolov.MD5
    out = {}
    with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        common.DATA_HOME = d
        try:
            imdb.MD5 = common.md5file(_imdb_archive(d))
            imikolov.MD5 = common.md5file(_ptb_archive(d))
            import re

            words = imdb.build_dict(
                re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$"), 0
            )
            out["imdb_dict"] = sorted(
                (k.decode() if isinstance(k, bytes) else k, v) for k, v in words.items()
            )
            out["imdb_train"] = list(imdb.train(words)())
            out["imdb_test"] = list(imdb.test(words)())
            vocab = imikolov.build_dict(min_word_freq=0)
            out["ptb_dict"] = sorted(
                (k.decode() if isinstance(k, bytes) else k, v) for k, v in vocab.items()
            )
            out["ptb_ngram"] = list(imikolov.train(vocab, 3)())
            out["ptb_seq"] = list(imikolov.test(vocab, 0, imikolov.DataType.SEQ)())
            out["ptb_seq_short"] = list(imikolov.train(vocab, 4, imikolov.DataType.SEQ)())
        finally:
            common.DATA_HOME = saved
            imdb.MD5, imikolov.MD5 = saved_md5
    return out


def _gz(text: str) -> bytes:
    return gzip.compress(text.encode())


def case_legacy_wmt14_conll05():
    out = {}
    with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wmt = os.path.join(d, "wmt14.tgz")
        _tar(
            wmt,
            {
                "wmt14/src.dict": b"<s>\n<e>\n<unk>\nle\nchat\nnoir\n",
                "wmt14/trg.dict": b"<s>\n<e>\n<unk>\nthe\ncat\n",
                "wmt14/train/train": b"le chat\tthe cat\nle chien noir\tthe dog\nbad line\n",
                "wmt14/test/test": b"chat\tcat\n",
            },
        )
        out["wmt_train"] = list(paddle.dataset.wmt14.reader_creator(wmt, "train/train", 5)())
        out["wmt_test"] = list(paddle.dataset.wmt14.reader_creator(wmt, "test/test", 100)())
        words = "The\ncat\nsat\n.\n\nDogs\nbark\n\n"
        props = "-\t(A0*\t*\n-\t*)\t(A0*)\nsit\t(V*)\t*\nstop\t*\t(V*)\n\n-\t(A0*)\nbark\t(V*)\n\n"
        conll = os.path.join(d, "conll.tar.gz")
        _tar(conll, {"w.gz": _gz(words), "p.gz": _gz(props)})
        corpus = paddle.dataset.conll05.corpus_reader(conll, "w.gz", "p.gz")
        out["conll_corpus"] = list(corpus())
        word_dict = {"The": 1, "cat": 2, "sat": 3, "Dogs": 4}
        labels = {"B-A0": 0, "I-A0": 1, "B-V": 2, "I-V": 3, "O": 4}
        reader = paddle.dataset.conll05.reader_creator(
            corpus, word_dict, {"sit": 7, "bark": 8}, labels
        )
        out["conll_reader"] = list(reader())
    return out


HUBCONF = '''
"""A tiny hub repository."""
import paddle

dependencies = ["numpy"]


def small_linear(out_features=3):
    """A Linear layer from 2 to out_features."""
    return paddle.nn.Linear(2, out_features)


def _private():
    return 1


VALUE = 3
'''


def case_hub_local():
    import paddle.hub as hub

    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "hubconf.py"), "w") as f:
            f.write(HUBCONF)
        layer = hub.load(d, "small_linear", source="local", out_features=4)
        out = {
            "list": hub.list(d, source="local"),
            "help": hub.help(d, "small_linear", source="local"),
            "load": [type(layer).__name__, layer.weight.shape],
            "hubconf_not_kept": "hubconf" in sys.modules,
            "bad_source": expect_error(lambda: hub.list(d, source="svn")),
            "not_callable": expect_error(lambda: hub.load(d, "VALUE", source="local")),
            "missing_entry": expect_error(lambda: hub.help(d, "nope", source="local")),
            "name_not_str": expect_error(lambda: hub.help(d, 3, source="local")),
        }
        empty = os.path.join(d, "empty")
        os.makedirs(empty)
        out["no_hubconf"] = expect_error(lambda: hub.list(empty, source="local"))
        with open(os.path.join(empty, "hubconf.py"), "w") as f:
            f.write("dependencies = ['surely_not_a_module_xyz']\ndef m():\n    return 1\n")
        out["missing_dependency"] = expect_error(lambda: hub.load(empty, "m", source="local"))
        sd = {"w": paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3))}
        paddle.save(sd, os.path.join(d, "model.pdparams"))
        loaded = hub.load_state_dict_from_url("https://x.org/files/model.pdparams", model_dir=d)
        out["state_dict"] = loaded
        out["state_dict_np"] = hub.load_state_dict_from_url(
            "https://x.org/m.bin", model_dir=d, file_name="model.pdparams", map_location="numpy"
        )
    return out
