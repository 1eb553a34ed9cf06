"""Tensor control flow under ``paddle.jit.to_static`` vs real Paddle 3.3.1's dy2static: if/elif,
nested branches, returns inside branches and loops, ternaries, and/or, while on a Tensor with
break/continue, for over a Tensor range, paddle.static.nn.cond/while_loop/case/switch_case, a
Layer whose forward branches on a value trained 4 SGD steps, and the gradients of an
early-exit recurrence (a Tensor while loop). Each function is called on several inputs;
the results are recorded. Paddle's AST mode (``full_graph=True``) runs the pure control-flow
cases; it cannot convert a return inside a while nor differentiate, so those cases use its
default mode, which gives the same numbers by running Python between compiled pieces."""

import numpy as np
from _layer_util import fill_deterministic

import paddle

TOLERANCE = {"case_train_branchy_layer": (1e-5, 1e-6), "case_while_gradients": (1e-5, 1e-7)}


def _t(v, dtype="float32"):
    return paddle.to_tensor(v, dtype=dtype)


def _np(out):
    if isinstance(out, list | tuple):
        return [_np(o) for o in out]
    return np.asarray(out.numpy() if hasattr(out, "numpy") else out)


def _calls(fn, inputs, full_graph=True):
    sf = paddle.jit.to_static(fn, full_graph=full_graph)
    return [_np(sf(*args)) for args in inputs for _ in range(2)]


def branches(x):
    s = x.sum()
    if s > 2:
        y = x + 10
    elif s > 0:
        if x.max() > 1:
            y = x * 3
        else:
            y = x * 4
    else:
        y = -x
    z = y * 2 if y.mean() > 0 else y / 2
    if (z.sum() > 0 and z.max() < 100) or z.min() < -5:
        z = z + 1
    return z


def early_return(x):
    if x.mean() > 1:
        return x - 1
    if not (x.sum() > 0):
        return x * 0
    return x * x + 1


def loops(x, n):
    s = paddle.zeros_like(x)
    for i in range(n):
        s = s + x * i
    i = paddle.to_tensor(0)
    while i < 10:
        s = s + 1
        i = i + 1
        if i % 3 == 0:
            continue
        if s.sum() > 40:
            break
    return s, i


def return_in_while(x):
    i = paddle.to_tensor(0)
    while i < 10:
        x = x + 1
        if x.sum() > 8:
            return x, i
        i = i + 1
    return x, i


def static_nn(x, k):
    nn = paddle.static.nn
    a = nn.cond(x.sum() > 0, lambda: x + 1, lambda: x - 1)
    i = paddle.to_tensor(0)
    i, b = nn.while_loop(lambda i, b: i < 3, lambda i, b: [i + 1, b * 2], [i, x])
    c = nn.case([(x.sum() < 0, lambda: -x), (x.sum() < 5, lambda: x * 10)], lambda: x)
    d = nn.switch_case(k, {0: lambda: x, 1: lambda: x * 2, 3: lambda: x * 4}, default=lambda: -x)
    return a, b, c, d


V, NEG, SMALL = [1.0, 2.0, 0.5], [-1.0, -2.0, -0.5], [0.1, 0.2, 0.05]


def case_branches():
    return _calls(branches, [(_t(v),) for v in (V, NEG, SMALL, [5.0, 5.0, 5.0])])


def case_early_return():
    return _calls(early_return, [(_t(v),) for v in ([2.0, 4.0, 1.0], SMALL, NEG)])


def case_loops():
    return _calls(loops, [(_t(V), _t(4, "int64")), (_t(SMALL), _t(0, "int64"))])


def case_return_in_while():
    # Paddle's AST mode (full_graph=True) cannot convert a return inside a while: its default
    return _calls(return_in_while, [(_t(V),), (_t([-100.0, -200.0, -50.0]),)], False)


def case_static_nn():
    return _calls(static_nn, [(_t(v), _t(k, "int64")) for v, k in ((V, 1), (NEG, 2), (V, 3))])


class Branchy(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 4)
        self.fc2 = paddle.nn.Linear(4, 4)

    def forward(self, x):
        if x.shape[0] > 2:
            x = x * 0.5
        h = self.fc(x)
        if h.mean() > 0:
            h = paddle.nn.functional.relu(self.fc2(h))
        else:
            h = paddle.tanh(h)
        return h


def case_train_branchy_layer():
    model = fill_deterministic(Branchy(), 3)
    opt = paddle.optimizer.SGD(0.1, parameters=model.parameters())

    @paddle.jit.to_static  # (Paddle's AST mode has no backward inside: its default)
    def step(x):
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    x = np.random.default_rng(2).standard_normal((3, 4)).astype("float32")
    losses = [float(step(_t(x * s))) for s in (1, -1, 1, -1, 0.5)]
    return {"losses": losses, "params": [p.numpy() for p in model.parameters()]}


class EarlyExit(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.cell = paddle.nn.GRUCell(8, 8)

    def forward(self, x):
        h = paddle.zeros([x.shape[0], 8])
        step = paddle.to_tensor(0)
        while step < 20:
            new_h, _ = self.cell(x, h)
            delta = (new_h - h).abs().max()
            h = new_h
            step = step + 1
            if delta < 1e-3:
                break
        return h, step


def case_while_gradients():
    model = paddle.jit.to_static(fill_deterministic(EarlyExit(), 5))  # (AST: no while grads)
    x = _t(np.random.default_rng(4).standard_normal((2, 8)).astype("float32") * 0.1)
    out = []
    for _ in range(2):
        h, steps = model(x)
        h.sum().backward()
        out.append([_np(h), _np(steps), [p.grad.numpy() for p in model.parameters()]])
        model.clear_gradients()
    return out
