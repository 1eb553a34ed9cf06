"""``paddle.save`` / ``paddle.load`` speed: a ResNet-sized state dict (161 float32 tensors, 46 MB),
an Adam optimizer state with many small entries, and a pickle of 100k Python floats (the
restricted unpickler's worst case), each saved and loaded by paddle-compat and by real Paddle
in the same run (files in a temp dir; page cache warm), plus plain ``pickle`` on the same bytes
as the floor.

    .venv/bin/python benchmarks/bench_checkpoint_io.py

Prints milliseconds per call and the ratios paddle-compat / Paddle.
"""

from __future__ import annotations

import json
import os
import pickle
import sys
import tempfile

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side  # noqa: E402


def _state(paddle):
    rng = np.random.default_rng(0)
    shapes = [(64, 3, 7, 7)] + [(256, 256, 3, 3)] * 16 + [(2048, 1000)]
    shapes += [(256,)] * 143
    weights = {
        f"layer{i}.w": rng.standard_normal(s).astype("float32") for i, s in enumerate(shapes)
    }
    opt = {f"p{i}_moment{j}_0": rng.standard_normal(64).astype("float32") for i in range(300)
           for j in (1, 2)}  # fmt: skip
    opt.update({f"p{i}_beta{j}_pow_acc_0": np.float32(0.9) for i in range(300) for j in (1, 2)})
    floats = [float(i) for i in range(100_000)]
    as_tensors = {k: paddle.to_tensor(v) for k, v in weights.items()}
    opt_tensors = {k: paddle.to_tensor(np.asarray(v)) for k, v in opt.items()}
    opt_tensors["LR_Scheduler"] = {"last_epoch": 3, "last_lr": 0.001}
    return {"state_dict": as_tensors, "optimizer": opt_tensors, "100k floats": floats}


def _time(paddle, d: str) -> dict:
    out = {}
    for name, obj in _state(paddle).items():
        path = os.path.join(d, name.replace(" ", "_") + ".pd")
        out[f"save {name}"] = best_us(lambda o=obj, p=path: paddle.save(o, p), 1, 3, 1) / 1e3
        out[f"load {name}"] = best_us(lambda p=path: paddle.load(p), 1, 5, 1) / 1e3
        with open(path, "rb") as f:
            data = f.read()
        out[f"pickle.loads {name}"] = best_us(lambda b=data: pickle.loads(b), 1, 5, 1) / 1e3
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        if "--inner" in sys.argv:  # under real Paddle
            import paddle

            paddle.set_device("cpu")
            print(json.dumps(_time(paddle, d)))
            return
        import paddle_compat as paddle

        ours = _time(paddle, d)
    theirs = paddle_side(__file__)
    print(f"{'ms per call':32} {'paddle-compat':>14} {'Paddle 3.3.1':>13} {'ratio':>7}")
    for k, v in ours.items():
        p = theirs.get(k)
        ratio = f"{v / p:6.2f}x" if p else "   n/a"
        print(f"{k:32} {v:14.1f} {p if p is not None else float('nan'):13.1f} {ratio}")


if __name__ == "__main__":
    main()
