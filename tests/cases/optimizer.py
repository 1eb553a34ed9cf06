"""paddle.optimizer, paddle.optimizer.lr, gradient clipping and regularizers.

Parameters are plain leaves (``to_tensor(..., stop_gradient=False)``) with names unique to each
case (accumulator names such as ``<param>_moment1_0`` come from a process-wide counter), and
gradients are fixed numpy arrays, so every case is independent of the others.
"""

import numpy as np
from _util import expect_error, randn

import paddle

O = paddle.optimizer
LR = paddle.optimizer.lr
N_STEPS = 5
# RAdam's rho = t*b2^t/(1-b2^t) cancels catastrophically for beta2 near 1 (Paddle's kernel
# rounds it differently: 1e-5 relative after a few steps)
TOLERANCE = {f"case_radam_slow_{v}": (1e-4, 1e-5) for v in ("plain", "wd", "globalnorm")}


def _leaf(arr, name):
    t = paddle.to_tensor(arr, stop_gradient=False)
    t.name = name
    return t


def _params(tag, dtype="float32"):
    """A weight [3, 4], a bias [4] and a 0-d scale, named after the case."""
    return [
        _leaf(randn(3, 4, seed=1, dtype=dtype), f"{tag}_w"),
        _leaf(randn(4, seed=2, dtype=dtype), f"{tag}_b"),
        _leaf(np.asarray(0.7, dtype=dtype), f"{tag}_s"),
    ]


def _grads(step, dtype="float32"):
    return [
        randn(3, 4, seed=10 + step, dtype=dtype) * 2,
        randn(4, seed=20 + step, dtype=dtype),
        np.asarray(0.5 - 0.3 * step, dtype=dtype),
    ]


def _train(opt, params, steps=N_STEPS, dtype="float32", sched=None):
    lrs = []
    for i in range(steps):
        for p, g in zip(params, _grads(i, dtype)):
            p.grad = paddle.to_tensor(g)
        lrs.append(opt.get_lr())
        opt.step()
        if sched is not None:
            sched.step()
    return lrs


def _state(opt):
    sd = opt.state_dict()
    return {
        "keys": list(sd),
        "values": {k: v for k, v in sd.items() if k != "LR_Scheduler"},
        "lr": sd.get("LR_Scheduler"),
    }


# -- optimizer x {plain, weight decay, clipping} table -------------------------------------------
OPTIMIZERS = {
    "sgd": lambda lr, **kw: O.SGD(lr, **kw),
    "momentum": lambda lr, **kw: O.Momentum(lr, momentum=0.8, **kw),
    "nesterov": lambda lr, **kw: O.Momentum(lr, use_nesterov=True, **kw),
    "adam": lambda lr, **kw: O.Adam(lr, epsilon=1e-3, **kw),
    "amsgrad": lambda lr, **kw: O.Adam(lr, beta1=0.8, beta2=0.9, amsgrad=True, **kw),
    "adamw": lambda lr, **kw: O.AdamW(lr, **kw),
    "adagrad": lambda lr, **kw: O.Adagrad(lr, initial_accumulator_value=0.1, **kw),
    "rmsprop": lambda lr, **kw: O.RMSProp(lr, momentum=0.5, **kw),
    "rmsprop_centered": lambda lr, **kw: O.RMSProp(lr, rho=0.9, centered=True, **kw),
    "adamax": lambda lr, **kw: O.Adamax(lr, **kw),
    "lamb": lambda lr, **kw: O.Lamb(lr, **kw),
    "adadelta": lambda lr, **kw: O.Adadelta(lr * 10, epsilon=1e-3, rho=0.9, **kw),
    "nadam": lambda lr, **kw: O.NAdam(lr, epsilon=1e-3, momentum_decay=0.04, **kw),
    "radam": lambda lr, **kw: O.RAdam(lr, beta2=0.9, epsilon=1e-3, **kw),
    "radam_slow": lambda lr, **kw: O.RAdam(lr, epsilon=1e-3, **kw),
    "asgd": lambda lr, **kw: O.ASGD(lr, batch_num=3, **kw),
    "rprop": lambda lr, **kw: O.Rprop(
        lr / 10, etas=(0.4, 1.5), learning_rate_range=(1e-3, 0.05), **kw
    ),
}
VARIANTS = {
    "plain": lambda: {},
    "wd": lambda: {"weight_decay": 0.2},
    "l1": lambda: {"weight_decay": paddle.regularizer.L1Decay(0.05)},
    "globalnorm": lambda: {"grad_clip": paddle.nn.ClipGradByGlobalNorm(1.5)},
    "norm": lambda: {"grad_clip": paddle.nn.ClipGradByNorm(1.0)},
    "value": lambda: {"grad_clip": paddle.nn.ClipGradByValue(0.4)},
}
# every optimizer runs plain, wd and globalnorm; the other variants on a few optimizers
EXTRA = {
    "sgd": ("l1", "norm", "value"),
    "momentum": ("l1", "value"),
    "adam": ("l1", "norm"),
    "adamw": ("norm",),
}
NO_WD = {"lamb", "rprop"}  # no weight_decay argument


