"""Reductions, scans and statistics: axis=None, negative and tuple axes, keepdim, dtypes."""

from __future__ import annotations

import numpy as np

from . import Row, bools, empty, ints, rand

ROWS: list[Row] = []
X = rand(2, 3, 4)
AXIS_BAD = (((X,), {"axis": 3}),)


def reduce(op, int_ok=True, grad=True, empty_ok=True, x=X, **kw):
    """axis=None, axis=-1 keepdim, tuple axes, float64 0-d, empty (+ int64)."""
    rows = [
        Row(op, (x,), kw, grad=grad, bad=AXIS_BAD),
        Row(op, (x,), {"axis": -1, "keepdim": True, **kw}, tag="axis-1-keep", grad=grad),
        Row(op, (x,), {"axis": [0, 2], **kw}, tag="axes", grad=grad),
        Row(op, (rand(dtype="float64", seed=1),), kw, tag="f64-0d", grad=grad),
    ]
    if empty_ok:
        rows.append(Row(op, (empty(0, 3),), {"axis": 0, **kw}, tag="empty", grad=False))
    if int_ok:
        rows.append(Row(op, (ints(2, 3),), {"axis": 1, **kw}, tag="int64"))
    ROWS.extend(rows)


for name in ("sum", "prod", "max", "min", "amax", "amin"):
    reduce(name, empty_ok=name in ("sum", "prod"))
ROWS.append(Row("sum", (ints(2, 3, dtype="int32"),), tag="int32"))
ROWS.append(Row("sum", (bools(2, 3),), tag="bool"))
ROWS.append(Row("sum", (X,), {"dtype": "float64"}, tag="dtype"))
ROWS.append(Row("max", (np.array([1.0, 3.0, 3.0], "float32"),), tag="ties"))
ROWS.append(Row("amax", (np.array([1.0, 3.0, 3.0], "float32"),), tag="ties"))
reduce("mean", int_ok=False)
reduce("logsumexp", int_ok=False, empty_ok=False)
reduce("nansum", int_ok=False)
reduce("nanmean", int_ok=False, empty_ok=False)
XN = X.copy()
XN[0, 1, 2] = XN[1, 0, 0] = np.nan
ROWS += [
    Row("nansum", (XN,), {"axis": -1}, tag="nan"),
    Row("nanmean", (XN,), {"axis": -1}, tag="nan"),
]
for name in ("std", "var"):
    reduce(name, int_ok=False, empty_ok=False)
    ROWS.append(Row(name, (X,), {"axis": 1, "unbiased": False}, tag="biased"))
for name in ("all", "any"):
    ROWS += [
        Row(name, (bools(2, 3),), bad=(((bools(2, 3),), {"axis": 2}),)),
        Row(name, (bools(2, 3),), {"axis": -1, "keepdim": True}, tag="axis-1-keep"),
        Row(name, (np.array(True),), tag="0d"),
        Row(name, (np.zeros((0, 2), bool),), tag="empty"),
        Row(name, (ints(2, 3),), {"axis": 0}, tag="int64"),
    ]
for name in ("argmax", "argmin"):
    ROWS += [
        Row(name, (X,), bad=AXIS_BAD),
        Row(name, (X,), {"axis": -1, "keepdim": True}, tag="axis-1-keep"),
        Row(name, (X,), {"axis": 1, "dtype": "int32"}, tag="int32"),
        Row(name, (ints(2, 3),), {"axis": 0}, tag="int64"),
        Row(name, (np.array([1.0, 3.0, 3.0, 0.0], "float32"),), tag="ties"),
    ]
ROWS += [
    Row("count_nonzero", (ints(2, 3, low=-1, high=2),)),
    Row(
        "count_nonzero",
        (ints(2, 3, low=-1, high=2),),
        {"axis": -1, "keepdim": True},
        tag="axis-1-keep",
    ),
    Row(
        "count_nonzero",
        (np.array([0.0, 1.5, -0.0], "float32"),),
        tag="float",
        xfail={
            "value": "float input requiring grad: Paddle's int64 count has "
            "stop_gradient False, ours True"
        },
    ),
]
_NAN_GRAD = "NaN in a row: Paddle sends the gradient to the NaN element, ours drops it"
for name in ("median", "nanmedian"):
    ROWS += [
        Row(name, (rand(2, 3),)),
        Row(name, (rand(2, 4),), {"axis": -1, "keepdim": True}, tag="even-keep"),
        Row(name, (rand(2, 4),), {"axis": 1, "mode": "min"}, tag="min"),
        Row(name, (rand(3, dtype="float64"),), tag="f64"),
        Row(
            name,
            (XN,),
            {"axis": 2},
            tag="nan",
            xfail={"grad": _NAN_GRAD} if name == "median" else {},
        ),
    ]
