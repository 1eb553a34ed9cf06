"""paddle.optimizer.LBFGS: closure-driven steps with and without the strong-Wolfe line
search, a short history, the state counters, and its errors (goldens from real Paddle)."""

import numpy as np
from _util import expect_error, rng

import paddle

TOLERANCE = {"case_lbfgs_runs": (2e-4, 1e-6)}


def _problem(seed):
    r = rng(seed)
    x = paddle.to_tensor(r.standard_normal((16, 4)).astype("float32"))
    y = paddle.to_tensor(r.standard_normal((16, 2)).astype("float32"))
    lin = paddle.nn.Linear(4, 2)
    lin.weight.set_value(r.standard_normal((4, 2)).astype("float32") * 0.5)
    lin.bias.set_value(np.zeros(2, "float32"))
    return lin, x, y


def _run(line_search, max_iter, history, steps, lr=1.0, seed=1):
    lin, x, y = _problem(seed)
    opt = paddle.optimizer.LBFGS(
        learning_rate=lr,
        max_iter=max_iter,
        history_size=history,
        line_search_fn=line_search,
        parameters=lin.parameters(),
    )
    losses = []

    def closure():
        loss = paddle.nn.functional.mse_loss(lin(x), y) + 0.1 * (lin.weight**4).sum()
        opt.clear_grad()
        loss.backward()
        return loss

    for _ in range(steps):
        losses.append(float(opt.step(closure)))
    st = opt.state_dict()["state"]
    return {
        "losses": losses,
        "weight": lin.weight,
        "bias": lin.bias,
        "func_evals": st["func_evals"],
        "n_iter": st["n_iter"],
        "history": len(st["old_yk"]),
    }


def case_lbfgs_runs():
    return {
        "wolfe": _run("strong_wolfe", 4, 100, 3),
        "fixed_step": _run(None, 5, 3, 2, lr=0.1, seed=2),
        "short_history": _run("strong_wolfe", 6, 2, 2, seed=3),
    }


def case_lbfgs_stops_and_errors():
    lin, x, y = _problem(4)
    opt = paddle.optimizer.LBFGS(parameters=lin.parameters(), tolerance_grad=1e3)

    def closure():
        loss = paddle.nn.functional.mse_loss(lin(x), y)
        opt.clear_grad()
        loss.backward()
        return loss

    opt.step(closure)  # the gradient is already below tolerance_grad: one evaluation
    bad = paddle.optimizer.LBFGS(parameters=lin.parameters(), line_search_fn="backtracking")
    return {
        "evals_at_tolerance": opt.state_dict()["state"]["func_evals"],
        "n_iter_at_tolerance": opt.state_dict()["state"]["n_iter"],
        "bad_line_search": expect_error(lambda: bad.step(closure)),
        "minimize": expect_error(lambda: opt.minimize(paddle.to_tensor(1.0))),
        "tensor_params": expect_error(lambda: paddle.optimizer.LBFGS(parameters=lin.weight)),
    }
