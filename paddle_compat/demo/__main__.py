"""``python -m paddle_compat.demo``: an unchanged-Paddle-style script, end to end on JAX.

Trains a small CNN on the 8x8 handwritten digits bundled with the package (1,797 images from
the UCI "Optical Recognition of Handwritten Digits" set; no download) with a
``paddle.jit.to_static`` train step, saves the weights with ``paddle.save``, reloads them into
a fresh model, predicts the held-out images and prints the accuracy.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import DataLoader, TensorDataset

import paddle

DATA = Path(__file__).parent / "data" / "digits.npz"


class DigitsNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 16, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2D(2)
        self.fc1 = nn.Linear(16 * 4 * 4, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv(x)))
        x = paddle.flatten(x, start_axis=1)
        return self.fc2(F.relu(self.fc1(x)))


def load_digits(test_fraction: float = 0.2, seed: int = 0):
    d = np.load(DATA)
    x = (d["images"].astype("float32") / 16.0)[:, None, :, :]
    y = d["labels"].astype("int64")
    order = np.random.default_rng(seed).permutation(len(y))
    n_test = int(len(y) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return (x[train], y[train]), (x[test], y[test])


def main(argv=None) -> float:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=64)
    args = ap.parse_args(argv)

    paddle.seed(0)
    np.random.seed(0)  # DataLoader shuffling draws from numpy's global RNG, as in Paddle
    (xtr, ytr), (xte, yte) = load_digits()
    loader = DataLoader(
        TensorDataset([paddle.to_tensor(xtr), paddle.to_tensor(ytr)]),
        batch_size=args.batch_size,
        shuffle=True,
        drop_last=True,
    )
    model = DigitsNet()
    opt = paddle.optimizer.Adam(learning_rate=1e-3 * 3, parameters=model.parameters())

    @paddle.jit.to_static
    def train_step(x, y):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    print(
        f"paddle-compat {paddle.__compat_version__} (Paddle {paddle.__version__} API) on "
        f"{paddle.device.get_device()}: "
        f"{len(xtr)} train / {len(xte)} test digits"
    )
    t0 = time.perf_counter()
    for epoch in range(args.epochs):
        losses = [float(train_step(x, y)) for x, y in loader]
        print(f"epoch {epoch + 1}/{args.epochs}  loss {np.mean(losses):.4f}")
    print(f"trained in {time.perf_counter() - t0:.1f}s")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "digits.pdparams")
        paddle.save(model.state_dict(), path)
        restored = DigitsNet()
        restored.set_state_dict(paddle.load(path))
    restored.eval()
    with paddle.no_grad():
        pred = restored(paddle.to_tensor(xte)).argmax(axis=1)
    acc = float((pred.numpy() == yte).mean())
    print(f"test accuracy after save/load: {acc:.4f}")
    return acc


if __name__ == "__main__":
    main()
