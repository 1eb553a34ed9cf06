"""Serving benchmark: paddle.inference predictor latency, paddle-compat vs real Paddle Inference
on the same MLP (same weights), batch 1 and 64, plus the HTTP round trip of ``python -m
serving`` (p50/p90). Both predictors run in the same session, each in its own process.

    python benchmarks/bench_serving.py            # PADDLE_PYTHON=/work/pdvenv/bin/python

One predictor call = ``copy_from_cpu`` + ``run()`` + ``copy_to_cpu`` (what a serving loop
does). Prints a table and a JSON line; ratio > 1 means paddle-compat is slower.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

SIZES = (256, 512, 512, 10)  # MLP 256-512-512-10, ReLU
BATCHES = (1, 64)


def _timeit(fn, n: int, repeat: int = 7, warmup: int = 50) -> float:
    for _ in range(warmup):
        fn()
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - t) / n * 1e6)
    return statistics.median(runs)


def side(workdir: str, tag: str) -> dict:
    """Build the MLP with ``import paddle`` (real or compat), save it with paddle.jit.save and
    time its paddle.inference predictor."""
    import paddle

    w = np.load(os.path.join(workdir, "weights.npz"))
    layers = []
    for i in range(len(SIZES) - 1):
        layers.append(paddle.nn.Linear(SIZES[i], SIZES[i + 1]))
        if i < len(SIZES) - 2:
            layers.append(paddle.nn.ReLU())
    model = paddle.nn.Sequential(*layers)
    model.set_state_dict({k: w[k.replace(".", "_")] for k in model.state_dict()})
    model.eval()
    prefix = os.path.join(workdir, tag, "mlp")
    t = time.perf_counter()
    paddle.jit.save(model, prefix,
                    input_spec=[paddle.static.InputSpec([None, SIZES[0]], "float32", "x")])
    save_s = time.perf_counter() - t
    import paddle.inference as pi

    cfg = pi.Config(prefix + ".json", prefix + ".pdiparams")
    cfg.disable_glog_info()
    cfg.set_cpu_math_library_num_threads(1)
    t = time.perf_counter()
    pred = pi.create_predictor(cfg)
    create_s = time.perf_counter() - t
    h = pred.get_input_handle(pred.get_input_names()[0])
    o = pred.get_output_handle(pred.get_output_names()[0])
    res = {"save_s": save_s, "create_s": create_s}
    for b in BATCHES:
        x = w["x"][:b]

        def call(x=x):
            h.copy_from_cpu(x)
            pred.run()
            return o.copy_to_cpu()

        t = time.perf_counter()
        first = call()
        res[f"first_call_b{b}_ms"] = (time.perf_counter() - t) * 1e3
        res[f"b{b}_us"] = _timeit(call, n=2000 if b == 1 else 500)
        res[f"b{b}_maxerr"] = float(np.abs(first - w[f"y{b}"]).max())
    return res


def _reference(w) -> dict:
    h = w["x"]
    n = len(SIZES) - 1
    for i in range(n):
        h = h @ w[f"{2 * i}_weight"] + w[f"{2 * i}_bias"]
        if i < n - 1:
            h = np.maximum(h, 0)
    return {f"y{b}": h[:b] for b in BATCHES}


def _run_side(python: str, workdir: str, tag: str, cwd: str) -> dict:
    out = subprocess.run([python, os.path.abspath(__file__), "--side", tag, workdir],
                         capture_output=True, text=True, cwd=cwd, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(f"{tag} side failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _http(prefix: str, x_by_batch: dict, n: int = 300) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "serving", "--model", prefix, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=root)
    res = {}
    try:
        line = proc.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for b, x in x_by_batch.items():
            body = json.dumps({"inputs": {"x": {"data": x.tolist(), "dtype": "float32"}}})
            times = []
            for i in range(n + 20):
                t = time.perf_counter()
                conn.request("POST", "/v1/predict", body,
                             {"Content-Type": "application/json"})
                r = conn.getresponse()
                data = r.read()
                if i >= 20:
                    times.append((time.perf_counter() - t) * 1e6)
                assert r.status == 200, data[:300]
            times.sort()
            res[f"http_b{b}_p50_us"] = times[len(times) // 2]
            res[f"http_b{b}_p90_us"] = times[int(len(times) * 0.9)]
        conn.close()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    return res


def _best(acc: dict, res: dict) -> None:
    for k, v in res.items():
        acc[k] = min(acc.get(k, v), v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", default=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("workdir", nargs="?")
    args = ap.parse_args()
    if args.side:
        print(json.dumps(side(args.workdir, args.side)))
        return
    paddle_py = os.environ.get("PADDLE_PYTHON", "/work/pdvenv/bin/python")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as workdir:
        r = np.random.default_rng(0)
        w = {"x": r.standard_normal((max(BATCHES), SIZES[0])).astype("float32")}
        for i in range(len(SIZES) - 1):
            w[f"{2 * i}_weight"] = (r.standard_normal((SIZES[i], SIZES[i + 1]))
                                    / np.sqrt(SIZES[i])).astype("float32")
            w[f"{2 * i}_bias"] = (r.standard_normal(SIZES[i + 1]) * 0.1).astype("float32")
        w.update(_reference(w))
        np.savez(os.path.join(workdir, "weights.npz"), **w)
        ours, real = {}, {}
        for _ in range(args.rounds):  # alternate the two sides; keep each one's best round
            _best(ours, _run_side(sys.executable, workdir, "compat", root))
            if os.path.exists(paddle_py):
                _best(real, _run_side(paddle_py, workdir, "paddle", "/"))
        ours.update(_http(os.path.join(workdir, "compat", "mlp"),
                          {b: w["x"][:b] for b in BATCHES}))
    mlp = "-".join(map(str, SIZES))
    print(f"MLP {mlp} float32; {platform.machine()}, {os.cpu_count()} CPU cores; one call = "
          "copy_from_cpu + run + copy_to_cpu; median of 7 repeats, best of "
          f"{args.rounds} alternating rounds per side; 1 CPU math thread (Paddle's default)")
    print("| case | paddle-compat | Paddle Inference 3.3.1 | ratio |")
    print("|---|---|---|---|")
    for b in BATCHES:
        o, p = ours[f"b{b}_us"], real.get(f"b{b}_us")
        print(f"| predictor batch {b} (us) | {o:.1f} | {'' if p is None else f'{p:.1f}'} | "
              f"{'' if p is None else f'{o / p:.2f}x'} |")
    for k, label in (("first_call_b1_ms", "first call batch 1 (ms, compiles)"),
                     ("create_s", "create_predictor (s)"), ("save_s", "paddle.jit.save (s)")):
        o, p = ours[k], real.get(k)
        print(f"| {label} | {o:.3f} | {'' if p is None else f'{p:.3f}'} | |")
    for b in BATCHES:
        print(f"| HTTP round trip batch {b}, p50 / p90 (us) | {ours[f'http_b{b}_p50_us']:.0f} / "
              f"{ours[f'http_b{b}_p90_us']:.0f} | | |")
    errs = {k: v for k, v in {**{f"compat_{k}": v for k, v in ours.items()},
                              **{f"paddle_{k}": v for k, v in real.items()}}.items()
            if k.endswith("maxerr")}
    print("max |output - numpy reference|:", errs)
    print(json.dumps({"compat": ours, "paddle": real}))


if __name__ == "__main__":
    main()
