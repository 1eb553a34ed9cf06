"""Dynamic-to-static control flow: programs with Tensor-dependent if/while/for compile to one
XLA program each and equal eager; the ones that cannot be converted fall back with a warning
naming the line (or raise with full_graph=True); converted code keeps Python's semantics on
Python values. The programs are in tests/dy2static_cases.py."""

import warnings

import dy2static_cases as C
import numpy as np
import pytest

import paddle

V = [1.0, 2.0, 0.5]


def _t(v, dtype="float32"):
    return paddle.to_tensor(v, dtype=dtype)


X4 = [[1.0, -2.0, 3.0, 0.5], [0.5, 1.0, -1.0, 2.0], [1.0, 1.0, 1.0, 1.0]]

# name -> calls (each a tuple of arguments); every call runs eagerly and compiled
COMPILED = {
    "if_else": [(V,), ([-1.0, -2.0, -0.5],)],
    "elif_chain": [(V,), ([0.1, 0.2, 0.05],), ([-1.0, 0.0, 0.0],)],
    "nested_if": [(V,), ([0.1, 0.2, 0.05],), ([-1.0, 0.0, 0.0],)],
    "if_without_else": [(V,), ([-1.0, -2.0, -0.5],)],
    "return_in_branches": [(V,), ([-1.0, -2.0, -0.5],)],
    "early_return": [([2.0, 4.0, 1.0],), ([0.1, 0.2, 0.05],)],
    "return_tuple": [(V,), ([-1.0, -2.0, -0.5],)],
    "ternary": [(V,), ([-1.0, -2.0, -0.5],)],
    "and_or": [(V,), ([20.0, 40.0, 10.0],), ([-10.0, -20.0, -5.0],)],
    "logical_not": [(V,), ([-1.0, -2.0, -0.5],)],
    "number_promoted": [(V,), ([-1.0, -2.0, -0.5],)],
    "only_one_branch": [(V,), ([-1.0, -2.0, -0.5],)],
    "while_tensor": [(V,), ([200.0, 400.0, 100.0],)],
    "while_counter": [(V, ("int64", 3)), (V, ("int64", 0))],
    "while_break": [(V,), ([5.0, 10.0, 2.5],)],
    "while_continue": [(V,)],
    "for_range_tensor": [(V, ("int64", 4)), (V, ("int64", 0))],
    "for_range_break": [(V,), ([0.01, 0.02, 0.005],)],
    "for_over_tensor": [(X4,)],
    "return_in_loop": [(V,), ([0.001, 0.002, 0.0005],)],
    "return_in_while": [(V,), ([-100.0, -200.0, -50.0],)],
    "if_inside_while": [(V,), ([-1.0, -2.0, -0.5],)],
    "while_inside_if": [(V,), ([-1.0, -2.0, -0.5],)],
    "while_reads_branch_value": [(V,), ([0.5, -0.25, 1.0],)],
    "calls_helper": [(V,), ([0.1, 0.2, 0.05],)],
    "asserts": [(V,), ([-1.0, -2.0, -0.5],)],
    "inplace_in_branch": [(V,), ([-1.0, -2.0, -0.5],)],
    "iteration_count": [(V,)],
    "beam_like": [([[0.5, 2.0, 1.0, 3.0], [2.0, 1.0, 0.0, 0.5], [0.1, 0.2, 3.0, 0.4]],)],
    "static_cond": [(V,), ([-1.0, -2.0, -0.5],)],
    "static_while": [(V,)],
    "static_switch": [(V, ("int64", 1)), (V, ("int64", 2)), (V, ("int64", 3))],
    "static_case": [(V,), ([-1.0, -2.0, -0.5],), ([10.0, 20.0, 5.0],)],
    "shape_branch": [(X4,), ([[1.0, 2.0], [3.0, 4.0]],)],
}

# name -> (calls, words of the fallback reason)
FALLBACK = {
    "shape_changes": ([(V,)], "has shape [2] and [3]"),
    "host_read": ([(V,)], "Tensor.numpy() needs a concrete value"),
    "list_append_in_while": ([(V,)], "is kept after it"),
    "for_over_list": ([(V,)], "is kept after it"),
}


def _args(call):
    return [
        _t(a[1], a[0]) if isinstance(a, tuple) else _t(a) if isinstance(a, list) else a
        for a in call
    ]


