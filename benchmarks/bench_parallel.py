"""Sharded training step on the 8-device CPU mesh against the single-device step.

A 2-layer MLP (column-parallel then row-parallel Linear, Megatron layout) on a 2x4 (dp x mp)
mesh via ``dist.shard_layer``, batch split over dp, one ``paddle.jit.to_static`` step
(forward, backward, AdamW) per call; the same model and step on one device; and the same
sharded step written directly in JAX (``jax.jit`` + NamedSharding + optax) to show what our
layer adds. Eager (op-by-op) steps are timed too. The 8 "devices" are threads of this CPU, so
the sharded step is not expected to be faster here: correctness is the bar, the ratio shows
the partitioning overhead. Reports the best of several repeats.

    /work/venv/bin/python benchmarks/bench_parallel.py [batch] [hidden]
"""

from __future__ import annotations

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import json  # noqa: E402
import sys  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
import paddle.distributed as dist  # noqa: E402
from _timing import best_us  # noqa: E402
from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import paddle  # noqa: E402

_best = best_us


def _shard_fn(name, layer, mesh):
    if name == "0":
        layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(1)])
        layer.bias = dist.shard_tensor(layer.bias, mesh, [dist.Replicate(), dist.Shard(0)])
    elif name == "2":
        layer.weight = dist.shard_tensor(layer.weight, mesh, [dist.Replicate(), dist.Shard(0)])


def _paddle_step(mesh, batch, hidden, static=True):
    paddle.seed(0)
    d = hidden // 4
    net = paddle.nn.Sequential(
        paddle.nn.Linear(d, hidden), paddle.nn.ReLU(), paddle.nn.Linear(hidden, d)
    )
    if mesh is not None:
        dist.shard_layer(net, mesh, _shard_fn)
    opt = paddle.optimizer.AdamW(1e-3, parameters=net.parameters())

    def step(x, y):
        loss = paddle.nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if static:
        step = paddle.jit.to_static(step)
    r = np.random.default_rng(0)
    x = paddle.to_tensor(r.standard_normal((batch, d)).astype("float32"))
    y = paddle.to_tensor(r.standard_normal((batch, d)).astype("float32"))
    if mesh is not None:
        x = dist.shard_tensor(x, mesh, [dist.Shard(0), dist.Replicate()])
        y = dist.shard_tensor(y, mesh, [dist.Shard(0), dist.Replicate()])

    def run():
        loss = step(x, y)
        jax.block_until_ready(loss._value)

    return run


def _jax_step(jmesh, batch, hidden):
    d = hidden // 4
    r = np.random.default_rng(0)
    specs = {"w1": P(None, "mp"), "b1": P("mp"), "w2": P("mp", None), "b2": P()}
    params = {
        "w1": r.standard_normal((d, hidden)),
        "b1": np.zeros(hidden),
        "w2": r.standard_normal((hidden, d)),
        "b2": np.zeros(d),
    }
    params = {
        k: jax.device_put(jnp.asarray(v, jnp.float32) * 0.05, NamedSharding(jmesh, specs[k]))
        for k, v in params.items()
    }
    tx = optax.adamw(1e-3, weight_decay=0.01)
    state = tx.init(params)
    data = NamedSharding(jmesh, P("dp", None))
    x = jax.device_put(jnp.asarray(r.standard_normal((batch, d)), jnp.float32), data)
    y = jax.device_put(jnp.asarray(r.standard_normal((batch, d)), jnp.float32), data)

    def loss_fn(p, x, y):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        return jnp.mean((h @ p["w2"] + p["b2"] - y) ** 2)

    @jax.jit
    def step(p, s, x, y):
        loss, g = jax.value_and_grad(loss_fn)(p, x, y)
        upd, s = tx.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    box = [params, state]

    def run():
        box[0], box[1], loss = step(box[0], box[1], x, y)
        jax.block_until_ready(loss)

    return run


def main(batch: int = 64, hidden: int = 1024) -> dict:
    mesh = dist.ProcessMesh([[0, 1, 2, 3], [4, 5, 6, 7]], dim_names=["dp", "mp"])
    res = {
        "single_static_us": _best(_paddle_step(None, batch, hidden)),
        "sharded_static_us": _best(_paddle_step(mesh, batch, hidden)),
        "jax_sharded_us": _best(_jax_step(mesh.jax_mesh, batch, hidden)),
        "single_eager_us": _best(_paddle_step(None, batch, hidden, static=False), n=5),
        "sharded_eager_us": _best(_paddle_step(mesh, batch, hidden, static=False), n=5),
    }
    res["sharded_vs_single_static"] = res["sharded_static_us"] / res["single_static_us"]
    res["sharded_vs_jax"] = res["sharded_static_us"] / res["jax_sharded_us"]
    res["sharded_vs_single_eager"] = res["sharded_eager_us"] / res["single_eager_us"]
    print(
        f"MLP {hidden // 4}->{hidden}->{hidden // 4}, batch {batch}, mesh 2x4 (dp x mp) on "
        f"{len(jax.devices())} CPU devices, {os.cpu_count()} cores"
    )
    print(
        f"  to_static step: single device {res['single_static_us']:.0f} us, sharded "
        f"{res['sharded_static_us']:.0f} us (x{res['sharded_vs_single_static']:.2f}); "
        f"hand-written JAX sharded {res['jax_sharded_us']:.0f} us "
        f"(ours x{res['sharded_vs_jax']:.2f})"
    )
    print(
        f"  eager step: single device {res['single_eager_us']:.0f} us, sharded "
        f"{res['sharded_eager_us']:.0f} us (x{res['sharded_vs_single_eager']:.2f})"
    )
    print(json.dumps({k: round(v, 3) for k, v in res.items()}))
    return res


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:3]])
