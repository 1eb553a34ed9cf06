"""The op table fuzzed (``tests/op_table/fuzz.py``): every 8th case of the full run, against
what real Paddle 3.3.1 did (``tools/fuzz_ops.py record`` wrote the golden). No case may leak a
JAX error, a non-Paddle exception type or JAX internals in a message; a case that differs from
Paddle must be one of today's known differences (``tests/op_table/fuzz_known.json``, rewritten
by ``tools/fuzz_ops.py run --every 8 --against tests/goldens/op_table_fuzz.json --write-known``
when a difference is fixed). The full run (4195 cases) is ``tools/fuzz_ops.py run``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import paddle

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))

import fuzz_ops  # noqa: E402
from op_table.fuzz import cases  # noqa: E402


def test_fuzzed_ops_raise_paddle_errors_and_match_paddle():
    golden = json.loads(fuzz_ops.CI_GOLDEN.read_text())
    known = json.loads(fuzz_ops.CI_KNOWN.read_text())
    todo = cases(every=golden["_every"])
    assert len(todo) == len(golden) - 2, "the cases changed: re-record the fuzz golden"
    results = fuzz_ops.run_cases(paddle, todo, golden)
    leaks = {k: o for k, (kind, o) in results.items() if kind == "leak"}
    assert not leaks, f"{len(leaks)} raw errors: {leaks}"
    new = {
        k: (kind, o.get("error"), o.get("message", "")[:200])
        for k, (kind, o) in results.items()
        if kind != "same" and known.get(k) != kind
    }
    assert not new, f"{len(new)} new differences from Paddle: {new}"
