"""CoNLL-2005 semantic role labelling, test.wsj part of ``conll05st-tests.tar.gz``: one item
per (sentence, predicate) with context-window features and BIO role labels."""

from __future__ import annotations

import gzip
import tarfile

import numpy as np

from ...io import Dataset
from ...vision.datasets._local import local_file

__all__: list[str] = []

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
DATA_MD5 = "387719152ae52d60422c016e92a742fc"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
WORDDICT_MD5 = "ea7fb7d4c75cc6254716f0177a506baa"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
VERBDICT_MD5 = "0d2977293bbb6cbefab5b0f97db1e77c"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
TRGDICT_MD5 = "d8c7f03ceb5fc2e5a0fa7503a4353751"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
EMB_MD5 = "bf436eb0faa1f6f9103017f8be57cdb7"

UNK_IDX = 0
_WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
_PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def _bio_labels(column: list[str]) -> list[str]:
    """One predicate's bracketed argument column (``(A0*``, ``*``, ``*)``, ``(V*)``) as BIO
    tags."""
    tags, tag, inside = [], "O", False
    for mark in column:
        if mark == "*":
            tags.append("I-" + tag if inside else "O")
        elif mark == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in mark:
            tag = mark[1 : mark.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in mark
        else:
            raise RuntimeError(f"Unexpected label: {mark}")
    return tags


class Conll05st(Dataset):
    """CoNLL-2005 SRL test set: items are 9 int64 arrays of the sentence length (word ids,
    the ids of the words at offsets -2..+2 of the predicate, predicate id, the mark of that
    window, label ids). Role-label ids follow Python's set order, which changes with the
    string hash seed (as in Paddle). ``emb_file`` is only needed by ``get_embedding``."""

    def __init__(
        self,
        data_file: str | None = None,
        word_dict_file: str | None = None,
        verb_dict_file: str | None = None,
        target_dict_file: str | None = None,
        emb_file: str | None = None,
        download: bool = True,
    ) -> None:
        def file(path, url, md5, what):
            return local_file(path, url, md5, "conll05st", download, what)

        self.data_file = file(data_file, DATA_URL, DATA_MD5, "data_file")
        self.word_dict_file = file(word_dict_file, WORDDICT_URL, WORDDICT_MD5, "word_dict_file")
        self.verb_dict_file = file(verb_dict_file, VERBDICT_URL, VERBDICT_MD5, "verb_dict_file")
        self.target_dict_file = file(target_dict_file, TRGDICT_URL, TRGDICT_MD5, "target_dict_file")
        self._emb_error = None
        try:
            self.emb_file = file(emb_file, EMB_URL, EMB_MD5, "emb_file")
        except RuntimeError as e:  # not cached: reported when get_embedding asks for it
            self.emb_file, self._emb_error = None, e
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    def _load_label_dict(self, filename: str) -> dict[str, int]:
        tags = set()
        with open(filename) as f:
            for line in f:
                line = line.strip()
                if line.startswith(("B-", "I-")):
                    tags.add(line[2:])
        d = {}
        for tag in tags:
            d["B-" + tag] = len(d)
            d["I-" + tag] = len(d)
        d["O"] = len(d)
        return d

    def _load_dict(self, filename: str) -> dict[str, int]:
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    def _load_anno(self) -> None:
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as tar:
            with (
                gzip.GzipFile(fileobj=tar.extractfile(_WORDS)) as words,
                gzip.GzipFile(fileobj=tar.extractfile(_PROPS)) as props,
            ):
                sentence, rows = [], []
                for word, prop in zip(words, props):
                    word, prop = word.strip().decode(), prop.strip().decode().split()
                    if prop:
                        sentence.append(word)
                        rows.append(prop)
                        continue
                    # a blank line ends the sentence: column 0 names the predicates, each
                    # further column holds one predicate's arguments
                    columns = [[row[i] for row in rows] for i in range(len(rows[0]))]
                    verbs = [v for v in columns[0] if v != "-"]
                    for i, column in enumerate(columns[1:]):
                        self.sentences.append(sentence)
                        self.predicates.append(verbs[i])
                        self.labels.append(_bio_labels(column))
                    sentence, rows = [], []

    def __getitem__(self, idx: int):
        sentence = self.sentences[idx]
        predicate = self.predicates[idx]
        labels = self.labels[idx]
        n = len(sentence)
        verb = labels.index("B-V")
        mark = [0] * len(labels)
        context = []
        for offset in (-2, -1, 0, 1, 2):
            at = verb + offset
            if 0 <= at < len(labels):
                mark[at] = 1
                context.append(sentence[at])
            else:
                context.append("bos" if offset < 0 else "eos")
        word_ids = [self.word_dict.get(w, UNK_IDX) for w in sentence]
        context_ids = [[self.word_dict.get(w, UNK_IDX)] * n for w in context]
        return (
            np.array(word_ids),
            *(np.array(ids) for ids in context_ids),
            np.array([self.predicate_dict.get(predicate)] * n),
            np.array(mark),
            np.array([self.label_dict.get(w) for w in labels]),
        )

    def __len__(self) -> int:
        return len(self.sentences)

    def get_dict(self):
        """(word dict, verb dict, label dict)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self) -> str:
        """The path of the embedding file."""
        if self.emb_file is None:
            raise self._emb_error
        return self.emb_file
