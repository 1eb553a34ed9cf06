"""paddle.static.InputSpec: constructor (shape/dtype/name checks, None and negative dims, dtype
conversion), from_tensor/from_numpy, batch/unbatch (in place, list argument), repr, ==, hash.
Errors record the exception type and message."""

import numpy as np
from paddle.static import InputSpec

import paddle


def _run(fn):
    """repr of the result, or the exception's type and message."""
    try:
        return repr(fn())
    except Exception as e:  # noqa: BLE001 - we record whatever Paddle raises
        return {"error": type(e).__name__, "msg": str(e)}


def _table(rows):
    return {k: _run(f) for k, f in rows.items()}


def case_constructor():
    return _table(
        {
            "none_dim": lambda: InputSpec([None, 4]),
            "minus_one_named": lambda: InputSpec([-1, 4], "float64", "x"),
            "negative_is_dynamic": lambda: InputSpec([-5, 3]),
            "zero_dim": lambda: InputSpec([0, 3]),
            "tuple_shape": lambda: InputSpec((2, 3), "int64"),
            "scalar_shape": lambda: InputSpec([]),
            "stop_gradient": lambda: InputSpec([2], paddle.int32, stop_gradient=True),
            "keywords": lambda: InputSpec(shape=[2], dtype="float32", name="a"),
            "shape_int": lambda: InputSpec(3),
            "shape_none": lambda: InputSpec(None),
            "shape_str": lambda: InputSpec("ab"),
            "dim_float": lambda: InputSpec([2.5]),
            "dim_str": lambda: InputSpec([2, "a"]),
            "dim_numpy_int": lambda: InputSpec([np.int64(3), 4]),
        }
    )


def case_dtypes():
    return _table(
        {
            "float": lambda: InputSpec([2], "float"),
            "int": lambda: InputSpec([2], "int"),
            "bool": lambda: InputSpec([2], "bool"),
            "uint8": lambda: InputSpec([2], "uint8"),
            "complex64": lambda: InputSpec([2], "complex64"),
            "bfloat16": lambda: InputSpec([2], "bfloat16"),
            "float16": lambda: str(InputSpec([2], "float16").dtype),
            "np_dtype": lambda: InputSpec([2], np.dtype("int32")),
            "paddle_dtype": lambda: str(InputSpec([2], paddle.float64).dtype),
            "default": lambda: str(InputSpec([2]).dtype),
            "bad_string": lambda: InputSpec([2], "bad"),
            "spec_eq_str_paddle": lambda: (
                InputSpec([2], "float32") == InputSpec([2], paddle.float32)
            ),
            "str_is_paddle_dtype": lambda: InputSpec([2], "float32").dtype == paddle.float32,
        }
    )


def case_from_tensor_numpy():
    i64 = paddle.to_tensor(np.ones([2], "int64"))
    return _table(
        {
            "tensor_named": lambda: InputSpec.from_tensor(paddle.ones([2, 3]), name="q"),
            "tensor_int64": lambda: InputSpec.from_tensor(i64, "z"),
            "tensor_shape_is_tuple": lambda: type(InputSpec.from_tensor(i64, "z").shape),
            "tensor_not_tensor": lambda: InputSpec.from_tensor(np.ones([2, 3])),
            "numpy": lambda: InputSpec.from_numpy(np.ones([2, 3])),
            "numpy_named_int32": lambda: InputSpec.from_numpy(np.ones([2, 3], "int32"), name="n"),
            "numpy_list": lambda: InputSpec.from_numpy([1, 2]),
        }
    )


def _batched_twice():
    s = InputSpec([2, 3])
    return [s.batch(4) is s, s.unbatch() is s, s]


def case_batch_unbatch():
    return _table(
        {
            "int": lambda: InputSpec([None, 4]).batch(8),
            "list": lambda: InputSpec([None, 4]).batch([8]),
            "tuple": lambda: InputSpec([None, 4]).batch((8,)),
            "minus_one": lambda: InputSpec([None, 4]).batch(-1),
            "list_of_two": lambda: InputSpec([None, 4]).batch([8, 2]),
            "empty_list": lambda: InputSpec([2]).batch([]),
            "none": lambda: InputSpec([None, 4]).batch(None),
            "float": lambda: InputSpec([None, 4]).batch(2.0),
            "str": lambda: InputSpec([None, 4]).batch("a"),
            "numpy_int": lambda: InputSpec([2]).batch(np.int64(3)),
            "unbatch": lambda: InputSpec([None, 4]).unbatch(),
            "unbatch_1d": lambda: InputSpec([4]).unbatch(),
            "unbatch_scalar": lambda: InputSpec([]).unbatch(),
            "in_place": _batched_twice,
        }
    )


def case_eq_hash_repr():
    a = InputSpec([2, 3])
    return _table(
        {
            "equal": lambda: a == InputSpec((2, 3), "float32"),
            "none_equals_minus_one": lambda: InputSpec([None, 3]) == InputSpec([-1, 3]),
            "name_differs": lambda: InputSpec([2, 3], name="a") == a,
            "stop_gradient_differs": lambda: InputSpec([2, 3], stop_gradient=True) == a,
            "shape_differs_ne": lambda: a != InputSpec([2, 4]),
            "other_type": lambda: a == 5,
            "hash_equal": lambda: hash(InputSpec([2, 3])) == hash(a),
            "hash_ignores_name": lambda: hash(InputSpec([2, 3], name="a")) == hash(a),
            "hash_has_stop_gradient": lambda: (
                hash(InputSpec([2, 3], stop_gradient=True)) == hash(a)
            ),
            "set": lambda: len({InputSpec([2, 3]), InputSpec([2, 3]), InputSpec([2, 3], "int64")}),
            "str": lambda: str(InputSpec([None, 4], "int64", "x", True)),
            "attributes": lambda: sorted(vars(a)),
        }
    )
