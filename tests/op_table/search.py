"""Sorting, searching, selection, unique and histograms."""

from __future__ import annotations

import numpy as np

from . import Row, bools, empty, ints, rand

X = rand(2, 3, 4)
M = rand(3, 4, seed=1)
TIES = np.array([[3.0, 1.0, 3.0, 2.0], [0.0, 0.0, 5.0, -1.0]], "float32")
S = np.array([-1.0, 0.0, 0.5, 2.0], "float32")
ROWS: list[Row] = [
    Row("sort", (M,)),
    Row("sort", (X,), {"axis": 0, "descending": True}, tag="desc-axis0"),
    Row("sort", (ints(2, 5),), {"stable": True}, tag="int64"),
    Row("sort", (empty(0, 3),), tag="empty", grad=False),
    Row("argsort", (M,)),
    Row("argsort", (TIES,), {"stable": True}, tag="stable"),
    Row("argsort", (TIES,), {"axis": 0, "descending": True, "stable": True}, tag="desc"),
    Row("msort", (M,)),
    Row("topk", (M, 2)),
    Row("topk", (M, 2), {"axis": 0, "largest": False}, tag="smallest"),
    Row(
        "topk",
        (ints(2, 5), 3),
        tag="int64",
        xfail={"value": "ties (three -5s): Paddle 3.3.1 returns the last index, ours the first"},
    ),
    Row("topk", (M, 5), tag="k-too-big", paddle_error="k larger than the axis"),
    Row("kthvalue", (M, 2)),
    Row("kthvalue", (X, 1), {"axis": 1, "keepdim": True}, tag="keep"),
    Row("mode", (TIES,)),
    Row("mode", (ints(3, 5, low=0, high=3),), {"axis": 0}, tag="int64"),
    Row("nonzero", (TIES,)),
    Row("nonzero", (TIES,), {"as_tuple": True}, tag="tuple"),
    Row("nonzero", (np.array(2.0, "float32"),), tag="0d", paddle_error="0-d input"),
    Row("argwhere", (TIES,)),
    Row("argwhere", (bools(4),), tag="bool"),
    Row("searchsorted", (S, rand(2, 3, seed=2))),
    Row("searchsorted", (S, np.array([0.0, 0.5, 3.0], "float32")), {"right": True}, tag="right"),
    Row("searchsorted", (S, np.array([0.0, 2.0], "float32")), {"out_int32": True}, tag="int32"),
    Row("searchsorted", (np.sort(M, -1), rand(3, 2, seed=3)), tag="batch"),
    Row("bucketize", (rand(2, 3, seed=2), S)),
    Row("bucketize", (np.array([0.0, 0.5, 3.0], "float32"), S), {"right": True}, tag="right"),
    Row("unique", (ints(7, low=0, high=4),)),
    Row(
        "unique",
        (ints(7, low=0, high=4),),
        {"return_index": True, "return_inverse": True, "return_counts": True},
        tag="all",
    ),
    Row("unique", (ints(3, 2, low=0, high=2),), {"axis": 0, "return_counts": True}, tag="axis0"),
    Row("unique", (TIES,), tag="float"),
    Row("unique_consecutive", (np.array([1, 1, 2, 2, 2, 3, 1, 1]),)),
    Row(
        "unique_consecutive",
        (np.array([1, 1, 2, 2, 2, 3, 1, 1]),),
        {"return_inverse": True, "return_counts": True},
        tag="all",
    ),
    Row("unique_consecutive", (np.array([[1, 2], [1, 2], [3, 4]]),), {"axis": 0}, tag="axis0"),
    Row("bincount", (np.array([0, 1, 1, 3]),), bad=(((np.array([0, -1]),), {}),)),
    Row(
        "bincount",
        (np.array([0, 1, 1, 3]),),
        {"weights": rand(4), "minlength": 6},
        tag="weights",
        grad=False,
    ),
    Row("histogram", (rand(10),), {"bins": 4}),
    Row("histogram", (rand(10),), {"bins": 3, "min": -1.0, "max": 1.0}, tag="range"),
    Row(
        "histogram",
        (rand(10),),
        {"bins": 3, "weight": rand(10, seed=1), "density": True},
        tag="density",
    ),
    Row("histogram_bin_edges", (rand(10),), {"bins": 4}),
    Row("histogram_bin_edges", (rand(10),), {"bins": 2, "min": -1.0, "max": 3.0}, tag="range"),
    Row("histogramdd", (rand(6, 2),), {"bins": 2}),
    Row(
        "histogramdd",
        (rand(6, 2),),
        {"bins": [2, 3], "ranges": [-2.0, 2.0, -2.0, 2.0], "density": True},
        tag="ranges",
    ),
]

