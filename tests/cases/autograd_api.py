"""paddle.autograd: jacobian/hessian (shapes, values, indexing, batch_axis, nested tuples,
errors), saved_tensors_hooks (which Tensors are packed and when), PyLayer/PyLayerContext
(every ctx feature, gradients' flags and dtypes, in-place returns, errors), backward/grad
arguments and the grad-mode switches (goldens from real Paddle 3.3.1)."""

import numpy as np
from _util import expect_error, randn
from paddle.autograd import PyLayer

import paddle


def _x(shape, seed=0, sg=False, dtype="float32"):
    x = paddle.to_tensor(randn(*shape, seed=seed, dtype=dtype))
    x.stop_gradient = sg
    return x


# -- jacobian / hessian ------------------------------------------------------------------------
def case_jacobian_shapes_values():
    x, z = _x([3]), _x([2], 1)
    out = {}
    J = paddle.autograd.jacobian(x * x * z.sum(), x)
    out["J"] = [J.shape, J[:], J[0], J[1, :], J[:, 2], J[0:2], J[-1], J[1, 1]]
    J = paddle.autograd.jacobian(paddle.tanh(x).sum(), x)  # 0-D ys
    out["scalar_y"] = [J.shape, J[:], J[1]]
    x0 = _x([], 2)
    J = paddle.autograd.jacobian(x0 * x0 * 3, x0)  # 0-D ys and xs
    out["scalar_both"] = [J.shape, J.numpy(), expect_error(lambda: J[:])]
    J = paddle.autograd.jacobian(x0 * x, x0)  # 1-D ys, 0-D xs
    out["scalar_x"] = [J.shape, J[:], J[1]]
    J = paddle.autograd.jacobian(x * 2, z)  # unused xs
    out["unused"] = J[:]
    J = paddle.autograd.jacobian(x * 2, paddle.ones([3]))  # xs needs no grad
    out["no_grad_xs"] = J[:]
    J = paddle.autograd.jacobian(paddle.exp(x), x)
    out["tensor_attrs"] = [J + 1, J.dtype, J.ndim, J.numpy()]
    return out


def case_jacobian_batched():
    x = _x([2, 3])
    out = {}
    J = paddle.autograd.jacobian(x * x, x, batch_axis=0)
    out["J"] = [J.shape, J[:], J[0], J[:, 1], J[0, 1], J[:, :, 0]]
    J = paddle.autograd.jacobian((x * x).sum(1), x, batch_axis=0)  # 1-D ys: [B, 1, n] values
    out["ys_1d"] = [J.shape, J[:]]
    w = paddle.to_tensor(randn(3, 4, seed=5))
    J = paddle.autograd.jacobian(paddle.matmul(x, w), x, batch_axis=0)
    out["matmul"] = [J.shape, J[:]]
    return out


def case_jacobian_multi():
    x, z = _x([3]), _x([2], 1)
    ys = (x * x, x.sum() * z)
    JJ = paddle.autograd.jacobian(ys, (x, z))
    out = [[[j.shape, j[:]] for j in row] for row in JJ]
    J1 = paddle.autograd.jacobian([x * 3, z * z], x)
    J2 = paddle.autograd.jacobian(x * z.sum(), [x, z])
    return [out, [j[:] for j in J1], [j[:] for j in J2], type(J2).__name__, len(J2)]


def case_jacobian_errors():
    x = _x([2, 3])
    x3 = _x([2, 3, 4])
    J = paddle.autograd.jacobian(_x([3]) * 2, _x([3]))
    return [
        expect_error(lambda: paddle.autograd.jacobian(x * x, x)),
        expect_error(lambda: paddle.autograd.jacobian(x * x, x, batch_axis=1)),
        expect_error(lambda: paddle.autograd.jacobian(x3 * x3, x3, batch_axis=0)),
        expect_error(lambda: paddle.autograd.jacobian([1.0], x)),
        expect_error(lambda: J[5]),
        expect_error(lambda: J[...]),
        expect_error(lambda: J["a"]),
        expect_error(lambda: J[[0, 1]]),
        expect_error(lambda: J[0, 0, 0]),
        expect_error(lambda: len(J)),
    ]


