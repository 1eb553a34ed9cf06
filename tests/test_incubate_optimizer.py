"""paddle.incubate.optimizer beyond the goldens (tests/cases/incubate_optimizer.py): a
LookAhead / ModelAverage step inside paddle.jit.to_static equals the eager step, and the
deprecated LBFGS alias."""

import warnings

import numpy as np
import pytest
from paddle.incubate.optimizer import LBFGS, LookAhead, ModelAverage

import paddle


def _setup(make_opt):
    paddle.seed(1)
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(np.arange(6, dtype="float32").reshape(3, 2) / 10)
    return lin, make_opt(lin)


MAKERS = {
    "lookahead": lambda lin: LookAhead(
        paddle.optimizer.Adam(0.1, parameters=lin.parameters()), alpha=0.3, k=2
    ),
    "model_average": lambda lin: ModelAverage(
        0.5, parameters=lin.parameters(), min_average_window=2, max_average_window=3
    ),
}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_step_under_to_static(kind):
    x = paddle.to_tensor(np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3))
    runs = []
    for compiled in (False, True):
        lin, opt = _setup(MAKERS[kind])
        inner = getattr(opt, "inner_optimizer", None) or paddle.optimizer.SGD(
            0.1, parameters=lin.parameters()
        )

        def train_step(x, lin=lin, opt=opt, inner=inner):
            loss = (lin(x) ** 2).mean()
            loss.backward()
            if opt is not inner and not isinstance(opt, LookAhead):
                inner.step()
            opt.step()
            opt.clear_grad()
            return loss

        step = paddle.jit.to_static(train_step) if compiled else train_step
        for _ in range(5):
            step(x)
        runs.append([lin.weight.numpy(), *(v.numpy() for v in opt.state_dict().values())])
    for eager, jitted in zip(*runs):
        np.testing.assert_allclose(jitted, eager, rtol=1e-6, atol=1e-7)


def test_lbfgs_alias_warns():
    w = paddle.create_parameter([2], "float32")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opt = LBFGS(parameters=[w])
    assert isinstance(opt, paddle.optimizer.LBFGS)
    assert any('Please use "paddle.optimizer.LBFGS"' in str(c.message) for c in caught)
