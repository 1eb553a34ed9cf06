"""One harness for every layer (pytest side): construct, forward, state_dict round-trip,
train/eval propagation, gradients, deepcopy and to_static parity.

    from layer_harness import check_layer
    def test_linear():
        check_layer(lambda: paddle.nn.Linear(3, 2), np.ones((4, 3), "float32"))

Goldens against real Paddle with identical weights use ``tests/cases/_layer_util.py``
(``layer_golden``) from a case program instead.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent / "cases"))

from _layer_util import fill_deterministic  # noqa: E402

__all__ = ["check_layer", "fill_deterministic", "to_numpy_tree"]


def to_numpy_tree(out: Any) -> Any:
    """Tensors (in nested lists/tuples/dicts) -> numpy arrays."""
    if hasattr(out, "numpy") and hasattr(out, "stop_gradient"):
        return np.asarray(out.numpy())
    if isinstance(out, list | tuple):
        return [to_numpy_tree(o) for o in out]
    if isinstance(out, dict):
        return {k: to_numpy_tree(v) for k, v in out.items()}
    return out


def _assert_close(a, b, rtol, atol, what):
    a, b = to_numpy_tree(a), to_numpy_tree(b)
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{what}: structure differs"
        for i, (x, y) in enumerate(zip(a, b)):
            _assert_close(x, y, rtol, atol, f"{what}[{i}]")
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{what}: keys differ"
        for k in a:
            _assert_close(a[k], b[k], rtol, atol, f"{what}[{k}]")
    elif isinstance(a, np.ndarray):
        assert a.shape == np.asarray(b).shape and a.dtype == np.asarray(b).dtype, (
            f"{what}: {a.shape}/{a.dtype} vs {np.asarray(b).shape}/{np.asarray(b).dtype}"
        )
        if a.dtype.kind in "fc" or str(a.dtype) == "bfloat16":
            np.testing.assert_allclose(
                a.astype(np.float64),
                np.asarray(b).astype(np.float64),
                rtol=rtol,
                atol=atol,
                err_msg=what,
            )
        else:
            np.testing.assert_array_equal(a, b, err_msg=what)
    else:
        assert a == b, f"{what}: {a!r} != {b!r}"


def _float_outputs(out) -> list:
    outs = out if isinstance(out, list | tuple) else [out]
    return [
        o
        for o in outs
        if hasattr(o, "stop_gradient")
        and str(o.dtype).replace("paddle.", "") in ("float16", "bfloat16", "float32", "float64")
    ]


def check_layer(
    make: Callable[[], Any],
    *inputs: np.ndarray,
    kwargs: dict | None = None,
    train: bool = False,
    expected_keys: Sequence[str] | None = None,
    expected_out_shape: Sequence[int] | None = None,
    backward: bool = True,
    unused_params: Sequence[str] = (),
    to_static: bool = True,
    deepcopy: bool = True,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> dict:
    """Check one layer end to end; returns ``{"layer", "out", "state_dict_keys"}``.

    ``make()`` must build a fresh layer each call (it is called twice: parameters named through
    ``ParamAttr(name=...)`` cannot be created twice in one process, as in Paddle).
    ``train=True`` runs in training mode (outputs compared across copies only when
    deterministic: pass ``to_static=False, deepcopy=False`` for dropout-like layers).
    ``unused_params``: state_dict keys of parameters that get no gradient from this input.
    """
    import paddle

    kwargs = kwargs or {}
    layer = make()
    assert isinstance(layer, paddle.nn.Layer)
    fill_deterministic(layer)
    assert isinstance(repr(layer), str)
    keys = list(layer.state_dict().keys())
    if expected_keys is not None:
        assert keys == list(expected_keys), f"state_dict keys {keys} != {list(expected_keys)}"

    # train/eval propagate to every sublayer
    layer.eval()
    assert all(not s.training for s in layer.sublayers(include_self=True))
    layer.train()
    assert all(s.training for s in layer.sublayers(include_self=True))
    layer.train(train)

    xs = [paddle.to_tensor(np.asarray(x)) for x in inputs]
    out = layer(*xs, **kwargs)
    if expected_out_shape is not None:
        first = out[0] if isinstance(out, list | tuple) else out
        assert list(first.shape) == list(expected_out_shape), (
            f"output shape {list(first.shape)} != {list(expected_out_shape)}"
        )

    # state_dict round trip through numpy into a fresh instance
    other = make()
    missing, unexpected = other.set_state_dict(
        {k: np.asarray(v.numpy()) for k, v in layer.state_dict().items()}
    )
    assert not missing and not unexpected, (missing, unexpected)
    for k, v in other.state_dict().items():
        np.testing.assert_array_equal(
            np.asarray(v.numpy()), np.asarray(layer.state_dict()[k].numpy()), err_msg=k
        )
    other.train(train)
    if not train:
        _assert_close(other(*xs, **kwargs), out, rtol, atol, "round-trip output")

    if deepcopy:
        dup = copy.deepcopy(layer)
        assert list(dup.state_dict()) == keys
        for (k, p), (_, q) in zip(layer.named_parameters(), dup.named_parameters()):
            assert p is not q, f"deepcopy shares parameter {k}"
        _assert_close(dup(*xs, **kwargs), out, rtol, atol, "deepcopy output")

    if to_static and hasattr(paddle, "jit") and hasattr(paddle.jit, "to_static"):
        static = paddle.jit.to_static(layer)
        _assert_close(static(*xs, **kwargs), out, rtol * 10, atol * 10, "to_static output")

    if backward:
        trainable = [(k, p) for k, p in layer.named_parameters() if not p.stop_gradient]
        layer.clear_gradients(set_to_zero=False)
        xs_g = [paddle.to_tensor(np.asarray(x)) for x in inputs]
        outs = _float_outputs(layer(*xs_g, **kwargs))
        if trainable and outs:
            total = outs[0].astype("float32").sum()
            for o in outs[1:]:
                total = total + o.astype("float32").sum()
            total.backward()
            for k, p in trainable:
                if k in unused_params:
                    continue
                assert p.grad is not None, f"parameter {k} got no gradient"
                assert list(p.grad.shape) == list(p.shape), f"grad shape of {k}"
                assert np.all(np.isfinite(np.asarray(p.grad.numpy(), dtype=np.float64))), k
    return {"layer": layer, "out": out, "state_dict_keys": keys}