ROWS[-8].xfail = {"value": "mode='min' indices: Paddle's have stop_gradient True, ours False"}
ROWS[-3].xfail = {"value": "mode='min' indices: Paddle's have stop_gradient True, ours False"}
for name in ("quantile", "nanquantile"):
    ROWS += [
        Row(name, (rand(2, 5),), {"q": 0.3}, bad=(((rand(5),), {"q": -0.1}),)),
        Row(name, (rand(2, 5),), {"q": [0.25, 0.5], "axis": -1, "keepdim": True}, tag="list-keep"),
        Row(name, (rand(2, 5),), {"q": 0.5, "axis": 1, "interpolation": "lower"}, tag="lower"),
        Row(
            name, (rand(2, 5),), {"q": 0.4, "axis": 1, "interpolation": "midpoint"}, tag="midpoint"
        ),
        Row(
            name,
            (XN,),
            {"q": 0.5, "axis": 2},
            tag="nan",
            xfail={"grad": _NAN_GRAD} if name == "quantile" else {},
        ),
        Row(name, (rand(5),), {"q": 1.5}, tag="bad-q", paddle_error="q outside [0, 1]"),
    ]

# scans
for name in ("cumsum", "logcumsumexp"):
    ROWS += [
        Row(name, (rand(2, 3),), {"axis": -1}),
        Row(name, (rand(2, 3),), tag="flat"),
        Row(name, (rand(3, dtype="float64"),), {"axis": 0}, tag="f64"),
        Row(name, (rand(2, 3),), {"axis": 0, "dtype": "float64"}, tag="dtype"),
    ]
ROWS += [
    Row("cumsum", (ints(2, 3),), {"axis": 1}, tag="int64"),
    Row("cumsum", (ints(2, 3, dtype="int32"),), {"axis": 1}, tag="int32"),
    Row(
        "cumsum",
        (X,),
        {"axis": 3},
        tag="bad-axis",
        paddle_error="axis out of range",
        xfail={"value": "we raise ValueError, Paddle IndexError"},
    ),
]
ROWS += [
    Row("cumprod", (rand(2, 3),), {"dim": -1}, bad=(((rand(2, 3),), {"dim": 2}),)),
    Row("cumprod", (rand(3, dtype="float64"),), {"dim": 0}, tag="f64"),
    Row("cumprod", (ints(2, 3),), {"dim": 1}, tag="int64"),
    Row("cumprod", (np.array([2.0, 0.0, 3.0, 0.5], "float32"),), {"dim": 0}, tag="zero"),
]
for name in ("cummax", "cummin"):
    ROWS += [
        Row(name, (rand(2, 3),), {"axis": -1}),
        Row(name, (rand(2, 3),), tag="flat"),
        Row(name, (rand(3, dtype="float64"),), {"axis": 0}, tag="f64"),
        Row(name, (ints(2, 3),), {"axis": 1, "dtype": "int32"}, tag="int64"),
        Row(name, (np.array([1.0, 3.0, 3.0, 2.0], "float32"),), {"axis": 0}, tag="ties"),
    ]
_TARGET = "target only gives a shape: Paddle's gradient for it is None, ours zeros"
ROWS += [
    Row("diff", (rand(2, 4),)),
    Row("diff", (rand(2, 4),), {"n": 2, "axis": 0}, tag="n2-axis0"),
    Row(
        "diff",
        (rand(2, 4),),
        {"prepend": rand(2, 1, seed=1), "append": rand(2, 2, seed=2)},
        tag="pre-app",
    ),
    Row("diff", (ints(5),), tag="int64"),
    Row("trapezoid", (rand(2, 4),)),
    Row("trapezoid", (rand(2, 4),), {"x": rand(4, seed=1)}, tag="x"),
    Row("trapezoid", (rand(2, 4),), {"dx": 0.5, "axis": 0}, tag="dx"),
    Row("cumulative_trapezoid", (rand(2, 4),)),
    Row("cumulative_trapezoid", (rand(2, 4),), {"x": rand(4, seed=1)}, tag="x"),
    Row("cumulative_trapezoid", (rand(2, 4),), {"dx": 0.5, "axis": 0}, tag="dx"),
    Row("reduce_as", (rand(2, 3, 4), rand(3, 1, seed=1)), xfail={"grad": _TARGET}),
    Row("reduce_as", (rand(2, 3), rand(2, 3, seed=1)), tag="same", xfail={"grad": _TARGET}),
    Row("renorm", (rand(3, 4),), {"p": 2.0, "axis": 0, "max_norm": 1.0}),
    Row("renorm", (rand(3, 4),), {"p": 1.0, "axis": -1, "max_norm": 2.0}, tag="p1"),
]

