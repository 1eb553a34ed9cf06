"""Eager mode compiles each kernel once: seeding, building layers and loading data compile
nothing, and a training loop stops compiling after its first steps (arrays keep one
committed-ness, so kernels keep one signature)."""

from __future__ import annotations

import numpy as np
import pytest
from compile_count import count_compiles

import paddle


def test_seed_and_data_compile_nothing():
    ds = paddle.io.TensorDataset([paddle.to_tensor(np.ones((8, 3), "float32"))])
    with count_compiles() as seen:
        paddle.seed(123)
        paddle.to_tensor(np.zeros((5, 7), "float32"))
    assert seen == []
    batches = [b[0] for b in paddle.io.DataLoader(ds, batch_size=4)]  # one gather kernel
    assert not any(b._value.committed for b in batches)


def test_training_loop_stops_compiling():
    paddle.seed(1)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 5), paddle.nn.ReLU(), paddle.nn.Linear(5, 1))
    opt = paddle.optimizer.Adam(0.01, parameters=net.parameters())
    data = np.random.RandomState(0).rand(8, 3).astype("float32")
    loader = paddle.io.DataLoader(paddle.io.TensorDataset([paddle.to_tensor(data)]), batch_size=4)

    def epoch():
        for (x,) in loader:
            loss = (net(x) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()

    epoch()  # steps 1-2 compile (step 1 creates the optimizer state, step 2 accumulates grads)
    with count_compiles() as seen:
        epoch()
        epoch()
    assert seen == []
    assert not any(p._value.committed for p in net.parameters())


class _Halves(paddle.nn.initializer.Initializer):
    """A user initializer with its own forward (it needs the parameter object)."""

    def forward(self, param, block=None):
        param.set_value(paddle.full(param.shape, 0.5, param.dtype))


@pytest.mark.parametrize(
    "init,value",
    [(_Halves(), 0.5), (paddle.nn.initializer.Assign(np.ones((2, 3))), 1.0)],
    ids=["own-forward", "assign"],
)
def test_user_initializers(init, value):
    p = paddle.create_parameter([2, 3], "float32", default_initializer=init)
    assert p.shape == [2, 3] and p.dtype == paddle.float32
    np.testing.assert_array_equal(p.numpy(), np.full((2, 3), value, "float32"))
