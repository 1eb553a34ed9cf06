"""Paddle's own docstring examples as the conformance yardstick: run each under real Paddle
3.3.1 and under paddle-compat, compare what they print, and write ``docs/conformance.md``.

    # 1. once, with the side venv that has paddlepaddle==3.3.1 (writes the data file):
    /work/paddle-venv/bin/python tools/doc_examples.py record
    # 2. with the project venv, any time (needs no Paddle):
    .venv/bin/python tools/doc_examples.py run [--area nn] [--match softmax] [--limit N]
    # after a change that makes more examples pass, raise the floor CI checks:
    .venv/bin/python tools/doc_examples.py run --write-passing

``record`` walks Paddle's public modules, extracts every ``.. code-block:: python`` example
from the docstrings (doctest prompts stripped), runs each under real Paddle and stores the
code, its area and what it printed in ``tests/data/doc_examples.json.gz``. ``run`` runs the
examples that worked on real Paddle here and compares the printed text: words must be equal
(whitespace collapsed), integers equal, other numbers within rtol 1e-4 / atol 1e-5 (nan
equal to nan, infinities exact).

Each example runs in a long-lived worker process (one per framework) with a fresh namespace,
stdout captured, in a temp working directory, after the same reset on both sides: dynamic
mode, grad enabled, to_static enabled, global flags and warning filters restored, float32
default dtype, CPU, default print options, fresh layer and parameter name counters, and
``paddle.seed`` / numpy / ``random`` seeded with 2023, so seeded and unseeded random
examples are comparable (paddle-compat reproduces Paddle's CPU random stream). A worker is
replaced after a crash, a timeout, an example that leaves static mode on, or every 100
examples. Examples marked ``+REQUIRES(env:GPU|XPU|DISTRIBUTED|...)`` or ``+SKIP`` are left out.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import math
import os
import re
import select
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "doc_examples.json.gz"
PASSING = ROOT / "tests" / "data" / "doc_examples_passing.txt"  # CI keeps these passing
REPORT = ROOT / "docs" / "conformance.md"
COMPAT_PY = sys.executable  # run and the tests use the project venv that runs them
SEED = 2023
TIMEOUT_S = 60
RECYCLE_EVERY = 100

MODULES = [
    "paddle", "paddle.Tensor", "paddle.nn", "paddle.nn.functional", "paddle.nn.initializer",
    "paddle.nn.utils", "paddle.linalg", "paddle.fft", "paddle.signal", "paddle.distribution",
    "paddle.sparse", "paddle.sparse.nn", "paddle.vision", "paddle.vision.transforms",
    "paddle.vision.models", "paddle.vision.datasets", "paddle.vision.ops", "paddle.io",
    "paddle.metric", "paddle.optimizer", "paddle.optimizer.lr", "paddle.amp",
    "paddle.callbacks", "paddle.hapi", "paddle.jit", "paddle.autograd", "paddle.regularizer",
    "paddle.profiler", "paddle.static", "paddle.distributed", "paddle.incubate",
    "paddle.text", "paddle.audio", "paddle.geometric", "paddle.utils", "paddle.device",
    "paddle.quantization", "paddle.inference", "paddle.onnx", "paddle.sysconfig",
]  # fmt: skip
HAPI = {"Model", "summary", "flops"}
_SKIP_MARK = re.compile(r"doctest:\s*\+(SKIP|REQUIRES\(env:(?!CPU\)))")


# ------------------------------------------------------------------------- extracting examples


def code_blocks(doc: str) -> list[str]:
    """The Python source of each ``.. code-block:: python`` in ``doc`` (prompts stripped;
    a block without ``>>>`` prompts is taken whole)."""
    lines, out, i = doc.expandtabs().splitlines(), [], 0
    while i < len(lines):
        m = re.match(r"(\s*)\.\.\s+code-block::\s*(python|pycon)\s*$", lines[i])
        i += 1
        if not m:
            continue
        indent, block = len(m.group(1)), []
        while i < len(lines) and (
            not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
        ):
            block.append(lines[i])
            i += 1
        body = textwrap.dedent("\n".join(block)).splitlines()
        if any(b.lstrip().startswith(">>>") for b in body):
            src = [
                b[4:] if b.startswith((">>> ", "... ")) else ""
                for b in body
                if b.startswith((">>>", "..."))
            ]
        else:
            src = body
        text = "\n".join(src).strip()
        if text:
            out.append(text + "\n")
    return out


def area_of(qualname: str) -> str:
    parts = qualname.split(".")
    if parts[1] in HAPI or parts[1] == "callbacks":
        return "hapi"
    if len(parts) == 2 or parts[1][:1].isupper():  # paddle.X, Tensor/Size/... methods
        return "tensor"
    return parts[1]


def collect() -> list[dict]:
    """Every example of Paddle's public API (run under real Paddle)."""
    import importlib
    import inspect

    seen, examples = set(), []

    def add(qualname, obj):
        doc = getattr(obj, "__doc__", None)
        if not isinstance(doc, str) or "code-block" not in doc or doc in seen:
            return
        seen.add(doc)
        for k, code in enumerate(code_blocks(doc)):
            if not _SKIP_MARK.search(code):
                examples.append({"id": f"{qualname}#{k}", "area": area_of(qualname), "code": code})

    for modname in MODULES:
        if modname == "paddle.Tensor":
            import paddle

            mod, names = paddle.Tensor, [n for n in dir(paddle.Tensor) if not n.startswith("_")]
        else:
            try:
                mod = importlib.import_module(modname)
            except Exception:  # noqa: BLE001 - a module this Paddle build lacks
                continue
            names = getattr(mod, "__all__", None) or [n for n in dir(mod) if n[0] != "_"]
        for name in names:
            obj = getattr(mod, name, None)
            if obj is None or inspect.ismodule(obj):
                continue
            add(f"{modname}.{name}", obj)
            if inspect.isclass(obj):
                for meth, f in vars(obj).items():
                    if not meth.startswith("_") or meth == "__call__":
                        add(f"{modname}.{name}.{meth}", f)
    return examples