# more dtypes
for name in ("sum", "mean", "prod"):
    ROWS.append(Row(name, (rand(2, 3, dtype="complex64"),), {"axis": 1}, tag="c64"))
for name in ("max", "min", "prod", "cumprod", "argmax"):
    ROWS.append(
        Row(
            name,
            (ints(2, 3, dtype="int32"),),
            {"axis" if name != "cumprod" else "dim": 0},
            tag="int32",
        )
    )

# Paddle 3.3's PyTorch-style arguments: dtype=, dim=, out=, correction=
ROWS += [
    Row("mean", (X,), {"dtype": "float64"}, tag="dtype"),
    Row("mean", (np.array([1.5, 2.7, -3.2], "float32"),), {"dtype": "int64"}, tag="dtype-int"),
    Row("mean", (np.array([1, 2, -7, -3]),), tag="int64"),
    Row("mean", (np.array([[1, 2, 4], [-1, -2, -4]], "int32"),), {"axis": 1}, tag="int32"),
    Row("mean", (np.array([True, False, False]),), tag="bool"),
    Row("mean", (X,), {"dim": 1, "keepdim": True}, tag="dim="),
    Row("mean", (X,), {"axis": 0, "out": np.zeros(1, "float32")}, tag="out"),
    Row("var", (X,), {"correction": 0}, tag="correction0"),
    Row("var", (X,), {"dim": 1, "correction": 2}, tag="correction2"),
    Row(
        "var",
        (np.array([1.0, 2.0], "float32"),),
        {"correction": 3},
        tag="correction-n",
        grad=False,
        bad=(((X,), {"unbiased": True, "correction": 0}),),
    ),
    Row("var", (X,), {"axis": 1, "unbiased": False, "correction": 1}, tag="unbiased-wins"),
    Row("var", (np.array([1, 2, 4, 8]),), tag="int64"),
    Row("var", (X,), {"axis": -1, "out": np.zeros(1, "float32")}, tag="out"),
    Row("cumprod", (rand(2, 3),), {"dim": 1, "dtype": "float64"}, tag="dtype"),
    Row("cumprod", (rand(2, 3),), {"dim": 0, "out": np.zeros(1, "float32")}, tag="out"),
]

_DISTINCT = np.array([[4, 2, 0, -3], [-2, -5, 7, 1], [-4, 3, 9, 5]])
# median: integer dtypes (avg: float32, min: the input's), NaN rows in mode 'min' (the index
# of the first NaN)
ROWS += [
    Row("median", (ints(3, 4),), tag="int64"),
    Row("median", (ints(3, 4, dtype="int32"),), {"axis": 1}, tag="int32-axis"),
    Row("median", (ints(3, 4),), {"mode": "min"}, tag="int64-min"),
    # no ties: Paddle's index among equal values is std::nth_element's, ours the stable sort's
    Row("median", (_DISTINCT,), {"axis": 1, "mode": "min"}, tag="int64-min-axis"),
    Row(
        "median",
        (XN,),
        {"axis": 2, "keepdim": True, "mode": "min"},
        tag="nan-min",
        grad=False,
    ),
    Row(
        "median",
        (XN,),
        {"axis": 0, "mode": "min"},
        tag="nan-min-axis0",
        grad=False,
    ),
]

# Paddle 3.3 takes PyTorch's dim= for axis
for _name in ("sum", "prod", "logsumexp", "amax", "amin", "argmax", "argmin", "cumsum"):
    ROWS.append(Row(_name, (X,), {"dim": 1}, tag="dim="))
for _name in ("all", "any"):
    ROWS.append(Row(_name, (bools(2, 3),), {"dim": 1}, tag="dim="))
ROWS.append(Row("quantile", (rand(2, 5),), {"q": 0.5, "dim": 1}, tag="dim="))

# median's dim= is PyTorch's median: values and indices (mode 'min') unless a mode is given
ROWS += [
    Row("median", (_DISTINCT.astype("float32"),), {"dim": 1}, tag="dim=", grad=False),
    Row("median", (X,), {"dim": 1, "mode": "avg"}, tag="dim=avg"),
    Row("median", (_DISTINCT,), {"dim": 0, "keepdim": True}, tag="dim=keep"),
]
