"""paddle.summary / paddle.flops beyond the goldens (tests/cases/hapi_summary.py, where layers are
renamed as in a fresh process): numbers read from the real name counters, hooks and counting
buffers cleaned up, Paddle's class paths in flops' messages, to_static nets, the public names.
One row per behaviour."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import numpy as np
import paddle.nn as nn
import pytest

import paddle
from paddle_compat.hapi import dynamic_flops, model_summary

sys.path.insert(0, str(Path(__file__).parent / "cases"))
from hapi_summary import LeNet, Mixed, Nested  # noqa: E402

LENET_FLOPS = 347560  # Paddle's docstring example


def _quiet(fn, *args, **kw):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = fn(*args, **kw)
    return out, buf.getvalue()


def summary_numbers_follow_full_name():
    net = Nested()
    _, text = _quiet(paddle.summary, net, (1, 3, 8, 8))
    lines = text.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("=")]
    names = [line.split()[0] for line in lines[rules[0] + 1 : rules[1]]]
    listed = [m for m in net.sublayers() if not isinstance(m, nn.Sequential | nn.LayerList)]
    want = [f"{type(m).__name__}-{int(m.full_name().rsplit('_', 1)[1]) + 1}" for m in listed]
    assert sorted(names) == sorted(want)


def summary_returns_numpy_totals():
    info, _ = _quiet(paddle.summary, LeNet(), (1, 1, 28, 28))
    assert info == {"total_params": 61610, "trainable_params": 61610}
    assert all(type(v) is np.int64 for v in info.values())


def summary_removes_hooks_and_restores_mode():
    net = LeNet()
    net.fc.eval()
    _quiet(paddle.summary, net, (1, 1, 28, 28))
    layers = net.sublayers(include_self=True)
    assert all(m.training for m in layers)
    assert not any(m._forward_post_hooks for m in layers)


def flops_table_uses_full_names():
    net = LeNet()
    total, text = _quiet(paddle.flops, net, [1, 1, 28, 28], print_detail=True)
    assert total == LENET_FLOPS and type(total) is int
    rows = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")]
    assert rows[1:] == [m.full_name() for m in net.sublayers() if not list(m.children())]


def flops_cleans_up_called_layers():
    net = Mixed()  # ``unused`` is never called: it keeps its counting buffers, as in Paddle
    _quiet(paddle.flops, net, [1, 4, 8, 8])
    assert not any(m._forward_post_hooks for m in net.sublayers(include_self=True))
    assert [n for n, _ in net.named_buffers() if "total" in n or "shape" in n] == [
        "unused.total_ops",
        "unused.total_params",
    ]
    assert net.training


def flops_prints_paddle_class_paths():
    got = {c.__name__: dynamic_flops._paddle_type(c) for c in dynamic_flops._default_rules()}
    modules = {"Linear": "common", "Dropout": "common", "BatchNorm2D": "norm", "BatchNorm": "norm"}
    modules |= {n: "activation" for n in ("ReLU", "ReLU6", "LeakyReLU")}
    for name in got:
        mod = modules.get(name) or ("conv" if name.startswith("Conv") else "pooling")
        assert got[name] == f"<class 'paddle.nn.layer.{mod}.{name}'>"
    assert dynamic_flops._paddle_type(nn.PixelShuffle) == (
        "<class 'paddle.nn.layer.vision.PixelShuffle'>"
    )
    assert dynamic_flops._paddle_type(LeNet) == str(LeNet)


def flops_counts_the_eager_forward_of_to_static():
    net = LeNet()
    paddle.jit.to_static(net)
    total, _ = _quiet(paddle.flops, net, [1, 1, 28, 28])
    assert total == LENET_FLOPS
    assert not hasattr(net.forward, "dygraph_function")


def flops_refuses_non_layers():
    with pytest.warns(UserWarning, match="must be an instance of paddle.nn.Layer"):
        assert _quiet(paddle.flops, object(), [1])[0] == -1


def public_names():
    assert paddle.summary is model_summary.summary is paddle.hapi.summary
    assert paddle.flops is dynamic_flops.flops is paddle.hapi.flops


ROWS = [
    summary_numbers_follow_full_name,
    summary_returns_numpy_totals,
    summary_removes_hooks_and_restores_mode,
    flops_table_uses_full_names,
    flops_cleans_up_called_layers,
    flops_prints_paddle_class_paths,
    flops_counts_the_eager_forward_of_to_static,
    flops_refuses_non_layers,
    public_names,
]


@pytest.mark.parametrize("check", ROWS, ids=[f.__name__ for f in ROWS])
def test_summary_and_flops(check):
    check()
