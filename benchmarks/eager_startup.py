"""Eager-mode "first impression" costs, real Paddle vs paddle-compat, measured in the same run.

For each model (EfficientNet-B0 and ResNet-18 at [1, 3, 224, 224], a 6-layer pre-LN Transformer
encoder at [8, 128, 256]; all in benchmarks/_startup_models.py) a FRESH child process per
framework times: ``import paddle``; building the model (``paddle.seed(0); Model()``, synced);
the first eager forward (eval, no_grad, synced with ``.numpy()``); the steady forward (median
after --warmup=3 calls); the first eager train step and the steady one (forward + mean loss +
backward + Adam step + clear_grad, batch 1 at 224 for the CNNs; median after at least 3 warmup
steps and, under paddle-compat, after the first warmup step that compiles nothing, at most 10).
Under paddle-compat the child also counts the XLA executables JAX builds (``/jax/core/compile/backend_compile_duration`` events, which also
fire for persistent-cache loads; ``/jax/compilation_cache/cache_hits`` counts those loads), and
the programs read from paddle-compat's segment store (``_core/segment_store.py``), which need
neither.

paddle-compat runs each model twice in fresh processes: first with JAX's persistent compilation
cache at an EMPTY temp dir ("cold"), then again on the same dir ("warm"; import, build, first
forward and first train step only). A tutorial-size script (MLP 784-128-10, batch 64, 50 eager Adam steps) is
timed end to end (process start to exit) twice per framework, the same way. All of that runs
once per paddle-compat eager mode (--modes): "eager" (op by op, the default) and "deferred"
(PADDLE_COMPAT_DEFERRED=1: ops recorded and run as one compiled program per segment).

    python benchmarks/eager_startup.py [--models effnet,resnet18,transformer] [--quick]
                                       [--json out.json] [--cache-env jax|compat|both]
                                       [--modes eager,deferred] [--repeat 3]

``--repeat N`` runs the whole comparison N times (fresh caches each time) and tables the median
of each cell: one run on a shared 2-core machine moves single cells by 20-40%.

The parent runs under any Python; children run under the project venv (cwd: the repo) for
paddle-compat and under PADDLE_PYTHON (default /work/paddle-venv/bin/python; cwd: a temp dir,
PYTHONPATH dropped) for real Paddle. Both on CPU. Before the children run, the parent compiles
the checkout's bytecode (``_timing.compile_bytecode``), as ``pip install`` does for real
Paddle's modules: a paddle-compat child imports from the checkout, and without bytecode (this
machine sets PYTHONDONTWRITEBYTECODE=1) every import compiled ~220 modules from source (~0.3 s),
which no installed copy pays.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
COMPAT_PY = str(ROOT / ".venv" / "bin" / "python")
PADDLE_PY = os.environ.get("PADDLE_PYTHON", "/work/paddle-venv/bin/python")
CACHE_ENV_MODE = "both"  # set by --cache-env
PADDLE_CWD = tempfile.gettempdir()  # set by run_all to an empty dir: no paddle/ folder there


def cache_env(cache_dir: str, mode: str | None = None) -> dict[str, str]:
    """Env vars that point a paddle-compat child's persistent compilation cache at cache_dir.
    "jax": JAX's own variables; "compat": the project's PADDLE_COMPAT_CACHE_DIR (which sets the
    minimum compile time / entry size to 0 itself); "both" (default): all of them, so that a
    default cache under ~/.cache can never leak a warm cache into a "cold" run."""
    mode = mode or CACHE_ENV_MODE
    env = {}
    if mode in ("jax", "both"):
        env["JAX_COMPILATION_CACHE_DIR"] = cache_dir
        env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
        env["JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES"] = "0"
    if mode in ("compat", "both"):
        env["PADDLE_COMPAT_CACHE_DIR"] = cache_dir
    return env


# ------------------------------------------------------------------------------------- children


class CompileCounter:
    """Counts JAX backend compiles (and persistent-cache hits) since the last take()."""

    def __init__(self):
        import jax.monitoring as mon

        self.n = self.hits = self.loads = 0
        self.secs = 0.0

        def on_duration(event, secs, **_):
            if "backend_compile" in event:
                self.n += 1
                self.secs += secs

        def on_event(event, **_):
            if event.endswith("/cache_hits"):
                self.hits += 1

        mon.register_event_duration_secs_listener(on_duration)
        mon.register_event_listener(on_event)

    def take(self) -> dict:
        from paddle_compat._core import segment_store

        loads = segment_store.stats["loaded"]
        out = {
            "compiles": self.n,
            "cache_hits": self.hits,
            "store_loads": loads - self.loads,
            "compile_s": round(self.secs, 3),
        }
        self.n = self.hits = 0
        self.loads = loads
        self.secs = 0.0
        return out


def child_model(name: str, a) -> dict:
    t = time.perf_counter()
    import paddle

    res = {"import_s": time.perf_counter() - t}
    import numpy as np
    from _startup_models import MODELS

    paddle.set_device("cpu")
    counter = CompileCounter() if a.count else None
    counts = {}
    if counter:
        counter.take()  # drop anything from import / set_device
    ctor, in_shape, train_shape = MODELS[name]
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal(in_shape).astype("float32"))

    t = time.perf_counter()
    paddle.seed(0)
    model = ctor()
    for p in model.parameters():
        p.numpy()
    res["build_s"] = time.perf_counter() - t
    if counter:
        counts["build"] = counter.take()

    model.eval()

    def fwd():
        with paddle.no_grad():
            return model(x).numpy()

    t = time.perf_counter()
    fwd()
    res["first_fwd_s"] = time.perf_counter() - t
    if counter:
        counts["first_fwd"] = counter.take()
    if not a.first_only:
        res["fwd_s"] = median_time(fwd, a.warmup, a.n_fwd)
        if counter:
            counts["steady_fwd"] = counter.take()
    model.train()
    hw = a.train_hw
    xt = paddle.to_tensor(rng.standard_normal(train_shape(hw)).astype("float32"))
    opt = paddle.optimizer.Adam(learning_rate=1e-4, parameters=model.parameters())

    def step():
        loss = model(xt).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss.numpy()

    t = time.perf_counter()
    step()
    res["first_train_s"] = time.perf_counter() - t
    res["train_shape"] = train_shape(hw)
    if counter:
        counts["first_train"] = counter.take()
    if a.first_only:
        res["counts"] = counts
        return res
    # Warm up at least --warmup steps and, under paddle-compat, until a step compiles nothing
    # (parameters change JAX placement over the first optimizer steps, which recompiles).
    warm, warm_compiles = 0, []
    while True:
        step()
        warm += 1
        n = counter.take()["compiles"] if counter else 0
        warm_compiles.append(n)
        if warm >= a.warmup and (n == 0 or warm >= 10):
            break
    if counter:
        counts["train_warmup_compiles"] = warm_compiles
    res["train_warmup_steps"] = warm
    res["train_s"] = median_time(step, 0, a.n_train)
    if counter:
        counts["steady_train"] = counter.take()
    res["counts"] = counts
    return res


def median_time(fn, warmup, n):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def child_mlp(_a) -> dict:
    """The tutorial-size script: the parent times this whole process, start to exit."""
    t = time.perf_counter()
    import numpy as np
    import paddle.nn as nn
    import paddle.nn.functional as F

    import paddle

    paddle.seed(0)
    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((64, 784)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, 10, (64,)).astype("int64"))
    for _ in range(50):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    return {"in_process_s": time.perf_counter() - t, "loss": float(loss.numpy())}


# --------------------------------------------------------------------------------------- parent


def spawn(framework: str, what: str, extra: list[str], env_add: dict | None = None) -> dict:
    if framework == "paddle":
        python, cwd = PADDLE_PY, PADDLE_CWD
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    else:
        python, cwd, env = COMPAT_PY, str(ROOT), dict(os.environ)
    env.update(env_add or {})
    cmd = [python, str(Path(__file__).resolve()), "--child", what, *extra]
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=1800)
    wall = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"{what} under {framework} failed:\n{out.stderr[-3000:]}")
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["process_s"] = wall
    if ("paddle_compat" in res["paddle_file"]) != (framework == "compat"):
        raise RuntimeError(f"{framework} child imported the wrong paddle: {res['paddle_file']}")
    print(f"  {framework:7s} {what:18s} {wall:6.1f}s", file=sys.stderr, flush=True)
    return res


MODES = {"eager": "0", "deferred": "1"}  # paddle-compat's eager modes: PADDLE_COMPAT_DEFERRED


def run_all(a) -> dict:
    knobs = ["--warmup", str(a.warmup), "--n-fwd", str(a.n_fwd), "--n-train", str(a.n_train)]
    knobs += ["--train-hw", str(a.train_hw)]
    modes = a.modes.split(",")
    results: dict = {"settings": vars(a), "modes": modes, "models": {}, "mlp": {}}
    global PADDLE_CWD
    with tempfile.TemporaryDirectory(prefix="eager_startup_") as tmp:
        PADDLE_CWD = os.path.join(tmp, "cwd")
        os.makedirs(PADDLE_CWD)

        def env(mode, cache):
            os.makedirs(cache, exist_ok=True)
            return {**cache_env(cache), "PADDLE_COMPAT_DEFERRED": MODES[mode]}

        for name in a.models.split(","):
            r = results["models"][name] = {"paddle": spawn("paddle", f"model:{name}", knobs)}
            for mode in modes:
                e = env(mode, os.path.join(tmp, f"cache_{name}_{mode}"))
                r[mode] = spawn("compat", f"model:{name}", [*knobs, "--count"], e)
                r[mode + "_warm"] = spawn("compat", f"model:{name}", ["--count", "--first-only"], e)
        for run in ("first", "second"):
            results["mlp"][run] = {"paddle": spawn("paddle", "mlp", [])}
            for mode in modes:
                e = env(mode, os.path.join(tmp, f"cache_mlp_{mode}"))
                results["mlp"][run][mode] = spawn("compat", "mlp", [], e)
    return results


def median_results(runs: list) -> dict:
    """The runs of ``run_all`` merged cell by cell: the median of every number (counts too),
    anything else from the first run."""

    def merge(vals):
        v0 = vals[0]
        if isinstance(v0, dict):
            return {k: merge([v[k] for v in vals if k in v]) for k in v0}
        if isinstance(v0, bool) or not isinstance(v0, int | float):
            return v0
        return statistics.median(vals)

    return merge(runs)


def fmt_s(s):
    return "" if s is None else (f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s")


def table(results: dict) -> str:
    modes = results["modes"]
    rows = [
        "| step | real Paddle | " + " | ".join(f"paddle-compat {m} | ratio" for m in modes) + " |",
        "|---|---|" + "---|---|" * len(modes),
    ]

    def row(label, p, cs):
        cells = [f"{fmt_s(c)} | {f'{c / p:.2f}x' if p and c is not None else ''}" for c in cs]
        rows.append(f"| {label} | {fmt_s(p)} | " + " | ".join(cells) + " |")

    for name, r in results["models"].items():
        p = r["paddle"]
        c = [r[m] for m in modes]
        w = [r[m + "_warm"] for m in modes]
        row(f"{name}: import paddle", p["import_s"], [x["import_s"] for x in c])
        row(f"{name}: build model", p["build_s"], [x["build_s"] for x in c])
        row(f"{name}: build model (warm cache)", p["build_s"], [x["build_s"] for x in w])
        row(f"{name}: first forward (cold cache)", p["first_fwd_s"], [x["first_fwd_s"] for x in c])
        row(f"{name}: first forward (warm cache)", p["first_fwd_s"], [x["first_fwd_s"] for x in w])
        row(f"{name}: steady forward (median)", p["fwd_s"], [x["fwd_s"] for x in c])
        shape = "x".join(map(str, c[0]["train_shape"]))
        label = f"{name}: first train step [{shape}]"
        row(label, p["first_train_s"], [x["first_train_s"] for x in c])
        row(f"{label[:-1]}, warm cache]", p["first_train_s"], [x["first_train_s"] for x in w])
        row(f"{name}: steady train step [{shape}]", p["train_s"], [x["train_s"] for x in c])
    mlp = results["mlp"]
    for run, label in (("first", "1st run, cold cache"), ("second", "2nd run, warm cache")):
        p = mlp[run]["paddle"]
        cs = [mlp[run][m]["process_s"] for m in modes]
        row(f"MLP tutorial, whole process ({label})", p["process_s"], cs)
    rows += [
        "",
        "XLA executables built by paddle-compat (compiles / of which persistent-cache loads / "
        "programs read from the segment store / seconds in compile):",
        "",
        "| model, mode | build (cold) | first forward (cold) | first train step (cold) "
        "| compiles in train warmup steps 2.. | steady (fwd, train) | build (warm) "
        "| first forward (warm) | first train step (warm) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def cnt(d):
        if not d:
            return ""
        return f"{d['compiles']} / {d['cache_hits']} / {d.get('store_loads', 0)} / {d['compile_s']:.2f}s"

    for name, r in results["models"].items():
        for m in modes:
            c, w = r[m]["counts"], r[m + "_warm"]["counts"]
            cells = [cnt(c.get(k)) for k in ("build", "first_fwd", "first_train")]
            cells.append(str(c.get("train_warmup_compiles", "")))
            cells.append(f"{c['steady_fwd']['compiles']}, {c['steady_train']['compiles']}")
            cells += [cnt(w.get(k)) for k in ("build", "first_fwd", "first_train")]
            rows.append(f"| {name}, {m} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="effnet,resnet18,transformer")
    ap.add_argument("--quick", action="store_true", help="few repeats: a few minutes on 2 cores")
    ap.add_argument("--json", help="also write all results here")
    ap.add_argument("--cache-env", choices=["jax", "compat", "both"], default="both")
    ap.add_argument("--modes", default="eager,deferred", help="paddle-compat eager modes to run")
    ap.add_argument("--repeat", type=int, default=1, help="whole runs; the table shows medians")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--first-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--warmup", type=int, default=None)
    ap.add_argument("--n-fwd", type=int, default=None)
    ap.add_argument("--n-train", type=int, default=None)
    ap.add_argument("--train-hw", type=int, default=224, help="CNN train-step image size")
    a = ap.parse_args()
    a.warmup = a.warmup if a.warmup is not None else 3
    a.n_fwd = a.n_fwd if a.n_fwd is not None else (3 if a.quick else 20)
    a.n_train = a.n_train if a.n_train is not None else (3 if a.quick else 10)
    if a.child:
        what, _, name = a.child.partition(":")
        res = child_model(name, a) if what == "model" else child_mlp(a)
        res["paddle_file"] = sys.modules["paddle"].__file__
        print(json.dumps(res))
        return
    global CACHE_ENV_MODE
    CACHE_ENV_MODE = a.cache_env
    from _timing import compile_bytecode

    print(
        f"this checkout's bytecode is compiled ({compile_bytecode()} .pyc files)", file=sys.stderr
    )
    t = time.perf_counter()
    runs = [run_all(a) for _ in range(max(a.repeat, 1))]
    results = median_results(runs) if len(runs) > 1 else runs[0]
    results["total_s"] = time.perf_counter() - t
    print(table(results))
    note = f", medians of {len(runs)} runs" if len(runs) > 1 else ""
    print(f"\n(total benchmark wall time {results['total_s']:.0f} s{note})")
    if a.json:
        Path(a.json).write_text(json.dumps({**results, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
