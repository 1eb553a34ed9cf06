"""InputSpec details the golden cases (tests/cases/input_spec.py) cannot express: dtype objects
kept as given, use by jit.save with numpy/python dtypes, and unbatch of a reassigned shape."""

from __future__ import annotations

import numpy as np
import pytest
from paddle.static import InputSpec

import paddle


@pytest.mark.parametrize(
    "dtype,kept",
    [
        (np.float32, True),  # numpy scalar types, python types and other objects: kept as given
        (float, True),
        (int, True),
        (None, True),
        ("float32", False),  # str and numpy.dtype: converted to a paddle dtype
        (np.dtype("int64"), False),
    ],
)
def test_dtype_kept_or_converted(dtype, kept):
    s = InputSpec([2], dtype)
    assert (s.dtype is dtype) == kept
    if not kept:
        assert isinstance(s.dtype, type(paddle.float32))


def test_numpy_dtype_class_is_not_equal_to_paddle_dtype():
    assert InputSpec([2], np.float32) != InputSpec([2], "float32")  # as in Paddle


def test_unbatch_of_reassigned_shape_and_batch_of_list_element():
    s = InputSpec([2])
    s.shape = [3, None]
    assert s.unbatch().shape == [None]
    assert InputSpec([2]).batch([2.5]).shape == (2.5, 2)  # the element is not checked


@pytest.mark.parametrize("dtype", [np.float32, "float32", paddle.float32, np.dtype("float32")])
def test_jit_save_takes_every_dtype_form(tmp_path, dtype):
    lin = paddle.nn.Linear(4, 2)
    paddle.jit.save(lin, str(tmp_path / "m"), input_spec=[InputSpec([None, 4], dtype)])
    out = paddle.jit.load(str(tmp_path / "m"))(paddle.ones([3, 4]))
    np.testing.assert_allclose(out.numpy(), lin(paddle.ones([3, 4])).numpy(), rtol=1e-6)