def _make_case(opt_name, variant):
    def case():
        tag = f"{opt_name}_{variant}"
        params = _params(tag)
        if opt_name in ("adamax", "adadelta", "rprop") and variant == "globalnorm":
            # Paddle's global-norm clip turns a 0-d grad into shape [1], which its Adamax and
            # Adadelta kernels reject (ValueError) and Rprop stores as a [1] state; we keep
            # 0-d grads 0-d
            params = params[:2]
        kw = VARIANTS[variant]()
        opt = OPTIMIZERS[opt_name](0.1, parameters=params, **kw)
        _train(opt, params)
        return {"params": params, "grads": [p.grad for p in params], **_state(opt)}

    return case


for _o in OPTIMIZERS:
    for _v in ("plain", "wd", "globalnorm") + EXTRA.get(_o, ()):
        if _v in ("wd", "l1") and _o in NO_WD:
            continue
        globals()[f"case_{_o}_{_v}"] = _make_case(_o, _v)


def case_float64_params():
    out = []
    for name in ("sgd", "adam", "momentum"):
        params = _params(f"f64_{name}", "float64")
        opt = OPTIMIZERS[name](0.1, parameters=params, weight_decay=0.1)
        _train(opt, params, dtype="float64")
        out.append([params, _state(opt)])
    return out


def case_lamb_options():
    params = _params("lamb_opts")
    opt = O.Lamb(
        0.05,
        lamb_weight_decay=0.0,
        always_adapt=True,
        parameters=params[:2],
        exclude_from_weight_decay_fn=lambda p: p.name.endswith("_b"),
    )
    _train(opt, params)
    params2 = _params("lamb_opts2")
    opt2 = O.Lamb(
        0.05,
        lamb_weight_decay=0.3,
        parameters=params2,
        exclude_from_weight_decay_fn=lambda p: p.name.endswith("_b"),
    )
    _train(opt2, params2)
    return [params, params2]


def case_adamw_decay_fun_and_coeff():
    params = _params("adamw_fun")
    opt = O.AdamW(
        0.05,
        weight_decay=0.5,
        parameters=params,
        beta1=0.7,
        apply_decay_param_fun=lambda name: name.endswith("_w"),
    )
    _train(opt, params)
    return [params, opt.state_dict()]


# -- learning rate: schedulers through optimizers, set_lr, per-parameter scale -------------------
def case_scheduler_in_optimizer():
    params = _params("sched_adam")
    sched = LR.StepDecay(0.1, step_size=2, gamma=0.5)
    opt = O.Adam(sched, parameters=params)
    lrs = _train(opt, params, sched=sched)
    return [params, lrs, _state(opt), opt.get_lr()]


def case_set_lr():
    params = _params("setlr")
    opt = O.Momentum(0.1, parameters=params)
    lrs = []
    for i, lr in enumerate([0.1, 0.05, 0.2, 1, 0.01]):
        opt.set_lr(lr)
        lrs.append(opt.get_lr())
        for p, g in zip(params, _grads(i)):
            p.grad = paddle.to_tensor(g)
        opt.step()
    opt.set_lr_scheduler(LR.ExponentialDecay(0.3, 0.5))
    lrs.append(opt.get_lr())
    return [
        params,
        lrs,
        expect_error(lambda: opt.set_lr(0.1)),
        expect_error(lambda: O.SGD(0.1, parameters=params).set_lr("0.1")),
        expect_error(lambda: opt.set_lr_scheduler(0.1)),
    ]


