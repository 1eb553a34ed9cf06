"""The timing helpers the benchmarks share: the best mean time of a call, in microseconds; a
step's first and steady time; a hand-written JAX SGD step's times; a run under real Paddle; the
memory of a compiled step (XLA's buffer sizes and the process's peak RSS); the table of a
train-step benchmark; this checkout's bytecode, compiled as ``pip install`` leaves it."""

from __future__ import annotations

import functools
import json
import sys
import time


def best_us(fn, n: int = 20, repeats: int = 5, warmup: int = 3) -> float:
    """Run ``fn`` ``warmup`` times, then ``repeats`` rounds of ``n`` calls; the fastest
    round's mean per call (the CPU may be shared, so the best round is the least noisy)."""
    for _ in range(warmup):
        fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def compile_bytecode() -> int:
    """Compile this checkout's packages to ``__pycache__`` bytecode, as ``pip install`` does for
    an installed package (real Paddle's side venv has a ``.pyc`` for every module), and return
    how many ``.pyc`` files they have. Children that time ``import paddle`` or a whole process
    run from the checkout: without bytecode (``PYTHONDONTWRITEBYTECODE=1``, as on the benchmark
    machines) each import compiles ~220 modules from source, ~0.3 s that no installed copy
    pays. A source file edited since is compiled again (its bytecode records mtime and size)."""
    import compileall
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for pkg in ("paddle_compat", "paddle"):
        compileall.compile_dir(os.path.join(root, pkg), quiet=2)
    return sum(
        sum(f.endswith(".pyc") for f in files)
        for d, _, files in os.walk(root)
        if d.startswith(os.path.join(root, "paddle"))
    )


def paddle_side(script: str, *args: str, timeout: int = 1800) -> dict:
    """Run ``script --inner *args`` under real Paddle (``$PADDLE_PYTHON``, default the side
    venv; from ``/`` so it does not import this repo's ``paddle``) and return the JSON dict it
    prints last; ``{}`` when that Python is missing or the run fails (its stderr is shown)."""
    import json
    import os
    import subprocess
    import sys

    paddle_py = os.environ.get("PADDLE_PYTHON", "/work/paddle-venv/bin/python")
    if not os.path.exists(paddle_py):
        return {}
    res = subprocess.run(
        [paddle_py, os.path.abspath(script), "--inner", *args],
        capture_output=True,
        text=True,
        cwd="/",
        timeout=timeout,
    )
    if res.returncode != 0:
        print(res.stderr[-2000:], file=sys.stderr)
        return {}
    return json.loads(res.stdout.strip().splitlines()[-1])


def timed_ms(fn) -> float:
    """Milliseconds of one call of ``fn``, whose result ``float()`` waits for."""
    t0 = time.perf_counter()
    float(fn())
    return (time.perf_counter() - t0) * 1e3


def first_and_steady_ms(
    fn, n: int = 10, repeats: int = 5, warmup: int = 3
) -> tuple[float, float, float]:
    """(first call in ms, best steady wall ms per call, best steady CPU ms per call) of ``fn``,
    whose result ``float()`` waits for. The CPU time is the process's, all its threads: on a
    machine shared with other jobs it moves far less than the wall time."""
    first = timed_ms(fn)
    for _ in range(warmup):
        float(fn())
    wall = cpu = float("inf")
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(n):
            float(fn())
        wall = min(wall, (time.perf_counter() - w0) / n * 1e3)
        cpu = min(cpu, (time.process_time() - c0) / n * 1e3)
    return first, wall, cpu


def paired_ratio(fn_a, fn_b, rounds: int = 5, n: int = 1) -> dict:
    """Median, min and max over ``rounds`` of time(``n`` calls of ``fn_a``) / time(``n`` calls
    of ``fn_b``), the two alternating: on a shared machine a ratio of neighbouring rounds is
    steadier than a ratio of two bests taken at different moments."""
    import statistics

    ratios = []
    for _ in range(rounds):
        a = sum(timed_ms(fn_a) for _ in range(n))
        b = sum(timed_ms(fn_b) for _ in range(n))
        ratios.append(a / b)
    return {"median": statistics.median(ratios), "min": min(ratios), "max": max(ratios), "n": n}


