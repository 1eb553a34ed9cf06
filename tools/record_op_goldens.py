"""Record the op table's goldens: run every row of tests/op_table/ under real Paddle 3.3.1 and
write tests/goldens/op_table/<category>.json (outputs, gradients, bad-input exception types and
which method / in-place names Paddle has).

Run with the side venv that has paddlepaddle==3.3.1 (never the project's venv):

    /work/paddle-venv/bin/python tools/record_op_goldens.py [category ...]

Each row runs in a forked child, so a row that crashes Paddle is recorded as ``{"crash": ...}``
instead of ending the run. The script changes directory away from the repo so ``import paddle``
is real Paddle.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
GOLDENS = TESTS / "goldens" / "op_table"


def run_isolated(fn, timeout_s: int = 60):
    """``fn()`` in a forked child; its (picklable) result, or {"crash": signal name} (SIGALRM:
    it ran past ``timeout_s``; a child forked after another crashed can hang in Paddle)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(timeout_s)
        os.close(r)
        try:
            data = pickle.dumps(fn())
        except BaseException as e:  # noqa: BLE001
            data = pickle.dumps({"recorder_error": repr(e)})
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return {"crash": signal.Signals(os.WTERMSIG(status)).name}
    return pickle.loads(data)


def main(argv: list[str]) -> int:
    os.chdir("/")
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    sys.path.insert(0, str(TESTS))
    import paddle  # real Paddle

    assert "paddle_compat" not in paddle.__file__, "run this with real Paddle, not paddle_compat"
    import op_table
    from op_table import _run

    paddle.set_device("cpu")
    GOLDENS.mkdir(parents=True, exist_ok=True)
    bad_rows = 0
    for cat in argv or op_table.CATEGORIES:
        out = {"_paddle_version": paddle.__version__}
        for row in op_table.load(cat):

            def record(row=row):
                res = _run.run_row(paddle, row)
                res["surface"] = _run.surface(paddle, row)
                return res

            res = run_isolated(record)
            out[row.id] = res
            if ("error" in res or "crash" in res) != bool(row.paddle_error) or (
                "recorder_error" in res or "grad_error" in res
            ):
                bad_rows += 1
                print(f"[{cat}] {row.id}: {res}", file=sys.stderr)
        path = GOLDENS / f"{cat}.json"
        path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
        print(f"{cat}: {len(out) - 1} rows -> {path.relative_to(ROOT)}")
    if bad_rows:
        print(f"{bad_rows} rows need attention (Paddle errors not marked, or marked but passing)")
    return 1 if bad_rows else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
