"""Tensor attributes beyond the goldens (tests/cases/tensor_attributes.py): set_ reading
another dtype's bytes and refusing reads outside the source, layouts going stale after a
write, get_tensor() as a view, __format__, MmapStorage bounds, names."""

from __future__ import annotations

import numpy as np
import pytest

import paddle

SRC = [11.0, 22.0, 33.0, 44.0, 55.0, 66.0]


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"shape": [7]}, "outside"),
        ({"shape": [3], "stride": [3]}, "outside"),
        ({"stride": [2]}, "outside"),
        ({"shape": [2], "offset": -4}, "outside"),
        ({"shape": [2], "offset": 2}, "multiple of the element size"),
        ({"shape": [2, 2], "stride": [1]}, "one entry per dimension"),
        ({"shape": [2.5]}, "list of int"),
        ({"shape": 3, "offset": 16}, "outside"),
    ],
)
def test_set_refuses_bad_layouts(kwargs, match):
    x = paddle.to_tensor([1.0, 2.0])
    with pytest.raises((ValueError, TypeError), match=match):
        x.set_(paddle.to_tensor(SRC), **kwargs)


@pytest.mark.parametrize(
    "src,dtype,expect",
    [
        # Paddle reads the source's bytes as x's dtype (measured on Paddle 3.3.1)
        (np.array([1, 2], "int64"), "float32", [1.401298464324817e-45, 0.0]),
        (np.array([1.0, 2.0], "float32"), "int32", [1065353216, 1073741824]),
    ],
)
def test_set_reinterprets_another_dtype(src, dtype, expect):
    x = paddle.to_tensor([0, 0], dtype=dtype)
    x.set_(paddle.to_tensor(src))
    assert str(x.dtype) == f"paddle.{dtype}" and x.shape == [2]
    np.testing.assert_array_equal(x.numpy(), np.array(expect, dtype))


def test_set_layout_goes_stale_after_a_write():
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    x.set_(paddle.to_tensor(SRC), shape=[3], stride=[2], offset=4)
    assert (x.get_strides(), x.offset, x.is_contiguous()) == ([2], 4, False)
    assert x.numpy().tolist() == [22.0, 44.0, 66.0]
    x.add_(paddle.to_tensor([1.0, 1.0, 1.0]))  # a new contiguous array
    assert (x.get_strides(), x.offset, x.is_contiguous()) == ([1], 0, True)


def test_get_tensor_is_a_view():
    x = paddle.to_tensor([1.0, 2.0])
    dt = x.get_tensor()
    dt.set(np.array([[5, 6, 7]], "int64"))
    assert x.shape == [1, 3] and str(x.dtype) == "paddle.int64"
    assert np.asarray(dt).tolist() == [[5, 6, 7]]


@pytest.mark.parametrize(
    "value,spec,expect",
    [
        (2.5, "", "2.5"),
        (2.5, ".3f", "2.500"),
        (3, "04d", "0003"),
        (True, "", "True"),
        (1e-8, "g", "1e-08"),
    ],
)
def test_format_0d(value, spec, expect):
    assert format(paddle.to_tensor(value), spec) == expect


def test_format_nd_needs_empty_spec():
    x = paddle.to_tensor([1.0, 2.0])
    assert f"{x}" == str(x)
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{x:.2f}"


def test_mmap_storage_bounds_and_copies(tmp_path):
    path = tmp_path / "w.bin"
    np.arange(4, dtype="float32").tofile(path)
    m = paddle.MmapStorage(str(path), 16)
    with pytest.raises(ValueError, match="past the 16 mapped bytes"):
        m.get_slice(paddle.float32, 0, 5)
    with pytest.raises(ValueError, match="step"):
        m.get_slice(paddle.float32, 0, 4, 0)
    s = m.get_slice(paddle.float32, 0, 4)
    s[0] = 9.0  # a copy here (Paddle writes through to the file)
    assert np.fromfile(path, "float32").tolist() == [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    "make,prefix",
    [
        (lambda: paddle.to_tensor(1.0), "generated_tensor_"),
        (
            lambda: paddle.base.framework.EagerParamBase.from_tensor(paddle.ones([1])),
            "_eager_param_base_",
        ),
        (lambda: paddle.nn.Linear(1, 1).weight, "linear_"),
    ],
)
def test_default_names(make, prefix):
    assert make().name.startswith(prefix)


def test_parameter_from_tensor_keywords():
    p = paddle.base.framework.EagerParamBase.from_tensor(
        paddle.ones([2]), name="w_ta", trainable=False, need_clip=False
    )
    assert (p.name, p.trainable, p.need_clip, p.persistable) == ("w_ta", False, False, True)
    assert isinstance(p, paddle.base.framework.Parameter)


def test_grad_setter_keeps_the_gradient_tensor():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 3).sum().backward()
    g = x.grad
    x.grad = paddle.to_tensor([7.0, 8.0])
    assert x.grad is g and g.numpy().tolist() == [7.0, 8.0] and not g.stop_gradient


def test_block_is_shared():
    prog = paddle.base.framework.default_main_program()
    assert paddle.to_tensor([1.0]).block is prog.global_block()
    assert prog.global_block().program is prog


def test_callable_tensor_module():
    """paddle.tensor is also callable, as in Paddle 3.3."""
    m = paddle.tensor
    t = m([1, 2], dtype="float32", requires_grad=True)
    assert str(t.dtype) == "paddle.float32" and not t.stop_gradient
    assert m(paddle.to_tensor([1.0], stop_gradient=False)).stop_gradient
    assert str(m(1).dtype) == "paddle.int64"