def time_jax_sgd(
    loss, params, x, lr: float = 1e-3, state=None, against=None, rounds: int = 5, **timing
) -> dict:
    """``{"first_ms", "ms", "cpu_ms"}`` and ``step_memory``'s keys of a jitted step ``params -= lr *
    grad(loss)(params, x)``: the hand-written JAX twin of a Paddle train step (the update keeps
    XLA from dropping the backward). The parameters are donated, as a to_static step donates the
    state it writes. With ``state`` (e.g. BatchNorm running statistics) ``loss(params, state, x)``
    returns ``(value, new_state)`` and the step carries it. With ``against`` (our to_static
    step) also ``"paired"``: ``paired_ratio(against, twin step)``."""
    import jax

    if state is None:
        loss_fn, carry0 = (lambda p, s, x: (loss(p, x), s)), ()
    else:
        loss_fn, carry0 = loss, state

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def step(params, carry, x):
        (value, carry), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, carry, x)
        return value, jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), carry

    held = [params, carry0]

    def run():
        value, held[0], held[1] = step(held[0], held[1], x)
        return value

    first, steady, cpu = first_and_steady_ms(run, **timing)
    out = {"first_ms": first, "ms": steady, "cpu_ms": cpu}
    out.update(step_memory(step, (held[0], held[1], x), run))
    if against is not None:
        out["paired"] = paired_ratio(against, run, rounds, n=timing.get("n", 10))
    return out


def _proc_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def _malloc_trim() -> None:
    import ctypes

    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def step_memory(jitted, args, run, steps: int = 3) -> dict:
    """The memory of one compiled step: ``bytes`` is XLA's figure for the executable of
    ``jitted`` at ``args`` (or of ``jitted`` itself when it is compiled already: arguments + outputs + temporaries - the donated inputs its outputs
    reuse); ``rss_bytes`` the cross-check, the process's peak RSS while ``run`` (the timed step)
    runs ``steps`` more times above the RSS before them (Linux ``VmHWM``, reset through
    ``/proc/self/clear_refs``, after glibc's ``malloc_trim`` hands freed pages back, so that
    the steps' buffers show). ``bytes_parts`` are XLA's argument, output, temporary and alias
    sizes. Both sides of a comparison are measured the same way in the same process."""
    import gc

    compiled = jitted if hasattr(jitted, "memory_analysis") else jitted.lower(*args).compile()
    m = compiled.memory_analysis()
    parts = [
        m.argument_size_in_bytes,
        m.output_size_in_bytes,
        m.temp_size_in_bytes,
        m.alias_size_in_bytes,
    ]
    gc.collect()
    _malloc_trim()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # VmHWM := VmRSS
        rss0 = _proc_kib("VmRSS")
        for _ in range(steps):
            float(run())
        rss = (_proc_kib("VmHWM") - rss0) * 1024
    except OSError:  # not Linux, or /proc read-only
        rss = None
    return {"bytes": sum(parts[:3]) - parts[3], "bytes_parts": parts, "rss_bytes": rss}


def static_step_memory(static, *tensors, steps: int = 3) -> dict:
    """``step_memory`` of the compiled program behind a ``paddle.jit.to_static`` function
    called on the positional Tensors ``tensors``: the last specialization it compiled (an XLA
    executable). Reads paddle_compat's ``StaticFunction`` internals (``_cache``, ``_Entry``)."""
    entry = [e for entries in static._cache.values() for e in entries if e.compiled][-1]
    out = step_memory(entry.compiled, (), lambda: static(*tensors), steps=steps)
    return {
        "static_bytes": out["bytes"],
        "static_bytes_parts": out["bytes_parts"],
        "static_rss_bytes": out["rss_bytes"],
    }


def run_inner_paddle(run_paddle) -> bool:
    """Under real Paddle (``--inner``: the run ``paddle_side`` starts in the side venv): print
    ``run_paddle(paddle)`` as JSON on the CPU and return True; else False."""
    if "--inner" not in sys.argv:
        return False
    import paddle

    paddle.set_device("cpu")
    print(json.dumps(run_paddle(paddle)))
    return True


def time_static_step(static, **timing) -> dict:
    """A ``to_static`` step's times (the eager recording call, the compiling call, steady wall
    and CPU ms; ``timing`` as for ``first_and_steady_ms``) and its compiled memory."""
    record_ms = timed_ms(static)  # the eager recording call
    first, steady, cpu = first_and_steady_ms(static, **timing)
    out = dict(
        static_record_ms=record_ms, static_compile_ms=first, static_ms=steady, static_cpu_ms=cpu
    )
    out.update(static_step_memory(static))
    return out


