"""Elementwise math: unary and binary ops, comparisons, logic and bit ops, products."""

from __future__ import annotations

import numpy as np

from . import Row, bools, empty, ints, pos, rand, unit

ROWS: list[Row] = []


def unary(op, gen=rand, int_ok=False, grad=True, tol=None, **kw):
    """A unary elementwise op: float32, float64 0-d and empty samples (+ ints if allowed)."""
    t = {"tol": tol} if tol else {}
    rows = [
        Row(op, (gen(2, 3),), kw, grad=grad, **t),
        Row(op, (gen(dtype="float64", seed=2),), kw, tag="f64-0d", grad=grad, **t),
        Row(op, (empty(0, 2),), kw, tag="empty", grad=False),
    ]
    if int_ok:
        rows.append(Row(op, (ints(2, 3),), kw, tag="int64"))
    ROWS.extend(rows)


def gt1(*shape, dtype="float32", seed=0):
    return pos(*shape, dtype=dtype, seed=seed, low=1.1, high=3.0)


def prob(*shape, dtype="float32", seed=0):
    return pos(*shape, dtype=dtype, seed=seed, low=0.05, high=0.95)


def special(*shape, dtype="float32", seed=0):
    """Floats with nan, inf, -inf and -0.0 among them (for isnan, nan_to_num...)."""
    a = rand(*shape, dtype=dtype, seed=seed)
    flat = a.reshape(-1)
    for i, v in enumerate((np.nan, np.inf, -np.inf, -0.0)[: flat.size]):
        flat[i] = v
    return a


for name in ("abs", "neg", "negative", "sign", "square", "positive"):
    unary(name, int_ok=True)
unary("sgn")
ROWS.append(
    Row("sgn", (ints(3),), tag="int64", paddle_error="Paddle's sgn takes floats and complex")
)
for name in (
    "sin",
    "cos",
    "tan",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "exp",
    "expm1",
    "erf",
    "sigmoid",
    "deg2rad",
    "rad2deg",
    "sinc",
    "i0",
    "i0e",
    "i1",
    "i1e",
):
    unary(name, int_ok=name in ("sin", "exp"))  # Paddle casts ints to float32
for name in ("asin", "acos", "atanh", "erfinv"):
    unary(name, gen=unit, tol=(1e-5, 1e-5))
unary("acosh", gen=gt1)
for name in (
    "log",
    "log2",
    "log10",
    "log1p",
    "sqrt",
    "rsqrt",
    "reciprocal",
    "digamma",
    "lgamma",
    "gammaln",
):
    unary(name, gen=pos, tol=(1e-5, 1e-5))
unary("logit", gen=prob)
unary("logit", gen=prob, eps=0.1)
for name in ("floor", "ceil", "trunc", "round", "frac"):
    unary(name)
unary("round", decimals=1)
unary("stanh")
unary("stanh", scale_a=0.5, scale_b=2.0)
unary("frexp", grad=False)
for name in ("isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit"):
    unary(name, gen=special, grad=False)
    ROWS.append(Row(name, (ints(3),), tag="int64"))
unary("isreal", grad=False)
ROWS.append(Row("isreal", (rand(3, dtype="complex64"),), tag="complex64"))
unary("nan_to_num", gen=special)
ROWS.append(
    Row("nan_to_num", (special(2, 3),), {"nan": 1.0, "posinf": 9.0, "neginf": -9.0}, tag="values")
)
ROWS.append(Row("multigammaln", (gt1(2, 3) + 1,), {"p": 2}))
ROWS.append(Row("multigammaln", (gt1(3, dtype="float64") + 1,), {"p": 3}, tag="f64"))
ROWS.append(Row("polygamma", (pos(2, 3),), {"n": 1}, tol=(1e-5, 1e-5)))
ROWS.append(Row("polygamma", (pos(3, dtype="float64"),), {"n": 2}, tag="f64"))
for name in ("bitwise_not",):
    ROWS += [
        Row(name, (ints(2, 3),)),
        Row(name, (ints(3, dtype="int32"),), tag="int32"),
        Row(name, (bools(4),), tag="bool"),
        Row(name, (np.array(5),), tag="0d"),
    ]
ROWS += [
    Row("logical_not", (bools(2, 3),)),
    Row("logical_not", (rand(3),), tag="float"),
    Row("logical_not", (ints(3),), tag="int64"),
]


