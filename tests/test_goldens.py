"""Run every case program in tests/cases/ under paddle_compat and compare with the goldens
recorded from real Paddle 3.3.1 (tools/record_goldens.py): values, dtypes, shapes,
stop_gradient, printed text and error types."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

CASES = Path(__file__).parent / "cases"
GOLDENS = Path(__file__).parent / "goldens"
sys.path.insert(0, str(CASES))

from _util import normalize  # noqa: E402

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


def _close(actual, expected, tol, path="out"):
    if isinstance(expected, dict) and (expected.get("__tensor__") or expected.get("__array__")):
        assert isinstance(actual, dict), f"{path}: expected a tensor, got {actual!r}"
        assert actual.get("dtype") == expected["dtype"], (
            f"{path}: dtype {actual.get('dtype')} != Paddle's {expected['dtype']}"
        )
        assert actual["shape"] == expected["shape"], (
            f"{path}: shape {actual['shape']} != Paddle's {expected['shape']}"
        )
        if "stop_gradient" in expected:
            assert actual["stop_gradient"] == expected["stop_gradient"], (
                f"{path}: stop_gradient {actual['stop_gradient']} != Paddle's "
                f"{expected['stop_gradient']}"
            )
        a = np.asarray(actual["data"], dtype=object)
        e = np.asarray(expected["data"], dtype=object)
        if expected["dtype"] in ("bool",) or expected["dtype"].startswith(("int", "uint")):
            assert actual["data"] == expected["data"], f"{path}: values differ"
        else:
            np.testing.assert_allclose(
                a.astype(np.float64),
                e.astype(np.float64),
                rtol=tol[0],
                atol=tol[1],
                equal_nan=True,
                err_msg=path,
            )
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and set(actual) == set(expected), (
            f"{path}: keys {sorted(actual) if isinstance(actual, dict) else actual} != "
            f"{sorted(expected)}"
        )
        for k in expected:
            _close(actual[k], expected[k], tol, f"{path}.{k}")
        return
    if isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), (
            f"{path}: {actual!r} != {expected!r}"
        )
        for i, (x, y) in enumerate(zip(actual, expected)):
            _close(x, y, tol, f"{path}[{i}]")
        return
    if isinstance(expected, float) and isinstance(actual, float):
        assert math.isclose(actual, expected, rel_tol=tol[0], abs_tol=tol[1]) or (
            math.isnan(actual) and math.isnan(expected)
        ), f"{path}: {actual} != {expected}"
        return
    assert actual == expected, f"{path}:\n{actual!r}\n!= Paddle's\n{expected!r}"


@pytest.mark.parametrize("mod,name,golden", _collect())
def test_case_matches_paddle(mod, name, golden):
    if golden is None:
        pytest.fail(f"no golden for {name}: run tools/record_goldens.py with real Paddle")
    tol = getattr(mod, "TOLERANCE", {}).get(name, DEFAULT_TOL)
    actual = normalize(getattr(mod, name)())
    _close(actual, golden, tol)