# --------------------------------------------------------------------------------- the worker


def worker(fd: int) -> None:
    """Run requests from stdin (one JSON line: {"code": ...}); answer on ``fd``."""
    import contextlib
    import io
    import random
    import traceback
    import warnings

    import numpy as np

    import paddle

    answers = os.fdopen(fd, "w")
    requests = sys.stdin
    np_print = np.get_printoptions()
    flags = paddle.get_flags(_flag_names(paddle))
    for line in requests:
        code = json.loads(line)["code"]
        paddle.set_flags(flags)
        paddle.jit.enable_to_static(True)
        paddle.disable_static()
        paddle.set_grad_enabled(True)
        paddle.set_default_dtype("float32")
        paddle.set_device("cpu")
        paddle.vision.set_image_backend("pil")
        paddle.set_printoptions(
            precision=8, threshold=1000, edgeitems=3, linewidth=80, sci_mode=False
        )
        np.set_printoptions(**np_print)
        paddle.seed(SEED)
        np.random.seed(SEED)
        random.seed(SEED)
        _reset_name_counters()
        buf = io.StringIO()
        status, error = "ok", ""
        sys.stdin = io.StringIO()  # an example never reads the request pipe
        try:
            with (
                contextlib.redirect_stdout(buf),
                contextlib.redirect_stderr(io.StringIO()),
                warnings.catch_warnings(),
            ):
                exec(compile(code, "<example>", "exec"), {"__name__": "__main__"})  # noqa: S102
        except BaseException as e:  # noqa: BLE001 - the example's own failure is the result
            status = "error"
            tb = traceback.extract_tb(e.__traceback__)
            where = next(
                (f"line {f.lineno}" for f in reversed(tb) if f.filename == "<example>"), ""
            )
            error = (
                f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''} ({where})"
            )
        sys.stdin = requests
        dynamic = paddle.in_dynamic_mode()
        answers.write(json.dumps({"status": status, "out": buf.getvalue(), "error": error,
                                  "dynamic": dynamic}) + "\n")  # fmt: skip
        answers.flush()


def _reset_name_counters() -> None:
    """Fresh layer and parameter name counters (``linear_0``, ``linear_0.w_0``) and used
    parameter names, so names and ``paddle.summary``'s ``Linear-1`` do not depend on the
    examples run before in the worker: ``paddle.base.unique_name.switch()`` on both sides.
    Paddle's C++ counter of eager tensor names is not reset on either side."""
    from paddle.base import unique_name

    unique_name.switch()


def _flag_names(paddle) -> list[str]:
    """The global flags both frameworks know (restored before every example)."""
    names = ["FLAGS_eager_delete_tensor_gb", "FLAGS_check_nan_inf", "FLAGS_use_stride_kernel"]
    names.append("FLAGS_deferred_eager")  # paddle-compat only
    known = []
    for n in names:
        try:
            paddle.get_flags([n])
            known.append(n)
        except Exception:  # noqa: BLE001 - a flag this framework lacks
            pass
    return known


