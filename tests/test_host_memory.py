"""A Tensor made from a numpy array never shares the array's memory, as in Paddle: JAX's CPU
client wraps a 64-byte-aligned host array without copying it, so without ``place.unshared`` a
later write to the user's array would change the Tensor. Arrays the library owns (a worker's
batch) are still taken over without a copy."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import paddle
from paddle_compat._core.host_memory import aligned_empty, unshared
from paddle_compat._io.collate import to_loader_output


def _aligned(shape=(8, 16)):
    n = int(np.prod(shape))
    raw = np.empty(n + 16, np.float32)
    start = (-raw.ctypes.data % 64) // 4
    a = raw[start : start + n].reshape(shape)
    a[...] = 1.0
    assert a.ctypes.data % 64 == 0
    return a


def _state_dict(a):
    layer = paddle.nn.Linear(16, 8)
    layer.set_state_dict({"weight": a.T, "bias": np.zeros(8, np.float32)})
    return layer.weight


class _One(paddle.io.Dataset):
    def __init__(self, a):
        self.a = a

    def __len__(self):
        return 1

    def __getitem__(self, i):
        return self.a


MAKERS = {
    "to_tensor": paddle.to_tensor,
    "to_tensor_place": lambda a: paddle.to_tensor(a, place=paddle.CPUPlace()),
    "to_tensor_trainable": lambda a: paddle.to_tensor(a, stop_gradient=False),
    "Tensor": paddle.Tensor,
    "assign": paddle.assign,
    "op_operand": lambda a: paddle.reshape(a, [-1]),
    "set_state_dict": _state_dict,
    "from_dlpack": paddle.utils.dlpack.from_dlpack,
    "assign_initializer": lambda a: paddle.create_parameter(
        [8, 16], "float32", default_initializer=paddle.nn.initializer.Assign(a)
    ),
    "dataloader_no_batching": lambda a: next(iter(paddle.io.DataLoader(_One(a), batch_size=None))),
}


@pytest.mark.parametrize("make", list(MAKERS), ids=str)
def test_later_writes_to_the_array_do_not_show(make):
    a = _aligned()
    t = MAKERS[make](a)
    a[...] = 5.0
    assert float(t.numpy().reshape(-1)[0]) == 1.0


def test_unshared_copies_only_what_jax_would_wrap():
    a = _aligned()
    assert unshared(a) is not a and np.array_equal(unshared(a), a)
    b = _aligned((130,))[1:]  # 4 bytes past a boundary: JAX copies it itself
    assert unshared(b) is b
    c, d = unshared([a, b])
    assert c is not a and d is b
    assert unshared(np.float32(3)) == np.float32(3)


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="zero-copy is the CPU client's")
def test_owned_batches_are_taken_over_without_a_copy():
    a = _aligned()
    kept = to_loader_output(a, None)
    owned = to_loader_output(a, None, owned=True)
    assert owned._value.unsafe_buffer_pointer() == a.ctypes.data
    assert kept._value.unsafe_buffer_pointer() != a.ctypes.data


@pytest.mark.parametrize("shape,dtype", [(1, "float32"), (7, "uint64"), ((3, 5, 2), "float64")])
def test_aligned_empty(shape, dtype):
    a = aligned_empty(shape, dtype)
    assert a.ctypes.data % 64 == 0 and a.dtype == np.dtype(dtype) and a.flags.c_contiguous
    assert a.shape == ((shape,) if isinstance(shape, int) else shape)


@pytest.mark.skipif(jax.default_backend() != "cpu", reason="zero-copy is the CPU client's")
@pytest.mark.parametrize("init", ["Normal", "Uniform", "XavierUniform", "KaimingNormal"])
def test_random_initial_values_move_to_the_device_without_a_copy(monkeypatch, init):
    from paddle_compat.nn.initializer import _initializers

    moved = []
    to_device = _initializers.to_device

    def spy(value, owned=False):
        out = to_device(value, owned)
        moved.append(out.unsafe_buffer_pointer() == value.ctypes.data)
        return out

    monkeypatch.setattr(_initializers, "to_device", spy)
    paddle.seed(1)
    paddle.create_parameter(
        [64, 48], "float32", default_initializer=getattr(paddle.nn.initializer, init)()
    )
    assert moved == [True]
