"""``paddle.Model.fit`` throughput (samples/s, the fastest of epochs 2-4: after compiling, the
least disturbed by other work on the machine) on LeNet (MNIST-size, 28x28) and a ResNet-18
(CIFAR-size, 32x32), Adam + Accuracy, against real Paddle's ``Model.fit`` running the same
script (side venv).

    python benchmarks/bench_hapi.py            # PADDLE_PYTHON=... for the Paddle column
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
from _timing import paddle_side


def _models():
    import paddle.nn as nn

    def lenet():
        return nn.Sequential(
            nn.Conv2D(1, 6, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Flatten(),
            nn.Linear(400, 120),
            nn.Linear(120, 84),
            nn.Linear(84, 10),
        )

    class Block(nn.Layer):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1 = nn.Conv2D(cin, cout, 3, stride, 1, bias_attr=False)
            self.b1 = nn.BatchNorm2D(cout)
            self.c2 = nn.Conv2D(cout, cout, 3, 1, 1, bias_attr=False)
            self.b2 = nn.BatchNorm2D(cout)
            self.relu = nn.ReLU()
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(
                    nn.Conv2D(cin, cout, 1, stride, bias_attr=False), nn.BatchNorm2D(cout)
                )

        def forward(self, x):
            y = self.relu(self.b1(self.c1(x)))
            y = self.b2(self.c2(y))
            return self.relu(y + (x if self.down is None else self.down(x)))

    def resnet18():
        layers = [nn.Conv2D(3, 64, 3, 1, 1, bias_attr=False), nn.BatchNorm2D(64), nn.ReLU()]
        cin = 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
            cin = cout
        layers += [nn.AdaptiveAvgPool2D(1), nn.Flatten(), nn.Linear(512, 10)]
        return nn.Sequential(*layers)

    return {
        "LeNet 28x28 b64": (lenet, (1, 28, 28), 64, 40),
        "ResNet-18 32x32 b32": (resnet18, (3, 32, 32), 32, 8),
    }


def measure() -> dict:
    from paddle.io import Dataset

    import paddle

    out = {}
    for name, (make, shape, batch, steps) in _models().items():

        class Data(Dataset):
            def __init__(self, n, shape=shape):
                r = np.random.default_rng(0)
                self.x = r.standard_normal((n, *shape)).astype("float32")
                self.y = r.integers(0, 10, (n, 1)).astype("int64")

            def __getitem__(self, i):
                return self.x[i], self.y[i]

            def __len__(self):
                return len(self.y)

        paddle.seed(0)
        model = paddle.Model(make())
        model.prepare(
            paddle.optimizer.Adam(1e-3, parameters=model.parameters()),
            paddle.nn.CrossEntropyLoss(),
            paddle.metric.Accuracy(),
        )
        marks = []

        class Clock(paddle.callbacks.Callback):
            def __init__(self, marks):
                super().__init__()
                self.marks = marks

            def on_epoch_begin(self, epoch=None, logs=None):
                self.marks.append(time.perf_counter())

            def on_epoch_end(self, epoch=None, logs=None):
                self.marks.append(time.perf_counter())

        clock = Clock(marks)
        model.fit(Data(batch * steps), batch_size=batch, epochs=4, verbose=0, callbacks=[clock])
        epochs = [marks[i + 1] - marks[i] for i in range(2, len(marks), 2)]
        out[name] = batch * steps / min(epochs)
    return out


def main() -> None:
    if "--inner" in sys.argv:
        print(json.dumps(measure()))
        return
    ours = measure()
    real = paddle_side(__file__)
    print(
        "| Model.fit, best of epochs 2-4 | paddle-compat (samples/s) | Paddle 3.3.1 (samples/s) | speed-up |"
    )
    print("|---|---|---|---|")
    for name, v in ours.items():
        p = real.get(name)
        print(
            f"| {name} | {v:.0f} | {'' if p is None else f'{p:.0f}'} | {'' if p is None else f'{v / p:.2f}x'} |"
        )


if __name__ == "__main__":
    main()