def binary(op, gen=rand, gen2=None, int_ok=False, grad=True, tol=None, bad=True, f64=True):
    """A binary broadcasting op: same shape, float64 broadcast, 0-d, empty (+ ints)."""
    g2 = gen2 or gen
    t = {"tol": tol} if tol else {}
    dt = "float64" if f64 else "float32"
    rows = [
        Row(op, (gen(2, 3), g2(2, 3, seed=1)), grad=grad, **t),
        Row(
            op, (gen(2, 1, seed=2, dtype=dt), g2(3, seed=3, dtype=dt)), tag="bcast", grad=grad, **t
        ),
        Row(op, (gen(seed=4), g2(2, 3, seed=5)), tag="0d", grad=grad, **t),
        Row(op, (gen(0, 3), g2(3, seed=6)), tag="empty", grad=False, **t),
    ]
    if int_ok:
        rows.append(Row(op, (ints(2, 3), ints(3, seed=1, low=1)), tag="int64"))
    if bad:
        rows[0].bad = (((gen(2, 3), g2(4, seed=1)), {}),)
    ROWS.extend(rows)


for name in ("add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin"):
    binary(name, int_ok=True)
ROWS.append(Row("add", (ints(2, 3, dtype="int32"), ints(3, dtype="int32", seed=1)), tag="int32"))
ROWS.append(Row("add", (rand(2, 3), rand(3, dtype="float64", seed=1)), tag="f32+f64"))
ROWS.append(
    Row(
        "add",
        (rand(2, 3), 2.5),
        tag="scalar",
        paddle_error="paddle.add wants a Tensor y, not a Python float",
        xfail={"value": "we accept a Python scalar y (Paddle raises ValueError)"},
    )
)
ROWS.append(
    Row(
        "multiply",
        (ints(3), rand(3, seed=1)),
        tag="int*float",
        paddle_error="paddle.multiply does not promote int64 with float32",
    )
)
binary("divide", gen2=pos)
ROWS.append(Row("divide", (ints(2, 3), ints(3, low=1, seed=1)), tag="int64"))
binary("floor_divide", gen2=pos, grad=False, int_ok=True)
ROWS.append(  # integer division by zero: Paddle's kernel raises
    Row(
        "floor_divide",
        (np.array([7, -7]), np.array([2, 3])),
        tag="int-div",
        bad=(((np.array([7, 1]), np.array([2, 0])), {}),),
    )
)
binary("remainder", gen2=pos, int_ok=True)
ROWS.append(
    Row(
        "remainder",
        (np.array([7, -7]), np.array([2, 3])),
        tag="int-div",
        bad=(((np.array([7, 1]), np.array([2, 0])), {}),),
    )
)
binary("pow", gen=pos, tol=(1e-5, 1e-5))
ROWS.append(Row("pow", (rand(2, 3), 2.0), tag="scalar"))
ROWS.append(Row("pow", (ints(2, 3), 2), tag="int-scalar"))
for name in ("atan2", "copysign", "hypot", "logaddexp", "heaviside"):
    binary(name)
binary("nextafter", grad=False)
_NO_X_GRAD = "Paddle 3.3.1 gives no gradient for x (only for y); we differentiate both"
_BCAST_BUG = (
    "Paddle 3.3.1 bug: with broadcasting it returns garbage (1e-19, 3e+29) past the "
    "first element; ours matches the unbroadcast formula"
)
for name in ("gammainc", "gammaincc"):
    binary(name, gen=pos, tol=(1e-5, 1e-5))
    for r in ROWS[-4:]:
        r.xfail = {"grad": _NO_X_GRAD} if r.tag == "" else {}
        if r.tag in ("bcast", "0d"):
            r.xfail = {"grad": _NO_X_GRAD, "value": _BCAST_BUG}
        if r.tag == "":
            r.xfail["inplace"] = _NO_X_GRAD
ROWS.append(Row("ldexp", (rand(2, 3), ints(3, low=-3, high=4))))
ROWS.append(Row("ldexp", (rand(3, dtype="float64"), ints(3, dtype="int32", seed=1)), tag="f64"))
for name in ("equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"):
    binary(name, int_ok=True, grad=False)
    ROWS.append(Row(name, (ints(3), ints(3, seed=0)), tag="ties"))
