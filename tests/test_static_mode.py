"""Static-graph mode (paddle.enable_static, Program, Executor): recorded registry ops replayed
under jax.jit give the eager numbers; training, clones, compiled reuse and errors.
Numbers against real Paddle: tests/cases/static_mode.py (goldens)."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

import paddle
from paddle_compat._core import static_mode
from paddle_compat.optimizer import _optimizer as _opt
from paddle_compat.static import _mode, _program

S = paddle.static
F = paddle.nn.functional


@pytest.fixture(autouse=True)
def static_env(monkeypatch):
    """paddle.enable_static & co. from paddle.static._mode, the optimizer's static hooks (until
    paddle/__init__ and optimizer/_optimizer route to them); static mode never leaks."""
    monkeypatch.setattr(paddle, "enable_static", _mode.enable_static)
    monkeypatch.setattr(paddle, "disable_static", _mode.disable_static)
    monkeypatch.setattr(paddle, "in_dynamic_mode", _mode.in_dynamic_mode)
    init, minimize = _opt.Optimizer.__init__, _opt.Optimizer.minimize
    if "static" not in (init.__doc__ or ""):

        def patched_init(self, learning_rate, parameters=None, *a, **k):
            """static: no parameters until minimize"""
            none = parameters is None and static_mode.is_static()
            init(self, learning_rate, [] if none else parameters, *a, **k)
            if none:
                self._parameter_list = self._param_groups = None

        def patched_minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
            if static_mode.is_static():
                return static_mode.minimize(self, loss, startup_program, parameters, no_grad_set)
            return minimize(self, loss, startup_program, parameters, no_grad_set)

        monkeypatch.setattr(_opt.Optimizer, "__init__", patched_init)
        monkeypatch.setattr(_opt.Optimizer, "minimize", patched_minimize)
    yield
    _mode.disable_static()
    _program._reset_programs()
    assert not static_mode.recording


def _build(fn):
    """(main, startup) with ``fn()`` recorded in static mode; fn returns what it builds."""
    paddle.enable_static()
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        out = fn()
    paddle.disable_static()
    return main, startup, out


def _rand(*shape, seed=0, dtype="float32"):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# (name, input shapes, function of the inputs): recorded and replayed == eager
OPS = [
    ("add_mul", [(2, 3), (2, 3)], lambda x, y: (x + y) * y),
    ("matmul_softmax", [(4, 3), (3, 5)], lambda x, y: F.softmax(paddle.matmul(x, y))),
    ("reshape_transpose", [(2, 6)], lambda x: paddle.reshape(x, [3, 4]).T),
    ("concat_split", [(2, 3), (2, 3)], lambda x, y: paddle.split(paddle.concat([x, y], 1), 3, 1)),
    ("reductions", [(3, 4)], lambda x: [x.mean(), x.max(axis=1), paddle.logsumexp(x)]),
    ("topk", [(3, 5)], lambda x: paddle.topk(x, 2)),
    ("getitem", [(4, 5)], lambda x: x[1:3, ::2]),
    ("where_compare", [(3, 3)], lambda x: paddle.where(x > 0, x, paddle.zeros_like(x))),
    ("layer_norm", [(2, 6)], lambda x: F.layer_norm(x, 6)),
    ("cast_cumsum", [(2, 4)], lambda x: paddle.cumsum(x.astype("float64"), axis=1)),
]


@pytest.mark.parametrize("name,shapes,fn", OPS, ids=[o[0] for o in OPS])
def test_replayed_ops_equal_eager(name, shapes, fn):
    arrays = [_rand(*s, seed=i) for i, s in enumerate(shapes)]
    want = fn(*[paddle.to_tensor(a) for a in arrays])
    want = [want] if isinstance(want, paddle.Tensor) else list(want)

    def build():
        xs = [S.data(f"x{i}", list(s), "float32") for i, s in enumerate(shapes)]
        out = fn(*xs)
        return [out] if isinstance(out, paddle.Tensor) else list(out)

    main, startup, outs = _build(build)
    assert all(isinstance(v, S.Variable) for v in outs)
    for v, w in zip(outs, want):
        assert list(v.shape) == list(w.shape) and v.dtype == w.dtype
    feed = {f"x{i}": a for i, a in enumerate(arrays)}
    exe = S.Executor()
    for _ in range(3):  # eager discovery, trace, compiled
        got = exe.run(main, feed=feed, fetch_list=outs)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w.numpy(), rtol=1e-6, atol=1e-6)


def test_unknown_batch_dims_and_one_compiled_program():
    def build():
        x = S.data("x", [None, 3], "float32")
        return paddle.reshape(x * 2.0, [-1, 6])

    main, _, out = _build(build)
    assert list(out.shape) == [-1, 6]
    exe = S.Executor()
    for n in (2, 4, 2, 2):
        (r,) = exe.run(main, feed={"x": np.ones((n, 3), "float32")}, fetch_list=[out])
        assert r.shape == (n // 2, 6) and (r == 2).all()
    (runner,) = exe._runners.values()
    compiled = [e for entries in runner.fn._cache.values() for e in entries if e.compiled]
    assert len(compiled) == 2  # one per fed shape


def _mlp_params():
    w1, b1 = _rand(4, 8, seed=1) * 0.5, _rand(8, seed=2) * 0.1
    w2, b2 = _rand(8, 3, seed=3) * 0.5, _rand(3, seed=4) * 0.1
    return w1, b1, w2, b2


X, Y = _rand(16, 4, seed=5), (np.arange(16) % 3).reshape(16, 1).astype("int64")


@pytest.mark.parametrize(
    "make_opt",
    [
        lambda ps: paddle.optimizer.SGD(0.3, parameters=ps),
        lambda ps: paddle.optimizer.Adam(0.05, parameters=ps),
        lambda ps: paddle.optimizer.AdamW(0.05, parameters=ps, weight_decay=0.1),
    ],
    ids=["sgd", "adam", "adamw"],
)
def test_static_training_equals_dynamic(make_opt):
    init = paddle.nn.initializer.Assign
    # dynamic
    lin1, lin2 = paddle.nn.Linear(4, 8), paddle.nn.Linear(8, 3)
    for p, v in zip([lin1.weight, lin1.bias, lin2.weight, lin2.bias], _mlp_params()):
        p.set_value(v)
    opt = make_opt(lin1.parameters() + lin2.parameters())
    dyn = []
    for _ in range(5):
        loss = F.cross_entropy(lin2(F.relu(lin1(paddle.to_tensor(X)))), paddle.to_tensor(Y))
        loss.backward()
        opt.step()
        opt.clear_grad()
        dyn.append(float(loss))

    # static
    def build():
        w1, b1, w2, b2 = (paddle.ParamAttr(initializer=init(v)) for v in _mlp_params())
        x, y = S.data("x", [None, 4], "float32"), S.data("y", [None, 1], "int64")
        h = S.nn.fc(x, 8, weight_attr=w1, bias_attr=b1, activation="relu")
        loss = F.cross_entropy(S.nn.fc(h, 3, weight_attr=w2, bias_attr=b2), y)
        o = make_opt(None)
        return loss, o.minimize(loss)

    paddle.enable_static()
    main, startup, (loss, (_, pg)) = _build(build)
    assert [p.name for p, _ in pg][:1] and all(g.name.endswith("@GRAD") for _, g in pg)
    exe = S.Executor()
    exe.run(startup)
    st = [float(exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0]) for _ in range(5)]
    np.testing.assert_allclose(st, dyn, rtol=1e-5)
    exe.run(startup)  # re-initializes the parameters
    again = float(exe.run(main, feed={"x": X, "y": Y}, fetch_list=[loss])[0])
    np.testing.assert_allclose(again, dyn[0], rtol=1e-5)


def test_layers_built_in_static_mode_and_grad_by_name():
    def build():
        lin = paddle.nn.Linear(4, 2)
        x = S.data("x", [None, 4], "float32")
        loss = paddle.mean(lin(x) ** 2)
        pg = S.append_backward(loss)
        return lin, loss, pg

    main, startup, (lin, loss, pg) = _build(build)
    exe = S.Executor()
    exe.run(startup)
    gw = exe.run(main, feed={"x": X}, fetch_list=[f"{lin.weight.name}@GRAD"])[0]
    w, b = lin.weight.numpy(), lin.bias.numpy()
    out = X @ w + b
    np.testing.assert_allclose(gw, X.T @ (2 * out / out.size), rtol=1e-5, atol=1e-6)


def test_clone_for_test_turns_off_dropout_and_compiled_program():
    def build():
        x = S.data("x", [None, 4], "float32")
        return F.dropout(x, 0.5)

    main, _, out = _build(build)
    test = main.clone(for_test=True)
    exe = S.Executor()
    compiled = S.CompiledProgram(test).with_data_parallel(loss_name=out.name)
    (r,) = exe.run(compiled, feed={"x": X}, fetch_list=[out])
    np.testing.assert_array_equal(r, X)
    (t,) = exe.run(main, feed={"x": X}, fetch_list=[out])
    assert (t == 0).any() and np.allclose(t[t != 0], 2 * X[t != 0])


def test_errors():
    def build():
        x = S.data("x", [None, 4], "float32")
        return S.nn.fc(x, 2)

    main, startup, out = _build(build)
    exe = S.Executor()
    with pytest.raises(RuntimeError, match="not initialized"):
        exe.run(main, feed={"x": X}, fetch_list=[out])
    exe.run(startup)
    with pytest.raises(KeyError, match="x"):
        exe.run(main, feed={}, fetch_list=[out])
    with pytest.raises(ValueError, match="data type"):
        exe.run(main, feed={"x": X.astype("float64")}, fetch_list=[out])
    with pytest.raises(TypeError, match="Program"):
        exe.run("main", feed={"x": X})
    with pytest.raises(TypeError, match="program_guard|main_program"):
        with S.program_guard("main"):
            pass
    paddle.enable_static()
    with pytest.raises(TypeError, match="truth value"):
        with S.program_guard(S.Program()):
            bool(S.data("z", [2], "float32") > 0)
    exe.close()
    with pytest.raises(RuntimeError, match="closed"):
        exe.run(main, feed={"x": X}, fetch_list=[out])


def test_program_text_and_variable_repr():
    def build():
        x = S.data("x", [None, 3], "float32")
        return F.relu(x)

    main, _, out = _build(build)
    text = str(main)
    assert '"pd_op.data"' in text and '"pd_op.relu" (%0)' in text
    assert repr(out).startswith("Value(define_op_name=pd_op.relu")


def test_feed_list_of_one_dict_and_mode_flags():
    main, _, out = _build(lambda: paddle.exp(S.data("x", [2], "float32")))
    (r,) = S.Executor().run(main, feed=[{"x": np.zeros(2, "float32")}], fetch_list=[out])
    np.testing.assert_array_equal(r, [1, 1])
    assert paddle.in_dynamic_mode()
    paddle.enable_static()
    assert not paddle.in_dynamic_mode() and static_mode.recording
    paddle.disable_static()
    assert paddle.in_dynamic_mode() and not static_mode.recording
    np.testing.assert_array_equal(paddle.add(paddle.ones([2]), paddle.ones([2])).numpy(), [2, 2])


def test_control_flow_in_static_programs():
    def build():
        x = S.data("x", [3], "float32")
        y = S.nn.cond(paddle.sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0)
        i = paddle.full([1], 0, "int64")
        n = paddle.full([1], 5, "int64")
        i2, acc = S.nn.while_loop(lambda i, a: i < n, lambda i, a: [i + 1, a + x], [i, x * 0.0])
        k = S.data("k", [1], "int32")
        s = S.nn.switch_case(k, {0: lambda: x + 10.0, 2: lambda: x * 0.0}, lambda: -x)
        return y, i2, acc, s

    main, _, outs = _build(build)
    exe = S.Executor()
    for xs, k in ((np.array([1, 2, 3], "float32"), 0), (np.array([-5, 1, 1], "float32"), 1)):
        y, i, acc, s = exe.run(main, feed={"x": xs, "k": np.array([k], "int32")}, fetch_list=outs)
        np.testing.assert_allclose(y, xs * 2 if xs.sum() > 0 else xs - 1)
        np.testing.assert_array_equal(i, [5])
        np.testing.assert_allclose(acc, 5 * xs, rtol=1e-6)
        np.testing.assert_allclose(s, xs + 10 if k == 0 else -xs)


def test_unknown_sizes_read_by_python_code_get_the_run_size():
    def build():
        x = S.data("x", [None, 3], "float32")
        lab = S.data("lab", [None, 1], "int64")
        n = paddle.full([], x.shape[0], "int32")
        z = paddle.zeros([x.shape[0], 2])
        acc = paddle.metric.accuracy(x, lab)
        return n, z, acc

    main, _, (n, z, acc) = _build(build)
    assert list(z.shape) == [-1, 2] and str(n.shape) == "paddle.Size([])"
    xs = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]], "float32")
    lab = np.array([[1], [0], [0], [0], [2]], "int64")
    got = S.Executor().run(main, feed={"x": xs, "lab": lab}, fetch_list=[n, z, acc])
    assert got[0] == 5 and got[1].shape == (5, 2)
    np.testing.assert_allclose(got[2], 3 / 5)


def test_in_place_writes_on_variables():
    def build():
        x = S.data("x", [3], "float32")
        y = x * 1.0
        y.add_(x)
        z = x * 1.0
        z[0] = 10.0
        w = paddle.assign(x)
        paddle.assign(x * 3.0, output=w)
        return y, z, w

    main, _, outs = _build(build)
    y, z, w = S.Executor().run(main, feed={"x": np.ones(3, "float32")}, fetch_list=list(outs))
    np.testing.assert_array_equal(y, [2, 2, 2])
    np.testing.assert_array_equal(z, [10, 1, 1])
    np.testing.assert_array_equal(w, [3, 3, 3])


def test_detach_stops_gradients():
    def build():
        x = S.data("x", [3], "float32")
        x.stop_gradient = False
        y = (x * x).detach() * x
        return x, y, S.gradients([paddle.sum(y)], [x])[0]

    main, _, (x, y, g) = _build(build)
    assert y.stop_gradient is False
    xs = np.array([1, 2, 3], "float32")
    (gv,) = S.Executor().run(main, feed={"x": xs}, fetch_list=[g])
    np.testing.assert_allclose(gv, xs * xs)  # d/dx [stop(x^2) * x] = x^2


@contextlib.contextmanager
def _static_mode():
    """paddle.enable_static() for the block."""
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


def test_a_replay_suspends_recording_in_its_own_thread_only():
    """Executor.run replays a Program with recording suspended in its thread; an op another
    thread calls meanwhile still goes into the Program (the mode is process-wide, as Paddle's)."""
    import threading

    with _static_mode():
        main = S.Program()
        with S.program_guard(main, S.Program()):
            x = S.data("x", [2, 3], "float32")
            inside, other = threading.Event(), threading.Event()
            seen = {}

            def replaying():
                with static_mode.suspended():
                    seen["suspended_here"] = static_mode.records()
                    inside.set()
                    other.wait(5)

            t = threading.Thread(target=replaying)
            t.start()
            inside.wait(5)
            y = paddle.add(x, x)  # this thread records while the other one replays
            other.set()
            t.join()
        assert seen["suspended_here"] is False
        assert isinstance(y, S.Variable)
        assert any("add" in str(op) for op in main.global_block().ops)


# paddle.static.Print: stdout of real Paddle 3.3.1 for the same programs
_HEAD = "Variable: var\n  - message: {m}\n  - lod: {{}}\n  - place: Place(cpu)\n  - shape: {s}\n"
PRINTS = {
    "docstring_example": (
        lambda x: S.Print(paddle.full([2, 3], 3, "int64"), message="The content of input layer:"),
        _HEAD.format(m="The content of input layer:", s="[2, 3]")
        + "  - layout: NCHW\n  - dtype: int64\n"
        + "  - data: [3.000000 3.000000 3.000000 3.000000 3.000000 3.000000]\n",
    ),
    "summarize_no_lod_no_layout": (
        lambda x: S.Print(
            x * 2, summarize=4, message="m2", print_tensor_lod=False, print_tensor_layout=False
        ),
        "Variable: var\n  - message: m2\n  - place: Place(cpu)\n  - shape: [2, 6]\n"
        "  - dtype: float32\n  - data: [0.000000 0.285714 0.571429 0.857143]\n",
    ),
    "no_name_type_shape": (
        lambda x: S.Print(
            x + 1, print_tensor_name=False, print_tensor_type=False, print_tensor_shape=False
        ),
        "  - lod: {}\n  - place: Place(cpu)\n  - layout: NCHW\n  - data: [1.000000 1.142857 "
        "1.285714 1.428571 1.571429 1.714286 1.857143 2.000000 2.142857 2.285714 2.428571 "
        "2.571429]\n",
    ),
    "bool": (
        lambda x: S.Print(paddle.cast(x > 1, "bool"), message="bool"),
        _HEAD.format(m="bool", s="[2, 6]")
        + "  - layout: NCHW\n  - dtype: bool\n  - data: ["
        + " ".join(["0.000000"] * 8 + ["1.000000"] * 4)
        + "]\n",
    ),
}


@pytest.mark.parametrize("case", list(PRINTS))
def test_print_writes_what_paddle_writes(case, capsys):
    build, want = PRINTS[case]
    with _static_mode():
        main = S.Program()
        with S.program_guard(main, S.Program()):
            x = S.data("xx", [None, 6], "float32")
            out = build(x)
        exe = S.Executor(paddle.CPUPlace())
        capsys.readouterr()
        feed = {"xx": np.arange(12, dtype="float32").reshape(2, 6) / 7}
        for _ in range(2):  # every run prints
            res = exe.run(main, feed=feed, fetch_list=[out])
            assert capsys.readouterr().out == want
    assert isinstance(res[0], np.ndarray)


def test_print_in_training_prints_the_gradient_too(capsys):
    """print_phase="both" (the default): the forward value, then its gradient in the
    backward; with Paddle's seeded weights the numbers are Paddle's."""
    with _static_mode():
        paddle.seed(7)
        main, startup = S.Program(), S.Program()
        with S.program_guard(main, startup):
            x = S.data("x", [2, 3], "float32")
            h = S.Print(paddle.nn.Linear(3, 2)(x), message="h", summarize=3)
            loss = paddle.mean(h)
            paddle.optimizer.SGD(0.1).minimize(loss)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        capsys.readouterr()
        exe.run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[loss])
        head = _HEAD.format(m="h", s="[2, 2]") + "  - layout: NCHW\n  - dtype: float32\n"
        want = head + "  - data: [-0.034778 1.210028 -0.034778]\n"
        want += head + "  - data: [0.250000 0.250000 0.250000]\n"
        assert capsys.readouterr().out == want


