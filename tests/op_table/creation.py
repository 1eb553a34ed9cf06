"""Creation ops, windows, attributes (dtype tests, real / imag, shape) and misc math."""

from __future__ import annotations

import numpy as np

from . import Row, bools, empty, ints, rand

M = rand(3, 4, seed=1)
C = rand(2, 3, dtype="complex64")
ROWS: list[Row] = [
    Row("arange", (5,), bad=(((0, 5, 0), {}),)),
    Row("arange", (1, 7, 2), tag="step"),
    Row("arange", (0.0, 1.0, 0.25), tag="float"),
    Row("arange", (3,), {"dtype": "float64"}, tag="dtype"),
    Row("arange", (5, 1, -2), tag="neg-step"),
    Row("range", (1, 7, 2)),
    Row("linspace", (0.0, 1.0, 5)),
    Row("linspace", (0, 10, 4), {"dtype": "int64"}, tag="int"),
    Row("linspace", (1.0, 2.0, 1), tag="one"),
    Row("logspace", (0.0, 2.0, 3)),
    Row("logspace", (0.0, 3.0, 4), {"base": 2.0, "dtype": "float64"}, tag="base2"),
    Row("eye", (3,)),
    Row("eye", (2, 3), {"dtype": "int32"}, tag="rect"),
    Row("zeros", ([2, 3],)),
    Row("zeros", ([2],), {"dtype": "int64"}, tag="int64"),
    Row("ones", ([2, 3],)),
    Row("ones", ([0, 2],), {"dtype": "bool"}, tag="empty-bool"),
    Row(
        "full",
        ([2, 2], 1.5),
        bad=(
            (([2, 2], 1.5), {"dtype": "float31"}),
            (([2.0, 2], 1.5), {}),
            (([-2, 2], 1.5), {}),
        ),
    ),
    Row("full", ([3], 7), {"dtype": "int32"}, tag="int32"),
    Row("full", ([], True), {"dtype": "bool"}, tag="0d-bool"),
    Row("empty", ([0, 3],)),
    Row("zeros_like", (M,)),
    Row("zeros_like", (ints(3),), {"dtype": "float32"}, tag="dtype"),
    Row("ones_like", (M,)),
    Row("ones_like", (M,), {"dtype": "int64"}, tag="dtype"),
    Row("full_like", (M, 2.5)),
    Row("full_like", (ints(3), 4), tag="int64"),
    Row("empty_like", (empty(0, 3),)),
    Row("to_tensor", ([[1, 2], [3, 4]],)),
    Row("to_tensor", ([1.5, 2.0],), tag="float"),
    Row("to_tensor", (3.0,), {"dtype": "float64"}, tag="0d"),
    Row("to_tensor", ([True, False],), tag="bool"),
    Row("assign", (M,)),
    Row("assign", (ints(3),), tag="int64"),
    Row("tril", (M,), bad=(((rand(3),), {}),)),
    Row("tril", (M,), {"diagonal": -1}, tag="neg"),
    Row("tril", (rand(2, 3, 3),), {"diagonal": 1}, tag="batch"),
    Row("triu", (M,)),
    Row("triu", (M,), {"diagonal": 2}, tag="diag2"),
    Row("triu", (ints(3, 3),), tag="int64"),
    Row("diag", (rand(3),), bad=(((rand(2, 2, 2),), {}),)),
    Row("diag", (rand(3),), {"offset": 1, "padding_value": 2.0}, tag="pad"),
    Row("diag", (M,), tag="extract"),
    Row("diag", (M,), {"offset": -1}, tag="extract-neg"),
    Row(
        "diag_embed",
        (rand(2, 3),),
        bad=(
            ((rand(2, 3),), {"dim1": 1, "dim2": 1}),
            ((rand(2, 3),), {"dim1": -1, "dim2": 2}),
            ((rand(2, 3),), {"dim2": 3}),
            ((rand(2, 3),), {"dim1": -4, "dim2": 0}),
            ((np.array(1.0, "float32"),), {}),
            ((rand(2, 3),), {"offset": 1.0}),
            ((bools(3),), {}),
            ((rand(3, dtype="float16"),), {}),
            ((rand(3, dtype="complex64"),), {}),
        ),
    ),
    Row("diag_embed", (rand(2, 3),), {"offset": 1}, tag="offset"),
    Row("diag_embed", (rand(2, 3),), {"offset": -2}, tag="neg-offset"),
    Row("diag_embed", (rand(2, 3),), {"offset": -1, "dim1": 0, "dim2": 2}, tag="dims"),
    Row("diag_embed", (rand(2, 3),), {"offset": 1, "dim1": 2, "dim2": 0}, tag="dims-swapped"),
    Row("diag_embed", (rand(2, 2, 3),), {"dim1": 1, "dim2": -1}, tag="3d"),
    Row("diag_embed", (ints(4),), tag="int64"),
    Row("diag_embed", (ints(2, 2, dtype="int32"),), {"offset": 1}, tag="int32"),
    Row("diag_embed", (rand(3, dtype="float64"),), tag="float64"),
    Row("diag_embed", (empty(2, 0),), tag="empty"),
    Row("diag_embed", ([1.5, 2.0],), tag="list"),
    Row("diag_embed", (rand(2, 3),), {"offset": 1}, api="nn.functional.diag_embed", tag="F"),
    Row("diagflat", (rand(2, 2),)),
    Row("diagflat", (rand(3),), {"offset": -1}, tag="offset"),
    Row("tril_indices", (3, 3)),
    Row("tril_indices", (3, 4, 1), tag="offset"),
    Row("triu_indices", (3, 3)),
    Row("triu_indices", (4, 3, -1), tag="offset"),
    Row("vander", (rand(3),)),
    Row("vander", (rand(3),), {"n": 4, "increasing": True}, tag="n4"),
    Row("cartesian_prod", ([rand(2), rand(3, seed=1)],)),
    Row("combinations", (rand(4),)),
    Row("combinations", (rand(3),), {"r": 3, "with_replacement": True}, tag="repl"),
    Row("meshgrid", (ints(2), ints(3, seed=1)), tag="int64"),
    # windows
    Row("hann_window", (5,)),
    Row("hann_window", (4,), {"periodic": False, "dtype": "float64"}, tag="sym"),
    Row("hamming_window", (5,)),
    Row("blackman_window", (5,)),
    Row("bartlett_window", (5,)),
    Row("bartlett_window", (1,), tag="one"),
    Row("kaiser_window", (5,)),
    Row("kaiser_window", (6,), {"beta": 8.0, "periodic": False}, tag="beta"),
    # attributes and complex
    Row("shape", (M,)),
    Row("rank", (M,)),
    Row("numel", (ints(2, 2),), tag="int64"),
    Row("is_empty", (M,)),
    Row("is_empty", (empty(0, 2),), tag="empty"),
    Row("is_complex", (C,)),
    Row("is_complex", (M,), tag="real"),
    Row("is_floating_point", (M,)),
    Row("is_floating_point", (ints(2),), tag="int"),
    Row("is_integer", (ints(2),)),
    Row("is_integer", (M,), tag="float"),
    Row("real", (C,)),
    Row("imag", (C,)),
    Row("conj", (C,)),
    Row("conj", (M,), tag="real"),
    Row("angle", (C,)),
    Row("angle", (M,), tag="real"),
    Row("as_real", (C,)),
    Row("as_complex", (rand(2, 3, 2),)),
    Row("complex", (rand(2, 3), rand(3, seed=1))),
    Row("polar", (rand(2, 3, low=0.1), rand(2, 3, seed=1))),
    Row("abs", (C,), tag="complex"),
    Row("isreal", (np.array([1 + 0j, 1j], "complex64"),), tag="complex-mixed"),
    # misc
    Row(
        "increment",
        (rand(1),),
        xfail={
            "value": "x requires grad: Paddle returns x + 1 with a gradient; ours works in "
            "place and raises for a leaf that requires grad",
            "grad": "see value",
        },
    ),
    Row("increment", (ints(1),), {"value": 3}, tag="int64"),
    Row("isin", (ints(2, 3), ints(4, seed=1))),
    Row("isin", (ints(2, 3), ints(4, seed=1)), {"invert": True}, tag="invert"),
    Row("isin", (rand(3), np.array([0.0], "float32")), tag="float"),
]

