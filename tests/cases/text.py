"""paddle.text: viterbi_decode / ViterbiDecoder (values, paths, dtypes, errors) and the text
datasets read from small files written here in Paddle's formats (goldens from real Paddle).
Ids that Paddle numbers in Python's set order (hash-seed dependent: Movielens categories and
title words, Conll05st labels) are mapped back to their words before comparing."""

import gzip
import io
import os
import tarfile
import tempfile
import zipfile

import numpy as np
from _util import expect_error, rng

import paddle

B, T, N = 3, 5, 4
POT = rng(0).standard_normal((B, T, N)).astype("float32")
TRANS = rng(1).standard_normal((N, N)).astype("float32")


def _decode(pot, trans, lens, tag=True, dtype="int64"):
    return paddle.text.viterbi_decode(
        paddle.to_tensor(pot), paddle.to_tensor(trans), paddle.to_tensor(np.array(lens, dtype)), tag
    )


def case_viterbi_values():
    out = {}
    for lens in ([5, 3, 1], [2, 2, 1], [3, 0, 2], [1, 1, 1], [-1, 2, 3], [1, 2, 5]):
        for tag in (True, False):
            out[f"{lens}_{tag}"] = list(_decode(POT, TRANS, lens, tag))
    out["float64"] = list(_decode(POT.astype("float64"), TRANS.astype("float64"), [5, 3, 1]))
    out["two_tags"] = list(_decode(POT[:, :, :2], TRANS[:2, :2], [5, 3, 1]))
    ties = np.zeros((2, 3, 3), "float32")
    out["ties"] = [list(_decode(ties, ties[0], [3, 2], tag)) for tag in (True, False)]
    nan = POT.copy()
    nan[0, 1, 2] = np.nan
    out["nan"] = list(_decode(nan, TRANS, [3, 2, 1], False))
    inf = POT.copy()
    inf[0, 4, :] = np.inf  # past max(lengths): never read
    out["inf_past_end"] = list(_decode(inf, TRANS, [3, 2, 1], False))
    wide = rng(2).standard_normal((N, N + 1)).astype("float32")
    out["wide_transition"] = list(_decode(POT, wide, [5, 3, 1]))
    x = paddle.to_tensor(POT, stop_gradient=False)
    scores, path = paddle.text.viterbi_decode(
        x, paddle.to_tensor(TRANS), paddle.to_tensor(np.array([5, 3, 1])), include_bos_eos_tag=True
    )
    out["grad_input"] = [scores.stop_gradient, path.stop_gradient, scores]
    return out


def case_viterbi_decoder():
    trans = paddle.to_tensor(TRANS)
    dec = paddle.text.ViterbiDecoder(trans, include_bos_eos_tag=False)
    lens = paddle.to_tensor(np.array([4, 3, 2]))
    return {
        "out": list(dec(paddle.to_tensor(POT), lens)),
        "attrs": [dec.include_bos_eos_tag, dec.name, dec.transitions is trans],
        "params": len(dec.parameters()),
        "state_dict": list(dec.state_dict().keys()),
        "repr": repr(dec),
        "default": list(paddle.text.ViterbiDecoder(trans)(paddle.to_tensor(POT), lens)),
    }


def case_viterbi_errors():
    lens = [5, 3, 1]
    pot, trans, ln = paddle.to_tensor(POT), paddle.to_tensor(TRANS), paddle.to_tensor([5, 3, 1])
    bad = {
        "float16": (POT.astype("float16"), TRANS.astype("float16"), lens),
        "int32": (POT.astype("int32"), TRANS.astype("int32"), lens),
        "mixed": (POT, TRANS.astype("float64"), lens),
        "rank2": (POT[0], TRANS, [5]),
        "trans_rank3": (POT, TRANS[None], lens),
        "tags_differ": (POT, TRANS[:3], lens),
        "batch_differ": (POT, TRANS, [5, 3]),
        "lengths_rank2": (POT, TRANS, [[5], [3], [1]]),
        "one_tag": (POT[:, :, :1], TRANS[:1, :1], lens),
        "too_long": (POT, TRANS, [6, 2, 1]),
        "empty_time": (POT[:, :0], TRANS, [0, 0, 0]),
    }
    out = {k: expect_error(lambda a=a: _decode(*a)) for k, a in bad.items()}
    out["int32_lengths"] = expect_error(lambda: _decode(POT, TRANS, lens, True, "int32"))
    out["float_lengths"] = expect_error(lambda: _decode(POT, TRANS, lens, True, "float32"))
    out["numpy_input"] = expect_error(lambda: paddle.text.viterbi_decode(POT, trans, ln))
    out["int_tag"] = expect_error(lambda: paddle.text.viterbi_decode(pot, trans, ln, 1))
    return out


