"""paddle.amp: the dtype each op runs in under auto_cast (Paddle's GPU rules and its documented
examples), the op lists against real Paddle's, decorate, GradScaler, and bfloat16 and float16
(GradScaler) training of the conformance MLP/CNN against real Paddle's float32 losses.

Real Paddle ignores AMP on CPU, so there are no CPU goldens of AMP numbers: the dtype rules
are Paddle's (amp_utils: white -> low, black -> float32, else promote), the lists are recorded
from Paddle (tools/record_amp_lists.py), and training is checked against Paddle's float32 run
within bfloat16's precision."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import paddle.nn.functional as F
import pytest

import paddle
from paddle_compat._core import amp_state
from paddle_compat._core.registry import REGISTRY

sys.path.insert(0, str(Path(__file__).parent / "cases"))
GOLDENS = Path(__file__).parent / "goldens"


def _t(dtype="float32", shape=(2, 3)):
    return paddle.full(list(shape), 0.5, dtype=dtype)


def _conv(bias):
    paddle.seed(1)
    return paddle.nn.Conv2D(3, 2, 3, bias_attr=None if bias else False)


# (id, auto_cast kwargs, fn, dtype of the result)
DTYPE_CASES = [
    ("matmul is white", {}, lambda: paddle.matmul(_t(), _t(shape=(3, 2))), "float16"),
    ("exp is black", {}, lambda: paddle.exp(_t("float16")), "float32"),
    ("relu of float16 stays", {}, lambda: F.relu(_t("float16")), "float16"),
    ("relu of float32 stays", {}, lambda: F.relu(_t()), "float32"),
    ("add promotes to float32", {}, lambda: _t("float16") + _t(), "float32"),
    ("add of float16 stays", {}, lambda: _t("float16") + _t("float16"), "float16"),
    (
        "float64 is never cast",
        {},
        lambda: paddle.matmul(_t("float64"), _t("float64", (3, 2))),
        "float64",
    ),
    ("int is never cast", {}, lambda: paddle.to_tensor([1, 2]) + 1, "int64"),
    (
        "bfloat16 matmul",
        {"dtype": "bfloat16"},
        lambda: paddle.matmul(_t(), _t(shape=(3, 2))),
        "bfloat16",
    ),
    ("sum is black (reduce_sum)", {}, lambda: paddle.sum(_t("float16")), "float32"),
    ("softmax is black", {}, lambda: F.softmax(_t("float16")), "float32"),
    ("O2: exp runs low", {"level": "O2"}, lambda: paddle.exp(_t("float16")), "float16"),
    ("O2: add still promotes", {"level": "O2"}, lambda: _t("float16") + _t(), "float32"),
    (
        "O2 use_promote=False: add runs low",
        {"level": "O2", "use_promote": False},
        lambda: _t() + _t(),
        "float16",
    ),
    (
        "O2: embedding stays black",
        {"level": "O2"},
        lambda: F.embedding(paddle.to_tensor([0, 1]), _t("float16", (3, 2))),
        "float32",
    ),
    ("OD: relu runs in float32", {"level": "OD"}, lambda: F.relu(_t("float16")), "float32"),
    (
        "OD: matmul is white",
        {"level": "OD"},
        lambda: paddle.matmul(_t(), _t(shape=(3, 2))),
        "float16",
    ),
    (
        "linear is white (linear_v2)",
        {},
        lambda: F.linear(_t(), _t(shape=(3, 4)), _t(shape=(4,))),
        "float16",
    ),
    (
        "layer_norm is black at O1",
        {},
        lambda: F.layer_norm(_t("float16"), 3, _t(shape=(3,)), _t(shape=(3,))),
        "float32",
    ),
    (
        "layer_norm at O2 follows x only",
        {"level": "O2"},
        lambda: F.layer_norm(_t("float16"), 3, _t(shape=(3,)), _t(shape=(3,))),
        "float16",
    ),
    (
        "in-place ops are not cast",
        {"level": "O2", "use_promote": False},
        lambda: _t().add_(_t()),
        "float32",
    ),
    ("creation ops are not cast", {}, lambda: paddle.zeros([2]), "float32"),
    ("mse_loss ends in black ops", {}, lambda: F.mse_loss(_t("float16"), _t("float16")), "float32"),
    ("var ends in reduce_mean", {}, lambda: paddle.var(_t("float16")), "float32"),
    # Paddle's auto_cast docstring examples
    ("doc: conv2d without bias", {}, lambda: _conv(False)(paddle.rand([2, 3, 8, 8])), "float16"),
    (
        "doc: enable=False",
        {"enable": False},
        lambda: _conv(False)(paddle.rand([2, 3, 8, 8])),
        "float32",
    ),
    (
        "doc: custom_black_list conv2d",
        {"custom_black_list": {"conv2d"}},
        lambda: _conv(False)(paddle.rand([2, 3, 8, 8])),
        "float32",
    ),
    (
        "doc: custom_white_list elementwise_add",
        {"custom_white_list": {"elementwise_add"}},
        lambda: _t() + _t(),
        "float16",
    ),
    (
        "doc: custom white at O2",
        {"custom_white_list": {"elementwise_add"}, "level": "O2"},
        lambda: _t() + _t(),
        "float16",
    ),
    (
        "conv2d bias is a separate, promoting add",
        {},
        lambda: _conv(True)(paddle.rand([2, 3, 8, 8])),
        "float32",
    ),
    (
        "custom list: Paddle names only",
        {"custom_black_list": {"matmul"}},
        lambda: paddle.matmul(_t(), _t(shape=(3, 2))),
        "float16",
    ),
]


@pytest.mark.parametrize(
    "kwargs,fn,dtype", [c[1:] for c in DTYPE_CASES], ids=[c[0] for c in DTYPE_CASES]
)
def test_auto_cast_dtype(kwargs, fn, dtype):
    with paddle.amp.auto_cast(**kwargs):
        out = fn()
    assert out.dtype == getattr(paddle, dtype)
    assert not paddle.amp.is_autocast_enabled()


def test_auto_cast_state_and_errors():
    assert paddle.amp.get_autocast_dtype() == "float16"
    with paddle.amp.auto_cast(dtype="bfloat16"):
        assert paddle.amp.is_autocast_enabled()
        assert paddle.amp.get_autocast_dtype() == "bfloat16"
        with paddle.amp.auto_cast(enable=False):
            assert not paddle.amp.is_autocast_enabled()
        assert paddle.amp.is_autocast_enabled()
    with pytest.raises(ValueError, match="level should be O0, OD, O1 or O2"):
        with paddle.amp.auto_cast(level="O3"):
            pass
    with pytest.raises(ValueError, match="dtype should be 'float16' or 'bfloat16'"):
        with paddle.amp.auto_cast(dtype="float32"):
            pass
    with pytest.raises(ValueError, match="Custom white list overlap custom black list"):
        with paddle.amp.auto_cast(custom_white_list={"exp"}, custom_black_list={"exp"}):
            pass
    assert paddle.amp.is_bfloat16_supported("cpu") and not paddle.amp.is_float16_supported("cpu")


def test_gradients_flow_back_in_the_parameters_dtype():
    paddle.seed(3)
    lin = paddle.nn.Linear(3, 2)
    with paddle.amp.auto_cast():
        loss = lin(paddle.rand([4, 3])).mean()
    loss.backward()
    assert loss.dtype == paddle.float32
    assert lin.weight.grad.dtype == paddle.float32 and lin.bias.grad.dtype == paddle.float32


def _compiled_linear(lin):
    return paddle.jit.to_static(lambda x: lin(x))


def _recomputed_linear(lin):
    from paddle.distributed.fleet.utils import recompute

    return lambda x: recompute(lin, x)


@pytest.mark.parametrize(
    "wrap", [_compiled_linear, _recomputed_linear], ids=["to_static", "recompute"]
)
def test_backward_outside_auto_cast_replays_the_forwards_casts(wrap):
    # the node's backward re-runs the block after auto_cast has exited: it must cast as the
    # forward did (it raised a VJP dtype mismatch), and give the plain eager gradient
    paddle.seed(4)
    lin = paddle.nn.Linear(16, 8)
    x = paddle.rand([4, 16])
    x.stop_gradient = False  # Paddle's recompute skips a block none of whose inputs need grad
    grads = []
    for fn in (lin, wrap(lin), wrap(lin)):
        lin.clear_gradients()
        with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
            y = fn(x)
        assert y.dtype == paddle.bfloat16
        y.astype("float32").sum().backward()
        grads.append(lin.weight.grad.numpy())
    np.testing.assert_array_equal(grads[1], grads[0])
    np.testing.assert_array_equal(grads[2], grads[0])


# Paddle functionals that are not in its lists themselves but always end in a black-listed op
# (seen in Paddle's AMP log, GLOG_v=6): on a GPU they return float32 at O1, so they are black
COMPOSED_BLACK = {
    "mse_loss": "elementwise_sub, square, reduce_mean",
    "square_error_cost": "elementwise_sub, square",
    "var": "reduce_mean, ...",
    "std": "reduce_mean, ...",
    "cosine_similarity": "reduce_sum, ...",
    "local_response_norm": "..., pow",
}


def test_op_lists_match_paddle():
    """Each op's ``op(amp=...)`` puts it exactly in the Paddle list its AMP name is in."""
    lists = json.loads((GOLDENS / "amp_lists.json").read_text())
    assert lists["bf16_white"] == sorted(
        set(lists["white"])
        - {
            "fake_quantize_dequantize_abs_max",
            "fake_quantize_dequantize_moving_average_abs_max",
            "fused_attention",
            "fused_feedforward",
        }
    )  # noqa: E501
    white, black, extra = set(lists["white"]), set(lists["black"]), set(lists["extra_black"])
    expected_of = {"white": white, "black": black, "black_always": extra}
    for name, od in REGISTRY.items():
        names = set(amp_state.amp_names(name))
        if name in COMPOSED_BLACK:
            assert od.amp == "black", name
        elif od.amp == "promote":
            assert not names & (white | black | extra), f"{name}: Paddle lists {names}"
        else:
            assert names <= expected_of[od.amp], f"{name} ({od.amp}): {names} not in its list"
    got_white = paddle.amp.white_list()["float16"]["O1"]
    assert {"matmul_v2", "conv2d", "linear_v2", "einsum"} <= got_white <= white
    o2_black = paddle.amp.black_list()["bfloat16"]["O2"]
    assert {"lookup_table_v2", "scatter", "bilinear_interp_v2"} <= o2_black <= extra


