"""The three models of the checkpoint fixtures (tools/record_checkpoints.py): a small ResNet of
``paddle.vision`` BasicBlocks with BatchNorm, an Embedding + 2-layer bidirectional LSTM tagger
and a small ``nn.Transformer``. Runs unchanged under real Paddle 3.3.1 and paddle_compat: the
fixture tool builds them under both, tests/test_checkpoint_fixtures.py builds them here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import paddle.nn as nn
from paddle.vision.models.resnet import BasicBlock

import paddle

NAMES = ("resnet", "lstm", "transformer")
VOCAB = 30

_spec = importlib.util.spec_from_file_location(
    "_ckpt_layer_util", Path(__file__).resolve().parents[2] / "cases" / "_layer_util.py"
)
_layer_util = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_layer_util)


class SmallResNet(nn.Layer):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2D(3, 8, 3, padding=1, bias_attr=False), nn.BatchNorm2D(8), nn.ReLU()
        )
        down = nn.Sequential(nn.Conv2D(8, 16, 1, stride=2, bias_attr=False), nn.BatchNorm2D(16))
        self.layer1 = BasicBlock(8, 8)
        self.layer2 = BasicBlock(8, 16, stride=2, downsample=down)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        h = self.pool(self.layer2(self.layer1(self.stem(x))))
        return self.fc(h.flatten(1))


class LSTMTagger(nn.Layer):
    def __init__(self, tags=5):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 8)
        self.lstm = nn.LSTM(8, 16, num_layers=2, direction="bidirect")
        self.head = nn.Linear(32, tags)

    def forward(self, x, lengths):
        h, (last_h, last_c) = self.lstm(self.embed(x), sequence_length=lengths)
        return self.head(h), last_h, last_c


class TinyTransformer(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.transformer = nn.Transformer(16, 2, 1, 1, 32, dropout=0.0)
        self.head = nn.Linear(16, VOCAB)

    def forward(self, src, tgt):
        mask = self.transformer.generate_square_subsequent_mask(tgt.shape[1])
        h = self.transformer(self.embed(src), self.embed(tgt), tgt_mask=mask)
        return self.head(h)


_CLASSES = {"resnet": SmallResNet, "lstm": LSTMTagger, "transformer": TinyTransformer}


def inputs(name: str, seed: int = 0) -> list:
    """The fixed eval inputs of model ``name`` (numpy arrays)."""
    r = np.random.default_rng(seed)
    if name == "resnet":
        return [r.standard_normal((2, 3, 12, 12)).astype("float32")]
    if name == "lstm":
        return [r.integers(0, VOCAB, (3, 6)).astype("int64"), np.array([6, 4, 2], "int64")]
    return [r.integers(0, VOCAB, (2, 5)).astype("int64"), r.integers(0, VOCAB, (2, 4))]


def build(name: str):
    """Model ``name``, initialised by the framework after ``paddle.seed``."""
    paddle.seed(2024 + NAMES.index(name))
    return _CLASSES[name]()


def make(name: str, source: str):
    """Model ``name`` with the weights each fixture file holds. ``source="paddle"``: the
    framework's own initialisation after ``paddle.seed`` (the files real Paddle writes);
    ``source="ours"``: numpy weights (``fill_deterministic`` scaled by 0.3), so the file this
    framework writes does not depend on its random stream. The ResNet then runs two train-mode
    forwards so its BatchNorm running statistics are not the defaults. Returns the model in
    eval mode."""
    model = build(name)
    if source == "ours":
        _layer_util.fill_deterministic(model, NAMES.index(name))
        for p in model.parameters():
            p.set_value(p.numpy() * 0.3)
    elif source != "paddle":
        raise ValueError(f"source must be 'paddle' or 'ours', got {source!r}")
    if name == "resnet":
        model.train()
        with paddle.no_grad():
            for seed in (1, 2):
                model(paddle.to_tensor(inputs(name, seed)[0] * 2 + 0.5))
    model.eval()
    return model


def outputs(model, name: str) -> list:
    """Eval outputs (numpy) of ``model`` on ``inputs(name)``."""
    model.eval()
    with paddle.no_grad():
        out = model(*(paddle.to_tensor(a) for a in inputs(name)))
    out = out if isinstance(out, tuple | list) else [out]
    return [o.numpy() for o in out]