def test_print_outside_static_mode_raises_as_paddle():
    with pytest.raises(AssertionError, match="'Print\\(\\)' is only supported in static graph"):
        S.Print(paddle.ones([2]))


# paddle.static.py_func: numbers from real Paddle 3.3.1 (FLAGS_enable_pir_api=0: its PIR
# Program has no current_block(), so Paddle's own py_func examples fail with PIR on)
def test_py_func_outputs_and_dynamic_dims():
    with _static_mode():
        main = S.Program()
        with S.program_guard(main, S.Program()):
            x = S.data("x", [-1, 3], "int32")
            y = S.data("y", [-1, 3], "int32")
            added = main.current_block().create_var(name="added", dtype="int32", shape=[-1, 3])
            assert S.py_func(lambda a, b: np.array(a) + np.array(b), [x, y], added) is added
            o1 = main.current_block().create_var(name="o1", dtype="int32", shape=[-1, 3])
            o2 = main.current_block().create_var(name="o2", dtype="int64", shape=[-1, 1])
            S.py_func(lambda a: (np.array(a) * 2, np.array(a).sum(1, keepdims=True)), x, [o1, o2])
        exe = S.Executor(paddle.CPUPlace())
        a = np.arange(6, dtype="int32").reshape(2, 3)
        res = exe.run(main, feed={"x": a, "y": a * 10}, fetch_list=[added, o1, o2])
    assert [r.dtype for r in res] == [np.int32, np.int32, np.int64]
    assert [r.tolist() for r in res] == [
        [[0, 11, 22], [33, 44, 55]],
        [[0, 2, 4], [6, 8, 10]],
        [[3], [12]],
    ]


