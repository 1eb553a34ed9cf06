"""Random ops: seeding and reproducibility, RNG state, default dtypes, rough distribution
moments, and key threading (values can't match Paddle's RNG, so goldens can't check these)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

import paddle
from paddle_compat._core.random import next_key

N = 20000  # one shape for all moment checks: one compile per kernel


def test_same_seed_same_numbers():
    paddle.seed(123)
    a = [paddle.rand([4]).numpy(), paddle.randn([4]).numpy(), paddle.randint(0, 9, [4]).numpy()]
    paddle.seed(123)
    b = [paddle.rand([4]).numpy(), paddle.randn([4]).numpy(), paddle.randint(0, 9, [4]).numpy()]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_successive_calls_differ():
    paddle.seed(7)
    a, b = paddle.rand([8]).numpy(), paddle.rand([8]).numpy()
    assert not np.array_equal(a, b)
    paddle.seed(8)
    assert not np.array_equal(paddle.rand([8]).numpy(), a)


def test_rng_state_roundtrip():
    paddle.seed(1)
    state = paddle.get_rng_state()
    assert isinstance(state, list) and len(state) == 1
    a = paddle.randn([5]).numpy()
    paddle.randn([5])
    paddle.set_rng_state(state)
    np.testing.assert_array_equal(paddle.randn([5]).numpy(), a)
    assert paddle.get_cuda_rng_state is not None


def test_uniform_seed_argument_is_fixed():
    a = paddle.uniform([3], seed=42).numpy()
    paddle.rand([1])
    np.testing.assert_array_equal(paddle.uniform([3], seed=42).numpy(), a)
    assert not np.array_equal(paddle.uniform([3]).numpy(), paddle.uniform([3]).numpy())


def test_default_dtype_respected():
    paddle.set_default_dtype("float64")
    try:
        for t in (
            paddle.rand([2]),
            paddle.randn([2]),
            paddle.uniform([2]),
            paddle.normal(shape=[2]),
            paddle.standard_normal([2]),
        ):
            assert t.dtype == paddle.float64
    finally:
        paddle.set_default_dtype("float32")
    assert paddle.rand([2]).dtype == paddle.float32
    assert paddle.randint(0, 3, [2]).dtype == paddle.int64
    assert paddle.randperm(3).dtype == paddle.int64


@pytest.mark.parametrize(
    "make,mean,std",
    [
        (lambda: paddle.rand([N]), 0.5, (1 / 12) ** 0.5),
        (lambda: paddle.randn([N]), 0.0, 1.0),
        (lambda: paddle.uniform([N], min=-2.0, max=4.0), 1.0, 6 / 12**0.5),
        (lambda: paddle.normal(3.0, 0.5, [N]), 3.0, 0.5),
        (lambda: paddle.randint(0, 10, [N]), 4.5, (99 / 12) ** 0.5),
        (lambda: paddle.bernoulli(paddle.full([N], 0.3)), 0.3, (0.21) ** 0.5),
        (lambda: paddle.poisson(paddle.full([N], 4.0)), 4.0, 2.0),
        (lambda: paddle.standard_gamma(paddle.full([N], 2.0)), 2.0, 2**0.5),
        (lambda: paddle.zeros([N]).exponential_(2.0), 0.5, 0.5),
        (lambda: paddle.zeros([N]).normal_(-1.0, 2.0), -1.0, 2.0),
        (lambda: paddle.zeros([N]).uniform_(0.0, 2.0), 1.0, 2 / 12**0.5),
        (
            lambda: paddle.binomial(paddle.full([N], 10, "int64"), paddle.full([N], 0.5)),
            5.0,
            2.5**0.5,
        ),
    ],
)
def test_moments(make, mean, std):
    a = make().numpy().astype(np.float64)
    assert abs(a.mean() - mean) < 5 * std / N**0.5 + 1e-3
    assert abs(a.std() - std) < 0.05 * std


def test_normal_with_tensor_mean_std_is_differentiable():
    m = paddle.to_tensor(np.zeros(N, "float32"), stop_gradient=False)
    s = paddle.to_tensor(np.full(N, 2.0, "float32"), stop_gradient=False)
    r = paddle.normal(m, s)
    assert not r.stop_gradient
    assert abs(float(r.numpy().std()) - 2.0) < 0.1
    r.sum().backward()
    np.testing.assert_allclose(m.grad.numpy(), 1.0)
    # d(z * s + m)/ds = z = (r - m) / s: the backward reuses the forward's key
    np.testing.assert_allclose(s.grad.numpy(), r.numpy() / 2.0, rtol=1e-5, atol=1e-6)


def test_randperm_multinomial_properties():
    assert sorted(paddle.randperm(50).numpy().tolist()) == list(range(50))
    p = paddle.to_tensor([0.1, 0.0, 0.6, 0.3])
    draws = paddle.multinomial(p, N, replacement=True).numpy()
    freq = np.bincount(draws, minlength=4) / N
    np.testing.assert_allclose(freq, [0.1, 0.0, 0.6, 0.3], atol=0.02)
    for _ in range(3):
        wo = paddle.multinomial(paddle.to_tensor([[1.0, 1.0, 1.0, 0.0]]), 3).numpy()[0]
        assert sorted(wo.tolist()) == [0, 1, 2]


def test_in_place_fills_keep_identity_and_graph():
    x = paddle.zeros([3])
    assert x.uniform_() is x and x.normal_() is x
    leaf = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = leaf * 3
    y.uniform_()  # a non-leaf: the fill is recorded with a zero gradient
    assert not y.stop_gradient
    (y * 2).sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), [0.0, 0.0])


def test_key_is_a_tensor_input_under_jit():
    """The generator state threads through a traced function: two keys drawn inside a trace
    differ, and the state advances when the trace writes it back."""
    from paddle_compat._core.random import default_generator

    def draw(state):
        default_generator._key._set_value(state)
        a, b = next_key(), next_key()
        return a, b, default_generator._key._value

    before = np.asarray(default_generator._key._value)
    a, b, after = jax.jit(draw)(default_generator._key._value)
    default_generator._key._set_value(before)
    assert not np.array_equal(a, b) and not np.array_equal(after, before)


def test_to_static_threads_the_generator():
    f = paddle.jit.to_static(lambda x: x + paddle.rand([3]))
    z = paddle.zeros([3])
    a, b = f(z).numpy(), f(z).numpy()
    assert not np.array_equal(a, b)
    paddle.seed(11)
    c = f(z).numpy()
    paddle.seed(11)
    np.testing.assert_array_equal(f(z).numpy(), c)


def test_import_keeps_numpy_global_random_state():
    """A script that seeds numpy before ``import paddle`` draws what it draws with real Paddle
    (JAX's import draws from numpy's global state; the import restores it)."""
    import subprocess
    import sys

    code = (
        "import numpy as np; np.random.seed(7); import paddle; "
        "print(np.random.rand(3).tolist() == np.random.RandomState(7).rand(3).tolist())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "True", out.stderr[-2000:]
