"""Serving benchmark: paddle.inference predictor latency, paddle-compat vs real Paddle Inference
on the same MLP (same weights), batch 1 and 64, plus the HTTP round trip of ``python -m
serving`` (p50/p90). Both predictors run at the same time, each in its own process,
timed in interleaved chunks so that both see the same machine load.

    python benchmarks/bench_serving.py            # PADDLE_PYTHON=/work/pdvenv/bin/python
    python benchmarks/bench_serving.py --storm [--old-root DIR]
    python benchmarks/bench_serving.py --lru

``--storm`` (issue 9): one client sends batch-1 requests while another sends a new batch size
with every request (1, 2, ..., 340); prints the first client's median/p99 and the server's
RSS before and after, for this checkout's server and, with ``--old-root DIR`` (a directory
holding an older ``serving/`` package, e.g. from ``git show``), for that one too.
``--lru``: RSS while 200 shapes of a second dynamic dim go through a cache of 16.

One predictor call = ``copy_from_cpu`` + ``run()`` + ``copy_to_cpu`` (what a serving loop
does). Prints a table and a JSON line; ratio > 1 means paddle-compat is slower.
"""

from __future__ import annotations

import argparse
import base64
import collections
import http.client
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

SIZES = (256, 512, 512, 10)  # MLP 256-512-512-10, ReLU
BATCHES = (1, 64)


def worker(workdir: str, tag: str) -> None:
    """Build the MLP with ``import paddle`` (real or compat), save it with paddle.jit.save,
    create its paddle.inference predictor, then time calls on request: stdin ``"<batch> <n>"``
    -> stdout microseconds per call (``"quit"`` ends)."""
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
    paddle.jit.save(
        model, prefix, input_spec=[paddle.static.InputSpec([None, SIZES[0]], "float32", "x")]
    )
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
    info = {"save_s": save_s, "create_s": create_s}
    calls = {}
    for b in BATCHES:
        x = w["x"][:b]

        def call(x=x):
            h.copy_from_cpu(x)
            pred.run()
            return o.copy_to_cpu()

        t = time.perf_counter()
        first = call()
        info[f"first_call_b{b}_ms"] = (time.perf_counter() - t) * 1e3
        info[f"b{b}_maxerr"] = float(np.abs(first - w[f"y{b}"]).max())
        for _ in range(50):
            call()
        calls[b] = call
    print(json.dumps(info), flush=True)
    for line in sys.stdin:
        if line.strip() == "quit":
            break
        b, n = map(int, line.split())
        call = calls[b]
        t = time.perf_counter()
        for _ in range(n):
            call()
        print((time.perf_counter() - t) / n * 1e6, flush=True)


class _Worker:
    def __init__(self, python: str, workdir: str, tag: str, cwd: str):
        self.tag = tag
        self.p = subprocess.Popen(
            [python, os.path.abspath(__file__), "--worker", tag, workdir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
        )
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"{tag} worker failed:\n{self.p.stderr.read()[-3000:]}")
        self.info = json.loads(line)

    def time(self, b: int, n: int) -> float:
        self.p.stdin.write(f"{b} {n}\n")
        self.p.stdin.flush()
        return float(self.p.stdout.readline())

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
            self.p.wait(timeout=30)
        except Exception:
            self.p.kill()


def _reference(w) -> dict:
    h = w["x"]
    n = len(SIZES) - 1
    for i in range(n):
        h = h @ w[f"{2 * i}_weight"] + w[f"{2 * i}_bias"]
        if i < n - 1:
            h = np.maximum(h, 0)
    return {f"y{b}": h[:b] for b in BATCHES}


