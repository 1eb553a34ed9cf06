"""Small programs with Tensor-dependent control flow for tests/test_dy2static.py: each runs
eagerly and under ``paddle.jit.to_static`` (the converted source comes from this file)."""

import paddle.nn.functional as F

import paddle
from paddle import nn


def if_else(x):
    if x.mean() > 0:
        y = x * 2
    else:
        y = x - 1
    return y


def elif_chain(x):
    s = x.sum()
    if s > 2:
        y = x + 10
    elif s > 0:
        y = x + 20
    else:
        y = x + 30
    return y


def nested_if(x):
    if x.sum() > 0:
        if x.max() > 2:
            y = x * 3
        else:
            y = x * 4
    else:
        y = -x
    return y


def if_without_else(x):
    y = x + 1
    if x.mean() < 0:
        y = y * 0
    return y


def return_in_branches(x):
    if x.sum() > 0:
        return x * 2
    else:
        return x * 3


def early_return(x):
    if x.mean() > 1:
        return x - 1
    y = x * x
    return y + 1


def return_tuple(x):
    if x.sum() > 0:
        return x, x.sum()
    return -x, x.mean()


def ternary(x):
    y = x * 2 if x.sum() > 0 else x / 2
    return y


def and_or(x):
    if (x.sum() > 0 and x.max() < 10) or x.min() < -5:
        y = x + 1
    else:
        y = x - 1
    return y


def logical_not(x):
    if not (x.mean() > 0):
        return x * 0
    return x


def number_promoted(x):
    scale = 1.0
    if x.mean() > 0:
        scale = 2.0
    return x * scale


def only_one_branch(x):
    y = x
    if x.sum() > 0:
        tmp = x * 2
        y = tmp + 1
    return y


def while_tensor(x):
    s = x
    while s.sum() < 100:
        s = s * 2
    return s


def while_counter(x, n):
    i = 0
    s = paddle.zeros_like(x)
    while i < n:
        s = s + x
        i += 1
    return s, i


def while_break(x):
    i = paddle.to_tensor(0)
    s = x
    while i < 10:
        s = s + 1
        if s.sum() > 20:
            break
        i = i + 1
    return s, i


def while_continue(x):
    i = paddle.to_tensor(0)
    s = paddle.zeros([])
    while i < 6:
        i = i + 1
        if i % 2 == 0:
            continue
        s = s + x.sum() * i.astype("float32")
    return s


def for_range_tensor(x, n):
    s = paddle.zeros_like(x)
    for i in range(n):
        s = s + x * i
    return s


def for_range_break(x):
    s = paddle.zeros_like(x)
    for i in range(8):  # noqa: B007
        s = s + x
        if s.sum() > 10:
            break
    return s


def for_over_tensor(x):
    total = paddle.zeros([x.shape[1]])
    for row in x:
        if row.sum() > 0:
            total = total + row
    return total


def for_over_list(x):
    outs = []
    for w in [1.0, 2.0, 3.0]:
        if x.mean() > 0:
            outs.append(x * w)
        else:
            outs.append(x)
    return outs


def return_in_loop(x):
    for i in range(5):  # noqa: B007
        x = x * 2
        if x.sum() > 30:
            return x
    return x - 1


def return_in_while(x):
    i = paddle.to_tensor(0)
    while i < 10:
        x = x + 1
        if x.sum() > 8:
            return x, i
        i = i + 1
    return x, i


def if_inside_while(x):
    i = paddle.to_tensor(0)
    while i < 5:
        if x.sum() > 0:
            x = x - 1
        else:
            x = x + 2
        i = i + 1
    return x


def while_inside_if(x):
    if x.sum() > 0:
        while x.sum() > 1:
            x = x / 2
    else:
        x = x * 0
    return x


def while_reads_branch_value(x):
    if x.mean() > 10:
        y = x
    else:
        z = x * 0.25  # made in the branch, read by the loop (and by its backward)
        y = x
        while y.abs().sum() < 20.0:
            y = y * 1.5 + z
    return y


def asserts(x):
    assert x.abs().max() < 100.0, f"too large: limit {100.0}"
    y = x * 2
    assert (y == y).all()  # no message
    return y


def _helper(x):
    if x.max() > 1:
        return x / x.max()
    return x


def calls_helper(x):
    return _helper(x) + 1


def inplace_in_branch(x):
    y = x * 1
    if x.sum() > 0:
        y.add_(paddle.ones_like(y))
    return y


def iteration_count(x):
    n = 0
    while x.sum() < 50:
        x = x * 3
        n += 1
    return x, n


def beam_like(logits):
    """A beam-search-like loop: extend the best sequence until every row hits the end token."""
    step = paddle.to_tensor(0)
    finished = paddle.zeros([logits.shape[0]], dtype="bool")
    score = paddle.zeros([logits.shape[0]])
    while step < logits.shape[1]:
        tok = paddle.argmax(logits[:, step], axis=-1)
        gain = paddle.max(logits[:, step], axis=-1)
        score = score + paddle.where(finished, paddle.zeros_like(gain), gain)
        finished = paddle.logical_or(finished, tok == 0)
        if finished.all():
            break
        step = step + 1
    return score, step


