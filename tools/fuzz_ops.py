"""Differential fuzzing of the op table (``tests/op_table/fuzz.py`` makes the cases).

    # under real Paddle (side venv): record what Paddle does with each case
    /work/paddle-venv/bin/python tools/fuzz_ops.py record [--every K] [--out FILE]
    # under paddle_compat: run the cases, compare with a recording, print the counts
    .venv/bin/python tools/fuzz_ops.py run [--every K] [--against FILE] [-v]

``record`` without ``--out`` writes the CI subset, ``tests/goldens/op_table_fuzz.json``
(``--every 4``), which ``tests/test_fuzz_ops.py`` replays; ``--every 1`` is the full run.
Every case runs in a forked child under Paddle, so one that crashes Paddle is recorded as
``{"crash": ...}``.

Outcomes per case (``classify``): ``same`` (equal values, or both raise the same type),
``other-type`` (both raise, different types), ``leak`` (we raise a JAX error, a non-Paddle
exception type or a message with JAX internals: always a bug), ``we-accept`` (Paddle raises,
we return a value), ``we-refuse`` (Paddle returns a value, we raise), ``value`` (values
differ), ``paddle-crash`` (Paddle died; we must not leak).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
CI_GOLDEN = TESTS / "goldens" / "op_table_fuzz.json"
CI_KNOWN = TESTS / "op_table" / "fuzz_known.json"
CI_EVERY = 8

# exception types a Paddle user can get from an op (Paddle's own, incl. paddle.EnforceNotMet)
PADDLE_TYPES = {
    "ValueError",
    "TypeError",
    "IndexError",
    "RuntimeError",
    "NotImplementedError",
    "MemoryError",
    "EnforceNotMet",
    "OverflowError",
    "ZeroDivisionError",
    "AttributeError",
    "KeyError",
    "AssertionError",  # Paddle's Python API asserts on some arguments itself
}
JAX_INTERNALS = ("jax", "Traced<", "jaxpr", "XLA", "ShapedArray", "lax.", "tuple index out of")


def outcome(paddle, case) -> dict:
    """{"out": normalized value} or {"error": type name, "message": first line}."""
    from op_table import _run

    try:
        out, _, _ = _run.call(paddle, case)
        return {"out": _run.normalize(out)}
    except Exception as e:  # noqa: BLE001 - the outcome is whatever is raised
        return {"error": type(e).__name__, "message": str(e).split("\n")[0][:300]}


def leaks(ours: dict) -> bool:
    if "error" not in ours:
        return False
    if ours["error"] not in PADDLE_TYPES or ours["error"].startswith("Jax"):
        return True
    return any(s in ours.get("message", "") for s in JAX_INTERNALS)


def classify(ours: dict, paddle: dict | None, tol) -> str:
    from golden_compare import close

    if leaks(ours):
        return "leak"
    if paddle is None:
        return "no-golden"
    if "crash" in paddle or "recorder_error" in paddle:
        return "paddle-crash"
    if "error" in paddle:
        if "error" not in ours:
            return "we-accept"
        return "same" if ours["error"] == paddle["error"] else "other-type"
    if "error" in ours:
        return "we-refuse"
    try:
        close(ours["out"], paddle["out"], tol)
    except AssertionError:
        return "value"
    return "same"


def _record(args) -> int:
    os.chdir("/")
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    sys.path.insert(0, str(TESTS))
    sys.path.insert(0, str(ROOT / "tools"))
    import paddle  # real Paddle

    assert "paddle_compat" not in paddle.__file__, "record with real Paddle"
    from op_table.fuzz import cases
    from record_op_goldens import run_isolated

    paddle.set_device("cpu")
    out = {"_paddle_version": paddle.__version__, "_every": args.every}
    for case in cases(every=args.every):
        out[case.id] = run_isolated(lambda case=case: outcome(paddle, case))
    path = Path(args.out) if args.out else CI_GOLDEN
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"{len(out) - 2} cases -> {path}")
    return 0


def run_cases(paddle, todo, golden) -> dict[str, tuple[str, dict]]:
    """{case id: (class, our outcome)}."""
    return {
        c.id: (classify(o, golden.get(c.id), c.tol), o) for c in todo for o in [outcome(paddle, c)]
    }


def _run(args) -> int:
    sys.path.insert(0, str(TESTS))
    from op_table.fuzz import cases

    import paddle_compat as paddle

    golden = json.loads(Path(args.against).read_text()) if args.against else {}
    counts: collections.Counter = collections.Counter()
    t0 = time.perf_counter()
    todo = cases(every=args.every)
    results = run_cases(paddle, todo, golden)
    for case in todo:
        kind, ours = results[case.id]
        counts[kind] += 1
        if args.verbose and kind not in ("same", "no-golden"):
            print(
                f"{kind:12s} {case.id}: ours {ours.get('error') or 'value'}"
                f" {ours.get('message', '')[:120]} | paddle {golden.get(case.id, {}).get('error', 'value')}"
            )
    dt = time.perf_counter() - t0
    if args.write_known:
        known = {k: v[0] for k, v in sorted(results.items()) if v[0] not in ("same", "leak")}
        CI_KNOWN.write_text(json.dumps(known, indent=0, sort_keys=True) + "\n")
        print(f"{len(known)} known differences -> {CI_KNOWN}")
    print(
        f"{len(todo)} cases in {dt:.0f} s: "
        + ", ".join(f"{k} {v}" for k, v in counts.most_common())
    )
    return 1 if counts["leak"] else 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="run the cases under real Paddle")
    r.add_argument("--every", type=int, default=CI_EVERY)
    r.add_argument("--out")
    u = sub.add_parser("run", help="run the cases under paddle_compat")
    u.add_argument("--every", type=int, default=1)
    u.add_argument("--against", default=None, help="a recording to compare with")
    u.add_argument("-v", "--verbose", action="store_true")
    u.add_argument("--write-known", action="store_true", help=f"rewrite {CI_KNOWN.name}")
    args = p.parse_args(argv)
    return _record(args) if args.cmd == "record" else _run(args)


if __name__ == "__main__":
    sys.exit(main())