for name in ("logical_and", "logical_or", "logical_xor"):
    binary(name, gen=lambda *s, dtype=None, seed=0: bools(*s, seed=seed), grad=False, f64=False)
    ROWS.append(
        Row(
            name,
            (rand(3), ints(3)),
            tag="mixed",
            paddle_error="logical ops reject float32 with int64",
            xfail={"value": "we accept mixed dtypes (Paddle raises TypeError)"},
        )
    )
for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    ROWS += [
        Row(name, (ints(2, 3), ints(3, seed=1))),
        Row(name, (ints(3, dtype="int32"), ints(3, dtype="int32", seed=1)), tag="int32"),
        Row(name, (bools(4), bools(4, seed=1)), tag="bool"),
    ]
for name in ("bitwise_left_shift", "bitwise_right_shift"):
    ROWS += [
        Row(name, (ints(2, 3), ints(3, seed=1, low=0, high=4))),
        Row(
            name,
            (ints(2, 3), ints(3, seed=1, low=0, high=4)),
            {"is_arithmetic": False},
            tag="logical",
        ),
    ]
for name in ("gcd", "lcm"):
    ROWS += [
        Row(name, (ints(2, 3, low=-12, high=13), ints(3, seed=1, low=-12, high=13))),
        Row(name, (ints(3, dtype="int32"), ints(3, dtype="int32", seed=2)), tag="int32"),
    ]
X = rand(2, 3)
ROWS += [
    Row("equal_all", (X, X.copy())),
    Row("equal_all", (X, rand(2, 3, seed=1)), tag="differ"),
    Row("equal_all", (X, rand(3)), tag="shape"),
    Row("allclose", (X, X + 1e-7)),
    Row("allclose", (X, X + 1e-3), {"atol": 1e-2}, tag="atol"),
    Row("allclose", (np.array([np.nan]), np.array([np.nan])), {"equal_nan": True}, tag="nan"),
    Row("isclose", (X, X + np.array([1e-7, 1e-3, 1], "float32"))),
    Row(
        "isclose",
        (np.array([np.nan, 1.0]), np.array([np.nan, 1.0])),
        {"equal_nan": True},
        tag="nan",
    ),
]