def case_param_groups():
    out = []
    for name in ("sgd", "momentum", "adam", "adamw"):
        params = _params(f"groups_{name}")
        for p in params:
            p.optimize_attr = {"learning_rate": 1.0}
        groups = [
            {"params": params[:1], "learning_rate": 0.5, "weight_decay": 0.3},
            {"params": params[1:], "grad_clip": paddle.nn.ClipGradByGlobalNorm(0.5)},
        ]
        opt = OPTIMIZERS[name](0.1, parameters=groups, weight_decay=0.05)
        _train(opt, params)
        out.append([params, [p.optimize_attr["learning_rate"] for p in params], _state(opt)])
    return out


def case_skip_stop_gradient_and_missing_grad():
    a, b, c = _params("skip")
    b.stop_gradient = True
    opt = O.Adam(0.1, parameters=[a, b, c])
    b.grad = paddle.to_tensor(randn(4, seed=3))
    a.grad = paddle.to_tensor(randn(3, 4, seed=4))
    opt.step()
    first = list(opt.state_dict())
    c.grad = paddle.to_tensor(np.asarray(1.5, "float32"))
    opt.step()
    return [a, b, c, first, list(opt.state_dict())]


def case_need_clip_false():
    params = _params("needclip")
    params[0].need_clip = False
    opt = O.SGD(0.1, parameters=params, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.3))
    _train(opt, params, steps=2)
    return [params, [p.grad for p in params]]


def case_param_regularizer_overrides():
    out = []
    for name in ("sgd", "momentum"):
        ps = _params(f"preg_{name}")
        ps[0].regularizer = paddle.regularizer.L1Decay(0.5)
        ps[1].regularizer = paddle.regularizer.L2Decay(0.7)
        opt = OPTIMIZERS[name](0.1, parameters=ps, weight_decay=0.1)
        _train(opt, ps, steps=3)
        out.append(ps)
    return out


def case_found_inf_skips_update():
    params = _params("foundinf")
    opt = O.Adam(0.1, parameters=params)
    _train(opt, params, steps=1)
    opt._set_auxiliary_var("found_inf", paddle.to_tensor(True))
    _train(opt, params, steps=1)
    opt._set_auxiliary_var("found_inf", paddle.to_tensor(False))
    _train(opt, params, steps=1)
    return [params, _state(opt)]


# -- state dict ------------------------------------------------------------------------------
def case_state_dict_roundtrip():
    out = []
    for name in ("adam", "momentum", "rmsprop"):
        src = _params(f"sd_src_{name}")
        sched = LR.CosineAnnealingDecay(0.1, T_max=4)
        opt = OPTIMIZERS[name](sched, parameters=src)
        _train(opt, src, steps=3, sched=sched)
        # a fresh optimizer loads the state lazily (keys renamed to its parameters' names, as
        # a new process would generate them)
        state = {
            k.replace("sd_src", "sd_dst"): (v if k == "LR_Scheduler" else v.numpy())
            for k, v in opt.state_dict().items()
        }
        dst = [_leaf(p.numpy(), p.name.replace("sd_src", "sd_dst")) for p in src]
        sched2 = LR.CosineAnnealingDecay(0.1, T_max=4)
        opt2 = OPTIMIZERS[name](sched2, parameters=dst)
        opt2.set_state_dict(state)
        before = opt2.state_dict()
        for i in range(3, 5):
            for ps in (src, dst):
                for p, g in zip(ps, _grads(i)):
                    p.grad = paddle.to_tensor(g)
            opt.step()
            opt2.step()
            sched.step()
            sched2.step()
        out.append(
            [
                list(before),
                dst,
                [np.abs(a.numpy() - b.numpy()).max() for a, b in zip(src, dst)],
                sched2.last_epoch,
                opt2.get_lr(),
            ]
        )
    return out


def case_state_dict_errors():
    params = _params("sd_err")
    sched = LR.StepDecay(0.1, 2)
    opt = O.Adam(sched, parameters=params)
    return [opt.state_dict(), expect_error(lambda: opt.set_state_dict({}))]