def report_train_step(title: str, ours: dict, ref: dict, twin: dict, twin_name: str) -> None:
    """Print a train-step table (wall and CPU ms per step, first call, ratios to Paddle and to
    the JAX twin) from ``ours`` (eager_/static_ ms, cpu_ms, first/compile ms), Paddle's ``ref``
    (eager_ms/eager_cpu_ms/eager_first_ms, may be empty) and the ``twin`` (ms/cpu_ms/first_ms),
    the alternating-rounds ratio and the memory of the compiled steps when measured
    (``static_bytes``/``static_rss_bytes`` of ``static_step_memory`` against the twin's
    ``bytes``/``rss_bytes``), then the raw JSON."""
    import json

    rows = [
        ("paddle-compat eager", ours, "eager_", "eager_first_ms"),
        ("paddle-compat to_static", ours, "static_", "static_compile_ms"),
        ("real Paddle eager (CPU)", ref, "eager_", "eager_first_ms"),
        (twin_name, twin, "", "first_ms"),
    ]
    p, pc = ref.get("eager_ms"), ref.get("eager_cpu_ms")
    j, jc = twin["ms"], twin.get("cpu_ms")

    def ratio(a, b):
        return "-" if a is None or b is None else f"{a / b:.2f}"

    print(title)
    print(
        f"{'':26s} {'ms/step':>9s} {'first call ms':>14s} {'vs Paddle':>10s} {'vs JAX':>8s}"
        f" {'CPU ms/step':>12s} {'CPU vs Paddle':>14s} {'CPU vs JAX':>11s}"
    )
    for name, d, pre, first_key in rows:
        ms, cpu = d.get(pre + "ms"), d.get(pre + "cpu_ms")
        if ms is None:
            print(f"{name:26s} {'-':>9s}")
            continue
        cpu_s = "-" if cpu is None else f"{cpu:.2f}"
        print(
            f"{name:26s} {ms:9.2f} {d[first_key]:14.0f} {ratio(ms, p):>10s} {ratio(ms, j):>8s}"
            f" {cpu_s:>12s} {ratio(cpu, pc):>14s} {ratio(cpu, jc):>11s}"
        )
    pr = twin.get("paired")
    if pr:
        print(
            f"to_static / JAX twin in {pr['n']}-step rounds taken alternately: median "
            f"{pr['median']:.2f}x (rounds {pr['min']:.2f}-{pr['max']:.2f}x)"
        )
    if ours.get("static_record_ms") is not None:
        print(
            f"to_static's first call runs eagerly and records the state it touches "
            f"({ours['static_record_ms']:.0f} ms); its first call ms above is the next one, "
            "which traces and compiles"
        )
    if ours.get("static_bytes") and twin.get("bytes"):
        mib = 2.0**20
        print(
            f"peak memory of the compiled step (XLA: arguments + outputs + temporaries - "
            f"aliased): to_static {ours['static_bytes'] / mib:.1f} MiB, JAX twin "
            f"{twin['bytes'] / mib:.1f} MiB ({ours['static_bytes'] / twin['bytes']:.2f}x)"
        )
        if ours.get("static_rss_bytes") is not None and twin.get("rss_bytes") is not None:
            print(
                f"peak RSS over 3 steady steps above the RSS before them: to_static "
                f"{ours['static_rss_bytes'] / mib:.1f} MiB, JAX twin "
                f"{twin['rss_bytes'] / mib:.1f} MiB"
            )
    print(json.dumps({"paddle_compat": ours, "paddle": ref, "jax": twin}))


def print_vs_paddle(ours: dict, paddle_us: dict) -> None:
    """A table of ``{case: us}`` timings here and under real Paddle with their ratio, then both
    as one JSON line (for docs/benchmarks.md)."""
    print(f"{'case':40s} {'ours us':>9s} {'Paddle us':>10s} {'/Paddle':>8s}")
    for k, v in ours.items():
        p = paddle_us.get(k)
        print(f"{k:40s} {v:9.1f} {p or float('nan'):10.1f} {(v / p if p else float('nan')):8.2f}")
    print(json.dumps({"ours_us": ours, "paddle_us": paddle_us}))


def print_ms_rows(rows: list, ratios: dict, ours: dict, paddle: dict, digits: int = 2) -> None:
    """``(name, ms)`` rows as an aligned table, the ``ratios`` on one line, then ours, Paddle's
    and the ratios as one JSON line (for docs/benchmarks.md)."""
    width = max(len(name) for name, _ in rows)
    for name, ms in rows:
        print(f"  {name:{width}s} {ms:8.{digits}f} ms")
    print("  " + ", ".join(f"{k} {v:.2f}x" for k, v in ratios.items()))
    print(json.dumps({"ours": ours, "paddle": paddle, "ratios": ratios}))