def test_py_func_backward_trains_as_paddle():
    """A Python tanh with its own backward (skipping its input) between fc and the loss, and
    a side-effect-only py_func that runs every step: Paddle's losses over 3 SGD steps."""
    seen = []
    with _static_mode():
        paddle.seed(3)
        main, startup = S.Program(), S.Program()
        with S.program_guard(main, startup):
            x = S.data("x", [2, 4], "float32")
            hidden = S.nn.fc(x, size=3)
            out = main.current_block().create_var(name="h0", dtype="float32", shape=hidden.shape)
            h = S.py_func(
                np.tanh,
                hidden,
                out,
                backward_func=lambda y, dy: np.array(dy) * (1 - np.square(np.array(y))),
                skip_vars_in_backward_input=hidden,
            )
            S.py_func(lambda v: seen.append(np.array(v).shape), h, None)
            loss = paddle.mean(h * h)
            paddle.optimizer.SGD(0.5).minimize(loss)
        exe = S.Executor(paddle.CPUPlace())
        exe.run(startup)
        feed = {"x": np.arange(8, dtype="float32").reshape(2, 4) / 10}
        losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(3)]
    np.testing.assert_allclose(losses, [0.1336277, 0.07182158, 0.03578141], rtol=1e-5)
    assert seen == [(2, 3)] * 3


def test_py_func_errors():
    with _static_mode():
        with S.program_guard(S.Program(), S.Program()):
            x = S.data("x", [2], "float32")
            with pytest.raises(TypeError, match="must be Variable"):
                S.py_func(np.tanh, np.ones(2), x)
            other = S.data("other", [2], "float32")
            with pytest.raises(ValueError, match="not found in forward inputs and outputs"):
                S.py_func(np.tanh, x, x, skip_vars_in_backward_input=other)
    with pytest.raises(AssertionError, match="only supported in static graph mode"):
        S.py_func(np.tanh, paddle.ones([2]), None)