def case_hessian():
    x, z = _x([3]), _x([2], 1)
    out = {}
    H = paddle.autograd.hessian((x * x * x).sum(), x)
    out["H"] = [type(H).__name__, H.shape, H[:], H[1], H[0, 2]]
    H = paddle.autograd.hessian((paddle.tanh(x) * x).sum() * (z * z).sum(), (x, z))
    out["multi"] = [[[h.shape, h[:]] for h in row] for row in H]
    xb = _x([2, 3], 3)
    H = paddle.autograd.hessian((xb * xb * xb).sum(1), xb, batch_axis=0)
    out["batched"] = [H.shape, H[:]]
    out["errors"] = [
        expect_error(lambda: paddle.autograd.hessian(x * x, x)),
        expect_error(lambda: paddle.autograd.hessian((x * x).sum(), x, batch_axis=2)),
    ]
    return out


# -- saved_tensors_hooks -------------------------------------------------------------------------
def _hooked(fn):
    """The (event, shape, stop_gradient, sum) log of packs and unpacks around ``fn``'s forward
    (inside the hooks) and its backward."""
    log = []

    def pack(t):
        log.append(["pack", t.shape, t.stop_gradient])
        return t.numpy()

    def unpack(a):
        log.append(["unpack", list(a.shape)])
        return paddle.to_tensor(a)

    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        y, leaves = fn()
    log.append("backward")
    y.sum().backward()
    return [log, [t.grad.numpy() for t in leaves]]  # values now (Paddle's .grad aliases)


def case_saved_tensors_hooks_ops():
    a, b = _x([2, 3]), _x([2, 3], 1)
    c = _x([2, 3], 2, sg=True)
    m1, m2 = _x([2, 3], 3), _x([3, 2], 4)
    d1, d2, d3 = _x([2, 3], 5), _x([2, 3], 6), _x([3, 2], 7)
    return [
        _hooked(lambda: (paddle.multiply(a, b), [a, b])),
        _hooked(lambda: (a * c, [a])),  # a Tensor that needs no grad is saved too
        _hooked(lambda: (paddle.matmul(m1, m2), [m1, m2])),
        _hooked(lambda: (c * c, [])),  # no node: nothing is saved
        _hooked(lambda: (m1 + a, [m1])),  # add, scale, sum save nothing
        _hooked(lambda: (b * 3.0, [b])),
        _hooked(lambda: (paddle.sum(m2, axis=0), [m2])),
        _hooked(lambda: (paddle.tanh(d1), [d1])),  # one saved (Paddle: the output)
        _hooked(lambda: (paddle.nn.functional.relu(d2) * c, [d2])),
        _hooked(lambda: (paddle.gather(d3, paddle.to_tensor([1, 0])), [d3])),
    ]


def case_saved_tensors_hooks_retain_and_replace():
    a, b = _x([3]), _x([3], 1)
    log = []

    def pack(t):
        log.append("pack")
        return t

    def unpack(t):
        log.append("unpack")
        return t

    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        y = a * b
    y.sum().backward(retain_graph=True)
    log.append("second")
    y.sum().backward()
    x = _x([3], 2)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: paddle.full([3], 10.0)):
        y2 = x * _x([3], 3)
    y2.sum().backward()  # the unpacked value is what the backward uses
    return [log, a.grad, x.grad]