# Paddle 3.3's PyTorch-style arguments
ROWS += [
    Row("msort", (M,), {"out": np.zeros(1, "float32")}, tag="out"),
    Row("msort", (), {"input": M}, tag="input=", bad=(((), {"x": M}),)),
    Row("argwhere", (), {"input": TIES}, tag="input=", bad=(((), {"x": TIES}),)),
    Row("searchsorted", (S, np.array([0.0, 2.0], "float32")), {"side": "right"}, tag="side"),
    Row(
        "searchsorted",
        (S, np.array([0.0, 2.0], "float32")),
        {"side": "left", "right": True},
        tag="side-left-right",
    ),
    Row(
        "searchsorted",
        (np.array([5.0, 1.0, 7.0, 3.0], "float32"), np.array([3.0, 6.0], "float32")),
        {"sorter": np.array([1, 3, 0, 2])},
        tag="sorter",
    ),
    Row(
        "searchsorted",
        (S, np.array([0.0, 2.0], "float32")),
        {"out": np.zeros(1, "int64")},
        tag="out",
    ),
]

# argsort without stable: ties in the order of Paddle's CPU kernel (std::sort)
_ALT = np.array([1.0, 0.0] * 40, "float32")
_NAN_TIES = np.array([3, 1, np.nan, 1, 2, np.nan, 0, 1] * 5, "float32")
ROWS += [
    Row("argsort", (_ALT,), tag="ties"),
    Row("argsort", (_ALT,), {"descending": True}, tag="ties-desc"),
    Row("argsort", (_NAN_TIES,), tag="nan-ties"),
    Row("argsort", (_NAN_TIES,), {"descending": True}, tag="nan-ties-desc"),
    Row("argsort", (np.tile(np.array([[1, 0, 1, 0, 2, 1]], "int64"), (3, 4)),), tag="int-rows"),
    Row(
        "argsort",
        (np.tile(np.array([[1, 0, 1, 0, 2, 1]], "int64"), (3, 4)),),
        {"axis": 0},
        tag="int-axis0",
    ),
    Row(
        "argsort",
        (np.array([True, False] * 20),),
        tag="bool",
        paddle_error="Paddle's argsort has no bool kernel",
    ),
    Row("argsort", (np.array([1, 0, 1, 0] * 5, "int16"),), tag="int16"),
]

# top_p_sampling: Paddle 3.3.1 has the kernel on GPU only (its CPU build raises RuntimeError,
# which the goldens record); ours samples on every device (a fixed seed for the method check)
_NO_CPU_KERNEL = "Paddle 3.3.1's CPU build has no top_p_sampling kernel (GPU only)"
_WE_SAMPLE = {"value": "ours samples on every device; Paddle's CPU build raises RuntimeError"}
_P = np.array([[0.1, 0.5, 0.2, 0.2], [0.7, 0.1, 0.1, 0.1]], "float32")
ROWS += [
    Row(
        "top_p_sampling",
        (_P, np.array([0.0, 0.0], "float32")),
        {"seed": 5},
        api="tensor.search.top_p_sampling",
        grad=False,
        paddle_error=_NO_CPU_KERNEL,
        xfail=_WE_SAMPLE,
    ),
    Row(
        "top_p_sampling",
        (_P, np.array([0.9, 0.5], "float32")),
        {"seed": 5, "k": 2, "return_top": True, "threshold": np.array([0.15, 0.15], "float32")},
        api="tensor.search.top_p_sampling",
        tag="top",
        grad=False,
        paddle_error=_NO_CPU_KERNEL,
        xfail=_WE_SAMPLE,
    ),
]

# Paddle 3.3 takes PyTorch's dim= for axis
ROWS += [
    Row("argsort", (M,), {"dim": 0}, tag="dim="),
    Row("topk", (M,), {"k": 2, "dim": 0}, tag="dim="),
    Row(
        "unique_consecutive", (np.array([[1, 1, 2], [1, 1, 2], [3, 1, 2]]),), {"dim": 0}, tag="dim="
    ),
]
