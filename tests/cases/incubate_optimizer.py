"""paddle.incubate.optimizer: LookAhead around SGD / Adam (parameters, slow copies, state dict,
minimize, float64) and ModelAverage (window restarts, apply / restore, state dict, errors)
(goldens from real Paddle)."""

import numpy as np
from _util import expect_error, rng
from paddle.incubate.optimizer import LookAhead, ModelAverage

import paddle


def _param(values, dtype="float32"):
    w = paddle.create_parameter([len(values)], dtype)
    w.set_value(np.array(values, dtype))
    return w


def _linear():
    lin = paddle.nn.Linear(3, 2)
    lin.weight.set_value(rng(0).standard_normal((3, 2)).astype("float32"))
    lin.bias.set_value(rng(1).standard_normal(2).astype("float32"))
    return lin


X = rng(2).standard_normal((4, 3)).astype("float32")


def _loss(lin):
    return (lin(paddle.to_tensor(X)) ** 2).mean()


def _state(opt, params):
    """The optimizer's state dict as numpy copies, keyed with each parameter's name replaced by
    its position (the names' counters depend on what ran before)."""
    out = {}
    for k, v in opt.state_dict().items():
        for i, p in enumerate(params):
            k = k.replace(p.name + "_", f"p{i}_")
        out[k] = [v.numpy(), v.stop_gradient]
    return out


def case_lookahead_sgd():
    lin = _linear()
    la = LookAhead(paddle.optimizer.SGD(0.1, parameters=lin.parameters()), alpha=0.2, k=3)
    steps = []
    for _ in range(7):
        _loss(lin).backward()
        la.step()
        la.clear_grad()
        steps.append([lin.weight.numpy(), lin.bias.numpy(), _state(la, lin.parameters())])
    return {
        "steps": steps,
        "lr": la.get_lr(),
        "type": la.type,
        "alpha_k": [la.alpha, la.k],
        "global_step": la._global_step_var,
        "grad_after_clear": lin.weight.grad,
    }


def case_lookahead_adam_minimize():
    w = _param([1.0, 2.0, 3.0])
    adam = paddle.optimizer.Adam(0.1, parameters=[w])
    la = LookAhead(adam, alpha=0.3, k=2, name="la")
    out = []
    for _ in range(5):
        (w * w * w).sum().backward()
        la.step()
        la.clear_grad()
        out.append([w.numpy(), _state(la, [w])])
    loss = (w * w).sum()
    loss.backward()
    ops, params_grads = la.minimize(loss)
    return {
        "steps": out,
        "minimize": [ops, [[p is w, g] for p, g in params_grads], w],
        "inner_state": sorted(_state(adam, [w])),
        "global_step": la._global_step_var,
    }


def case_lookahead_float64_k1():
    w = _param([1.0, 2.0, 3.0], "float64")
    la = LookAhead(paddle.optimizer.SGD(0.1, parameters=[w]), alpha=0.3, k=1)
    out = []
    for _ in range(3):
        (w * w * w).sum().backward()
        la.step()
        la.clear_grad()
        out.append([w.numpy(), _state(la, [w])])
    return out


def case_lookahead_state_dict_roundtrip():
    w = _param([0.5, -1.0])
    la = LookAhead(paddle.optimizer.SGD(0.1, parameters=[w]), alpha=0.5, k=2)
    for _ in range(3):
        (w * w * w).sum().backward()
        la.step()
        la.clear_grad()
    saved = la.state_dict()
    w2 = _param([0.5, -1.0])
    la2 = LookAhead(paddle.optimizer.SGD(0.1, parameters=[w2]), alpha=0.5, k=2)
    la2.set_state_dict({k.replace(w.name, w2.name): v for k, v in saved.items()})
    (w2 * w2 * w2).sum().backward()
    la2.step()  # the step counter is not in the state dict: it restarts at 1
    w3 = _param([0.5, -1.0])
    la3 = LookAhead(paddle.optimizer.SGD(0.1, parameters=[w3]), alpha=0.5, k=2)
    la3.set_state_dict(saved)
    (w3 * w3 * w3).sum().backward()
    return {
        "saved": _state(la, [w]),
        "after": [w2, _state(la2, [w2])],
        "other_names": expect_error(la3.step),
    }