class _CusMultiply(PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return paddle.multiply(a, b)

    @staticmethod
    def backward(ctx, dy):
        a, b = ctx.saved_tensor()
        return dy * b, dy * a


def case_saved_tensors_hooks_pylayer():
    a, b = _x([2, 2]), _x([2, 2], 1)
    return _hooked(lambda: (_CusMultiply.apply(a, b), [a, b]))


# -- PyLayer ------------------------------------------------------------------------------------
class _Scale(PyLayer):
    """Non-Tensor and keyword arguments, several outputs (one of them an int)."""

    @staticmethod
    def forward(ctx, x, k, y=None, scale=2.0):
        ctx.k = k
        ctx.save_for_backward(x, y)
        return x * k * scale, y * 3, 7

    @staticmethod
    def backward(ctx, gx, gy):
        x, y = ctx.saved_tensor()
        _Scale.seen.append([[g.stop_gradient, g.dtype, g] for g in (gx, gy)])
        return gx * ctx.k, gy * 3


def case_pylayer_args_and_outputs():
    _Scale.seen = []
    x, y = _x([3]), _x([3], 1)
    outs = _Scale.apply(x, 3, y, scale=1.0)
    info = [type(outs).__name__, [o.stop_gradient for o in outs[:2]], outs[2]]
    outs[0].sum().backward()
    first = [x.grad, y.grad]
    x2, y2 = _x([3]), _x([3], 1)
    outs = _Scale.apply(x2, 2, y=y2)
    (outs[0] * 2 + outs[1]).sum().backward()
    return [info, first, x2.grad, y2.grad, _Scale.seen]


class _Tanh(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        return dy * (1 - paddle.square(y))


def case_pylayer_grad_flags():
    """A leaf's .grad keeps the flag of the first gradient it got (a PyLayer's gradient made
    without grad has stop_gradient=True)."""
    out = []
    for build in (
        lambda x: _Tanh.apply(x),
        lambda x: _Tanh.apply(x) + _Tanh.apply(x),
        lambda x: _Tanh.apply(x) + x,
        lambda x: x + _Tanh.apply(x),
        lambda x: _Tanh.apply(x * 1),
    ):
        x = _x([2, 3], dtype="float64")
        build(x).mean().backward()
        out.append(x.grad)
    x = _x([3])
    _Tanh.apply(x).sum().backward()
    _Tanh.apply(x).sum().backward()
    out.append(x.grad)
    x = _x([3])
    g = paddle.grad(_Tanh.apply(x).sum(), x)[0]
    g2 = paddle.grad(_Tanh.apply(x * x).sum(), x, create_graph=True)[0]
    out += [g, g2]
    return out


class _NonDiff(PyLayer):
    @staticmethod
    def forward(ctx, x):
        a, b = x * 2, x * 3
        ctx.mark_non_differentiable(a)
        return a, b

    @staticmethod
    def backward(ctx, ga, gb):
        _NonDiff.seen.append([ga, gb])
        return gb


class _NoMaterialize(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, ga, gb):
        _NoMaterialize.seen.append([ga, gb])
        return ga if ga is not None else gb


class _IntOut(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x.astype("int64") * 2, x * 2

    @staticmethod
    def backward(ctx, a, b):
        _IntOut.seen.append([a, b])
        return b


def case_pylayer_ctx_flags():
    _NonDiff.seen, _NoMaterialize.seen, _IntOut.seen = [], [], []
    x = _x([2])
    a, b = _NonDiff.apply(x)
    flags = [a.stop_gradient, b.stop_gradient]
    (a * 1 + b).sum().backward()
    x2 = _x([2])
    a2, _ = _NonDiff.apply(x2)
    a2.sum().backward()  # nothing flows
    x3 = _x([2])
    _NoMaterialize.apply(x3)[1].sum().backward()
    x4 = _x([2])
    outs = _IntOut.apply(x4)
    outs[1].sum().backward()
    return [
        flags,
        _NonDiff.seen,
        x.grad,
        x2.grad,
        _NoMaterialize.seen,
        x3.grad,
        outs[0].stop_gradient,
        _IntOut.seen,
    ]


class _Cast16(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return (g * 2).astype("float16")


class _Recv(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        _Recv.seen.append(g.dtype)
        return g


class _RecvAsIs(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.set_grad_in_dtype_consistent(False)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        _Recv.seen.append(g.dtype)
        return g


def case_pylayer_grad_dtypes():
    _Recv.seen = []
    out = []
    for layer in (_Recv, _RecvAsIs):
        # a leaf made by an op: Paddle casts its .grad to the leaf's dtype (a to_tensor leaf
        # keeps the float16 gradient: a difference listed in the porting guide)
        x = paddle.full([2], 0.5)
        x.stop_gradient = False
        _Cast16.apply(layer.apply(x)).sum().backward()
        out.append(x.grad)
    x = _x([2])
    y = x * 3
    _Cast16.apply(y).sum().backward()  # an op's backward gets its own dtype
    out.append(x.grad)
    x = _x([2])
    out.append(paddle.grad(_Cast16.apply(x).sum(), x)[0].dtype)
    return [out, _Recv.seen]


class _Same(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


class _NotInplace(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_not_inplace(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


def case_pylayer_inplace():
    x = _x([2])
    x1 = x * 1
    o = _Same.apply(x1)  # the same Tensor, now with the PyLayer's history
    same = o is x1
    o.sum().backward()
    x2 = _x([2])
    o2 = _NotInplace.apply(x2)  # a new Tensor (Paddle leaves it unconnected)
    info = [o2 is x2, o2.stop_gradient, o2.is_leaf]
    o2.sum().backward()
    x3 = _x([2], sg=True)
    o3 = _Same.apply(x3 * 1)
    return [
        same,
        x.grad,
        info,
        x2.grad,
        o3.stop_gradient,
        expect_error(lambda: _Same.apply(_x([2]))),
    ]


class _Bad(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, g):
        return _Bad.ret(g)


class _NoBackward(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 2


def case_pylayer_errors():
    def run(ret, y_sg=False):
        _Bad.ret = ret
        x, y = _x([2]), _x([2], 1, sg=y_sg)
        return expect_error(lambda: (_Bad.apply(x, y).sum().backward(), x.grad, y.grad)[1:])

    return [
        run(lambda g: g),  # too few: a needed gradient is missing
        run(lambda g: g, y_sg=True),  # too few, the missing one needs none
        run(lambda g: (g, g, g)),
        run(lambda g: (g, 3)),
        run(lambda g: (g, [g])),
        run(lambda g: (g, g), y_sg=True),
        run(lambda g: (g, None)),
        expect_error(lambda: PyLayer.apply(_x([2]))),
        expect_error(lambda: _NoBackward.apply(_x([2])).sum().backward()),
        expect_error(lambda: paddle.autograd.PyLayerContext().saved_tensor()),
        paddle.autograd.Function is PyLayer,
    ]


def case_pylayer_no_grad_and_saved():
    class Keep(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_backward(x * 2)  # the later call replaces
            return x * 2

        @staticmethod
        def backward(ctx, g):
            Keep.seen.append(len(ctx.saved_tensor()))
            return g

    class Plain(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x + 1

        @staticmethod
        def backward(ctx, g):
            Plain.seen.append(ctx.saved_tensor())
            return g

    Keep.seen, Plain.seen = [], []
    Keep.apply(_x([2])).sum().backward()
    Plain.apply(_x([2])).sum().backward()
    with paddle.no_grad():
        under = _Same.apply(_x([2]) * 1).stop_gradient
    return [Keep.seen, Plain.seen, under, _Same.apply(_x([2], sg=True) * 1).stop_gradient]


# -- backward / grad / grad modes ------------------------------------------------------------------
def case_backward_and_grad_args():
    x, y = _x([3]), _x([3], 1)
    paddle.autograd.backward([x * 2, x * y], [paddle.ones([3]), None])
    out = [x.grad, y.grad]
    x = _x([3])
    out += [
        expect_error(lambda: paddle.autograd.backward(x * 2, [paddle.ones([3]), None])),
        expect_error(lambda: paddle.autograd.backward(3)),
        expect_error(lambda: (lambda t: paddle.autograd.backward([t, t]))(x * 2)),
        expect_error(lambda: paddle.autograd.backward(_x([2], sg=True))),
    ]
    x, y = _x([3]), _x([3], 1)
    out.append(paddle.grad((x * y).sum() + (x * x).sum(), [x], no_grad_vars=[y]))
    x = _x([3])
    m = x * 3
    out.append(paddle.grad((m * m).sum() + x.sum(), [x], no_grad_vars=m))
    x, y = _x([3]), _x([3], 1)
    out += [
        expect_error(lambda: paddle.grad((x * 2).sum(), [x, y])),
        paddle.grad((x * 2).sum(), [x, y], allow_unused=True),
        expect_error(lambda: paddle.grad((x * 2).sum(), x, only_inputs=False)),
        expect_error(lambda: paddle.grad([1], x)),
        expect_error(lambda: paddle.grad(_x([3], sg=True), x)),
        paddle.grad(_x([3], sg=True), x, allow_unused=True),
    ]
    x = _x([3])
    z = (x * x * x).sum()
    (g,) = paddle.grad(z, x, create_graph=True)
    out += [g, paddle.grad(g.sum(), x)]
    return out


def case_grad_modes():
    out = []
    paddle.set_grad_enabled(False)
    out.append(paddle.is_grad_enabled())
    paddle.set_grad_enabled(True)
    out.append(paddle.is_grad_enabled())
    out.append(expect_error(lambda: paddle.set_grad_enabled("x")))

    @paddle.no_grad()
    def f():
        return paddle.is_grad_enabled()

    @paddle.enable_grad()
    def g():
        return paddle.is_grad_enabled()

    with paddle.no_grad():
        out += [f(), g()]

    @paddle.set_grad_enabled(False)
    def h():
        return paddle.is_grad_enabled()

    out += [h(), paddle.is_grad_enabled(), h()]

    def gen():
        yield paddle.is_grad_enabled()
        yield paddle.is_grad_enabled()

    out += [list(paddle.no_grad()(gen)()), paddle.is_grad_enabled()]
    with paddle.set_grad_enabled(False):
        with paddle.enable_grad():
            out.append(paddle.is_grad_enabled())
        out.append(paddle.is_grad_enabled())
    out.append(paddle.is_grad_enabled())
    x = _x([2])
    with paddle.no_grad():
        y = x * 2
    out.append(y.stop_gradient)
    out.append(np.asarray(paddle.autograd.is_grad_enabled()).tolist())
    return out
