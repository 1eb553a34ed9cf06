"""Gradients of complex Tensors at every boundary between autograd and user code: a leaf's
.grad, backward(grad_tensor), paddle.grad, hooks, retain_grads and a PyLayer's backward
(Paddle's convention: dL/d(re) + i dL/d(im))."""

import numpy as np

import paddle

_Z = np.array([1 + 1j, 2 - 0.5j, -1 - 2j], "complex64")
_W = np.array([0.5 - 1j, 2 + 3j, -1 + 0.25j], "complex64")
_G = np.array([1 - 2j, 0.5j, 3 + 1j], "complex64")


def _z():
    return paddle.to_tensor(_Z, stop_gradient=False)


def case_backward_with_complex_grad_tensor():
    z = _z()
    y = z * paddle.to_tensor(_W)
    y.backward(paddle.to_tensor(_G))
    return z.grad


def case_paddle_grad_of_abs_squared():
    z = _z()
    loss = (paddle.real(z * paddle.conj(z)) * paddle.to_tensor([1.0, 2.0, 3.0])).sum()
    (g,) = paddle.grad(loss, z)
    return g


def case_hook_sees_and_changes_complex_grad():
    z = _z()
    seen = []
    h = z * paddle.to_tensor(_W)

    def hook(g):
        seen.append(g.numpy())
        return g * paddle.to_tensor(np.complex64(1 + 1j))

    h.register_hook(hook)
    paddle.real(h * paddle.to_tensor(_G)).sum().backward()
    return [seen[0], z.grad]


def case_retain_grads_of_complex_intermediate():
    z = _z()
    h = z * paddle.to_tensor(_W)
    h.retain_grads()
    paddle.imag(h * paddle.to_tensor(_G)).sum().backward()
    return [h.grad, z.grad]


class _Scale(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, dy):
        _Scale.seen = dy.numpy()
        return dy * paddle.to_tensor(np.complex64(1 + 2j))


def case_pylayer_backward_with_complex_grads():
    z = _z()
    y = _Scale.apply(z)
    paddle.real(y * paddle.to_tensor(_W)).sum().backward()
    return [_Scale.seen, z.grad]


def case_complex_to_real_chain_accumulates():
    z = _z()
    a = paddle.abs(z * paddle.to_tensor(_W)).sum()
    b = paddle.angle(z).sum()
    (a + b).backward()
    return z.grad