# -- decorate -------------------------------------------------------------------------------
def _net():
    paddle.seed(4)
    return paddle.nn.Sequential(
        paddle.nn.Linear(3, 4),
        paddle.nn.LayerNorm(4),
        paddle.nn.BatchNorm1D(4),
        paddle.nn.Linear(4, 2),
    )


@pytest.mark.parametrize(
    "dtype,excluded,expected",
    [
        ("float16", None, ["float16", "float32", "float32", "float16"]),
        ("bfloat16", None, ["bfloat16", "bfloat16", "float32", "bfloat16"]),
        ("bfloat16", paddle.nn.Linear, ["float32", "bfloat16", "float32", "float32"]),
    ],
)
def test_decorate_o2_parameter_dtypes(dtype, excluded, expected):
    model = _net()
    opt = paddle.optimizer.Adam(parameters=model.parameters())
    m2, o2 = paddle.amp.decorate(model, opt, level="O2", dtype=dtype, excluded_layers=excluded)
    assert m2 is model and o2 is opt and opt._multi_precision
    got = [layer.weight.dtype.name for layer in model]
    assert got == expected
    assert model[2]._mean.dtype == paddle.float32  # BatchNorm buffers stay float32


def test_decorate_forms_and_errors():
    model, opt = _net(), paddle.optimizer.SGD(parameters=_net().parameters())
    assert paddle.amp.decorate(model, level="O1") is model
    assert paddle.amp.decorate([model], [opt], level="O1") == ([model], [opt])
    out = paddle.amp.decorate([model], opt, level="O2", master_weight=False)
    assert out == ([model], opt) and opt._multi_precision is False
    with pytest.raises(ValueError, match="level should be O1 or O2"):
        paddle.amp.decorate(model, level="O3")
    with pytest.raises(ValueError, match="dtype only support float16 or bfloat16"):
        paddle.amp.decorate(model, level="O2", dtype="float32")
    with pytest.raises(TypeError, match="models must be either a single model or a list"):
        paddle.amp.decorate("model", level="O2")
    with pytest.raises(RuntimeError, match="optimizers should be paddle.optimizer.Optimizer"):
        paddle.amp.decorate(model, optimizers=[object()], level="O2")
    with pytest.raises(ValueError, match="save_dtype can only be"):
        paddle.amp.decorate(model, level="O2", save_dtype="int8")


