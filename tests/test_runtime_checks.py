"""Checks on input values (issue: no silent wrong answers): out-of-range indices, integer
division by zero, unrepresentable integers and impossible shapes raise Paddle's error type with
a Paddle-style message in eager mode; under to_static they are checked only with
``FLAGS_check_static_values`` (``_core/runtime_checks.py``). Paddle's types for the indexing
ops are also golden-checked by the op table's ``bad`` rows."""

from __future__ import annotations

import numpy as np
import pytest

import paddle

F = paddle.nn.functional
T = paddle.to_tensor
X = np.array([1.0, 2.0, 3.0], "float32")
M = np.arange(6, dtype="float32").reshape(2, 3)


def _setitem(x, i, v):
    x[i] = v


# (id, call, Paddle's exception type, fragment of the message)
EAGER = [
    ("gather", lambda: paddle.gather(T(X), T([0, 7])), IndexError, "which is 7 in the 1 index"),
    ("gather-neg", lambda: paddle.gather(T(X), T([-4])), IndexError, "greater than or equal"),
    ("index_select", lambda: paddle.index_select(T(X), T([9])), ValueError, "but got 9"),
    ("getitem", lambda: T(X)[T([5])], IndexError, "range of [-3, 3)"),
    ("getitem-axis1", lambda: T(M)[:, T([3])], IndexError, "1-th axis"),
    ("getitem-0d", lambda: T(X)[T(3)], IndexError, "range of [-3, 3)"),
    ("setitem", lambda: _setitem(T(X), T([5]), 1.0), IndexError, "out of bounds"),
    ("take_along_axis", lambda: paddle.take_along_axis(T(X), T([5]), 0), IndexError, "got 5"),
    ("gather_nd", lambda: paddle.gather_nd(T(M), T([[1, 5]])), ValueError, "it is [5]"),
    ("scatter", lambda: paddle.scatter(T(X), T([5]), T([1.0])), IndexError, "received [5]"),
    ("scatter_nd_add", lambda: paddle.scatter_nd_add(T(X), T([[5]]), T([1.0])), IndexError, "[5]"),
    ("put_along_axis", lambda: paddle.put_along_axis(T(X), T([5]), 1.0, 0), IndexError, "got 5"),
    ("index_add", lambda: paddle.index_add(T(X), T([5]), 0, T([1.0])), ValueError, "got 5"),
    ("index_put", lambda: paddle.index_put(T(X), (T([5]),), T([1.0])), IndexError, "got 5"),
    ("index_fill", lambda: paddle.index_fill(T(M), T([3]), 1, 9.0), IndexError, "got 3"),
    ("index_sample", lambda: paddle.index_sample(T(M), T([[-1], [0]])), ValueError, ">= 0"),
    ("take", lambda: paddle.take(T(M), T([6])), ValueError, "got 6"),
    ("embedding", lambda: F.embedding(T([3]), T(M)), ValueError, "got 3"),
    ("one_hot-neg", lambda: F.one_hot(T([-1]), 3), ValueError, "at least 0"),
    ("nll_loss", lambda: F.nll_loss(T(M), T([3, 0])), ValueError, "out of bounds"),
    ("cross_entropy", lambda: F.cross_entropy(T(M), T([5, 0])), IndexError, "label value(5)"),
    ("repeat_interleave", lambda: paddle.repeat_interleave(T(X), T([1, -1, 1])), ValueError, "-1"),
    ("floor_divide", lambda: T([7]) // T([0]), paddle.EnforceNotMet, "division by zero"),
    ("mod-scalar", lambda: T([7]) % 0, paddle.EnforceNotMet, "division by zero"),
    ("to_tensor-2**63", lambda: T([2**63]), ValueError, "9223372036854775808"),
    ("to_tensor-big", lambda: T(2**70, dtype="int64"), ValueError, "range of int64"),
    ("to_tensor-ragged", lambda: T([[1], [2, 3]]), ValueError, "nested lists"),
    ("matmul-0d", lambda: paddle.matmul(T(1.0), T(2.0)), ValueError, "at least 1 dimension"),
    ("full-float-shape", lambda: paddle.full([1e6, 1e6], 1.0), TypeError, "list of int"),
    ("full-huge", lambda: paddle.full([10**6, 10**6], 1.0), MemoryError, "4000000000000 bytes"),
    ("arange-huge", lambda: paddle.arange(1e12), MemoryError, "bytes"),
    (
        "conv2d-stride0",
        lambda: F.conv2d(
            T(np.ones((1, 1, 4, 4), "float32")), T(np.ones((1, 1, 2, 2), "float32")), stride=0
        ),
        ValueError,
        "stride of Op(Conv)",
    ),  # fmt: skip
    (
        "max_pool2d-stride0",
        lambda: F.max_pool2d(T(np.ones((1, 1, 4, 4), "float32")), 2, stride=0),
        ValueError,
        "stride",
    ),  # fmt: skip
]


@pytest.mark.parametrize("call, error, fragment", [c[1:] for c in EAGER], ids=[c[0] for c in EAGER])
def test_eager_bad_values_raise_paddle_errors(call, error, fragment):
    with pytest.raises(error) as info:
        call()
    msg = str(info.value)
    assert fragment in msg
    for internal in ("jax", "Traced", "jaxpr", "XLA", "RESOURCE_EXHAUSTED"):
        assert internal not in msg, msg


# values inside the range keep working (negative indices count from the end)
GOOD = [
    (lambda: paddle.gather(T(X), T([-1, 0])), [3.0, 1.0]),
    (lambda: T(X)[T([-3, 2])], [1.0, 3.0]),
    (lambda: T([7, -7]) // T([2, 2]), [3, -4]),
    (lambda: T([7.0]) // T([0.0]), [np.inf]),  # float division by zero is IEEE, as in Paddle
    (lambda: T([2**63 - 1]), [2**63 - 1]),
    (lambda: T([2**63], dtype="float32"), [np.float32(2.0**63)]),
    (lambda: T([1.1], dtype="float64"), [1.1]),  # straight to float64, no float32 rounding
]


@pytest.mark.parametrize("call, want", GOOD)
def test_in_range_values_work(call, want):
    np.testing.assert_array_equal(call().numpy(), np.array(want))


@paddle.jit.to_static
def _gather_twice(x, i):
    return paddle.gather(x, i) * 2


@paddle.jit.to_static
def _floordiv(a, b):
    return a // b


def test_static_values_are_checked_only_with_the_flag():
    x, ok, bad = T(X), T([0, 1]), T([0, 7])
    assert paddle.get_flags("FLAGS_check_static_values") == {"FLAGS_check_static_values": False}
    _gather_twice(x, ok)  # the first call runs eagerly (state discovery)
    _gather_twice(x, ok)
    _gather_twice(x, bad)  # compiled without checks: XLA clamps, nothing raises (documented)
    paddle.set_flags({"FLAGS_check_static_values": True})
    try:
        np.testing.assert_array_equal(_gather_twice(x, ok).numpy(), [2.0, 4.0])
        with pytest.raises(IndexError, match=r"\(OutOfRange\).*which is 7 in the 1 index\.$"):
            _gather_twice(x, bad)
        with pytest.raises(IndexError, match="greater than or equal to -3"):
            _gather_twice(x, T([-9, 0]))
        np.testing.assert_array_equal(_floordiv(T([7]), T([2])).numpy(), [3])
        np.testing.assert_array_equal(_floordiv(T([7]), T([2])).numpy(), [3])
        with pytest.raises(paddle.EnforceNotMet, match="Integer division by zero"):
            _floordiv(T([7]), T([0]))
    finally:
        paddle.set_flags({"FLAGS_check_static_values": False})