# -- API surface: minimize, clear_grad, construction errors ---------------------------------
def case_minimize_and_clear_grad():
    w = _leaf(randn(3, 2, seed=5), "minimize_w")
    x = paddle.to_tensor(randn(4, 3, seed=6))
    opt = O.SGD(0.1, parameters=[w])
    loss = paddle.matmul(x, w).pow(2).mean()
    ops0, pg0 = opt.minimize(loss)  # no backward yet: nothing to apply
    loss.backward()
    ops, pg = opt.minimize(loss)
    g = w.grad.numpy()
    opt.clear_grad()
    zeroed = w.grad.numpy()
    opt.clear_grad(set_to_zero=False)
    return [ops0, len(pg0), ops, len(pg), g, w, zeroed, w.grad is None]


def case_construction_errors():
    w = _leaf(randn(2, seed=7), "ctor_err_w")
    return [
        expect_error(lambda: O.SGD(1, parameters=[w])),
        expect_error(lambda: O.SGD(0.1)),
        expect_error(lambda: O.SGD(0.1, parameters=w)),
        expect_error(lambda: O.SGD(0.1, parameters={"params": [w]})),
        expect_error(lambda: O.SGD(0.1, parameters=[w], grad_clip=1.0)),
        expect_error(lambda: O.Adam(0.1, parameters=[w], beta1=1.0)),
        expect_error(lambda: O.Adam(0.1, parameters=[w], beta2=-0.1)),
        expect_error(lambda: O.Adam(0.1, parameters=[w], epsilon=-1.0)),
        expect_error(lambda: O.AdamW(0.1, parameters=[w], weight_decay=None)),
        expect_error(lambda: O.RMSProp(0.1, parameters=[w], rho=-1.0)),
        expect_error(lambda: O.Optimizer(0.1, parameters=[w]).step()),
        expect_error(lambda: paddle.nn.ClipGradByValue(-1.0)),
    ]


def case_clip_strategies_direct():
    ps = _params("clipdirect")
    gs = [paddle.to_tensor(g) for g in _grads(1)]
    pairs = list(zip(ps, gs))
    out = []
    for clip in (
        paddle.nn.ClipGradByValue(0.5, -0.2),
        paddle.nn.ClipGradByNorm(1.0),
        paddle.nn.ClipGradByGlobalNorm(2.0),
        paddle.nn.ClipGradByGlobalNorm(100.0, auto_skip_clip=True),
    ):
        out.append([str(clip), [g for _, g in clip(pairs)]])
    out.append([str(paddle.regularizer.L1Decay(0.25)), str(paddle.regularizer.L2Decay())])
    return out


def case_clip_grad_utils():
    ps = _params("cliputil")
    out = []
    for norm_type in (2.0, 1, float("inf")):
        for p, g in zip(ps, _grads(2)):
            p.grad = paddle.to_tensor(g)
        total = paddle.nn.utils.clip_grad_norm_(ps, max_norm=1.0, norm_type=norm_type)
        out.append([total, [p.grad.numpy() for p in ps]])
    for p, g in zip(ps, _grads(3)):
        p.grad = paddle.to_tensor(g)
    paddle.nn.utils.clip_grad_value_(ps, 0.3)
    out.append([p.grad for p in ps])
    out.append(expect_error(lambda: paddle.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=3)))
    return out


# -- schedulers: value sequences over 20 epochs ----------------------------------------------
SCHEDULERS = {
    "step": lambda: LR.StepDecay(0.5, step_size=3, gamma=0.7),
    "multistep": lambda: LR.MultiStepDecay(0.5, milestones=[2, 5, 11], gamma=0.3),
    "exponential": lambda: LR.ExponentialDecay(0.5, gamma=0.9),
    "natural_exp": lambda: LR.NaturalExpDecay(0.5, gamma=0.2),
    "inverse_time": lambda: LR.InverseTimeDecay(0.5, gamma=0.3),
    "noam": lambda: LR.NoamDecay(d_model=64, warmup_steps=5, learning_rate=2.0),
    "piecewise": lambda: LR.PiecewiseDecay(boundaries=[3, 8], values=[0.1, 0.05, 0.01]),
    "polynomial": lambda: LR.PolynomialDecay(0.5, decay_steps=7, end_lr=0.01, power=2.0),
    "polynomial_cycle": lambda: LR.PolynomialDecay(0.5, decay_steps=6, cycle=True),
    "cosine": lambda: LR.CosineAnnealingDecay(0.5, T_max=6, eta_min=0.05),
    "warmup_float": lambda: LR.LinearWarmup(0.5, warmup_steps=4, start_lr=0.0, end_lr=0.5),
    "warmup_sched": lambda: LR.LinearWarmup(LR.CosineAnnealingDecay(0.4, T_max=5), 3, 0.01, 0.4),
    "lambda": lambda: LR.LambdaDecay(0.5, lambda e: 0.9**e + 0.01 * e),
    "multiplicative": lambda: LR.MultiplicativeDecay(0.5, lambda e: 0.95),
    "onecycle": lambda: LR.OneCycleLR(1.0, total_steps=20, phase_pct=0.25),
    "onecycle_3phase_linear": lambda: LR.OneCycleLR(
        0.8, total_steps=20, three_phase=True, anneal_strategy="linear"
    ),
    "cyclic": lambda: LR.CyclicLR(0.1, 1.0, step_size_up=3, step_size_down=5, mode="triangular2"),
    "cyclic_exp": lambda: LR.CyclicLR(0.1, 1.0, step_size_up=4, mode="exp_range", exp_gamma=0.9),
    "linear": lambda: LR.LinearLR(0.5, total_steps=8, start_factor=0.2),
    "warm_restarts": lambda: LR.CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2, eta_min=0.01),
}