def test_decorate_save_dtype_and_master_grad():
    model = _net()
    paddle.amp.decorate(model, level="O2", dtype="bfloat16", save_dtype="float32")
    sd = model.state_dict()
    assert model[0].weight.dtype == paddle.bfloat16
    assert all(v.dtype == paddle.float32 for v in sd.values() if v.dtype != paddle.int64)
    model2 = paddle.nn.Linear(3, 2)
    paddle.amp.decorate(model2, level="O2", dtype="bfloat16", master_grad=True)
    try:
        with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
            loss = model2(paddle.rand([2, 3])).mean()
        loss.backward()
        assert model2.weight.grad.dtype == paddle.float32
    finally:
        from paddle_compat.amp._auto_cast import amp_global_state

        amp_global_state().use_master_grad = False
        amp_global_state().model_parameters.clear()


# -- GradScaler -----------------------------------------------------------------------------
def _scaler_setup(**kw):
    paddle.seed(5)
    lin = paddle.nn.Linear(3, 2)
    opt = paddle.optimizer.SGD(0.1, parameters=lin.parameters())
    with paddle.amp.auto_cast():  # the scaler checks the last auto_cast's dtype
        pass
    return lin, opt, paddle.amp.GradScaler(**kw)


def _scaled_backward(lin, scaler, bad=False):
    x = paddle.rand([4, 3])
    if bad:
        x = x / paddle.zeros([4, 3])  # inf inputs: inf/nan gradients
    with paddle.amp.auto_cast():
        loss = lin(x).mean()
    scaled = scaler.scale(loss)
    scaled.backward()
    return scaled


