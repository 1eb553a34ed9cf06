"""Run every case program in tests/cases/ under paddle_compat and compare with the goldens
recorded from real Paddle 3.3.1 (tools/record_goldens.py): values, dtypes, shapes,
stop_gradient, printed text and error types."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

CASES = Path(__file__).parent / "cases"
GOLDENS = Path(__file__).parent / "goldens"
sys.path.insert(0, str(CASES))

from _util import normalize  # noqa: E402
from golden_compare import close, mode_tol  # noqa: E402

DEFAULT_TOL = (1e-5, 1e-6)


def _collect():
    params = []
    for path in sorted(CASES.glob("*.py")):
        if path.stem.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"cases_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        golden_path = GOLDENS / f"{path.stem}.json"
        golden = json.loads(golden_path.read_text()) if golden_path.exists() else {}
        for name in vars(mod):
            if name.startswith("case_"):
                params.append(
                    pytest.param(mod, name, golden.get(name), id=f"{path.stem}::{name[5:]}")
                )
    return params


@pytest.mark.parametrize("mod,name,golden", _collect())
def test_case_matches_paddle(mod, name, golden):
    if golden is None:
        pytest.fail(f"no golden for {name}: run tools/record_goldens.py with real Paddle")
    tol = mode_tol(getattr(mod, "TOLERANCE", {}).get(name, DEFAULT_TOL))
    actual = normalize(getattr(mod, name)())
    close(actual, golden, tol)