def case_lookahead_errors():
    sgd = paddle.optimizer.SGD(0.1, parameters=[_param([1.0])])
    bad = {
        "alpha_high": dict(alpha=1.5),
        "alpha_neg": dict(alpha=-0.1),
        "alpha_int": dict(alpha=1),
        "k_zero": dict(k=0),
        "k_float": dict(k=2.0),
    }
    out = {k: expect_error(lambda kw=kw: LookAhead(sgd, **kw)) for k, kw in bad.items()}
    out["no_inner"] = expect_error(lambda: LookAhead(None))
    la = LookAhead(sgd)
    out["minimize_numpy"] = expect_error(lambda: la.minimize(np.ones(1)))
    return out


def case_model_average_windows():
    w = _param([1.0, 2.0, 3.0])
    frozen = _param([4.0, 5.0])  # no gradient: accumulators made, never updated
    ma = ModelAverage(0.15, parameters=[w, frozen], min_average_window=2, max_average_window=4)
    sgd = paddle.optimizer.SGD(0.1, parameters=[w])
    steps = []
    for _ in range(8):
        (w * w).sum().backward()
        sgd.step()
        ma.step()
        sgd.clear_grad()
        steps.append(_state(ma, [w, frozen]))
    out = {"steps": steps, "lr": ma.get_lr(), "type": ma.type}
    with ma.apply():
        out["applied"] = [w.numpy(), frozen.numpy(), _state(ma, [w, frozen])]
    out["restored"] = [w.numpy(), frozen.numpy()]
    with ma.apply(need_restore=False):
        pass
    out["kept"] = w.numpy()
    ma.restore()
    out["restored_by_hand"] = w.numpy()
    out["not_entered"] = [type(ma.apply()).__name__, w.numpy()]
    return out


def case_model_average_linear():
    lin = _linear()
    ma = ModelAverage(0.5, parameters=lin.parameters(), min_average_window=3, max_average_window=5)
    adam = paddle.optimizer.Adam(0.05, parameters=lin.parameters())
    out = []
    for i in range(9):
        loss = _loss(lin)
        loss.backward()
        adam.step()
        if i % 2:
            ma.minimize(loss)
        else:
            ma.step()
        adam.clear_grad()
    out.append(_state(ma, lin.parameters()))
    with ma.apply():
        out.append([lin.weight, lin.bias, _loss(lin)])
    out.append([lin.weight, lin.bias])
    return out


def case_model_average_errors():
    w = _param([1.0])
    (w * w).sum().backward()
    bad = ModelAverage(0.5, parameters=[w], min_average_window=10, max_average_window=2)
    fresh = ModelAverage(0.5, parameters=[w])

    def apply_fresh():
        with fresh.apply():
            pass

    return {
        "min_above_max": expect_error(bad.step),
        "apply_before_step": expect_error(apply_fresh),
        "restore_before_step": expect_error(fresh.restore),
        "no_parameters": expect_error(lambda: ModelAverage(0.5)),
        "minimize_returns": fresh.minimize((w * w).sum()),
    }


def case_model_average_roll():
    """Counters loaded just below Paddle's 16384-update mark: sum_1 moves into sum_2 there."""
    w = _param([1.0, 2.0])
    (w * w).sum().backward()
    ma = ModelAverage(0.5, parameters=[w], min_average_window=100000, max_average_window=200000)
    ma.step()
    state = {}
    for k, v in ma.state_dict().items():
        if k.endswith("num_updates_0") or k.endswith("_num_accumulates_0"):
            v = paddle.to_tensor(np.array([16382], "int64"))
        elif k.endswith("sum_1_0"):
            v = paddle.to_tensor(np.array([16382.0, 32764.0], "float32"))
        state[k] = v
    ma.set_state_dict(state)
    out = []
    for _ in range(3):
        ma.step()
        out.append(_state(ma, [w]))
    return out