def test_grad_scaler_scales_unscales_and_grows():
    lin, opt, scaler = _scaler_setup(init_loss_scaling=1024.0, incr_every_n_steps=2)
    before = lin.weight.numpy().copy()
    scaled = _scaled_backward(lin, scaler)
    assert scaled.shape == [1] and scaled.dtype == paddle.float32
    g_scaled = lin.weight.grad.numpy().copy()
    scaler.unscale_(opt)
    np.testing.assert_allclose(lin.weight.grad.numpy(), g_scaled / 1024.0, rtol=1e-6)
    g = lin.weight.grad.numpy().copy()
    scaler.step(opt)
    scaler.update()
    np.testing.assert_allclose(lin.weight.numpy(), before - 0.1 * g, rtol=1e-6)
    assert scaler._incr_count == 1
    opt.clear_grad()
    scaled = _scaled_backward(lin, scaler)
    scaler.minimize(opt, scaled)
    assert float(scaler._scale) == 2048.0 and scaler._incr_count == 0


def test_grad_scaler_skips_a_step_with_inf_and_halves(capsys):
    lin, opt, scaler = _scaler_setup(init_loss_scaling=1024.0)
    before = lin.weight.numpy().copy()
    _scaled_backward(lin, scaler, bad=True)
    scaler.step(opt)
    scaler.update()
    np.testing.assert_array_equal(lin.weight.numpy(), before)
    assert float(scaler._scale) == 512.0 and scaler._decr_count == 0
    assert capsys.readouterr().out == (
        "Found inf or nan, current scale is: 1024.0, decrease to: 1024.0*0.5\n"
    )


