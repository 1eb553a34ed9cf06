"""Gradients w.r.t. complex leaf Tensors, against values measured under Paddle 3.3.1.

Paddle gives a complex leaf dL/d(re) + i dL/d(im) (PyTorch's convention); the core autograd
works with JAX's cotangent, its conjugate, and conjugates complex ones at every boundary with
user code (``autograd.user_grad``: leaf .grad, backward(grad_tensor), hooks, paddle.grad, PyLayer
backward). Gradients reaching real leaves through complex values agree with Paddle
(tests/cases/fft_signal.py)."""

from __future__ import annotations

import numpy as np
import pytest

import paddle

F = paddle.fft
Z = np.array([1 + 1j, 2, -1 - 2j, 0.5j], "complex64")
# Paddle 3.3.1: z.grad after (f(z) * w).sum().backward(), w = standard normals from rng(7)
PADDLE = {
    "mul": [0.00246 - 0.00369j, 0.59749 - 0.89624j, -0.54828 + 0.82241j, -1.78118 + 2.67178j],
    "abs": [0.00087 + 0.00087j, 0.29875 + 0j, 0.1226 + 0.2452j, -0.89059j],
    "as_real": [0.00123 + 0.29875j, -0.27414 - 0.89059j, -0.45467 - 0.99165j, 0.06014 + 1.34022j],
    "fft": [-0.66743 - 0.24328j, 2.68671 + 0.95611j, -0.23945 - 1.14252j, -1.77491 + 1.62467j],
    "ifft2": [-0.33372 - 0.12164j, -0.11972 - 0.57126j, 0.06081 - 0.47021j, 0.39509 + 1.7606j],
    "irfft": [-0.38518 + 0j, 0.30326 - 0.42462j, -0.0595 - 0.32039j, 0.14265 + 0j],
    "hfft": [-1.31942 + 0j, 1.79067 + 2.15777j, -0.46509 - 0.28687j, 0j],
    "stft": [-0.66743 - 0.24328j, 2.68671 + 0.95611j, -0.23945 - 1.14252j, -1.77491 + 1.62467j],
}
OPS = {
    "mul": lambda z: paddle.real(z * paddle.to_tensor(np.full(4, 2 + 3j, "complex64"))),
    "abs": paddle.abs,
    "as_real": paddle.as_real,
    "fft": lambda z: paddle.as_real(F.fft(z)),
    "ifft2": lambda z: paddle.as_real(F.ifft2(z.reshape([2, 2]), norm="ortho")),
    "irfft": F.irfft,
    "hfft": lambda z: F.hfft(z, n=5),
    "stft": lambda z: paddle.as_real(paddle.signal.stft(z, 4, 1, center=False)),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_complex_leaf_gradient_matches_paddle(name):
    z = paddle.to_tensor(Z, stop_gradient=False)
    out = OPS[name](z)
    w = np.random.default_rng(7).standard_normal(out.shape).astype("float32")
    (out * paddle.to_tensor(w)).sum().backward()
    np.testing.assert_allclose(z.grad.numpy(), np.array(PADDLE[name]), rtol=1e-4, atol=1e-5)
