"""Common ``paddle.nn`` layers one at a time, eager forward + backward on CPU: paddle-compat
against real Paddle (same run, side venv). A survey for slow paths: each row is one layer on a
typical CNN / Transformer size, its output summed and backpropagated to the input (and the
layer's parameters), gradients read back.

    .venv/bin/python benchmarks/bench_nn_layers.py

Prints microseconds per forward + backward and the ratio ours / Paddle; the last line is the
JSON of the numbers.
"""

from __future__ import annotations

import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, print_vs_paddle, run_inner_paddle  # noqa: E402


def _layers(paddle) -> dict:
    """name -> (layer, input shape)."""
    nn = paddle.nn
    return {
        "MaxPool2D(3, 2, 1) [8,64,32,32]": (nn.MaxPool2D(3, 2, 1), (8, 64, 32, 32)),
        "MaxPool2D(2) [8,64,32,32]": (nn.MaxPool2D(2), (8, 64, 32, 32)),
        "AvgPool2D(2) [8,64,32,32]": (nn.AvgPool2D(2), (8, 64, 32, 32)),
        "AdaptiveAvgPool2D(1) [8,512,7,7]": (nn.AdaptiveAvgPool2D(1), (8, 512, 7, 7)),
        "Upsample(x2, bilinear) [8,64,16,16]": (
            nn.Upsample(scale_factor=2, mode="bilinear"),
            (8, 64, 16, 16),
        ),
        "Upsample(x2, nearest) [8,64,16,16]": (
            nn.Upsample(scale_factor=2, mode="nearest"),
            (8, 64, 16, 16),
        ),
        "Upsample(x0.5, bilinear) [8,32,64,64]": (
            nn.Upsample(scale_factor=0.5, mode="bilinear"),
            (8, 32, 64, 64),
        ),
        "Upsample(size 8x8, area) [8,64,32,32]": (
            nn.Upsample(size=[8, 8], mode="area"),
            (8, 64, 32, 32),
        ),
        "BatchNorm2D(64) [8,64,32,32]": (nn.BatchNorm2D(64), (8, 64, 32, 32)),
        "GroupNorm(8, 64) [8,64,32,32]": (nn.GroupNorm(8, 64), (8, 64, 32, 32)),
        "InstanceNorm2D(64) [8,64,32,32]": (nn.InstanceNorm2D(64), (8, 64, 32, 32)),
        "LayerNorm(512) [32,64,512]": (nn.LayerNorm(512), (32, 64, 512)),
        "GELU [32,64,512]": (nn.GELU(), (32, 64, 512)),
        "Softmax [32,8,64,64]": (nn.Softmax(-1), (32, 8, 64, 64)),
        "Linear(512, 2048) [32,64,512]": (nn.Linear(512, 2048), (32, 64, 512)),
        "Conv1D(64, 64, 3) [8,64,256]": (nn.Conv1D(64, 64, 3, padding=1), (8, 64, 256)),
        "Conv2D depthwise 3x3 [8,64,32,32]": (
            nn.Conv2D(64, 64, 3, padding=1, groups=64),
            (8, 64, 32, 32),
        ),
        "Conv2D groups 4 3x3 [8,64,32,32]": (
            nn.Conv2D(64, 64, 3, padding=1, groups=4),
            (8, 64, 32, 32),
        ),
        "PixelShuffle(2) [8,64,16,16]": (nn.PixelShuffle(2), (8, 64, 16, 16)),
        "LSTM(64, 128) [16,32,64]": (nn.LSTM(64, 128), (16, 32, 64)),
    }


def _steps(paddle, sync) -> dict:
    paddle.seed(0)
    rng = np.random.default_rng(0)
    steps = {}
    for name, (layer, shape) in _layers(paddle).items():
        x = paddle.to_tensor(rng.standard_normal(shape).astype("float32"), stop_gradient=False)
        params = [x, *(p for p in layer.parameters() if not p.stop_gradient)]

        def step(layer=layer, x=x, params=params):
            y = layer(x)
            y = y[0] if isinstance(y, tuple) else y
            y.sum().backward()
            grads = [p.grad for p in params]
            for p in params:
                p.clear_gradient(False)
            return sync(grads)

        steps[name] = step
    return steps


def _time(steps: dict) -> dict:
    return {k: best_us(f, n=5, repeats=5, warmup=3) for k, f in steps.items()}


def _run_paddle(paddle) -> dict:
    return _time(_steps(paddle, lambda gs: [g.numpy() for g in gs]))


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(_steps(paddle, lambda gs: [g._value.block_until_ready() for g in gs]))
    print_vs_paddle(ours, paddle_side(__file__))


if __name__ == "__main__":
    main()
