"""paddle.incubate.nn.FusedLinear (Paddle's CPU build has no forward kernel for it, so its
forward is checked against its definition here; parameters and repr against Paddle in
tests/cases/nn_layers.py)."""

from __future__ import annotations

import numpy as np
import pytest

import paddle


@pytest.mark.parametrize("transpose_weight", [False, True])
def test_fused_linear_is_x_at_w_plus_b(transpose_weight):
    layer = paddle.incubate.nn.FusedLinear(3, 4, transpose_weight=transpose_weight)
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 3)).astype("float32"))
    x.stop_gradient = False
    y = layer(x)
    w = layer.weight.numpy().T if transpose_weight else layer.weight.numpy()
    np.testing.assert_allclose(y.numpy(), x.numpy() @ w + layer.bias.numpy(), rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.ones((2, 4)) @ w.T, rtol=1e-6)
    assert layer.weight.grad is not None and layer.bias.grad is not None
