"""Signed zeros as Paddle produces them: its ``scale`` kernel (``paddle.scale``, ``neg``, a
float Tensor times a Python number) adds its +0.0 bias, so -0.0 comes out +0.0; plain
``multiply``/``divide`` keep IEEE signs; a gradient stored after ``clear_grad()`` replaces
the zeros instead of being added to them. Each case returns the values and their sign bits
(the comparison of values alone takes -0.0 for 0.0)."""

import numpy as np

import paddle

DTYPES = ("float16", "bfloat16", "float32", "float64")


def _signs(*tensors):
    out = []
    for t in tensors:
        if t.dtype == paddle.bfloat16:  # (Paddle's numpy() gives bfloat16's raw bits)
            t = t.astype("float32")
        out += [t, np.signbit(t.numpy())]
    return out


def _zeros(dtype="float32"):
    return paddle.to_tensor([-0.0, 0.0, -1.5, 2.0]).astype(dtype)


def case_scale_forms():
    z = _zeros()
    y = z.clone()
    y *= 2
    return _signs(
        z * 2,
        z * -1.0,
        2 * z,
        -1 * z,
        z * -0.0,
        -z,
        paddle.neg(z),
        y,
        z.clone().scale_(2.0),
        paddle.scale(z, -1.0),
        paddle.scale(z, 2.0, bias=0.5),
        paddle.scale(z, -1.0, bias=0.0, bias_after_scale=False),
        paddle.scale(z, 3.0, bias=1.0, bias_after_scale=False),
    )


def case_scale_dtypes():
    return _signs(*[_zeros(d) * 2 for d in DTYPES], *[-_zeros(d) for d in DTYPES])


def case_complex_scale():
    c = paddle.to_tensor([-0.0 + 0j, 0.0 - 0.0j, -0.0 - 0.0j, 1 - 2j])
    out = []
    for t in (-c, c * 2.0, c * -1, paddle.scale(c, -1.0), c * (1 + 0j)):
        v = t.numpy()
        out += [t, np.signbit(v.real), np.signbit(v.imag)]
    return out


def case_ieee_forms():
    z = _zeros()
    return _signs(
        z * paddle.to_tensor(2.0),
        z * np.float32(2),
        z * True,
        z / 2,
        z / -1,
        z + 0,
        z - 0,
        0.0 - paddle.to_tensor([0.0]),
        -0.0 - paddle.to_tensor([0.0]),
        paddle.multiply(z, paddle.to_tensor([2.0, -1.0, 1.0, 1.0])),
    )


def case_scale_gradients():
    out = []
    for f in (
        lambda w: w * 2,
        lambda w: (w * 0.0) * -1.0,
        lambda w: -w,
        lambda w: w * -0.0,
        lambda w: w * paddle.to_tensor(-0.0),
        lambda w: paddle.scale(w, 0.0),
    ):
        w = paddle.to_tensor([-0.0, 0.0, 1.0], stop_gradient=False)
        f(w).sum().backward()
        out += _signs(w.grad)
    return out


def case_grad_after_clear_grad():
    x = paddle.to_tensor([3.0, 0.0])
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    opt = paddle.optimizer.SGD(parameters=[w])
    out = []
    (w * x * -1.0).sum().backward()
    out += _signs(w.grad)
    (w * x * -1.0).sum().backward()  # accumulated: -0.0 + -0.0
    out += _signs(w.grad)
    opt.clear_grad()
    out += _signs(w.grad)
    held = w.grad
    (w * x * -1.0).sum().backward()  # after clear_grad: replaced, not added to +0.0
    out += _signs(w.grad, held)
    w.clear_grad()
    w.register_hook(lambda g: g * 2)  # the hook's scale gives +0.0
    (w * x * -1.0).sum().backward()
    out += _signs(w.grad)
    lin = paddle.nn.Linear(2, 2)
    for _ in range(2):
        (lin(paddle.to_tensor([[0.0, 0.0]])).sum() * -1).backward()
        out += _signs(lin.weight.grad, lin.bias.grad)
        lin.clear_gradients()
    return out


def case_double_backward_through_scale():
    w = paddle.to_tensor([0.0, 1.0, -2.0], stop_gradient=False)
    (g,) = paddle.grad(((w * 3.0) ** 2).sum(), w, create_graph=True)
    (g2,) = paddle.grad(g.sum(), w)
    return _signs(g, g2)


def case_negative_zero_arguments():
    # -0.0 == 0.0 in Python: an op's kernel for one must not serve the other
    x = paddle.to_tensor([0.0, 1.0])
    neg = paddle.to_tensor([-1.0])
    return _signs(
        paddle.scale(x, -1.0, bias=0.0),
        paddle.scale(x, -1.0, bias=-0.0),
        paddle.full([2], 0.0),
        paddle.full([2], -0.0),
        paddle.full([2], np.float32(0.0)),
        paddle.full([2], np.float32(-0.0)),
        paddle.clip(neg, min=0.0),
        paddle.clip(neg, min=-0.0),
    )