def _flat(out):
    if isinstance(out, list | tuple):
        return [y for z in out for y in _flat(z)]
    return [np.asarray(out.numpy() if hasattr(out, "numpy") else out)]


def _assert_same(got, want):
    got, want = _flat(got), _flat(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def _entries(sf):
    return [e for es in sf._cache.values() for e in es]


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_compiles_to_one_program_and_equals_eager(name):
    fn = getattr(C, name)
    sf = paddle.jit.to_static(fn, full_graph=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning
        for call in COMPILED[name]:
            for _ in range(3):  # discovery, compiled, cached
                _assert_same(sf(*_args(call)), fn(*_args(call)))
    entries = _entries(sf)
    assert entries and all(e.compiled is not None and not e.eager for e in entries)
    assert len(entries) == len({(k[0], k[1]) for k in sf._cache})  # one per input signature


@pytest.mark.parametrize("name", sorted(FALLBACK))
def test_falls_back_once_with_the_reason_and_line(name):
    calls, reason = FALLBACK[name]
    fn = getattr(C, name)
    sf = paddle.jit.to_static(fn)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for call in calls:
            for _ in range(3):
                _assert_same(sf(*_args(call)), fn(*_args(call)))
    msgs = [str(m.message) for m in w if "to_static" in str(m.message)]
    assert len(msgs) == 1 and reason in msgs[0] and "dy2static_cases.py" in msgs[0], msgs
    strict = paddle.jit.to_static(fn, full_graph=True)
    strict(*_args(calls[0]))
    with pytest.raises(RuntimeError, match='dy2static_cases.py", line'):
        strict(*_args(calls[0]))


def test_assert_on_a_tensor_raises_after_the_compiled_call():
    """``assert`` on a traced Tensor is a check inside the program: a failing one raises
    ValueError (Paddle's AssertOp) with the message and line; eager code raises Python's
    AssertionError; a passing one does not stop the backward."""
    sf = paddle.jit.to_static(C.asserts, full_graph=True)
    for _ in range(2):
        sf(_t(V))
    with pytest.raises(ValueError, match=r"must be true, but received false: too large: limit"):
        sf(_t([1000.0, 0.0, 0.0]))
    with pytest.raises(AssertionError, match="too large"):
        C.asserts(_t([1000.0, 0.0, 0.0]))
    x = _t(V)
    x.stop_gradient = False
    sf(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0, 2.0])


def test_python_runs_twice_before_the_first_compiled_result():
    runs = []

    def f(x):
        runs.append(1)
        if x.sum() > 0:
            x = x * 2
        return x

    sf = paddle.jit.to_static(f)
    for _ in range(4):
        sf(_t(V))
    assert len(runs) == 2  # the eager discovery and one trace

    def g(x):  # an assert on a Tensor: the one trace is checkified from the start
        runs.append(1)
        assert x.sum() > 0, "positive"
        return x * 2

    runs.clear()
    sg = paddle.jit.to_static(g)
    for _ in range(4):
        sg(_t(V))
    assert len(runs) == 2


def test_retrace_warning_names_what_changes():
    sf = paddle.jit.to_static(lambda x, k: x * k)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        for k in range(10):
            sf(_t(V), k)
    msgs = [str(m.message) for m in w if "traced" in str(m.message)]
    assert len(msgs) == 1 and "Python value" in msgs[0] and "input 1" in msgs[0]


def test_variable_from_one_branch_raises_when_used():
    def f(x):
        if x.sum() > 0:
            y = x * 2
        return y

    sf = paddle.jit.to_static(f)
    sf(_t(V))
    with pytest.raises(NameError, match=r"'y' is not defined on every path.*line \d+: if x"):
        sf(_t(V))


# -- Layers ---------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [C.BranchyNet, C.Stacked, C.BNBranch])
def test_layers_with_tensor_branches(cls):
    paddle.seed(1)
    eager = cls()
    paddle.seed(1)
    compiled = paddle.jit.to_static(cls())
    paddle.seed(2)
    x = paddle.randn([3, 4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for inp in [x, -x, x[:2], x, -x]:
            _assert_same(compiled(inp), eager(inp))
    for (k, a), b in zip(eager.state_dict().items(), compiled.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
    assert all(not e.eager for e in _entries(compiled.forward))


# (Layer class, seed, learning rate, inputs: x or -x per step, x's seed, shape and scale)
TRAIN_STEPS = {
    "tensor if": (C.BranchyNet, 3, 0.1, [1, -1, 1, -1], 2, [3, 4], 1.0),
    "tensor while": (C.EarlyExitRNN, 2, 0.5, [1, 1, 1], 5, [2, 8], 0.1),
}


@pytest.mark.parametrize("case", sorted(TRAIN_STEPS))
def test_compiled_train_step_differentiates_through_control_flow(case):
    cls, seed, lr, signs, x_seed, shape, scale = TRAIN_STEPS[case]

    def make():
        paddle.seed(seed)
        m = cls()
        return m, paddle.optimizer.SGD(lr, parameters=m.parameters())

    def step(m, opt, x):
        out = m(x)
        loss = (out[0] if isinstance(out, tuple) else out).pow(2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    (m1, o1), (m2, o2) = make(), make()
    compiled = paddle.jit.to_static(step)
    paddle.seed(x_seed)
    x = paddle.randn(shape) * scale
    for sign in signs:
        inp = x * sign
        np.testing.assert_allclose(float(compiled(m2, o2, inp)), float(step(m1, o1, inp)), 1e-5)
    for p, q in zip(m1.parameters(), m2.parameters()):
        np.testing.assert_allclose(q.numpy(), p.numpy(), rtol=1e-5, atol=1e-6)


# name -> inputs, each called eagerly and compiled on Tensors that need grad
INPUT_GRADS = {
    "if_else": [V, V, [-1.0, -2.0, -0.5], [-1.0, -2.0, -0.5]],
    "while_tensor": [V, V, V],
    # a Tensor while inside a Tensor if: JAX differentiates the if through the loop's rule
    "while_inside_if": [V, V, [-1.0, -2.0, -0.5]],
    "while_reads_branch_value": [V, V, [0.5, -0.25, 1.0]],
}


@pytest.mark.parametrize("name", sorted(INPUT_GRADS))
def test_input_gradient_of_compiled_control_flow_from_eager_code(name):
    fn = getattr(C, name)
    sf = paddle.jit.to_static(fn)
    for v in INPUT_GRADS[name]:
        a, b = _t(v), _t(v)
        a.stop_gradient = b.stop_gradient = False
        (fn(a) ** 2).sum().backward()
        (sf(b) ** 2).sum().backward()
        np.testing.assert_allclose(b.grad.numpy(), a.grad.numpy(), rtol=1e-6)


def test_early_exit_rnn_compiles_and_differentiates():
    """A Tensor while loop (with a Tensor break) is one lax.while_loop; its gradients (by
    recomputation, dy2static/while_grad.py) equal eager's, from eager code and inside a
    compiled train step."""
    paddle.seed(2)
    eager = C.EarlyExitRNN()
    paddle.seed(2)
    compiled = paddle.jit.to_static(C.EarlyExitRNN())
    paddle.seed(5)
    x = paddle.randn([2, 8]) * 0.1
    for _ in range(3):
        (he, se), (hc, sc) = eager(x), compiled(x)
        _assert_same((hc, sc), (he, se))
        assert 1 < int(sc) < 20
        he.sum().backward()
        hc.sum().backward()
        for p, q in zip(eager.parameters(), compiled.parameters()):
            np.testing.assert_allclose(q.grad.numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-7)
        eager.clear_gradients()
        compiled.clear_gradients()


# -- Python semantics are kept ------------------------------------------------------------------
PY_CALLS = [
    (C.py_loops, [(0,), (3,), (5,), (12,)]),
    (C.py_returns, [(0, 0), (2, 1), (1, 5), (-1, -1), (-9, 3), (99, 1), (5, 5), (-3, 4)]),
    (C.py_scopes, [(1,), (1, 2, -3, 4), (0, {"key": 5, "z": 1}), (2, 1, {"key": 0})]),
]


@pytest.mark.parametrize("fn,calls", PY_CALLS, ids=[f.__name__ for f, _ in PY_CALLS])
def test_converted_python_keeps_python_semantics(fn, calls):
    from paddle_compat.jit.dy2static import convert_function

    conv = convert_function(fn)
    assert conv is not fn
    for call in calls:
        args, kwargs = (call[:-1], call[-1]) if isinstance(call[-1], dict) else (call, {})
        assert conv(*args, **kwargs) == fn(*args, **kwargs)


def test_zero_argument_super_in_a_converted_forward():
    m = paddle.jit.to_static(C.PySuper())
    for _ in range(3):
        out, n = m(_t(V))
        np.testing.assert_allclose(out.numpy(), np.array(V) * 2)
        assert n == 0


# -- paddle.static.nn control flow: eager behaviour and errors as Paddle's ------------------------
def test_static_nn_eager_results():
    nn = paddle.static.nn
    x = _t([1.0])
    assert float(nn.cond(x > 0, lambda: x * 2, lambda: x - 1)) == 2.0
    assert nn.cond(x > 0, lambda: None, None) is None
    out = nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * 2], [_t(0, "int64"), _t(1.0)])
    assert isinstance(out, list) and int(out[0]) == 3 and float(out[1]) == 8.0
    assert float(nn.case([(x < 0, lambda: x), (x > 5, lambda: x * 10)])) == 10.0
    assert float(nn.switch_case(_t(5, "int64"), [lambda: x, lambda: x + 1])) == 2.0
    got = nn.switch_case(_t(5, "int64"), [(0, lambda: x), (3, lambda: x)], default=lambda: x * 0)
    assert float(got) == 0.0


@pytest.mark.parametrize(
    "call,exc,msg",
    [
        (lambda nn, x: nn.cond(1, lambda: 1, lambda: 2), AssertionError, "must be Variable"),
        (lambda nn, x: nn.cond(_t([True, False], "bool"), lambda: 1, None), AssertionError,
         "numel should be 1"),
        (lambda nn, x: nn.while_loop(1, lambda i: i, [x]), TypeError, "cond in while_loop"),
        (lambda nn, x: nn.while_loop(lambda i: i < 3, lambda i: i, []), ValueError,
         "should not be empty"),
        (lambda nn, x: nn.while_loop(lambda i: i < 3, 5, [x]), TypeError, "body in while_loop"),
        (lambda nn, x: nn.case([]), IndexError, "out of range"),
        (lambda nn, x: nn.case([(x > 0, 5)]), TypeError, "must be callable"),
        (lambda nn, x: nn.switch_case(_t(1, "int64"), []), IndexError, "out of range"),
    ],
)  # fmt: skip
def test_static_nn_errors_as_paddle(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call(paddle.static.nn, _t([1.0]))


# -- paddle.jit.marker ----------------------------------------------------------------------------
def test_markers():
    marker = paddle.jit.marker

    @marker.force_dynamic
    def host(x):  # a host read: runs eagerly, without a fallback warning
        return float(x.sum().numpy())

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sf = paddle.jit.to_static(host)
        assert [sf(_t(V)) for _ in range(3)] == [3.5] * 3

    @marker.unified
    def plain(x):
        if x.sum() > 0:
            return x
        return -x

    from paddle_compat.jit.dy2static import convert_function

    assert convert_function(plain) is plain and marker.capture_control_flow(plain) is plain
    t = paddle.ones([2, 3])
    marker.dynamic_dims(t, [0, -1])
    assert getattr(t, marker.DYNAMIC_DIMS_ATTR_NAME) == (0, 1)
    with pytest.raises(ValueError, match="out of range"):
        marker.dynamic_dims(t, 2)


def test_print_shows_the_values_of_each_compiled_run(capsys):
    import jax

    sf = paddle.jit.to_static(C.prints, full_graph=True)
    outs = []
    for v in (1.0, 2.0, 0.1, 3.0):
        x = paddle.full([2], v)
        C.prints(x)
        eager = capsys.readouterr().out
        sf(x)
        jax.effects_barrier()
        outs.append((capsys.readouterr().out, eager))
    assert all(got == want for got, want in outs), outs
    assert "big" in outs[3][0] and "[6., 6.]" in outs[3][0]


def test_code_level_and_verbosity_print_the_conversion(capsys):
    from paddle_compat.jit.dy2static import convert

    saved = dict(convert._settings)
    try:
        paddle.jit.set_code_level(100, also_to_stdout=True)
        paddle.jit.set_verbosity(2, also_to_stdout=True)
        convert._CODES.pop(C.logical_not.__code__, None)
        convert._FUNCS.pop(C.logical_not, None)
        convert.convert_function(C.logical_not)
        out = capsys.readouterr().out
        assert "After the transform pass 4" in out and "_jst.convert_logical_not" in out
        assert "logical_not (" in out and "is converted" in out
        with pytest.raises(TypeError, match="level should be int"):
            paddle.jit.set_code_level("2")
    finally:
        convert._settings.update(saved)