# -- datasets -------------------------------------------------------------------------------
def _add(tar, name, data: bytes):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _items(ds, n=None):
    return [list(ds[i]) for i in range(len(ds) if n is None else n)]


def case_uci_housing():
    rows = rng(3).uniform(0, 50, (11, 14)).round(3)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "housing.data")
        with open(path, "w") as f:
            for row in rows:
                f.write(" ".join(f"{v:.3f}" for v in row) + "\n")
        train = paddle.text.UCIHousing(path)
        test = paddle.text.datasets.UCIHousing(path, mode="TEST")
        paddle.set_default_dtype("float64")
        wide = paddle.text.UCIHousing(path, mode="test")
        paddle.set_default_dtype("float32")
        return {
            "lens": [len(train), len(test)],
            "train": _items(train),
            "test": _items(test),
            "dtype": [train.dtype, wide.dtype],
            "float64": list(wide[0]),
            "bad_mode": expect_error(lambda: paddle.text.UCIHousing(path, mode="val")),
            "no_download": expect_error(lambda: paddle.text.UCIHousing(None, download=False)),
            "missing": expect_error(lambda: paddle.text.UCIHousing(os.path.join(d, "x"))),
        }


REVIEWS = {
    "aclImdb/train/pos/0_9.txt": b"A great, great movie!\n",
    "aclImdb/train/neg/1_2.txt": b"Bad movie. Bad plot; bad acting.\r\n",
    "aclImdb/train/pos/2_8.txt": b"Great acting, <br /> great plot.",
    "aclImdb/train/unsup/3_0.txt": b"great great great great",
    "aclImdb/test/neg/4_1.txt": b"Not great: a BAD movie",
    "aclImdb/test/pos/5_10.txt": b"movie movie plot",
    "aclImdb/README": b"great great great",
}


def case_imdb():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "imdb.tar.gz")
        with tarfile.open(path, "w:gz") as tar:
            for name, text in REVIEWS.items():
                _add(tar, name, text)
        train = paddle.text.Imdb(path, cutoff=1)
        test = paddle.text.Imdb(path, mode="test", cutoff=2)
        return {
            "lens": [len(train), len(test)],
            "train": _items(train),
            "test": _items(test),
            "word_idx": sorted((repr(k), v) for k, v in train.word_idx.items()),
            "labels": [train.labels, test.labels],
            "empty_vocab": expect_error(lambda: paddle.text.Imdb(path, cutoff=100)),
            "bad_mode": expect_error(lambda: paddle.text.Imdb(path, mode="dev")),
            "no_download": expect_error(lambda: paddle.text.Imdb(download=False)),
        }


PTB = {
    "train": "the cat sat on the mat\n the dog sat\n a cat <unk> ran on the mat \n",
    "valid": "the cat ran\n the the dog\n",
    "test": "the cat sat on a log\n dog\n",
}


def _write_ptb(d, texts=PTB):
    path = os.path.join(d, "simple-examples.tgz")
    with tarfile.open(path, "w:gz") as tar:
        for mode, text in texts.items():
            _add(tar, f"./simple-examples/data/ptb.{mode}.txt", text.encode())
    return path


def case_imikolov():
    with tempfile.TemporaryDirectory() as d:
        path = _write_ptb(d)
        grams = paddle.text.Imikolov(path, window_size=3, min_word_freq=1)
        test_grams = paddle.text.Imikolov(path, "ngram", 2, "test", min_word_freq=2)
        seq = paddle.text.Imikolov(path, "SEQ", mode="test", min_word_freq=1)
        seq_short = paddle.text.Imikolov(path, "seq", window_size=4, min_word_freq=1)
        # b"x" and "<s>" both counted 3 times: sorting compares bytes with str
        tie = _write_ptb(d, {"train": "x y\n x\n", "valid": "x\n", "test": "x\n"})
        return {
            "lens": [len(grams), len(test_grams), len(seq), len(seq_short)],
            "grams": _items(grams),
            "test_grams": _items(test_grams),
            "seq": _items(seq),
            "seq_short": _items(seq_short),
            "word_idx": sorted((repr(k), v) for k, v in grams.word_idx.items()),
            "no_window": expect_error(lambda: paddle.text.Imikolov(path, min_word_freq=1)),
            "bytes_str_tie": expect_error(
                lambda: paddle.text.Imikolov(tie, window_size=2, min_word_freq=0)
            ),
            "bad_type": expect_error(lambda: paddle.text.Imikolov(path, "bigram", 2)),
            "no_download": expect_error(lambda: paddle.text.Imikolov(download=False)),
        }