class Worker:
    """A worker process under ``python`` (cwd ``cwd``), restarted when it dies or hangs."""

    def __init__(self, python: str, cwd: str, env: dict):
        self.python, self.cwd, self.env = python, cwd, env
        self.proc = None
        self.used = 0

    def _start(self):
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            [self.python, str(Path(__file__).resolve()), "worker", "--fd", str(w)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=self.cwd,
            env=self.env,
            pass_fds=(w,),
            text=True,
        )
        os.close(w)
        self.answers = os.fdopen(r)
        self.used = 0

    def stop(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.answers.close()
            self.proc = None

    def run(self, code: str) -> dict:
        if self.proc is None or self.used >= RECYCLE_EVERY or self.proc.poll() is not None:
            self.stop()
            self._start()
        self.used += 1
        t = time.perf_counter()
        try:
            self.proc.stdin.write(json.dumps({"code": code}) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.stop()
            return {"status": "crash", "out": "", "error": "worker died"}
        ready, _, _ = select.select([self.answers], [], [], TIMEOUT_S)
        line = self.answers.readline() if ready else ""
        if not line:
            self.stop()
            status = "timeout" if not ready else "crash"
            return {"status": status, "out": "", "error": status}
        res = json.loads(line)
        res["seconds"] = round(time.perf_counter() - t, 3)
        if not res.pop("dynamic", True):  # the example left static mode on: start afresh
            self.stop()
        return res


def _env() -> dict:
    """One CPU device on both sides, whatever the caller's environment (pytest's included)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "XLA_FLAGS")}
    env["JAX_PLATFORMS"] = "cpu"
    return env


def compat_worker() -> Worker:
    """Examples write files (``paddle.save``): they run in a fresh temp dir, never the repo."""
    return Worker(COMPAT_PY, tempfile.mkdtemp(prefix="doc_examples_"), _env())


# ------------------------------------------------------------------------------- comparing

_NUM = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")


def _split(text: str):
    words, nums, pos = [], [], 0
    for m in _NUM.finditer(text):
        words.append(text[pos : m.start()])
        nums.append(m.group())
        pos = m.end()
    words.append(text[pos:])
    return [" ".join(w.split()) for w in words], nums


def _same_number(a: str, b: str, rtol: float, atol: float) -> bool:
    if re.fullmatch(r"[-+]?\d+", b):  # an integer: printed the same way, exactly
        return a == b
    if re.fullmatch(r"[-+]?\d+", a):
        return False
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return x == y or abs(x - y) <= atol + rtol * abs(y)


# wall-clock measurements: paddle.Model's progress log ("- 3ms/step", "- ETA: 2s") and the
# profiler's step timer (reader_cost, batch_cost, ips, Reader Ratio lines and their summary
# table) differ between any two runs, so both sides have them replaced before comparing
_TIMING = re.compile(r" - (?:ETA: [0-9:]+s?|\d+(?:us|ms|s)/(?:step|sample))")
_TIMER_LINE = re.compile(r"^.*(?:reader_cost|batch_cost|\bips\b|Reader Ratio).*$", re.M)


def _mask_timings(text: str) -> str:
    text = _TIMING.sub(" - <time>", text)
    return _TIMER_LINE.sub(lambda m: re.sub(r"\d+(?:\.\d+)?", "<n>", m.group()), text)


def same_output(got: str, want: str, rtol: float = 1e-4, atol: float = 1e-5) -> bool:
    """Printed text equal up to whitespace and measured step times; integers equal; other
    numbers within tolerance (nan == nan, infinities exact)."""
    got, want = _mask_timings(got), _mask_timings(want)
    gw, gn = _split(got)
    ww, wn = _split(want)
    if gw != ww or len(gn) != len(wn):
        return False
    return all(_same_number(a, b, rtol, atol) for a, b in zip(gn, wn))


# ----------------------------------------------------------------------------------- driving


def record(args) -> None:
    import paddle

    if "paddle_compat" in paddle.__file__:
        raise SystemExit("record runs under real Paddle: the side venv, from outside the repo")
    examples = collect()
    redo = None
    if args.match:  # re-record only the matching examples into the existing data file
        with gzip.open(DATA, "rt") as f:
            kept = {e["id"]: e for e in json.load(f)["examples"]}
        redo = {e["id"] for e in examples if re.search(args.match, e["id"])}
        examples = [e if e["id"] in redo else kept.get(e["id"], e) for e in examples]
    w = Worker(sys.executable, tempfile.mkdtemp(prefix="doc_examples_"), _env())
    for n, ex in enumerate(examples):
        if redo is not None and ex["id"] not in redo:
            continue
        res = w.run(ex["code"])
        ex["status"], ex["out"] = res["status"], res["out"]
        if res["status"] != "ok":
            ex["error"] = res["error"]
        if n % 100 == 0:
            print(f"  {n}/{len(examples)} {ex['id']}", file=sys.stderr, flush=True)
    w.stop()
    DATA.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(DATA, "wt") as f:
        json.dump({"paddle": paddle.__version__, "seed": SEED, "examples": examples}, f)
    ok = sum(e["status"] == "ok" for e in examples)
    print(f"{len(examples)} examples, {ok} run on real Paddle -> {DATA}")


def load(path: Path = DATA) -> dict:
    with gzip.open(path, "rt") as f:
        return json.load(f)


def select_examples(data: dict, args) -> list[dict]:
    out = [e for e in data["examples"] if e["status"] == "ok"]
    if args.area:
        out = [e for e in out if e["area"] in args.area.split(",")]
    if args.match:
        out = [e for e in out if re.search(args.match, e["id"])]
    return out[: args.limit] if args.limit else out


def run(args) -> list[dict]:
    data = load()
    examples = select_examples(data, args)
    w, results = compat_worker(), []
    for n, ex in enumerate(examples):
        res = w.run(ex["code"])
        passed = res["status"] == "ok" and same_output(res["out"], ex["out"])
        reason = "" if passed else (res["error"] if res["status"] != "ok" else "output differs")
        results.append({"id": ex["id"], "area": ex["area"], "pass": passed, "reason": reason,
                        "out": res["out"], "want": ex["out"], "prints": bool(ex["out"].strip())})  # fmt: skip
        if args.verbose and not passed:
            print(f"FAIL {ex['id']}: {reason}", file=sys.stderr)
        if n % 50 == 0:
            print(f"  {n}/{len(examples)}", file=sys.stderr, flush=True)
    w.stop()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if not (args.area or args.match or args.limit):
        REPORT.write_text(report(results, data))
        if args.write_passing:
            ids = sorted(r["id"] for r in results if r["pass"])
            PASSING.write_text("".join(i + "\n" for i in ids))
    total = sum(r["pass"] for r in results)
    print(f"{total}/{len(results)} examples pass ({100 * total / max(len(results), 1):.1f}%)")
    return results


def _kind(reason: str) -> str:
    if reason == "output differs":
        return reason
    return reason.split(":")[0] or "error"


def report(results: list[dict], data: dict) -> str:
    by_area = collections.defaultdict(list)
    for r in results:
        by_area[r["area"]].append(r)
    total_ok = sum(r["pass"] for r in results)
    recorded = len(data["examples"])
    lines = [
        "# Conformance: Paddle's docstring examples",
        "",
        f"`python tools/doc_examples.py run` ({time.strftime('%Y-%m-%d')}): every code example "
        f"in the docstrings of real Paddle {data['paddle']}'s public API that runs there on CPU, "
        "run here and compared by printed output (words equal, integers exact, other numbers "
        "within 1e-4 relative). "
        f"{recorded} examples were extracted; {len(results)} run on real Paddle (the rest fail "
        "there on CPU, or need a GPU or several processes) and count here.",
        "",
        f"**Whole package: {total_ok} / {len(results)} pass "
        f"({100 * total_ok / max(len(results), 1):.1f}%).** Of the passing ones, "
        f"{sum(r['pass'] and r['prints'] for r in results)} print output that matched; the "
        f"other {sum(r['pass'] and not r['prints'] for r in results)} print nothing on real "
        "Paddle either and pass by running without an error.",
        "",
        "| area | examples | pass | % | pass with printed output | most common failures |",
        "|---|---|---|---|---|---|",
    ]
    for area in sorted(by_area, key=lambda a: -len(by_area[a])):
        rs = by_area[area]
        ok = sum(r["pass"] for r in rs)
        kinds = collections.Counter(_kind(r["reason"]) for r in rs if not r["pass"])
        common = ", ".join(f"{k} {n}" for k, n in kinds.most_common(3))
        shown = sum(r["pass"] and r["prints"] for r in rs)
        lines.append(
            f"| {area} | {len(rs)} | {ok} | {100 * ok / len(rs):.0f}% | {shown} | {common} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["record", "run", "worker"])
    ap.add_argument("--fd", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--area", help="only these areas (comma-separated)")
    ap.add_argument("--match", help="only example ids matching this regex")
    ap.add_argument("--limit", type=int, help="at most this many examples")
    ap.add_argument("--json", help="also write per-example results here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    ap.add_argument(
        "--write-passing",
        action="store_true",
        help=f"write the ids that pass to {PASSING.relative_to(ROOT)} (what CI keeps passing)",
    )
    args = ap.parse_args(argv)
    if args.command == "worker":
        worker(args.fd)
    elif args.command == "record":
        record(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
