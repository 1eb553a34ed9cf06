"""Models for benchmarks/eager_startup.py, written with the plain Paddle API only (Layer, Conv2D,
BatchNorm2D, Linear, LayerNorm, Dropout, activations, pooling, matmul, softmax, reshape,
transpose), so the same code runs under real Paddle and paddle-compat."""

from __future__ import annotations

import math

import paddle.nn as nn
import paddle.nn.functional as F

import paddle

# --- EfficientNet-B0 ---------------------------------------------------------------------------

# (expand ratio, kernel, stride, in channels, out channels, repeats): the standard B0 table.
_B0 = [
    (1, 3, 1, 32, 16, 1),
    (6, 3, 2, 16, 24, 2),
    (6, 5, 2, 24, 40, 2),
    (6, 3, 2, 40, 80, 3),
    (6, 5, 1, 80, 112, 3),
    (6, 5, 2, 112, 192, 4),
    (6, 3, 1, 192, 320, 1),
]


class ConvBN(nn.Sequential):
    def __init__(self, cin, cout, k, stride=1, groups=1, act=True):
        layers = [
            nn.Conv2D(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias_attr=False),
            nn.BatchNorm2D(cout),
        ]
        if act:
            layers.append(nn.Silu())
        super().__init__(*layers)


class SqueezeExcite(nn.Layer):
    def __init__(self, channels, reduced):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.reduce = nn.Conv2D(channels, reduced, 1)
        self.act = nn.Silu()
        self.expand = nn.Conv2D(reduced, channels, 1)
        self.gate = nn.Sigmoid()

    def forward(self, x):
        s = self.gate(self.expand(self.act(self.reduce(self.pool(x)))))
        return x * s


class MBConv(nn.Layer):
    def __init__(self, cin, cout, expand, k, stride, se_ratio=0.25):
        super().__init__()
        mid = cin * expand
        self.expand = ConvBN(cin, mid, 1) if expand != 1 else None
        self.depthwise = ConvBN(mid, mid, k, stride, groups=mid)
        self.se = SqueezeExcite(mid, max(1, int(cin * se_ratio)))
        self.project = ConvBN(mid, cout, 1, act=False)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        h = self.expand(x) if self.expand is not None else x
        h = self.project(self.se(self.depthwise(h)))
        return x + h if self.residual else h


class EfficientNetB0(nn.Layer):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = ConvBN(3, 32, 3, 2)
        blocks = []
        for expand, k, stride, cin, cout, repeats in _B0:
            for i in range(repeats):
                blocks.append(
                    MBConv(cin if i == 0 else cout, cout, expand, k, stride if i == 0 else 1)
                )
        self.blocks = nn.Sequential(*blocks)
        self.head = ConvBN(320, 1280, 1)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.dropout = nn.Dropout(0.2)
        self.fc = nn.Linear(1280, num_classes)

    def forward(self, x):
        x = self.pool(self.head(self.blocks(self.stem(x))))
        return self.fc(self.dropout(paddle.flatten(x, 1)))


# --- ResNet-18 ---------------------------------------------------------------------------------


class BasicBlock(nn.Layer):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = ConvBN(cin, cout, 3, stride)
        self.conv2 = ConvBN(cout, cout, 3, act=False)
        self.down = ConvBN(cin, cout, 1, stride, act=False) if stride != 1 or cin != cout else None
        self.relu = nn.ReLU()

    def forward(self, x):
        idn = self.down(x) if self.down is not None else x
        return self.relu(self.conv2(self.conv1(x)) + idn)


class ConvBNReLU(nn.Sequential):
    def __init__(self, cin, cout, k, stride):
        super().__init__(
            nn.Conv2D(cin, cout, k, stride, (k - 1) // 2, bias_attr=False),
            nn.BatchNorm2D(cout),
            nn.ReLU(),
        )


class ResNet18(nn.Layer):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = ConvBNReLU(3, 64, 7, 2)
        self.maxpool = nn.MaxPool2D(3, 2, 1)
        layers, cin = [], 64
        for i, cout in enumerate([64, 128, 256, 512]):
            stride = 1 if i == 0 else 2
            layers += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.pool(self.layers(self.maxpool(self.stem(x))))
        return self.fc(paddle.flatten(x, 1))


# --- Transformer encoder (pre-LN, hand-written attention) --------------------------------------


class SelfAttention(nn.Layer):
    def __init__(self, d_model, heads, dropout):
        super().__init__()
        self.heads, self.dh = heads, d_model // heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def _split(self, x, b, s):
        return x.reshape([b, s, self.heads, self.dh]).transpose([0, 2, 1, 3])

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = (self._split(f(x), b, s) for f in (self.q, self.k, self.v))
        att = paddle.matmul(q, k, transpose_y=True) * (1.0 / math.sqrt(self.dh))
        att = self.drop(F.softmax(att, axis=-1))
        h = paddle.matmul(att, v).transpose([0, 2, 1, 3]).reshape([b, s, d])
        return self.out(h)


class EncoderLayer(nn.Layer):
    def __init__(self, d_model, heads, ffn, dropout):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = SelfAttention(d_model, heads, dropout)
        self.ln2 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(
            nn.Linear(d_model, ffn), nn.GELU(), nn.Dropout(dropout), nn.Linear(ffn, d_model)
        )
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        x = x + self.drop(self.attn(self.ln1(x)))
        return x + self.drop(self.ffn(self.ln2(x)))


class TransformerEncoder(nn.Layer):
    def __init__(self, layers=6, d_model=256, heads=4, ffn=1024, dropout=0.1):
        super().__init__()
        self.layers = nn.Sequential(
            *[EncoderLayer(d_model, heads, ffn, dropout) for _ in range(layers)]
        )
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x):
        return self.norm(self.layers(x))


# name -> (constructor, inference input shape, train input shape given the train image size)
MODELS = {
    "effnet": (EfficientNetB0, [1, 3, 224, 224], lambda hw: [1, 3, hw, hw]),
    "resnet18": (ResNet18, [1, 3, 224, 224], lambda hw: [1, 3, hw, hw]),
    "transformer": (TransformerEncoder, [8, 128, 256], lambda hw: [8, 128, 256]),
}