MOVIES = (
    "1::Toy Story (1995)::Animation|Children's|Comedy\n"
    "2::Jumanji (1995)::Adventure|Children's|Fantasy\n"
    "3::Grumpier Old Men (1995)::Comedy|Romance\n"
    "4::Città aperta (1945)::Drama\n"
)
USERS = "1::F::1::10::48067\n2::M::56::16::70072\n3::M::25::15::55117\n"


def _write_movielens(d):
    ratings = "".join(
        f"{u}::{m}::{r}::97830{i}\n"
        for i, (u, m, r) in enumerate(
            (u, m, 1 + (u * m) % 5) for u in (1, 2, 3) for m in (1, 2, 3, 4) for _ in (0, 1)
        )
    )
    path = os.path.join(d, "ml-1m.zip")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-1m/movies.dat", MOVIES.encode("latin"))
        z.writestr("ml-1m/users.dat", USERS)
        z.writestr("ml-1m/ratings.dat", ratings)
        z.writestr("ml-1m/README", "MovieLens")
    return path


def _movie_item(ds, item):
    cats = {v: k for k, v in ds.categories_dict.items()}
    words = {v: k for k, v in ds.movie_title_dict.items()}
    item = list(item)
    item[5] = [cats[int(i)] for i in item[5]]
    item[6] = [words[int(i)] for i in item[6]]
    return item


def case_movielens():
    with tempfile.TemporaryDirectory() as d:
        path = _write_movielens(d)
        train = paddle.text.Movielens(path, test_ratio=0.3, rand_seed=3)
        test = paddle.text.Movielens(path, mode="test", test_ratio=0.3, rand_seed=3)
        after = np.random.random()  # the dataset seeds numpy's global stream
        return {
            "lens": [len(train), len(test)],
            "train": [_movie_item(train, train[i]) for i in range(len(train))],
            "test": [_movie_item(test, test[i]) for i in range(len(test))],
            "dtypes": [str(a.dtype) for a in train[0]],
            "numpy_stream_after": after,
            "categories": sorted(train.categories_dict),
            "title_words": sorted(train.movie_title_dict),
            "info": [str(train.movie_info[4]), repr(train.user_info[2])],
            "bad_mode": expect_error(lambda: paddle.text.Movielens(path, mode="val")),
            "no_download": expect_error(lambda: paddle.text.Movielens(download=False)),
        }


# CoNLL-05 props: column 0 names the predicates, each further column one predicate's roles
CONLL = [
    ("The", "-", "(A0*", "(A0*"),
    ("cat", "-", "*)", "*)"),
    ("sat", "sat", "(V*)", "*"),
    ("and", "-", "*", "*"),
    ("purred", "purred", "*", "(V*)"),
    ("", None),
    ("Dogs", "-", "(A0*)"),
    ("bark", "bark", "(V*)"),
    ("loudly", "-", "(AM-MNR*)"),
    ("", None),
]


