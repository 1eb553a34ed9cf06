"""The extra paddle.* / Tensor API (math_extra, math_misc, stat_extra, attribute,
manip_extra, tensor_methods, _api_extra) beyond the goldens: tracing under jit/to_static,
data-dependent errors, aliases sharing one op, dlpack, and tools/api_coverage.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import paddle
from paddle_compat._core.tensor import Tensor
from paddle_compat._core.trace_state import DataDependentError

ROOT = Path(__file__).resolve().parents[1]


def _traced(fn, *arrays):
    """fn over Tensors, run eagerly and under jax.jit; returns both results."""
    eager = fn(*[paddle.to_tensor(a) for a in arrays])
    jitted = jax.jit(
        lambda *xs: jax.tree_util.tree_map(
            lambda t: t._value,
            fn(*[Tensor(x) for x in xs]),
            is_leaf=lambda t: isinstance(t, Tensor),
        )
    )(*[jnp.asarray(a) for a in arrays])
    return eager, jitted


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: paddle.cummax(x, axis=1)[0] + paddle.cummin(x, axis=0)[0],
        lambda x: paddle.logcumsumexp(x, axis=1) + paddle.hypot(x, x),
        lambda x: paddle.quantile(x, [0.25, 0.5], axis=1),
        lambda x: paddle.nanmedian(x, axis=1, mode="min")[0],
        lambda x: paddle.diff(x, n=2) * 2,
        lambda x: paddle.take(x, paddle.to_tensor([0, 5, -1])),
        lambda x: paddle.histogram(x, bins=3),
        lambda x: paddle.as_real(paddle.complex(x, x)).sum(-1),
        lambda x: paddle.trapezoid(x, dx=0.5) + paddle.renorm(x, 2, 0, 1.0).sum(1),
        lambda x: paddle.scatter_add(x, 0, paddle.to_tensor([[0, 1, 0], [1, 0, 1]]), x),
        lambda x: paddle.gcd(x, x + 1.0),
    ],
)
def test_traces_like_eager(fn):
    x = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
    eager, jitted = _traced(fn, x)
    np.testing.assert_allclose(np.asarray(jitted), eager.numpy(), rtol=1e-6)


def test_bincount_is_data_dependent_under_trace():
    with pytest.raises(DataDependentError, match="paddle.bincount"):
        jax.jit(lambda a: paddle.bincount(Tensor(a))._value)(jnp.array([1, 2]))


def test_to_static_function_uses_extra_ops():
    @paddle.jit.to_static
    def f(x):
        v, _ = paddle.cummax(x, axis=0)
        return paddle.logaddexp(v, paddle.deg2rad(x)).mean()

    x = paddle.to_tensor([1.0, 3.0, 2.0])
    want = np.logaddexp([1.0, 3.0, 3.0], np.deg2rad([1.0, 3.0, 2.0])).mean()
    np.testing.assert_allclose(f(x).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(
        f(x * 2).numpy(),
        np.logaddexp([2.0, 6.0, 6.0], np.deg2rad([2.0, 6.0, 4.0])).mean(),
        rtol=1e-6,
    )


def test_aliases_share_one_op():
    from paddle_compat._core.registry import REGISTRY

    assert paddle.eq is REGISTRY["equal"] and paddle.cat is paddle.concat
    assert paddle.clamp is paddle.clip and paddle.div is paddle.divide
    x = paddle.to_tensor([1.0, -2.0])
    assert x.div(x).tolist() == [1.0, 1.0] and x.lt(x).tolist() == [False, False]
    assert x.clamp_(0.0, 1.0) is x and x.tolist() == [1.0, 0.0]


def test_inplace_alias_autograd():
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = a * 1.0
    b.mul_(paddle.to_tensor([3.0, 4.0]))
    b.sub_(paddle.to_tensor([1.0, 1.0]))
    b.sum().backward()
    assert a.grad.tolist() == [3.0, 4.0]


def test_increment_refuses_leaf_requiring_grad():
    leaf = paddle.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(ValueError, match="inplace"):
        paddle.increment(leaf)


def test_dlpack_roundtrip_with_numpy():
    x = paddle.to_tensor([[1.0, 2.0]])
    np.testing.assert_array_equal(np.from_dlpack(x), [[1.0, 2.0]])
    y = paddle.from_dlpack(paddle.to_dlpack(x))
    assert y.dtype == paddle.float32 and y.tolist() == [[1.0, 2.0]]


def test_tensor_to_and_properties():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert x.to("cpu") is x and x.to(paddle.float32) is x
    y = x.to("float64")
    assert y.dtype == paddle.float64 and not y.stop_gradient
    assert x.requires_grad and x.grad_fn is None and (x * 2).grad_fn is not None
    assert x.device == "cpu" and x.get_device() == -1 and x.itemsize == 4


def _coverage_tool():
    spec = importlib.util.spec_from_file_location(
        "api_coverage", ROOT / "tools" / "api_coverage.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_api_coverage_dump_and_diff():
    tool = _coverage_tool()
    ref = {
        "namespaces": {
            "paddle": {
                "abs": {"kind": "function", "module": "paddle.tensor.math"},
                "nope_fn": {"kind": "function", "module": "paddle.x"},
            },
            "paddle.Tensor": {
                "abs": {"kind": "method", "module": None},
                "nope_m": {"kind": "method", "module": None},
            },
        }
    }
    ours = tool.dump(["paddle", "paddle.Tensor"], ref)
    assert ours["namespaces"]["paddle"]["abs"]["kind"] == "function"
    assert ours["namespaces"]["paddle.Tensor"]["shape"]["kind"] == "property"
    d = tool.diff(ref, ours)
    assert d["paddle"]["function"] == {
        "total": 2,
        "present": 1,
        "missing": {"paddle.x": ["nope_fn"]},
    }
    assert d["paddle.Tensor"]["method"]["present"] == 1
