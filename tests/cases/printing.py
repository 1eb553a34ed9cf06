"""print(tensor) text, character for character: dtypes, shapes, summarization, number formats,
set_printoptions, Parameters. Every case restores the default print options."""

import numpy as np
from _util import expect_error, randn

import paddle

DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)
MIXED = np.array([[1.5, -2.0, 3.0], [0.0, 4.25, -1.0]])


def _t(a, dtype=None, stop_gradient=True):
    """A tensor from numpy; low-precision floats are cast from float32."""
    a = np.asarray(a)
    if dtype in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        t = paddle.to_tensor(a.astype("float32"))
        t = t.astype(dtype) if hasattr(t, "astype") else paddle.to_tensor(a, dtype=dtype)
    else:
        t = paddle.to_tensor(a if dtype is None else a.astype(dtype))
    t.stop_gradient = stop_gradient
    return t


def _with_options(opts, fn):
    paddle.set_printoptions(**opts)
    try:
        return fn()
    finally:
        paddle.set_printoptions(**DEFAULTS)


def _table(rows, opts=None):
    """rows: {label: (array, dtype)} -> {label: str(tensor)} under print options ``opts``."""
    return _with_options(opts or {}, lambda: {k: str(_t(a, dt)) for k, (a, dt) in rows.items()})


def case_dtypes():
    rows = {}
    for dt in (
        "float32",
        "float64",
        "float16",
        "bfloat16",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "complex64",
        "complex128",
        "float8_e4m3fn",
        "float8_e5m2",
    ):
        rows[dt] = (MIXED if dt != "uint8" else np.abs(MIXED) * 50, dt)
    rows["bool"] = (MIXED > 0, "bool")
    rows["complex_mixed"] = (MIXED + 1j * MIXED[::-1], "complex64")
    rows["float16_rounding"] = (np.array([0.1, 1 / 3, 1000.7, -65504.0]), "float16")
    rows["bfloat16_rounding"] = (np.array([0.1, 1 / 3, 1000.7, -3e38]), "bfloat16")
    rows["int64_wide"] = (np.array([[-(2**62), 7], [0, 2**40]]), "int64")
    rows["uint8_full"] = (np.arange(0, 256, 51), "uint8")
    return _table(rows)


def case_zero_d():
    vals = [
        (3.5, "float32"),
        (-2.0, "float32"),
        (-0.0, "float32"),
        (np.nan, "float64"),
        (-np.inf, "float32"),
        (1e-10, "float32"),
        (1e20, "float32"),
        (7, "int64"),
        (-3, "int8"),
        (True, "bool"),
        (1 + 2j, "complex64"),
        (-2 + 0j, "complex128"),
        (0.1, "bfloat16"),
        (0.1, "float16"),
    ]
    return _table({f"{v}_{dt}": (np.array(v), dt) for v, dt in vals})


def case_empty():
    rows = {}
    for shape in (
        [0],
        [2, 0],
        [0, 3],
        [3, 0],
        [1, 0],
        [0, 0],
        [2, 0, 3],
        [2, 3, 0],
        [0, 2, 3],
        [2, 2, 0, 2],
    ):
        rows[str(shape)] = (np.zeros(shape), "float32")
    rows["int64_2x0"] = (np.zeros([2, 0]), "int64")
    rows["bool_0"] = (np.zeros([0], bool), "bool")
    rows["complex_3x0"] = (np.zeros([3, 0]), "complex64")
    rows["many_rows_12x0"] = (np.zeros([12, 0]), "float32")
    return _table(rows)


def case_ndim():
    return _table(
        {
            "1d": (randn(5, seed=1), "float32"),
            "1d_int": (np.arange(-3, 4), "int64"),
            "2d": (randn(3, 4, seed=2), "float32"),
            "3d": (randn(2, 3, 4, seed=3), "float64"),
            "4d": (np.arange(2 * 3 * 2 * 4).reshape(2, 3, 2, 4), "int32"),
            "4d_float": (randn(2, 2, 2, 3, seed=4), "float32"),
            "column": (randn(4, 1, seed=5), "float32"),
            "row": (randn(1, 6, seed=6), "float32"),
            "bool_3d": (randn(2, 2, 3, seed=7) > 0, "bool"),
            "all_negative": (-np.abs(randn(2, 3, seed=8)), "float32"),
            "integer_floats": (np.arange(12.0).reshape(3, 4) - 5, "float32"),
            "positive_mixed": (np.array([0.5, 2.0, 10.0, 100.25]), "float32"),
        }
    )


