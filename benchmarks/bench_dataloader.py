"""DataLoader worker processes: does the loader keep a compiled train step fed?

A CIFAR-size dataset whose ``__getitem__`` does numpy augmentation (pad + random crop, flip,
a 5x5 box blur, normalize), a small CNN, Adam,
batch 64. Measured per step (second pass: workers and kernels warm):

- the train step alone on preloaded batches;
- the loader alone (``num_workers`` 0 and 2);
- the step fed by the loader (``num_workers`` 0 and 2, persistent workers).

The goal is "step with 2 workers <= 1.1x the step on preloaded data". Real Paddle runs the same
script (side venv, eager step) for its own ratios and loader speed.

    python benchmarks/bench_dataloader.py        # PADDLE_PYTHON=... for the Paddle column
    BENCH_BLUR=1 python benchmarks/bench_dataloader.py   # cheaper samples (no blur)
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np
from _timing import paddle_side

BATCH, STEPS = 64, 20


def _dataset_cls():
    from paddle.io import Dataset

    class Augmented(Dataset):
        blur = int(os.environ.get("BENCH_BLUR", "5"))

        def __init__(self, n):
            r = np.random.default_rng(0)
            self.img = r.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8)
            self.label = r.integers(0, 10, (n, 1)).astype("int64")

        def __getitem__(self, i):
            x = np.pad(self.img[i], ((4, 4), (4, 4), (0, 0)), mode="reflect")
            top, left = np.random.randint(0, 9, 2)
            x = x[top : top + 32, left : left + 32].astype("float32")
            if np.random.rand() < 0.5:
                x = x[:, ::-1]
            k = self.blur
            if k > 1:
                p = np.pad(x, ((k // 2, k // 2), (k // 2, k // 2), (0, 0)), mode="edge")
                x = sum(p[a : a + 32, b : b + 32] for a in range(k) for b in range(k)) / k**2
            x = (x / 255.0 - 0.5) / 0.25
            return np.ascontiguousarray(x.transpose(2, 0, 1)), self.label[i]

        def __len__(self):
            return len(self.label)

    return Augmented


def _model():
    import paddle.nn as nn

    return nn.Sequential(
        nn.Conv2D(3, 8, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2D(2, 2),
        nn.Conv2D(8, 16, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2D(2, 2),
        nn.Flatten(),
        nn.Linear(16 * 8 * 8, 10),
    )


def _per_step(fn, passes: int = 2) -> float:
    """Seconds per step of the last of ``passes`` passes (the first warms everything)."""
    for _ in range(passes):
        t0 = time.perf_counter()
        fn()
    return (time.perf_counter() - t0) / STEPS


def measure(compiled: bool) -> dict:
    import paddle

    paddle.seed(0)
    np.random.seed(0)
    model = _model()
    opt = paddle.optimizer.Adam(1e-3, parameters=model.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()

    def step(x, y):
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if compiled:
        step = paddle.jit.to_static(step)
    ds = _dataset_cls()(BATCH * STEPS)

    def loader(workers):
        return paddle.io.DataLoader(
            ds, batch_size=BATCH, shuffle=True, num_workers=workers, persistent_workers=workers > 0
        )

    pre = list(loader(0))
    out = {}

    def run_pre():
        for x, y in pre:
            step(x, y)
        float(step(*pre[0]))

    out["step on preloaded batches (ms)"] = _per_step(run_pre) * 1e3
    for w in (0, 2):
        ld = loader(w)

        def run_loader(ld=ld):
            for _ in ld:
                pass

        out[f"loader alone, {w} workers (ms)"] = _per_step(run_loader) * 1e3
        ld = loader(w)

        def run_fed(ld=ld):
            for x, y in ld:
                loss = step(x, y)
            float(loss)

        out[f"step fed by loader, {w} workers (ms)"] = _per_step(run_fed) * 1e3
    return out


def main() -> None:
    if "--inner" in sys.argv:
        print(json.dumps(measure(compiled="--compiled" in sys.argv)))
        return
    ours = measure(compiled=True)
    real = paddle_side(__file__)
    pre = "step on preloaded batches (ms)"
    blur = os.environ.get("BENCH_BLUR", "5")
    print(f"batch {BATCH}, {STEPS} steps per pass, {blur}x{blur} blur; per step, second pass")
    print("| per step | paddle-compat (compiled step) | Paddle 3.3.1 (eager step) |")
    print("|---|---|---|")
    for name, v in ours.items():
        p = real.get(name)
        ratio = "" if name == pre else f" ({v / ours[pre]:.2f}x step)"
        pcell = ""
        if p is not None:
            pcell = f"{p:.1f}" + ("" if name == pre else f" ({p / real[pre]:.2f}x step)")
        print(f"| {name} | {v:.1f}{ratio} | {pcell} |")


if __name__ == "__main__":
    main()
