"""Indexing behaviour the goldens can't express: compile-cache stability of x[i] in loops,
to_static (traced indices work, boolean masks raise a clear error), and in-place autograd."""

from __future__ import annotations

import numpy as np
import pytest

import paddle
from paddle_compat._core import registry, trace_state
from paddle_compat._ops import indexing as _indexing


def _kernel_count():
    return len(registry._KERNELS)


def test_loop_indexing_reuses_one_kernel():
    x = paddle.to_tensor(np.arange(40, dtype="float32").reshape(8, 5))
    x[0], x[0:2], x[:, 1], x[1, 2]  # warm up the four index structures
    n = _kernel_count()
    get = registry._KERNELS[(_indexing._GET, (("I",), ("F",)))][1]
    traces = get._cache_size()
    for i in range(8):
        assert x[i].tolist() == list(range(5 * i, 5 * i + 5))
        assert x[i - 8].shape == [5]
    for i in range(7):
        assert x[i : i + 2].shape == [2, 5]
    for j in range(5):
        assert x[:, j].shape == [8]
        assert x[j, j].item() == 6 * j
    assert _kernel_count() == n  # same plan -> same kernel; starts are runtime inputs
    assert get._cache_size() == traces  # and no new trace for any i


def test_setitem_in_loop_reuses_one_kernel():
    x = paddle.zeros([6, 3])
    x[0] = 1.0
    n = _kernel_count()
    for i in range(6):
        x[i] = float(i)
    assert _kernel_count() == n
    np.testing.assert_array_equal(x.numpy()[:, 0], np.arange(6, dtype="float32"))


def test_to_static_traced_index_and_setitem():
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(3, 4))

    @paddle.jit.to_static(full_graph=True)
    def f(x, i):
        y = x * 1.0
        y[i] = -1.0  # a traced 0-d int index
        y[y > 8] = 0.0  # a traced mask with a scalar value: where(), no host sync
        return y[i + 1], y[:, 1:3], y

    for _ in range(2):
        a, b, y = f(x, paddle.to_tensor(1))
    np.testing.assert_array_equal(a.numpy(), [8.0, 0.0, 0.0, 0.0])
    assert b.shape == [3, 2]
    np.testing.assert_array_equal(y.numpy()[1], [-1.0] * 4)


def test_to_static_boolean_mask_getitem_raises_clearly():
    x = paddle.to_tensor(np.arange(6, dtype="float32"))

    @paddle.jit.to_static(full_graph=True)
    def g(x):
        return x[x > 2]

    with pytest.raises(trace_state.DataDependentError, match="masked_fill|where"):
        for _ in range(2):
            g(x)


def test_setitem_rebinds_autograd_history():
    w = paddle.to_tensor(np.ones(3, "float32"), stop_gradient=False)
    y = w * 3.0
    node_before = y._node
    y[1] = 0.0
    assert y._node is not node_before and not y.stop_gradient
    y.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 0.0, 3.0])


def test_setitem_value_grad_through_cast():
    x = paddle.zeros([3], dtype="float64")
    v = paddle.to_tensor(np.float32(2.0), stop_gradient=False)
    x[0] = v  # cast to float64 inside the kernel; grad comes back as float32
    (x * x).sum().backward()
    assert v.grad.dtype == paddle.float32
    assert v.grad.item() == 4.0


def test_basic_getitem_is_a_view_and_advanced_a_copy():
    """As in Paddle: x[1:3] shares x's memory (tests/cases/views.py has more), x[[1, 2]] not."""
    x = paddle.arange(4, dtype="float32")
    y, z = x[1:3], x[[1, 2]]
    x[1] = 10.0
    assert y.tolist() == [10.0, 2.0] and z.tolist() == [1.0, 2.0]
    y[1] = -1.0
    assert x.tolist() == [0.0, 10.0, -1.0, 3.0]
