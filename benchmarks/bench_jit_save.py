"""jit.save / jit.load round trip: per-call latency of a loaded artifact (``TranslatedLayer``)
vs the to_static Layer it was saved from, same process, same inputs; plus the time of
``jit.save`` (guide flow: to_static, calls at two batch sizes, save without input_spec) and of
``jit.load`` + first call. Models: an MLP 256-512-512-10 and a small CNN; batch 1 and 64;
under ``paddle.no_grad()`` (inference) and with gradients on (the call records its VJP node).

    python benchmarks/bench_jit_save.py          # also runs real Paddle unless --no-paddle

Prints a table and a JSON line; ratio = loaded / to_static (> 1: the loaded layer is slower).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_us, paddle_side, run_inner_paddle  # noqa: E402

BATCHES = (1, 64)


def _models(paddle):
    nn = paddle.nn

    def mlp():
        return nn.Sequential(
            nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)
        )

    class CNN(nn.Layer):
        def __init__(self):
            super().__init__()
            self.c1, self.c2 = nn.Conv2D(3, 16, 3, padding=1), nn.Conv2D(16, 32, 3, padding=1)
            self.fc = nn.Linear(32 * 8 * 8, 10)

        def forward(self, x):
            f = paddle.nn.functional
            h = f.max_pool2d(f.relu(self.c1(x)), 2)
            h = f.max_pool2d(f.relu(self.c2(h)), 2)
            return self.fc(h.flatten(1))

    return {"mlp": (mlp, [256]), "cnn": (CNN, [3, 32, 32])}


def measure() -> dict:
    import paddle

    paddle.seed(0)
    rng = np.random.default_rng(0)
    out = {}
    d = tempfile.mkdtemp()
    for name, (make, feat) in _models(paddle).items():
        model = paddle.jit.to_static(make())
        model.eval()
        xs = {
            b: paddle.to_tensor(rng.standard_normal([b, *feat]).astype("float32")) for b in BATCHES
        }
        for b in BATCHES:
            model(xs[b])
        t = time.perf_counter()
        paddle.jit.save(model, os.path.join(d, name))
        save_s = time.perf_counter() - t
        t = time.perf_counter()
        tl = paddle.jit.load(os.path.join(d, name))
        tl(xs[BATCHES[0]]).numpy()
        load_s = time.perf_counter() - t
        row = {"save_s": save_s, "load_first_call_s": load_s}
        for b in BATCHES:
            x = xs[b]
            np.testing.assert_allclose(tl(x).numpy(), model(x).numpy(), rtol=1e-4, atol=1e-4)
            for mode in ("no_grad", "grad"):
                if mode == "no_grad":

                    def run(f, x=x):
                        with paddle.no_grad():
                            f(x).numpy()

                else:

                    def run(f, x=x):
                        f(x).numpy()

                n = 50 if b == 1 else 10
                ts = best_us(lambda run=run, f=model: run(f), n=n)
                lo = best_us(lambda run=run, f=tl: run(f), n=n)
                row[f"b{b}_{mode}"] = {"to_static_us": ts, "loaded_us": lo, "ratio": lo / ts}
        out[name] = row
    return out


def main() -> None:
    if run_inner_paddle(lambda paddle: measure()):
        return
    ours = measure()
    ref = {} if "--no-paddle" in sys.argv else paddle_side(__file__)
    print(f"{'model':5} {'case':12} {'to_static us':>13} {'loaded us':>10} {'ratio':>6}   Paddle: "
          f"{'to_static':>9} {'loaded':>8} {'ratio':>6}")  # fmt: skip
    for name, row in ours.items():
        for key, v in row.items():
            if not isinstance(v, dict):
                continue
            p = ref.get(name, {}).get(key, {})
            pt = f"{p['to_static_us']:9.1f} {p['loaded_us']:8.1f} {p['ratio']:6.2f}" if p else "-"
            print(
                f"{name:5} {key:12} {v['to_static_us']:13.1f} {v['loaded_us']:10.1f} "
                f"{v['ratio']:6.2f}   {pt}"
            )
        print(
            f"{name:5} save {row['save_s']:.2f} s, load + first call {row['load_first_call_s']:.2f} s"
            + (
                f" (Paddle: {ref[name]['save_s']:.2f} s, {ref[name]['load_first_call_s']:.2f} s)"
                if name in ref
                else ""
            )
        )
    print(json.dumps({"paddle_compat": ours, "paddle": ref}))


if __name__ == "__main__":
    main()