def _http(prefix: str, x_by_batch: dict, n: int = 300) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "serving", "--model", prefix, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=root,
    )
    res = {}
    try:
        line = proc.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        bodies = {}
        for b, x in x_by_batch.items():
            bodies[f"b{b}"] = json.dumps(
                {"inputs": {"x": {"data": x.tolist(), "dtype": "float32"}}}
            )
            bodies[f"b{b}_base64"] = json.dumps(
                {
                    "inputs": {
                        "x": {
                            "b64": base64.b64encode(x.tobytes()).decode(),
                            "dtype": "float32",
                            "shape": list(x.shape),
                        }
                    },
                    "output_encoding": "base64",
                }
            )
        for b, body in bodies.items():
            times = []
            for i in range(n + 20):
                t = time.perf_counter()
                conn.request("POST", "/v1/predict", body, {"Content-Type": "application/json"})
                r = conn.getresponse()
                data = r.read()
                if i >= 20:
                    times.append((time.perf_counter() - t) * 1e6)
                assert r.status == 200, data[:300]
            times.sort()
            res[f"http_{b}_p50_us"] = times[len(times) // 2]
            res[f"http_{b}_p90_us"] = times[int(len(times) * 0.9)]
        conn.close()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    return res


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        return next(int(ln.split()[1]) / 1024 for ln in f if ln.startswith("VmRSS:"))


def _storm_one(prefix: str, root: str, sizes: int, extra: list[str]) -> dict:
    """Server from ``root`` (its ``serving`` package); a batch-1 client timed while a second
    client sends batch sizes 1..``sizes``, each once."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, repo]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "serving", "--model", prefix, "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=root,
        env=env,
    )
    try:
        port = int(proc.stdout.readline().rsplit(":", 1)[1])
        x = np.random.default_rng(0).standard_normal((sizes, SIZES[0])).astype("float32")

        def body(n):
            item = {"b64": base64.b64encode(x[:n].tobytes()).decode(), "dtype": "float32"}
            return json.dumps({"inputs": {"x": {**item, "shape": [n, SIZES[0]]}}})

        def timed(conn, b, out):
            t = time.perf_counter()
            conn.request("POST", "/v1/predict", b)
            r = conn.getresponse()
            r.read()
            out.append((time.perf_counter() - t) * 1e3)
            return r.status

        normal = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        quiet: list[float] = []
        for _ in range(1000):
            timed(normal, body(1), quiet)
        rss0 = _rss_mb(proc.pid)
        done, statuses = threading.Event(), []

        def storm():
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
            for n in range(1, sizes + 1):
                statuses.append(timed(c, body(n), []))
            done.set()

        t0 = time.perf_counter()
        threading.Thread(target=storm, daemon=True).start()
        loaded: list[float] = []
        while not done.is_set():
            assert timed(normal, body(1), loaded) == 200
        storm_s = time.perf_counter() - t0
        rss1 = _rss_mb(proc.pid)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()

    def pct(v, q):
        return float(np.percentile(v, q))

    return {
        "quiet_p50_ms": pct(quiet, 50),
        "quiet_p99_ms": pct(quiet, 99),
        "storm_p50_ms": pct(loaded, 50),
        "storm_p99_ms": pct(loaded, 99),
        "storm_s": storm_s,
        "rss_mb": [rss0, rss1],
        "storm_status": dict(sorted(collections.Counter(statuses).items())),
    }


def storm(old_root: str | None, sizes: int = 340) -> None:
    import paddle as P

    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as d:
        layers = []
        for i in range(len(SIZES) - 1):
            layers.append(P.nn.Linear(SIZES[i], SIZES[i + 1]))
            if i < len(SIZES) - 2:
                layers.append(P.nn.ReLU())
        model = P.nn.Sequential(*layers)
        prefix = os.path.join(d, "mlp")
        spec = [P.static.InputSpec([None, SIZES[0]], "float32", "x")]
        P.jit.save(model, prefix, input_spec=spec)
        runs = [("this checkout, --max-batch 512", repo, ["--max-batch", "512"])]
        runs.append(("this checkout, defaults (--max-batch 64: 413 above)", repo, []))
        if old_root:
            runs.insert(0, (f"old ({old_root})", old_root, []))
        res = {name: _storm_one(prefix, root, sizes, extra) for name, root, extra in runs}
    print(
        f"MLP {'-'.join(map(str, SIZES))}; a batch-1 client (b64, keep-alive) alone, then while "
        f"another client sends batch sizes 1..{sizes} once each; {platform.machine()}, "
        f"{os.cpu_count()} CPU cores"
    )
    print(
        "| server | quiet p50 / p99 (ms) | during storm p50 / p99 (ms) | storm (s) | RSS (MB) "
        "| storm answers |"
    )
    print("|---|---|---|---|---|---|")
    for name, r in res.items():
        print(
            f"| {name} | {r['quiet_p50_ms']:.2f} / {r['quiet_p99_ms']:.2f} | "
            f"{r['storm_p50_ms']:.2f} / {r['storm_p99_ms']:.2f} | {r['storm_s']:.1f} | "
            f"{r['rss_mb'][0]:.0f} -> {r['rss_mb'][1]:.0f} | {r['storm_status']}"
        )
    print(json.dumps(res))


def lru_one(kind: str, shapes: int = 200, cache_size: int = 16) -> None:
    """RSS while ``shapes`` sequence lengths run through ``Executables`` (bounded cache) or
    ``jax.jit(exported.call)`` (one executable per shape, kept): prints JSON."""
    import jax
    import jax.numpy as jnp

    from paddle_compat._export import IOSpec
    from serving._buckets import Executables

    b, s = jax.export.symbolic_shape("b, s")
    w = np.ones((64, 64), "float32")
    fn = jax.jit(lambda ps, xs: [jnp.tanh(xs[0] @ ps[0]).sum(1)])
    exp = jax.export.export(fn)(
        [jax.ShapeDtypeStruct((64, 64), jnp.float32)],
        [jax.ShapeDtypeStruct((b, s, 64), jnp.float32)],
    )
    ex = Executables(exp, [w], [IOSpec("x", [-1, -1, 64], "float32")], cache_size=cache_size)
    jitted = jax.jit(exp.call)
    run = (lambda x: ex.run([x])) if kind == "executables" else (lambda x: jitted([w], [x]))
    run(np.ones((2, 1, 64), "float32"))
    rss = [_rss_mb(os.getpid())]
    t = time.perf_counter()
    for k in range(2, shapes + 2):
        run(np.ones((2, k, 64), "float32"))
        if (k - 1) % (shapes // 4) == 0:
            rss.append(_rss_mb(os.getpid()))
    print(json.dumps({"rss_mb": rss, "s": time.perf_counter() - t}))


def lru(shapes: int = 200, cache_size: int = 16) -> None:
    rows = {}
    for kind in ("executables", "jit"):
        out = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--lru-one", kind],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        rows[kind] = json.loads(out.strip().splitlines()[-1])
    print(
        f"{shapes} sequence lengths (x: [2, s, 64]), one compile each; RSS (MB) after 1, 50, ...:"
    )
    names = {"executables": f"Executables(cache_size={cache_size})", "jit": "jax.jit, kept"}
    for kind, r in rows.items():
        rss = " -> ".join(f"{v:.0f}" for v in r["rss_mb"])
        print(f"| {names[kind]} | {rss} | {r['s']:.1f} s |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", default=None)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--storm", action="store_true", help="new batch sizes vs a normal client")
    ap.add_argument("--old-root", default=None, help="with --storm: an older serving/ to compare")
    ap.add_argument("--lru", action="store_true", help="RSS of the bounded compile cache")
    ap.add_argument("--lru-one", default=None, help=argparse.SUPPRESS)
    ap.add_argument("workdir", nargs="?")
    args = ap.parse_args()
    if args.worker:
        worker(args.workdir, args.worker)
        return
    if args.storm:
        storm(args.old_root)
        return
    if args.lru_one:
        lru_one(args.lru_one)
        return
    if args.lru:
        lru()
        return
    paddle_py = os.environ.get("PADDLE_PYTHON", "/work/pdvenv/bin/python")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as workdir:
        r = np.random.default_rng(0)
        w = {"x": r.standard_normal((max(BATCHES), SIZES[0])).astype("float32")}
        for i in range(len(SIZES) - 1):
            w[f"{2 * i}_weight"] = (
                r.standard_normal((SIZES[i], SIZES[i + 1])) / np.sqrt(SIZES[i])
            ).astype("float32")
            w[f"{2 * i}_bias"] = (r.standard_normal(SIZES[i + 1]) * 0.1).astype("float32")
        w.update(_reference(w))
        np.savez(os.path.join(workdir, "weights.npz"), **w)
        sides = [_Worker(sys.executable, workdir, "compat", root)]
        if os.path.exists(paddle_py):
            sides.append(_Worker(paddle_py, workdir, "paddle", "/"))
        times = {(s.tag, b): [] for s in sides for b in BATCHES}
        try:
            for k in range(args.rounds):  # interleaved chunks: both sides see the same load
                for b in BATCHES:
                    n = 200 if b == 1 else 50
                    for s in sides if k % 2 == 0 else sides[::-1]:
                        times[(s.tag, b)].append(s.time(b, n))
        finally:
            for s in sides:
                s.close()
        ours = dict(sides[0].info)
        real = dict(sides[1].info) if len(sides) > 1 else {}
        ratios = {}
        for b in BATCHES:
            ours[f"b{b}_us"] = statistics.median(times[("compat", b)])
            if real:
                real[f"b{b}_us"] = statistics.median(times[("paddle", b)])
                ratios[b] = statistics.median(
                    o / p for o, p in zip(times[("compat", b)], times[("paddle", b)])
                )
        ours.update(_http(os.path.join(workdir, "compat", "mlp"), {b: w["x"][:b] for b in BATCHES}))
    mlp = "-".join(map(str, SIZES))
    print(
        f"MLP {mlp} float32; {platform.machine()}, {os.cpu_count()} CPU cores; one call = "
        "copy_from_cpu + run + copy_to_cpu; both predictors alive at once, timed in "
        f"{args.rounds} interleaved chunks each (median); 1 CPU math thread (Paddle's default)"
    )
    print("| case | paddle-compat | Paddle Inference 3.3.1 | ratio (median of paired chunks) |")
    print("|---|---|---|---|")
    for b in BATCHES:
        o, p = ours[f"b{b}_us"], real.get(f"b{b}_us")
        print(
            f"| predictor batch {b} (us) | {o:.1f} | {'' if p is None else f'{p:.1f}'} | "
            f"{'' if p is None else f'{ratios[b]:.2f}x'} |"
        )
    for k, label in (
        ("first_call_b1_ms", "first call batch 1 (ms, compiles)"),
        ("create_s", "create_predictor (s)"),
        ("save_s", "paddle.jit.save (s)"),
    ):
        o, p = ours[k], real.get(k)
        print(f"| {label} | {o:.3f} | {'' if p is None else f'{p:.3f}'} | |")
    for b in BATCHES:
        for enc, label in (("", "JSON lists"), ("_base64", "base64")):
            k = f"http_b{b}{enc}"
            print(
                f"| HTTP round trip batch {b}, {label}, p50 / p90 (us) | "
                f"{ours[k + '_p50_us']:.0f} / {ours[k + '_p90_us']:.0f} | | |"
            )
    errs = {
        k: v
        for k, v in {
            **{f"compat_{k}": v for k, v in ours.items()},
            **{f"paddle_{k}": v for k, v in real.items()},
        }.items()
        if k.endswith("maxerr")
    }
    print("max |output - numpy reference|:", errs)
    spread = {f"{t}_b{b}": [round(min(v), 1), round(max(v), 1)] for (t, b), v in times.items()}
    print("per-chunk min/max (us):", spread)
    print(json.dumps({"compat": ours, "paddle": real, "ratios": ratios}))


if __name__ == "__main__":
    main()