# products
_NO_W_GRAD = "Paddle 3.3.1 gives no gradient for a Tensor weight; we differentiate it"
ROWS += [
    Row(
        "matmul",
        (rand(2, 3), rand(3, 4, seed=1)),
        bad=(
            ((rand(2, 3), rand(4, 2, seed=1)), {}),
            ((np.array(1.5, "float32"), np.array(2.0, "float32")), {}),
        ),
    ),
    Row("matmul", (rand(2, 2, 3), rand(3, 2, seed=1)), tag="batch-bcast"),
    Row("matmul", (rand(3), rand(3, 2, seed=1)), tag="vec-mat"),
    Row("matmul", (rand(3), rand(3, seed=1)), tag="vec-vec"),
    Row("matmul", (rand(3, 2), rand(3, 4, seed=1)), {"transpose_x": True}, tag="tx"),
    Row("matmul", (rand(2, 3), rand(4, 3, seed=1)), {"transpose_y": True}, tag="ty"),
    Row("matmul", (rand(2, 3, dtype="float64"), rand(3, dtype="float64", seed=1)), tag="f64"),
    Row("matmul", (ints(2, 3), ints(3, 2, seed=1)), tag="int64"),
    Row("mm", (rand(2, 3), rand(3, 4, seed=1))),
    Row(
        "bmm", (rand(2, 2, 3), rand(2, 3, 2, seed=1)), bad=(((rand(2, 3), rand(3, 2, seed=1)), {}),)
    ),
    Row(
        "dot",
        (rand(3), rand(3, seed=1)),
        bad=(((rand(3), rand(4, seed=1)), {}),),
        xfail={"bad": "shape mismatch: we raise ValueError, Paddle RuntimeError"},
    ),
    Row("dot", (rand(2, 3), rand(2, 3, seed=1)), tag="batch"),
    Row("dot", (ints(3), ints(3, seed=1)), tag="int64"),
    Row("inner", (rand(2, 3), rand(4, 3, seed=1))),
    Row("inner", (rand(3), rand(3, seed=1)), tag="1d"),
    Row("outer", (rand(3), rand(2, seed=1))),
    Row("outer", (rand(2, 2), rand(2, seed=1)), tag="flatten"),
    Row("kron", (rand(2, 2), rand(2, 3, seed=1))),
    Row("kron", (rand(2), rand(2, 2, seed=1)), tag="rank"),
    Row("kron", (ints(2, 2), ints(2, seed=1)), tag="int64"),
    Row("addmm", (rand(2, 4), rand(2, 3, seed=1), rand(3, 4, seed=2))),
    Row(
        "addmm",
        (rand(4), rand(2, 3, seed=1), rand(3, 4, seed=2)),
        {"beta": 0.5, "alpha": 2.0},
        tag="bcast",
    ),
    Row("baddbmm", (rand(2, 2, 4), rand(2, 2, 3, seed=1), rand(2, 3, 4, seed=2))),
    Row(
        "baddbmm",
        (rand(2, 2, 4), rand(2, 2, 3, seed=1), rand(2, 3, 4, seed=2)),
        {"beta": 0.5, "alpha": 2.0},
        tag="scaled",
    ),
    Row("lerp", (rand(2, 3), rand(2, 3, seed=1), rand(2, 3, seed=2)), xfail={"grad": _NO_W_GRAD}),
    Row("lerp", (rand(2, 3), rand(3, seed=1), 0.25), tag="scalar-w"),
    Row(
        "lerp",
        (
            rand(3, dtype="float64"),
            rand(3, dtype="float64", seed=1),
            rand(3, dtype="float64", seed=2),
        ),
        tag="f64",
        xfail={"grad": _NO_W_GRAD},
    ),
    Row("scale", (rand(2, 3),), {"scale": 2.0, "bias": 1.0}),
    Row(
        "scale",
        (rand(2, 3),),
        {"scale": 2.0, "bias": 1.0, "bias_after_scale": False},
        tag="bias-first",
    ),
    Row("scale", (ints(3),), {"scale": 2.0}, tag="int64"),
    Row("clip", (rand(2, 3),), {"min": -0.5, "max": 0.5}),
    Row("clip", (rand(2, 3),), {"min": -0.5}, tag="min-only"),
    Row("clip", (ints(4),), {"min": -1, "max": 2}, tag="int64"),
    Row("clip", (rand(seed=2),), {"max": 0.0}, tag="0d"),
    Row("add_n", ([rand(2, 3), rand(2, 3, seed=1), rand(2, 3, seed=2)],)),
    Row("add_n", ([rand(3)],), tag="one"),
    Row("einsum", ("ij,jk->ik", rand(2, 3), rand(3, 2, seed=1))),
    Row("einsum", ("bij,bjk->bik", rand(2, 2, 3), rand(2, 3, 2, seed=1)), tag="batch"),
    Row("einsum", ("ii->", rand(3, 3)), tag="trace"),
    Row("einsum", ("i,j->ij", rand(2), rand(3, seed=1)), tag="outer"),
    Row("einsum", ("...j,j->...", rand(2, 3), rand(3, seed=1)), tag="ellipsis"),
]

# float16, forward only: rows only for ops Paddle 3.3.1's CPU build has float16 kernels for
# (abs, sqrt, tanh, add, multiply, matmul... raise RuntimeError there)
for name in ("neg", "exp", "floor"):
    ROWS.append(Row(name, (pos(2, 3, dtype="float16"),), tag="f16", grad=False))
for name in ("equal", "less_than"):
    ROWS.append(
        Row(
            name,
            (pos(2, 3, dtype="float16"), pos(3, dtype="float16", seed=1)),
            tag="f16",
            grad=False,
        )
    )
ROWS.append(Row("add", (rand(3, dtype="float16"), rand(3, seed=1)), tag="f16+f32", grad=False))

# complex64 / complex128, forward only
for name in ("exp", "log", "sqrt", "sin", "tanh", "square", "neg", "sign", "isnan"):
    ROWS.append(Row(name, (rand(2, 3, dtype="complex64"),), tag="c64"))
for name in ("add", "subtract", "multiply", "divide", "equal", "pow"):
    ROWS.append(
        Row(name, (rand(2, 3, dtype="complex64"), rand(3, dtype="complex64", seed=1)), tag="c64")
    )
