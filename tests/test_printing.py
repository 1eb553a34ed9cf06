"""Printing behaviour the goldens can't express: traced values, GPU places, donated buffers,
the device-side slicing of big tensors, option resets and speed."""

from __future__ import annotations

import time

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import paddle
from paddle_compat._core import tensor_repr
from paddle_compat._core.place import Place
from paddle_compat._core.tensor import Parameter, Tensor


@pytest.fixture(autouse=True)
def _default_options():
    tensor_repr._reset_printoptions()
    yield
    tensor_repr._reset_printoptions()


def test_traced_tensor_prints_header_and_note():
    seen = []

    def f(a):
        seen.append(str(Tensor(a, stop_gradient=False)))
        return a

    jax.jit(f)(np.ones((2, 3), np.float32))
    text = seen[0]
    assert text.startswith("Tensor(shape=[2, 3], dtype=float32, place=Place(")
    assert "stop_gradient=False,\n       <traced value" in text and text.endswith(">)")


def test_gpu_place_string(monkeypatch):
    monkeypatch.setattr(Tensor, "place", property(lambda self: Place("gpu", 0)))
    t = paddle.to_tensor([1.0, 2.0])
    assert str(t) == (
        "Tensor(shape=[2], dtype=float32, place=Place(gpu:0), stop_gradient=True,\n       [1., 2.])"
    )


def test_parameter_prefix_line():
    p = Parameter(jnp.asarray([0.5, -1.0], jnp.float32))
    assert str(p).startswith("Parameter containing:\nTensor(shape=[2], dtype=float32, ")
    assert "stop_gradient=False" in str(p)


def test_deleted_buffer():
    t = paddle.to_tensor([1.0, 2.0])
    t._value.delete()
    assert str(t) == "Tensor(Not initialized)"


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "int32", "complex64"])
def test_big_tensor_device_slice_matches_host(dtype):
    # >= _DEVICE_SLICE_MIN elements: the edges are gathered on the device first.
    a = np.random.default_rng(0).standard_normal((300, 300)) * 100
    if dtype == "complex64":
        a = a + 1j * a[::-1]
    arr = jnp.asarray(a.astype(dtype) if dtype != "bfloat16" else a, dtype=dtype)
    host = tensor_repr.format_array(np.asarray(arr))
    assert tensor_repr.format_array(arr) == host
    assert host.count("...") == 7  # one per row kept, plus the row gap


def test_set_printoptions_keeps_unset_and_resets():
    tensor_repr._reset_printoptions()
    defaults = tensor_repr._get_printoptions()
    assert defaults == {
        "precision": 8,
        "threshold": 1000,
        "edgeitems": 3,
        "sci_mode": False,
        "linewidth": 80,
    }
    paddle.set_printoptions(precision=3)
    paddle.set_printoptions(linewidth=40)
    assert tensor_repr._get_printoptions() == {**defaults, "precision": 3, "linewidth": 40}
    with pytest.raises(RuntimeError, match="precision must be an int"):
        paddle.set_printoptions(threshold=5, precision=1.5)
    assert tensor_repr._get_printoptions()["threshold"] == 1000  # nothing applied on error
    paddle.set_printoptions(**defaults)
    assert tensor_repr._get_printoptions() == defaults


def test_small_tensor_is_fast():
    t = paddle.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 7)
    str(t)
    start = time.perf_counter()
    for _ in range(200):
        str(t)
    assert (time.perf_counter() - start) / 200 < 1e-3