# Paddle 3.3's PyTorch-style keyword arguments: device, requires_grad, pin_memory, out, size
_BAD_NEW = (
    (([2],), {"pin_memory": True}),  # CPU place: Paddle's RuntimeError
    (([2],), {"device": "xyz"}),
    (([2],), {"device": 0}),
)
for _name in ("zeros", "ones", "empty"):
    _shape = [0, 3] if _name == "empty" else [2, 3]
    ROWS += [
        Row(_name, (_shape,), {"requires_grad": True, "device": "cpu"}, tag="rg", bad=_BAD_NEW),
        Row(_name, (), {"size": _shape, "dtype": "int32"}, tag="size"),
        Row(_name, (_shape,), {"out": np.zeros(1, "float32")}, tag="out", grad=False),
    ]
ROWS += [
    Row("full", ([2], 3.0), {"requires_grad": True, "device": "cpu"}, tag="rg"),
    Row("full", (), {"size": [2], "fill_value": 1}, tag="size"),
    Row("full", ([2], 1.5), {"out": np.zeros(1, "float32")}, tag="out", grad=False),
    Row("arange", (3,), {"requires_grad": True, "device": "cpu"}, tag="rg"),
    Row("arange", (), {"end": 4}, tag="end="),
    Row("arange", (4,), {"out": np.zeros(1, "int64")}, tag="out"),
    Row("linspace", (0.0, 1.0, 3), {"device": "cpu", "requires_grad": True}, tag="rg"),
    Row("linspace", (0.0, 1.0), {"steps": 3}, tag="steps"),
    Row("linspace", (0.0, 1.0, 3), {"out": np.zeros(1, "float32")}, tag="out", grad=False),
    Row(
        "eye",
        (2,),
        {"requires_grad": True, "device": "cpu"},
        tag="rg",
        bad=(((2,), {"device": "xyz"}), ((2,), {"pin_memory": True})),
    ),
    Row("eye", (), {"n": 2, "m": 3}, tag="n-m"),
    Row("eye", (2,), {"out": np.zeros(1, "float32")}, tag="out", grad=False),
    Row("zeros_like", (M,), {"requires_grad": True, "device": "cpu"}, tag="rg"),
    Row("zeros_like", (), {"input": M}, tag="input="),
    Row("ones_like", (M,), {"requires_grad": True}, tag="rg", bad=(((M,), {"pin_memory": True}),)),
    Row("full_like", (M, 2.0), {"requires_grad": True, "device": "cpu"}, tag="rg"),
    Row("empty_like", (empty(0, 3),), {"requires_grad": True}, tag="rg"),
    Row("clone", (M,)),
    Row("clone", (ints(3),), {"name": "c"}, tag="int64", method=False),
    Row("view_as_complex", (rand(2, 3, 2),), bad=(((), {"x": rand(2, 2)}),)),
    Row("view_as_complex", (), {"input": rand(3, 2, dtype="float64")}, tag="input="),
    Row("view_as_real", (C,)),
    Row("view_as_real", (), {"input": C}, tag="input=", bad=(((), {"x": C}),)),
]

