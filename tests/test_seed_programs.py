"""The foundation issue's second program: a Layer created inside a to_static function.

Real Paddle 3.3.1 refuses it (its SOT translator raises AssertionError "You have created a
layer in to_static function which may have Potential bugs"), so there is no golden; here it
runs and gives a sensible loss: a fresh randomly initialized Linear each call, as the code
says."""

import math

import paddle


def test_layer_created_inside_to_static_function():
    @paddle.jit.to_static
    def train_step(data, label):
        model = paddle.nn.Linear(784, 10)
        pred = model(data)
        loss = paddle.nn.functional.cross_entropy(pred, label)
        return loss

    data = paddle.randn([32, 784])
    label = paddle.randint(0, 10, [32])
    losses = [train_step(data, label) for _ in range(3)]
    assert str(losses[-1].dtype) == "paddle.float32" and losses[-1].shape == []
    values = [float(v) for v in losses]
    assert all(math.isfinite(v) and 0.5 < v < 20 for v in values)
    assert len(set(values)) == 3  # a new random Linear on every call