def _make_sched_case(name):
    def case():
        s = SCHEDULERS[name]()
        seq = [s()]
        for _ in range(19):
            s.step()
            seq.append(s.last_lr)
        s2 = SCHEDULERS[name]()
        s2.set_state_dict(s.state_dict())
        return {
            "seq": seq,
            "state": s.state_dict(),
            "last_epoch": s.last_epoch,
            "restored": s2(),
            "get_lr": s.get_lr(),
        }

    return case


for _s in SCHEDULERS:
    globals()[f"case_lr_{_s}"] = _make_sched_case(_s)


def case_lr_step_with_epoch():
    out = []
    for make in (
        lambda: LR.CosineAnnealingDecay(0.5, T_max=6),
        lambda: LR.StepDecay(0.5, step_size=3),
        lambda: LR.CosineAnnealingWarmRestarts(0.5, T_0=3, T_mult=2),
        lambda: LR.CosineAnnealingWarmRestarts(0.5, T_0=4),
    ):
        s = make()
        seq = []
        for e in (3, 7, 2, 10, 4):
            s.step(e)
            seq.append([s.last_epoch, s()])
        out.append(seq)
    return out


def case_lr_reduce_on_plateau():
    out = []
    metrics = [1.0, 0.9, 0.95, 0.95, 0.91, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    for kw in (
        {"patience": 1},
        {"patience": 2, "cooldown": 2, "factor": 0.5},
        {"mode": "max", "patience": 0, "threshold_mode": "abs", "threshold": 0.01},
        {"patience": 0, "min_lr": 0.02},
    ):
        s = LR.ReduceOnPlateau(0.1, **kw)
        seq = []
        for m in metrics:
            s.step(m)
            seq.append(s.last_lr)
        out.append([seq, s.state_dict()])
    s = LR.ReduceOnPlateau(0.1, patience=0)
    s.step(paddle.to_tensor(1.0))
    s.step(np.array(2.0))
    out.append([s.last_lr, s.num_bad_epochs])
    out.append(expect_error(lambda: s.step("a")))
    return out


def case_lr_errors():
    return [
        expect_error(lambda: LR.StepDecay(0.1, 2.0)),
        expect_error(lambda: LR.StepDecay(0.1, 2, gamma=1.5)),
        expect_error(lambda: LR.StepDecay("a", 2)),
        expect_error(lambda: LR.StepDecay(-1.0, 2)),
        expect_error(lambda: LR.MultiStepDecay(0.1, [3, 2])),
        expect_error(lambda: LR.MultiStepDecay(0.1, 3)),
        expect_error(lambda: LR.PiecewiseDecay([1, 2], [0.1, 0.2])),
        expect_error(lambda: LR.CosineAnnealingDecay(0.1, 2.5)),
        expect_error(lambda: LR.ReduceOnPlateau(0.1, mode="avg")),
        expect_error(lambda: LR.OneCycleLR(0.1, total_steps=0)),
        expect_error(lambda: LR.LinearWarmup("x", 2, 0.0, 0.1)),
        expect_error(lambda: LR.LambdaDecay(0.1, 3)),
        expect_error(lambda: LR.StepDecay(0.1, 2).set_state_dict({"last_epoch": 1})),
    ]
