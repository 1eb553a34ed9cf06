"""Core timings, run unchanged under real Paddle or paddle-compat (whichever `import paddle`
gives): eager op dispatch, eager autograd, and an MLP train step eager and with to_static.
Prints one JSON object: {case: median microseconds}."""

from __future__ import annotations

import json
import statistics
import sys
import time

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F

import paddle


def timeit(fn, sync, n=200, repeat=5, warmup=20):
    for _ in range(warmup):
        fn()
    sync()
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(n):
            out = fn()
        sync(out)
        runs.append((time.perf_counter() - t) / n * 1e6)
    return statistics.median(runs)


def main():
    def sync(out=None):
        if out is not None and hasattr(out, "numpy"):
            out.numpy()

    r = np.random.default_rng(0)
    a = paddle.to_tensor(r.standard_normal((32, 32)).astype("float32"))
    b = paddle.to_tensor(r.standard_normal((32, 32)).astype("float32"))
    w = paddle.to_tensor(r.standard_normal((32, 32)).astype("float32"), stop_gradient=False)
    res = {
        "eager add 32x32": timeit(lambda: a + b, sync, n=2000),
        "eager add scalar": timeit(lambda: a * 2.0, sync, n=2000),
        "eager matmul 32x32": timeit(lambda: paddle.matmul(a, b), sync, n=2000),
        "eager softmax": timeit(lambda: F.softmax(a, axis=-1), sync, n=2000),
    }

    def fwd_bwd():
        loss = paddle.matmul(a, w).tanh().sum()
        loss.backward()
        return loss

    res["eager matmul+tanh+sum+backward"] = timeit(fwd_bwd, sync, n=500)

    paddle.seed(0)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    x = paddle.to_tensor(r.standard_normal((64, 784)).astype("float32"))
    y = paddle.to_tensor(r.integers(0, 10, (64,)).astype("int64"))

    def step(x, y):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    res["MLP 784-256-10 b64 Adam step, eager"] = timeit(lambda: step(x, y), sync, n=50)
    static_step = paddle.jit.to_static(step)
    res["MLP 784-256-10 b64 Adam step, to_static"] = timeit(lambda: static_step(x, y), sync, n=100)
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