def case_summary():
    big = randn(40, 40, seed=10)
    return _table(
        {
            "1d_2000": (np.arange(2000.0), "float32"),
            "1d_1001_int": (np.arange(1001), "int64"),
            "1d_1000_no_summary": (np.arange(1000), "int32"),
            "2d_40x40": (big, "float32"),
            "2d_1x2000": (np.arange(2000).reshape(1, 2000), "int64"),
            "2d_2000x1": (np.arange(2000.0).reshape(2000, 1) / 7, "float64"),
            "3d_12x12x12": (np.arange(12**3).reshape(12, 12, 12) - 800, "int32"),
            "4d_8x8x8x8": (randn(8, 8, 8, 8, seed=11), "float32"),
            "bool_40x40": (big > 0, "bool"),
            "complex_1100": (np.arange(1100) * (1 - 0.5j), "complex64"),
            "bfloat16_big": (big, "bfloat16"),
            "2d_shortrows_300x4": (np.arange(1200.0).reshape(300, 4), "float32"),
        }
    )


def case_width_from_edge_items():
    # The column width and the sign padding come from the first/last edgeitems only.
    x = np.ones(10)
    x[4], x[5] = 100000.5, -3.0
    y = np.ones((8, 8))
    y[4, 4] = -123.456
    return _table(
        {
            "1d": (x, "float64"),
            "2d": (y, "float32"),
            "int": (np.array([1, 2, 3, -40000, 5, 6, 7, 8]), "int64"),
        }
    )


def case_magnitudes():
    return _table(
        {
            "tiny_and_one": (np.array([1e-10, 1.0]), "float32"),
            "huge_and_one": (np.array([1e10, 1.0]), "float32"),
            "huge_fraction": (np.array([1e9, 1.5]), "float32"),
            "small_1e-5": (np.array([1e-5, 1.0]), "float32"),
            "mixed": (np.array([[1e-8, 1e8, -0.5], [3.14159265, 2.0, -1e-3]]), "float64"),
            "float64_long": (np.array([123456789.123, 0.1, 0.2, 0.3]), "float64"),
            "float32_point_three": (np.array([0.1, 0.2, 0.3]), "float32"),
            "rounding": (np.array([0.123456785, 9.999999999, -0.000000005]), "float64"),
            "neg_zero": (np.array([-0.0, 0.0, 1.5]), "float32"),
            "neg_zero_int_valued": (np.array([-0.0, 0.0, 1.0]), "float32"),
            "tiny_negative": (np.array([-1e-9, 1.5]), "float64"),
        }
    )


def case_nan_inf():
    return _table(
        {
            "mixed": (np.array([np.nan, np.inf, -np.inf, 1.5]), "float32"),
            "int_valued": (np.array([np.nan, np.inf, -np.inf, 1.0]), "float32"),
            "nan_only": (np.array([np.nan, np.nan]), "float64"),
            "inf_2d": (np.array([[np.inf, 2.0], [3.0, -np.inf]]), "float16"),
            "complex_parts": (
                np.array(
                    [
                        complex(np.nan, np.nan),
                        complex(1, np.nan),
                        complex(np.nan, 1),
                        complex(1, -0.0),
                        complex(-0.0, -0.0),
                        complex(1, np.inf),
                        complex(1, -np.inf),
                        complex(-np.inf, np.nan),
                    ]
                ),
                "complex128",
            ),
            "complex_sign_width": (np.array([0 - 1j, 1 + 1j, -0.5 + 2j]), "complex64"),
        }
    )


def case_precision():
    a = np.array([[1.5, -2.0, 3e-5], [1e5, 4.25, -1.0], [1 / 3, 2 / 3, 0.5]])
    out = {}
    for p in (0, 1, 3, 4, 10, 12):
        out[f"p{p}"] = _table(
            {"f32": (a, "float32"), "f64": (a, "float64"), "c64": (a[0] + 1j * a[2], "complex64")},
            {"precision": p},
        )
    return out


def case_sci_mode():
    a = np.array([[1.5, -2.0, 3e-5], [1e5, 4.25, -1.0]])
    rows = {
        "f32": (a, "float32"),
        "f64": (a, "float64"),
        "f16": (a / 10, "float16"),
        "bf16": (a, "bfloat16"),
        "int": (np.array([1, -2, 3]), "int32"),
        "bool": (np.array([True, False]), "bool"),
        "zero_d": (np.array(1.5), "float64"),
        "nan_inf": (np.array([np.nan, np.inf, -np.inf, 0]), "float64"),
        "complex": (np.array([1 + 2j, -3.5 - 1e-3j, complex(1, np.nan)]), "complex128"),
        "big": (np.arange(2000.0) ** 2, "float64"),
    }
    return {
        "default_precision": _table(rows, {"sci_mode": True}),
        "precision_3": _table(rows, {"sci_mode": True, "precision": 3}),
        "precision_0": _table(rows, {"sci_mode": True, "precision": 0}),
    }