ROWS.append(Row("add", (rand(3, dtype="complex128"), rand(3, seed=1)), tag="c128+f32"))
ROWS.append(
    Row("matmul", (rand(2, 3, dtype="complex64"), rand(3, 2, dtype="complex64", seed=1)), tag="c64")
)

# Paddle 3.3's PyTorch-style arguments: out=, rounding_mode, alpha, input=
_Q = np.array([7.0, -7.0, 5.0, -5.5], "float32")
_D = np.array([2.0, 2.0, -3.0, 2.0], "float32")
_QI, _DI = np.array([7, -7, 5, -6]), np.array([2, 2, -3, 4])
_ROUNDED = (
    "rounding_mode on float inputs requiring grad: Paddle's result has stop_gradient True, ours "
    "False (with a zero gradient): differentiability is per op in the registry, not per call"
)
ROWS += [
    Row("exp", (rand(2, 3),), {"out": empty(3)}, tag="out"),
    Row("abs", (rand(3),), {"name": "n"}, tag="name"),
    Row("trunc", (), {"input": rand(2, 3)}, tag="input=", bad=(((), {"x": rand(3)}),)),
    Row(
        "divide",
        (_Q, _D),
        {"rounding_mode": "trunc"},
        tag="trunc",
        xfail={"value": _ROUNDED},
        bad=(((_Q, _D), {"rounding_mode": "round"}),),
    ),
    Row("divide", (_Q, _D), {"rounding_mode": "floor"}, tag="floor", xfail={"value": _ROUNDED}),
    Row(
        "divide",
        (_QI, _DI),
        {"rounding_mode": "trunc"},
        tag="int-trunc",
        bad=(((_QI, np.array([0, 1, 1, 1])), {"rounding_mode": "trunc"}),),
    ),
    Row("divide", (_QI, _DI), {"rounding_mode": "floor"}, tag="int-floor"),
    Row(
        "divide", (_QI.astype("int32"), _DI.astype("int32")), {"rounding_mode": "trunc"}, tag="i32"
    ),
    Row("divide", (_Q, _D), {"out": empty(1)}, tag="out"),
    Row("divide", (), {"input": _Q, "other": _D}, tag="input-other"),
    Row(
        "divide",
        (_Q, np.array([0.0, 1.0, 1.0, 1.0], "float32")),
        {"rounding_mode": "trunc"},
        api="div",
        tag="div-zero",
        xfail={"value": _ROUNDED},
    ),
    Row("true_divide", (_Q, _D), bad=(((), {"x": _Q, "y": _D}),)),
    Row("true_divide", (_QI, _DI), tag="int64"),
    Row("true_divide", (rand(2, 3), rand(3, seed=1)), {"out": empty(1)}, tag="out"),
    Row(
        "subtract",
        (_Q, _D),
        {"alpha": 2},
        tag="alpha",
        bad=(((_QI, _DI), {"alpha": 2.5}),),
    ),
    Row("subtract", (_QI, _DI), {"alpha": 2}, tag="int-alpha"),
    Row("subtract", (_Q, _D), {"alpha": 0.5, "out": empty(1)}, api="sub", tag="alpha-out"),
]

# Paddle's Tensor.broadcast_shape(s): plain functions of shapes attached to Tensor
_NO_METHOD = dict(method=False, inplace=False)
ROWS += [
    Row(
        "_tensor_broadcast_shape",
        ([2, 1], [1, 3]),
        api="Tensor.broadcast_shape",
        bad=((([2], [3]), {}),),
        **_NO_METHOD,
    ),
    Row(
        "_tensor_broadcast_shape",
        ([4, 1, 1], [3]),
        api="Tensor.broadcast_shape",
        tag="rank",
        **_NO_METHOD,
    ),
    Row(
        "_tensor_broadcast_shapes",
        ([2, 1], [1, 3], [4, 1, 1]),
        api="Tensor.broadcast_shapes",
        **_NO_METHOD,
    ),
]

# Paddle 3.3 takes PyTorch's dim= for axis
ROWS.append(Row("diff", (rand(3, 4),), {"dim": 0}, tag="dim=", full=False))
ROWS.append(Row("pow", (pos(2, 3),), {"exponent": 2.0}, tag="exponent", full=False))