def static_cond(x):
    return paddle.static.nn.cond(x.sum() > 0, lambda: x + 1, lambda: x - 1)


def static_while(x):
    i = paddle.to_tensor(0)
    i, x = paddle.static.nn.while_loop(lambda i, x: i < 3, lambda i, x: [i + 1, x * 2], [i, x])
    return x


def static_switch(x, k):
    return paddle.static.nn.switch_case(
        k, {0: lambda: x, 1: lambda: x * 2, 3: lambda: x * 4}, default=lambda: -x
    )


def static_case(x):
    s = x.sum()
    return paddle.static.nn.case([(s < 0, lambda: -x), (s < 5, lambda: x * 10)], lambda: x)


# -- Layers -------------------------------------------------------------------------------------
class BranchyNet(nn.Layer):
    """Branches on a shape (Python) and on a value (Tensor)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.fc2 = nn.Linear(4, 4)

    def forward(self, x):
        if x.shape[0] > 2:
            x = x * 0.5
        h = self.fc(x)
        if h.mean() > 0:
            h = F.relu(self.fc2(h))
        else:
            h = paddle.tanh(h)
        return h


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = self.fc(x)
        if y.sum() > 0:
            return y
        return -y


class Stacked(nn.Layer):
    """Sub-layers with Tensor branches inside a Sequential (converted through Layer calls)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(Block(), nn.ReLU(), Block())

    def forward(self, x):
        return self.body(x)


class BNBranch(nn.Layer):
    """A BatchNorm whose running statistics are updated inside a Tensor branch."""

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1D(4)

    def forward(self, x):
        if x.mean() > 0:
            y = self.bn(x)
        else:
            y = x
        return y


class EarlyExitRNN(nn.Layer):
    """An RNN cell run until the state settles (a data-dependent early exit)."""

    def __init__(self, hidden=8):
        super().__init__()
        self.cell = nn.GRUCell(hidden, hidden)

    def forward(self, x, max_steps=20):
        h = paddle.zeros([x.shape[0], self.cell.hidden_size])
        step = paddle.to_tensor(0)
        while step < max_steps:
            new_h, _ = self.cell(x, h)
            delta = (new_h - h).abs().max()
            h = new_h
            step = step + 1
            if delta < 1e-3:
                break
        return h, step


# -- what must fall back --------------------------------------------------------------------------
def shape_changes(x):
    if x.sum() > 0:
        y = x[:2]
    else:
        y = x
    return y


def host_read(x):
    if float(x.sum().numpy()) > 0:
        return x
    return -x


def list_append_in_while(x):
    outs = []
    i = paddle.to_tensor(0)
    while i < 3:
        outs.append(x * i.astype("float32"))
        i = i + 1
    return outs


# -- Python-valued control flow: the converted function must behave exactly as the original -----
def py_loops(n):
    out = []
    for i in range(n):
        if i % 3 == 0:
            continue
        if i > 7:
            break
        out.append(i)
    else:
        out.append("no break")
    j = 0
    while j < n:
        j += 2
        if j == 6:
            break
    return out, j


def py_returns(a, b):
    for k in range(3):
        if a > k:
            for m in range(2):
                if b == m:
                    return "inner", k, m
        elif b < 0:
            return "neg"
    with open(__file__) as fh:
        if a < -5:
            return fh.readline()[:3]
    try:
        if a == 99:
            raise ValueError("x")
    except ValueError:
        return "caught"
    return "end" if a != b else "same"


_counter = 0


def py_scopes(x, *args, key=3, **kw):
    global _counter
    _counter += 1
    total = x

    def inner(y):
        nonlocal total
        if y > 0:
            total += y
        return total

    for a in args:
        inner(a)
    squares = [i * i for i in range(key) if i or not kw]
    flag = bool(kw) and key > 1 or not args
    return total, squares, flag, (lambda z: z + key)(1), (n := len(args))  # noqa: F841


class PySuper(nn.Layer):
    def __init__(self):
        super().__init__()
        self.k = 2

    def forward(self, x):
        if self.k > 1:
            y = super().parameters()
        return x * self.k, len(y)


def prints(x):
    y = x * 2
    print("y is", y, sep=": ")
    if y.sum() > 3:
        print("big", y.sum())
    return y


def shape_branch(x):
    """Branches on paddle.shape / numel: values known while tracing, so the branches may give
    different shapes (the branch is chosen when tracing, as on x.shape)."""
    n = paddle.shape(x)[0]
    if n > 2 and paddle.numel(x) > 4:
        y = x[:2]
    else:
        y = x
    return y, n