def _write_conll(d):
    words = "".join(row[0] + "\n" for row in CONLL)
    props = "".join(("\t".join(row[1:]) if row[1] else "") + "\n" for row in CONLL)
    path = os.path.join(d, "conll05st-tests.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        base = "conll05st-release/test.wsj"
        _add(tar, f"{base}/words/test.wsj.words.gz", gzip.compress(words.encode()))
        _add(tar, f"{base}/props/test.wsj.props.gz", gzip.compress(props.encode()))
    files = {
        "word": "<unk>\nthe\ncat\nsat\nand\nbos\neos\nDogs\nbark\n",
        "verb": "bark\nsat\npurred\n",
        "target": "B-A0\nI-A0\nB-V\nI-V\nB-AM-MNR\nI-AM-MNR\nO\n",
        "emb": "0.1 0.2\n",
    }
    paths = {}
    for k, text in files.items():
        paths[k] = os.path.join(d, k + ".txt")
        with open(paths[k], "w") as f:
            f.write(text)
    return path, paths


def case_conll05st():
    with tempfile.TemporaryDirectory() as d:
        path, p = _write_conll(d)
        ds = paddle.text.Conll05st(path, p["word"], p["verb"], p["target"], p["emb"])
        word_dict, verb_dict, label_dict = ds.get_dict()
        names = {v: k for k, v in label_dict.items()}
        items = []
        for i in range(len(ds)):
            item = list(ds[i])
            item[-1] = [names[int(x)] for x in item[-1]]
            items.append(item)
        return {
            "len": len(ds),
            "items": items,
            "dicts": [word_dict, verb_dict, sorted(label_dict)],
            "embedding": os.path.basename(ds.get_embedding()),
            "no_download": expect_error(
                lambda: paddle.text.Conll05st(path, p["word"], p["verb"], download=False)
            ),
        }


WMT14_PAIRS = "le chat\tthe cat\nun chien noir\ta black dog\nbad line\nle\tthe\t!\n"


def _write_wmt14(d):
    path = os.path.join(d, "wmt14.tgz")
    src = "<s>\n<e>\n<unk>\nle\nchat\nchien\nun\n"
    trg = "<s>\n<e>\n<unk>\nthe\ncat\ndog\n"
    with tarfile.open(path, "w:gz") as tar:
        _add(tar, "wmt14/src.dict", src.encode())
        _add(tar, "wmt14/trg.dict", trg.encode())
        _add(tar, "wmt14/train/train", WMT14_PAIRS.encode())
        _add(tar, "wmt14/test/test", b"chat chat\tcat cat\n")
        _add(tar, "wmt14/gen/gen", b"le chien\tthe dog\n" + b" ".join([b"le"] * 79) + b"\tthe\n")
    return path


def case_wmt14():
    with tempfile.TemporaryDirectory() as d:
        path = _write_wmt14(d)
        train = paddle.text.WMT14(path, dict_size=6)
        test = paddle.text.WMT14(path, mode="test", dict_size=30)
        gen = paddle.text.WMT14(path, mode="GEN", dict_size=30)
        return {
            "lens": [len(train), len(test), len(gen)],
            "train": _items(train),
            "test": _items(test),
            "gen": _items(gen),
            "dicts": list(train.get_dict()),
            "reverse": [sorted(x.items()) for x in train.get_dict(reverse=True)],
            "no_size": expect_error(lambda: paddle.text.WMT14(path)),
            "bad_mode": expect_error(lambda: paddle.text.WMT14(path, mode="val", dict_size=5)),
            "no_download": expect_error(lambda: paddle.text.WMT14(download=False, dict_size=5)),
        }


WMT16_TRAIN = (
    "a man rides a horse\tein mann reitet ein pferd\n"
    "a dog runs\tein hund rennt\n"
    "one column only\n"
    "a man and a dog\tein mann und ein hund\n"
)
WMT16_SIZES = (7, 1009)  # rare sizes: the case removes the dictionaries it caches


def case_wmt16():
    cache = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset", "wmt16")
    os.makedirs(cache, exist_ok=True)
    made = [os.path.join(cache, f"{lang}_{n}.dict") for lang in ("en", "de") for n in WMT16_SIZES]
    made = [m for m in made if not os.path.exists(m)]
    try:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "wmt16.tar.gz")
            with tarfile.open(path, "w:gz") as tar:
                _add(tar, "wmt16/train", WMT16_TRAIN.encode())
                _add(tar, "wmt16/test", b"a horse runs\tein pferd rennt\n")
                _add(tar, "wmt16/val", b"a cat\teine katze\n")
            en = paddle.text.WMT16(path, src_dict_size=7, trg_dict_size=1009)
            de = paddle.text.WMT16(path, "test", 1009, 7, lang="de")
            val = paddle.text.WMT16(path, "val", 7, 7)
            return {
                "lens": [len(en), len(de), len(val)],
                "en": _items(en),
                "de": _items(de),
                "val": _items(val),
                "dicts": [en.src_dict, en.trg_dict, de.src_dict, de.trg_dict],
                "sizes": [en.src_dict_size, en.trg_dict_size],
                "get_dict": [en.get_dict("en"), en.get_dict("de", reverse=True)],
                "no_size": expect_error(lambda: paddle.text.WMT16(path, src_dict_size=5)),
                "bad_mode": expect_error(lambda: paddle.text.WMT16(path, "dev", 5, 5)),
            }
    finally:
        for m in made:
            if os.path.exists(m):
                os.remove(m)
