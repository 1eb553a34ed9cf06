"""Compare normalized outputs (``tests/cases/_util.normalize``) with Paddle's goldens: dtypes,
shapes and stop_gradient exactly, integers and bools exactly, floats within ``tol``."""

from __future__ import annotations

import math

import numpy as np


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
