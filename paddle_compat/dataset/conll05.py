"""``paddle.dataset.conll05``: legacy CoNLL-2005 semantic role labelling test reader from the
files in Paddle's cache (``DATA_HOME/conll05st``)."""

from __future__ import annotations

import gzip
import tarfile

from ..text.datasets.conll05 import (  # noqa: F401  (Paddle's module constants)
    DATA_MD5,
    DATA_URL,
    EMB_MD5,
    EMB_URL,
    TRGDICT_MD5,
    TRGDICT_URL,
    UNK_IDX,
    VERBDICT_MD5,
    VERBDICT_URL,
    WORDDICT_MD5,
    WORDDICT_URL,
    _bio_labels,
)
from . import common
from ._legacy import legacy

__all__ = []


def load_label_dict(filename) -> dict:
    """B-/I- label ids for each tag of the file's ``B-``/``I-`` lines, then ``O``. As in
    Paddle, tags are numbered in set order (which varies with Python's string hashing)."""
    tags = set()
    with open(filename) as f:
        for line in f:
            line = line.strip()
            if line.startswith(("B-", "I-")):
                tags.add(line[2:])
    d = {}
    for i, tag in enumerate(tags):
        d["B-" + tag], d["I-" + tag] = 2 * i, 2 * i + 1
    d["O"] = 2 * len(tags)
    return d


def load_dict(filename) -> dict:
    """Line (stripped) -> line number."""
    with open(filename) as f:
        return {line.strip(): i for i, line in enumerate(f)}


def corpus_reader(data_path, words_name, props_name):
    """A reader of (sentence words, predicate, B-/I-/O labels), one per predicate of each
    sentence of the gzipped words/props files inside the tarball."""

    def reader():
        with tarfile.open(data_path) as tf:
            with (
                gzip.GzipFile(fileobj=tf.extractfile(words_name)) as words_file,
                gzip.GzipFile(fileobj=tf.extractfile(props_name)) as props_file,
            ):
                sentence, rows = [], []
                for word, props in zip(words_file, props_file):
                    word, props = word.strip().decode(), props.strip().decode().split()
                    if props:
                        sentence.append(word)
                        rows.append(props)
                        continue
                    columns = [[r[i] for r in rows] for i in range(len(rows[0]))]
                    if columns:
                        verbs = [v for v in columns[0] if v != "-"]
                        for i, col in enumerate(columns[1:]):
                            yield sentence, verbs[i], _bio_labels(col)
                    sentence, rows = [], []

    return reader


def reader_creator(corpus_reader, word_dict=None, predicate_dict=None, label_dict=None):
    """A reader of (word ids, the 5-word context ids around the predicate repeated per word,
    predicate ids, the 0/1 context mark, label ids) from ``corpus_reader``'s samples."""

    def reader():
        for sentence, predicate, labels in corpus_reader():
            n = len(sentence)
            v = labels.index("B-V")
            mark = [0] * len(labels)
            context = []
            for offset, pad in ((-2, "bos"), (-1, "bos"), (0, None), (1, "eos"), (2, "eos")):
                j = v + offset
                if 0 <= j < len(labels):
                    mark[j] = 1
                    context.append(sentence[j])
                else:
                    context.append(pad)
            word_idx = [word_dict.get(w, UNK_IDX) for w in sentence]
            ctx_idx = [[word_dict.get(c, UNK_IDX)] * n for c in context]
            pred_idx = [predicate_dict.get(predicate)] * n
            label_idx = [label_dict.get(w) for w in labels]
            yield (word_idx, *ctx_idx, pred_idx, mark, label_idx)

    return reader


@legacy("paddle.text.datasets.Conll05st")
def get_dict():
    """The (word, verb, label) dictionaries."""
    word_dict = load_dict(common.download(WORDDICT_URL, "conll05st", WORDDICT_MD5))
    verb_dict = load_dict(common.download(VERBDICT_URL, "conll05st", VERBDICT_MD5))
    label_dict = load_label_dict(common.download(TRGDICT_URL, "conll05st", TRGDICT_MD5))
    return word_dict, verb_dict, label_dict


@legacy("paddle.text.datasets.Conll05st")
def get_embedding():
    """The path of the pretrained word embedding file."""
    return common.download(EMB_URL, "conll05st", EMB_MD5)


@legacy("paddle.text.datasets.Conll05st")
def test():
    """The WSJ test section."""
    word_dict, verb_dict, label_dict = get_dict()
    reader = corpus_reader(
        common.download(DATA_URL, "conll05st", DATA_MD5),
        words_name="conll05st-release/test.wsj/words/test.wsj.words.gz",
        props_name="conll05st-release/test.wsj/props/test.wsj.props.gz",
    )
    return reader_creator(reader, word_dict, verb_dict, label_dict)


@legacy("paddle.text.datasets.Conll05st")
def fetch():
    for url, md5 in (
        (WORDDICT_URL, WORDDICT_MD5),
        (VERBDICT_URL, VERBDICT_MD5),
        (TRGDICT_URL, TRGDICT_MD5),
        (EMB_URL, EMB_MD5),
        (DATA_URL, DATA_MD5),
    ):
        common.download(url, "conll05st", md5)
