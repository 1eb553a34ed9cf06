"""Programs exported by real Paddle (tests/data/paddle_programs: CNN, ResNet, LSTM, Transformer
encoder, MobileNet-style net, embedding + BiGRU, elementwise/reduction mix; PIR .json and 2.x
.pdmodel; and the control-flow programs: if/while, a loop over the time axis appending to a
list, while with break, an early-exit GRU cell, a data-dependent list, a loop keeping the last
state, whose open time axis is 8 steps here): per-call latency of paddle-compat's predictor
over the loaded program (the replay compiled by jax.jit) vs real Paddle Inference on CPU, same files, same inputs, in the same run
(Paddle in a subprocess of the side venv, one math thread each; ``--rounds`` alternations,
each side's best kept).

    python benchmarks/bench_paddle_programs.py [--batches 1,16] [--n 200] [--models misc,cnn]
        [--entry predictor|eager]

One call = ``copy_from_cpu`` + ``run()`` + ``copy_to_cpu`` of every output; with ``--entry
eager``, an eager call of the ``paddle.jit.load``-ed PIR program on a Tensor and its outputs'
``numpy()`` (gradients on, as a script calls a loaded model). Prints a table and a JSON line;
ratio = paddle-compat / Paddle (> 1: paddle-compat is slower).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_us, paddle_side  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data")
DATA = os.path.abspath(os.path.join(DATA, "paddle_programs"))
MODELS = ("cnn", "resnet", "lstm", "transformer", "mobile", "text", "misc")
FLOW_MODELS = ("cond", "loop", "brk", "rnn_exit", "collect", "encoder")
FORMATS = {"pir": ".json", "legacy": ".pdmodel"}
TIME_STEPS = 8  # the length of the control-flow programs' open time axis


def _input(model: str, batch: int) -> np.ndarray:
    with open(os.path.join(DATA, "outputs.json")) as f:
        _, shape, dtype = json.load(f)["models"][model]["input"]
    shape = [TIME_STEPS if d is None else d for d in shape]
    rs = np.random.RandomState(batch)
    if dtype.startswith("int"):
        return rs.randint(0, 20, [batch, *shape]).astype(dtype)
    # the control-flow programs' loops stop on sums of the input: small values keep them going
    scale = 0.05 if model in FLOW_MODELS else 1.0
    return (rs.standard_normal([batch, *shape]) * scale).astype(dtype)


def time_eager(batches: list[int], n: int, models=MODELS) -> dict:
    """``paddle.jit.load`` each program (real or compat) and time an eager call of the loaded
    layer on a Tensor, its output read back (``layer(paddle.to_tensor(x)).numpy()``)."""
    import paddle

    out = {}
    for model in models:
        layer = paddle.jit.load(os.path.join(DATA, f"{model}_pir"))
        layer.eval()
        for b in batches:
            x = _input(model, b)

            def call(x=x, layer=layer):
                outs = layer(paddle.to_tensor(x))
                for o in outs if isinstance(outs, list | tuple) else [outs]:
                    o.numpy()

            out[f"{model}/eager/b{b}"] = best_us(call, n=n, repeats=5, warmup=5)
    return out


def time_all(batches: list[int], n: int, models=MODELS, entry: str = "predictor") -> dict:
    """Build each predictor with ``import paddle`` (real or compat) and time it."""
    import paddle

    if entry == "eager":
        return time_eager(batches, n, models)
    out = {}
    for model in models:
        for fmt, ext in FORMATS.items():
            prefix = os.path.join(DATA, f"{model}_{fmt}")
            config = paddle.inference.Config(prefix + ext, prefix + ".pdiparams")
            config.disable_gpu()
            config.set_cpu_math_library_num_threads(1)
            if model in ("mobile", "misc"):  # Paddle 3.3.1's oneDNN executor: no *_interp
                config.disable_mkldnn()
            pred = paddle.inference.create_predictor(config)
            h_in = pred.get_input_handle(pred.get_input_names()[0])
            h_out = [pred.get_output_handle(o) for o in pred.get_output_names()]
            for b in batches:
                x = _input(model, b)

                def call(x=x, h_in=h_in, pred=pred, h_out=h_out):
                    h_in.copy_from_cpu(x)
                    pred.run()
                    for h in h_out:
                        h.copy_to_cpu()

                out[f"{model}/{fmt}/b{b}"] = best_us(call, n=n, repeats=5, warmup=5)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", default="1,16")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--models", default=",".join(MODELS + FLOW_MODELS))
    ap.add_argument("--rounds", type=int, default=2, help="alternate Paddle / compat runs")
    ap.add_argument(
        "--entry",
        default="predictor",
        choices=("predictor", "eager"),
        help="predictor: paddle.inference; eager: a paddle.jit.load'ed layer called eagerly",
    )
    ap.add_argument("--inner", action="store_true", help="(run under real Paddle)")
    args = ap.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    models = args.models.split(",")
    if args.inner:
        print(json.dumps(time_all(batches, args.n, models, args.entry)))
        return
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
    ref, ours = {}, {}
    for _ in range(args.rounds):  # alternate, keep each side's best: both see the same load
        r = paddle_side(
            __file__, "--batches", args.batches, "--n", str(args.n), "--models", args.models,
            "--entry", args.entry,
        )  # fmt: skip
        o = time_all(batches, args.n, models, args.entry)
        ref = {k: min(v, ref.get(k, v)) for k, v in r.items()}
        ours = {k: min(v, ours.get(k, v)) for k, v in o.items()}
    ratios = {}
    print(f"{'model/format/batch':28s} {'compat us':>10s} {'paddle us':>10s} {'ratio':>6s}")
    for k, v in ours.items():
        r = ref.get(k)
        ratios[k] = round(v / r, 3) if r else None
        print(f"{k:28s} {v:10.1f} {r or float('nan'):10.1f} {ratios[k] or float('nan'):6.2f}")
    vals = [r for r in ratios.values() if r]
    geo = float(np.exp(np.mean(np.log(vals)))) if vals else None
    print(f"geometric mean ratio: {geo:.2f}" if geo else "no Paddle reference")
    print(
        json.dumps(
            {
                "bench": "paddle_programs",
                "compat_us": ours,
                "paddle_us": ref,
                "ratio": ratios,
                "geomean_ratio": geo,
            }
        )
    )


if __name__ == "__main__":
    main()