# isin with assume_unique on inputs that are not unique: Paddle's sort-based answer
_REP = np.array([0.0, 1.0, 2.0] * 4, "float32").reshape(4, 3)
ROWS += [
    Row("isin", (_REP, np.array([0.0, 1.0] * 3, "float32")), {"assume_unique": True}, tag="au"),
    Row(
        "isin",
        (_REP, np.array([0.0, 1.0] * 3, "float32")),
        {"assume_unique": True, "invert": True},
        tag="au-invert",
    ),
    Row("isin", (ints(5), ints(3, seed=2)), {"assume_unique": True}, tag="au-int64"),
    Row(  # test_x large for x's size: the sort-based answer (not a membership test)
        "isin",
        (np.tile(_REP, (5, 1)), np.array([0.0, 1.0] * 20, "float32")),
        {"assume_unique": True},
        tag="au-sorted",
    ),
    Row(
        "isin",
        (np.tile(_REP, (5, 1)), np.array([0.0, 1.0] * 20, "float32")),
        {"assume_unique": True, "invert": True},
        tag="au-sorted-invert",
    ),
]

# diag takes no input= (Paddle 3.3.1's TypeError)
ROWS.append(Row("diag", (M,), {"offset": 1}, tag="no-input=", bad=(((), {"input": M}),)))

# Paddle 3.3's size forms (zeros(2, 3)) and out's dtype check (zeros/ones/full)
ROWS += [
    Row("zeros", (2, 3), tag="ints", bad=(((2, "float64"), {}), ((2, 3, "int32"), {}))),
    Row("ones", (2, 3, 4), tag="ints"),
    Row("empty", (0, 3), tag="ints"),
    Row(
        "zeros",
        ([2],),
        {"dtype": "int32", "out": np.zeros(1, "int32")},
        tag="out-dtype",
        bad=((([2],), {"out": np.zeros(1, "int32")}), (([2],), {"out": np.zeros(1, "float64")})),
    ),
    Row("ones", ([2],), tag="out-dtype", bad=((([2],), {"out": np.zeros(1, "int64")}),)),
    Row(
        "full",
        ([2], 1.0),
        {"dtype": "float64", "out": np.zeros(1, "float64")},
        tag="out-dtype",
        grad=False,
        bad=((([2], 1.0), {"out": np.zeros(1, "float64")}),),
    ),
]