def case_linewidth():
    rows = {
        "1d_int": (np.arange(20), "int64"),
        "2d_int": (np.arange(20).reshape(2, 10), "int64"),
        "2d_wide_floats": (np.arange(200000, 200020).reshape(2, 10), "float32"),
        "summary_1d": (np.arange(3000) / 3, "float32"),
        "3d": (randn(2, 2, 9, seed=12), "float32"),
        "complex": (np.arange(6) * (1 + 1j), "complex128"),
    }
    return {str(w): _table(rows, {"linewidth": w}) for w in (1, 20, 33, 120, 300)}


def case_threshold_edgeitems():
    rows = {
        "1d_100": (np.arange(100.0), "float32"),
        "2d_3x3": (np.arange(9.0).reshape(3, 3), "float32"),
        "3d": (np.arange(5 * 6 * 7).reshape(5, 6, 7), "int64"),
        "4d": (np.arange(2 * 3 * 3 * 4).reshape(2, 3, 3, 4), "int64"),
        "zero_d": (np.array(2.5), "float32"),
        "empty": (np.zeros([4, 0]), "float32"),
    }
    return {
        "t10": _table(rows, {"threshold": 10}),
        "t2_e1": _table(rows, {"threshold": 2, "edgeitems": 1}),
        "t0_e2": _table(rows, {"threshold": 0, "edgeitems": 2}),
        "t10_e0": _table(rows, {"threshold": 10, "edgeitems": 0}),
        "e0_no_summary": _table(
            {
                "1d": (np.array([1.5, 2.0, -3.0]), "float32"),
                "2d": (np.array([[1.5, 2.0, -3.0]]), "float32"),
            },
            {"edgeitems": 0},
        ),
        "e1_no_summary": _table(
            {"1d": (np.array([1.0, 2.0, -300.5, 4.0]), "float32")}, {"edgeitems": 1}
        ),
        "t_negative": _table(
            {"1d": (np.arange(10), "int64"), "zero_d": (np.array(1.0), "float32")},
            {"threshold": -1},
        ),
        "t_huge": _table(
            {"1d": (np.arange(1500), "int32")}, {"threshold": 100000, "linewidth": 200}
        ),
    }


def case_printoptions_reset():
    a = _t(np.array([[1 / 3, -2.0], [1e5, 0.5]]), "float32")
    before = str(a)
    paddle.set_printoptions(precision=2, threshold=2, edgeitems=1, sci_mode=True, linewidth=30)
    changed = str(a)
    paddle.set_printoptions()  # no arguments: nothing changes
    still_changed = str(a)
    paddle.set_printoptions(sci_mode=None, precision=None)
    also_still = str(a)
    paddle.set_printoptions(**DEFAULTS)
    after = str(a)
    return {
        "before": before,
        "changed": changed,
        "still_changed": still_changed,
        "also_still": also_still,
        "after": after,
        "restored": after == before,
    }


def case_printoptions_errors():
    out = {}
    for label, kw in (
        ("precision_float", {"precision": 1.5}),
        ("precision_str", {"precision": "a"}),
        ("edgeitems_float", {"edgeitems": 2.0}),
        ("linewidth_str", {"linewidth": "x"}),
        ("threshold_float", {"threshold": 1.5}),
        ("sci_mode_str", {"sci_mode": "yes"}),
        ("sci_mode_int", {"sci_mode": 1}),
        ("np_int", {"precision": np.int64(3)}),
    ):
        out[label] = expect_error(lambda kw=kw: paddle.set_printoptions(**kw))
        paddle.set_printoptions(**DEFAULTS)
    out["after"] = str(_t(MIXED, "float32"))
    return out


def case_stop_gradient():
    x = _t(np.array([1.0, -2.5]), "float32", stop_gradient=False)
    return {
        "leaf": str(x),
        "result": str(x * 2),
        "detached": str(x.detach()),
        "int": str(_t(np.array([1, 2]), "int64")),
    }


def case_parameter():
    layer = paddle.nn.Layer()
    w = layer.create_parameter([2, 2], dtype="float32")
    w.set_value(np.array([[0.5, -1.0], [2.0, 0.25]], "float32"))
    b = layer.create_parameter([3], dtype="float64", is_bias=True)
    out = {"weight": str(w), "bias_zeros": str(b), "repr_equals_str": repr(w) == str(w)}
    w.stop_gradient = True
    out["frozen"] = str(w)
    out["op_result_is_tensor"] = str(w * 1)
    return out


def case_repr_forms():
    t = _t(MIXED, "float32")
    z = _t(np.array(2.5), "float32")
    return {
        "repr": repr(t),
        "format": f"{t}",
        "percent": "%s" % t,  # noqa: UP031 "list": str([z, z]),
        "zero_d_format_spec": f"{z:.2f}",
        "same": repr(t) == str(t),
    }
