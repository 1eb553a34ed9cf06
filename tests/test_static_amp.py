"""``paddle.static.amp``: a static Program trained through ``decorate`` gives the losses and
parameters of the same model trained in dynamic mode under ``paddle.amp.auto_cast`` (and a
``GradScaler`` for float16), which the AMP goldens check against Paddle; loss scaling skips
inf/nan steps and moves the scale as Paddle's; ``CustomOpLists`` checks its lists."""

from __future__ import annotations

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.nn.initializer import Constant

RNG = np.random.default_rng(0)
X = RNG.standard_normal((8, 4)).astype("float32")
Y = RNG.standard_normal((8, 1)).astype("float32")
STEPS = 3
SCALING = {"init_loss_scaling": 128.0, "incr_every_n_steps": 2, "decr_every_n_nan_or_inf": 1}


def _params(create):
    return [
        create([4, 8], "float32", default_initializer=Constant(0.1)),
        create([8, 1], "float32", default_initializer=Constant(0.05)),
        create([1], "float32", default_initializer=Constant(0.0)),
    ]


def _forward(x, w1, w2, b):
    return paddle.matmul(paddle.nn.functional.relu(paddle.matmul(x, w1)), w2) + b


def _static_run(dtype, level, xs_per_step):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            y = paddle.static.data("y", [None, 1], "float32")
            params = _params(paddle.static.create_parameter)
            hidden = paddle.matmul(x, params[0])
            loss = paddle.mean((_forward(x, *params) - y) ** 2)
            opt = paddle.static.amp.decorate(
                paddle.optimizer.SGD(0.1), dtype=dtype, level=level, **SCALING
            )
            opt.minimize(loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        losses, scales = [], []
        for xs in xs_per_step:
            loss_v, hidden_v = exe.run(main, feed={"x": xs, "y": Y}, fetch_list=[loss, hidden])
            losses.append(float(loss_v))
            scales.append(float(opt.get_loss_scaling().numpy()[0]))
        return losses, scales, [p.numpy() for p in params], hidden_v.dtype
    finally:
        paddle.disable_static()


def _dynamic_run(dtype, level, xs_per_step):
    params = _params(paddle.create_parameter)
    opt = paddle.optimizer.SGD(0.1, parameters=params)
    scaler = paddle.amp.GradScaler(**SCALING) if dtype == "float16" else None
    losses, scales = [], []
    for xs in xs_per_step:
        with paddle.amp.auto_cast(level=level, dtype=dtype):
            loss = paddle.mean((_forward(paddle.to_tensor(xs), *params) - paddle.to_tensor(Y)) ** 2)
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        opt.clear_grad()
        losses.append(float(loss))
        scales.append(float(scaler._scale.numpy()[0]) if scaler else 1.0)
    return losses, scales, [p.numpy() for p in params]


def _with_inf():
    bad = X.copy()
    bad[0, 0] = np.inf
    return bad


@pytest.mark.parametrize(
    "dtype,level,steps,want_scales",
    [
        ("float16", "O1", [X] * STEPS, [128.0, 256.0, 256.0]),
        ("bfloat16", "O1", [X] * STEPS, [1.0] * STEPS),  # no loss scaling for bfloat16
        ("bfloat16", "O2", [X] * STEPS, [1.0] * STEPS),
        # an inf input: the step is skipped (parameters kept) and the scale cut by 0.8
        ("float16", "O1", [X, _with_inf(), X], [128.0, 102.4, 102.4]),
    ],
)
def test_static_amp_trains_as_dynamic_auto_cast(dtype, level, steps, want_scales):
    losses, scales, params, hidden_dtype = _static_run(dtype, level, steps)
    want_losses, _, want_params = _dynamic_run(dtype, level, steps)
    assert hidden_dtype == np.dtype(dtype) if dtype == "float16" else hidden_dtype.itemsize == 2
    # the Executor runs one compiled program, dynamic mode one kernel per op: XLA fuses the
    # low-precision ops and rounds their intermediates differently (bfloat16 keeps 8 bits)
    tol = 1e-4 if dtype == "bfloat16" else 1e-5
    np.testing.assert_allclose(losses, want_losses, rtol=tol, equal_nan=True)
    for p, w in zip(params, want_params):
        np.testing.assert_allclose(p, w, rtol=tol)
    np.testing.assert_allclose(scales, want_scales, rtol=1e-6)
    assert all(np.isfinite(p).all() for p in params)


def test_custom_op_lists():
    lists = paddle.static.amp.CustomOpLists(
        custom_white_list=["tanh"], custom_black_list=["matmul_v2"]
    )
    assert "tanh" in lists.white_list and "matmul_v2" in lists.black_list
    assert "matmul_v2" not in lists.white_list
    assert paddle.static.amp.CustomOpLists is paddle.static.amp.AutoMixedPrecisionLists
    with pytest.raises(
        ValueError, match="custom_white_list overlaps custom_black_list with < tanh"
    ):
        paddle.static.amp.CustomOpLists(custom_white_list=["tanh"], custom_black_list=["tanh"])
    with pytest.raises(ValueError, match="level should be O1 or O2"):
        paddle.static.amp.decorate(paddle.optimizer.SGD(0.1, parameters=[]), level="O3")
