"""SyncBatchNorm across the 8-device CPU mesh (conftest sets the XLA flag): with the batch
sharded over the devices, training-mode statistics are those of the whole batch, so outputs,
gradients and running statistics equal the single-device run, eager and under to_static, and
the compiled step reduces the statistics across devices."""

from __future__ import annotations

import jax
import numpy as np
import paddle.distributed as dist
import pytest

import paddle

pytestmark = pytest.mark.skipif(len(jax.devices()) < 8, reason="needs the 8-device CPU mesh")

X = np.random.default_rng(0).standard_normal((8, 3, 5, 5)).astype("float32") * 2 + 1


def _net():
    paddle.seed(3)
    return paddle.nn.Sequential(
        paddle.nn.Conv2D(3, 4, 3), paddle.nn.SyncBatchNorm(4), paddle.nn.ReLU()
    )


def _run(sharded: bool, static: bool):
    net = _net()
    x = paddle.to_tensor(X, stop_gradient=False)
    if sharded:
        mesh = dist.ProcessMesh(list(range(8)), dim_names=["dp"])
        x = dist.shard_tensor(x, mesh, [dist.Shard(0)])

    def step(inp):
        y = net(inp)
        (y * y).mean().backward()
        return y

    fn = paddle.jit.to_static(step) if static else step
    y = fn(x)
    bn = net[1]
    out = {"y": y.numpy(), "mean": bn._mean.numpy(), "var": bn._variance.numpy()}
    out.update({n: p.grad.numpy() for n, p in net.named_parameters() if not p.stop_gradient})
    return out, fn


@pytest.mark.parametrize("static", [False, True], ids=["eager", "to_static"])
def test_sharded_batch_gives_whole_batch_statistics(static):
    single, _ = _run(False, static)
    sharded, fn = _run(True, static)
    for key, want in single.items():
        np.testing.assert_allclose(sharded[key], want, rtol=2e-5, atol=2e-6, err_msg=key)
    # per-device statistics would differ from the whole batch's
    per_device = X[:1].mean(axis=(0, 2, 3))
    assert not np.allclose(per_device, X.mean(axis=(0, 2, 3)), atol=1e-2)
