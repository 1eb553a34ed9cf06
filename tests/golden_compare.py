"""Compare normalized outputs (``tests/cases/_util.normalize``) with Paddle's goldens: dtypes,
shapes and stop_gradient exactly, integers and bools exactly, floats within ``tol``."""

from __future__ import annotations

import math

import numpy as np

from paddle_compat._core import deferred

# Deferred eager execution (PADDLE_COMPAT_DEFERRED=1) runs recorded ops as one compiled program,
# where XLA fuses and vectorizes across ops as it does under to_static: a comparison that is
# bit-exact op by op holds to this tolerance there (measured: <= 1e-7 relative on the goldens).
DEFERRED_TOL = (1e-6, 1e-7)


def mode_tol(tol):
    """``tol`` in op-by-op eager mode; at least ``DEFERRED_TOL`` under deferred execution."""
    if not deferred.enabled():
        return tol
    return (max(tol[0], DEFERRED_TOL[0]), max(tol[1], DEFERRED_TOL[1]))


def close(actual, expected, tol, path="out", sg=True):
    if isinstance(expected, dict) and (expected.get("__tensor__") or expected.get("__array__")):
        assert isinstance(actual, dict), f"{path}: expected a tensor, got {actual!r}"
        assert actual.get("dtype") == expected["dtype"], (
            f"{path}: dtype {actual.get('dtype')} != Paddle's {expected['dtype']}"
        )
        assert actual["shape"] == expected["shape"], (
            f"{path}: shape {actual['shape']} != Paddle's {expected['shape']}"
        )
        if sg and "stop_gradient" in expected:
            assert actual["stop_gradient"] == expected["stop_gradient"], (
                f"{path}: stop_gradient {actual['stop_gradient']} != Paddle's "
                f"{expected['stop_gradient']}"
            )
        dt = expected["dtype"]
        if dt == "bool" or dt.startswith(("int", "uint")):
            assert actual["data"] == expected["data"], (
                f"{path}: {actual['data']} != Paddle's {expected['data']}"
            )
        else:
            a = np.asarray(actual["data"], dtype=np.float64)
            e = np.asarray(expected["data"], dtype=np.float64)
            np.testing.assert_allclose(a, e, rtol=tol[0], atol=tol[1], equal_nan=True, err_msg=path)
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and set(actual) == set(expected), (
            f"{path}: {actual!r} != Paddle's {expected!r}"
        )
        for k in expected:
            close(actual[k], expected[k], tol, f"{path}.{k}", sg)
        return
    if isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), (
            f"{path}: {actual!r} != Paddle's {expected!r}"
        )
        for i, (x, y) in enumerate(zip(actual, expected)):
            close(x, y, tol, f"{path}[{i}]", sg)
        return
    if isinstance(expected, float) and isinstance(actual, float):
        assert math.isclose(actual, expected, rel_tol=tol[0], abs_tol=tol[1]) or (
            math.isnan(actual) and math.isnan(expected)
        ), f"{path}: {actual} != {expected}"
        return
    assert actual == expected, f"{path}:\n{actual!r}\n!= Paddle's\n{expected!r}"