def test_grad_scaler_state_and_errors():
    lin, opt, scaler = _scaler_setup(init_loss_scaling=1024)
    assert scaler.is_enable() and scaler.is_use_dynamic_loss_scaling()
    assert scaler.get_init_loss_scaling() == 1024 and scaler.get_incr_every_n_steps() == 2000
    sd = scaler.state_dict()
    assert sd["scale"].tolist() == [1024.0] and sd["incr_count"] == 0
    other = paddle.amp.GradScaler()
    other.load_state_dict(sd)
    assert float(other._scale) == 1024.0
    with pytest.raises(RuntimeError, match="The input state dict is empty"):
        other.load_state_dict({})
    _scaled_backward(lin, scaler)
    scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    with pytest.raises(AssertionError, match="The incr_ratio must be > 1.0."):
        paddle.amp.GradScaler(incr_ratio=0.5)
    with pytest.raises(TypeError, match="must be <class 'paddle.Tensor'>"):
        scaler.scale(1.0)
    off = paddle.amp.GradScaler(enable=False)
    loss = paddle.to_tensor(2.0)
    assert off.scale(loss) is loss and off.state_dict() == {}


def test_grad_scaler_turns_off_for_bfloat16():
    lin, opt, scaler = _scaler_setup()
    with paddle.amp.auto_cast(dtype="bfloat16"):
        loss = lin(paddle.rand([2, 3])).mean()
    with pytest.warns(
        UserWarning, match="not recommended to use dynamic loss scaling for bfloat16"
    ):
        out = scaler.scale(loss)
    assert out is loss and not scaler.is_enable()


# -- training against real Paddle's float32 losses -------------------------------------------
def _losses(model_fn, data_fn, opt_fn, level, compiled=False, dtype="bfloat16"):
    """The first half of a conformance case's losses under auto_cast; float16 steps go through
    a GradScaler (scale, backward, minimize), as Paddle's float16 recipe does."""
    import training as cases

    model = model_fn()
    opt = opt_fn(model)
    if level == "O2":
        model, opt = paddle.amp.decorate(model, opt, level="O2", dtype=dtype)
    scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0) if dtype == "float16" else None

    def step(x, y):
        with paddle.amp.auto_cast(level=level, dtype=dtype):
            loss = F.cross_entropy(model(x), y)
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaled = scaler.scale(loss)
            scaled.backward()
            scaler.minimize(opt, scaled)
        opt.clear_grad()
        return loss

    if compiled:
        step = paddle.jit.to_static(step)
    xs, ys = data_fn()
    n = cases.STEPS // 2
    return [float(step(paddle.to_tensor(x), paddle.to_tensor(y))) for x, y in zip(xs[:n], ys[:n])]


@pytest.mark.parametrize(
    "case,level,compiled,dtype",
    [
        ("case_mlp_adam_eager", "O1", False, "bfloat16"),
        ("case_mlp_adam_eager", "O2", False, "bfloat16"),
        ("case_mlp_adam_eager", "O1", True, "bfloat16"),
        ("case_cnn_momentum_eager", "O1", False, "bfloat16"),
        ("case_cnn_momentum_eager", "O2", False, "bfloat16"),
        ("case_mlp_adam_eager", "O1", False, "float16"),
        ("case_mlp_adam_eager", "O2", True, "float16"),
        ("case_cnn_momentum_eager", "O2", False, "float16"),
    ],
)
def test_low_precision_training_tracks_paddle_float32(case, level, compiled, dtype):
    import training as cases

    golden = json.loads((GOLDENS / "training.json").read_text())[case]
    golden = golden["losses"] if isinstance(golden, dict) else golden
    if case.startswith("case_mlp"):
        args = (
            cases._mlp,
            cases._mlp_data,
            lambda m: paddle.optimizer.Adam(0.01, parameters=m.parameters()),
        )
    else:
        args = (
            cases._cnn,
            cases._cnn_data,
            lambda m: paddle.optimizer.Momentum(0.05, 0.9, parameters=m.parameters()),
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no dtype surprises along the way
        got = _losses(*args, level=level, compiled=compiled, dtype=dtype)
    want = np.asarray(golden[: len(got)], dtype=np.float64)
    # bfloat16 keeps 8 bits of mantissa (float16 11): each loss within 3% of Paddle's float32 run
    np.testing.assert_allclose(got, want, rtol=3e-2, atol=1e-2)
    assert got != list(want)  # and it really ran in low precision
