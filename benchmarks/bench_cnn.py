"""A training step of ResNet-18 (``paddle.vision.models.resnet18``, 1000 classes; batch 8 of
3x64x64 NCHW images, cross-entropy, forward + backward + SGD update, BatchNorm in training mode
updating its running statistics): paddle-compat eager and to_static, real Paddle eager on CPU
(same run, side venv), and a hand-written JAX twin (``jax.lax.conv_general_dilated`` in NCHW /
OIHW, float32, ``jax.jit`` of ``jax.value_and_grad`` and the update, the running statistics
carried). The update keeps the gradients live: a compiled step whose gradients go unused would
let XLA drop the backward.

    .venv/bin/python benchmarks/bench_cnn.py [--nhwc]

``--nhwc`` also times the twin in NHWC / HWIO layout (the one XLA:CPU's convolution kernels take).
Prints milliseconds per step, the ratios against Paddle and the JAX twin, the first-call
(compile) times, the to_static / twin ratio of alternating rounds and the memory of the two
compiled steps (``_timing.static_step_memory``); the last line is the JSON of the numbers
(with ``--nhwc``, of the NHWC twin's).
"""

from __future__ import annotations

import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import (  # noqa: E402
    first_and_steady_ms,
    paddle_side,
    report_train_step,
    run_inner_paddle,
    time_jax_sgd,
    time_static_step,
)

BATCH, SIZE, CLASSES = 8, 64, 1000
_STAGES = [(64, 1), (128, 2), (256, 2), (512, 2)]  # (channels, stride of the first block)


def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((BATCH, 3, SIZE, SIZE)).astype("float32")
    return x, rng.integers(0, CLASSES, (BATCH,)).astype("int64")


def _paddle_step(paddle, model, x, y):
    opt = paddle.optimizer.SGD(1e-3, parameters=model.parameters())

    def step():
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def _time_step(fn) -> tuple[float, float, float]:
    return first_and_steady_ms(fn, n=3, repeats=3, warmup=1)


def _setup(paddle):
    paddle.seed(0)
    model = paddle.vision.models.resnet18()
    model.train()
    x, y = _data()
    return model, paddle.to_tensor(x), paddle.to_tensor(y)


def _run_paddle(paddle) -> dict:
    first, steady, cpu = _time_step(_paddle_step(paddle, *_setup(paddle)))
    return {"eager_first_ms": first, "eager_ms": steady, "eager_cpu_ms": cpu}


def _jax_twin(nhwc: bool = False, against=None) -> dict:
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    f32 = jnp.float32  # explicitly: paddle_compat turns on jax_enable_x64
    spec = ("NHWC", "HWIO", "NHWC") if nhwc else ("NCHW", "OIHW", "NCHW")
    caxis, spatial = (3, (1, 2)) if nhwc else (1, (2, 3))

    def conv_w(cin, cout, k):
        w = rng.standard_normal((cout, cin, k, k)) * np.sqrt(2 / (cin * k * k))
        return jnp.asarray(w.transpose(2, 3, 1, 0) if nhwc else w, f32)

    def bn(c):
        return {"g": jnp.ones(c, f32), "b": jnp.zeros(c, f32)}

    def stats(c):
        return {"mean": jnp.zeros(c, f32), "var": jnp.ones(c, f32)}

    params = {"conv1": conv_w(3, 64, 7), "bn1": bn(64), "blocks": []}
    state = {"bn1": stats(64), "blocks": []}
    cin = 64
    for cout, stride in _STAGES:
        for i in range(2):
            s = stride if i == 0 else 1
            p = {"c1": conv_w(cin, cout, 3), "b1": bn(cout), "c2": conv_w(cout, cout, 3)}
            p["b2"] = bn(cout)
            st = {"b1": stats(cout), "b2": stats(cout)}
            if s != 1 or cin != cout:
                p["down"], p["bd"], st["bd"] = conv_w(cin, cout, 1), bn(cout), stats(cout)
            params["blocks"].append(p)
            state["blocks"].append(st)
            cin = cout
    b = 1 / np.sqrt(512)
    params["fc"] = [
        jnp.asarray(rng.uniform(-b, b, (512, CLASSES)), f32),
        jnp.asarray(rng.uniform(-b, b, CLASSES), f32),
    ]
    strides = [s if i == 0 else 1 for _, s in _STAGES for i in range(2)]

    def conv(x, w, stride, pad):
        return jax.lax.conv_general_dilated(
            x, w, (stride, stride), [(pad, pad)] * 2, dimension_numbers=spec
        )

    def batch_norm(x, p, st):
        shape = [1, 1, 1, 1]
        shape[caxis] = -1
        axes = (0, *spatial)
        mean = x.mean(axes)
        var = ((x - mean.reshape(shape)) ** 2).mean(axes)
        y = (x - mean.reshape(shape)) * jax.lax.rsqrt(var.reshape(shape) + 1e-5)
        new = {"mean": 0.9 * st["mean"] + 0.1 * mean, "var": 0.9 * st["var"] + 0.1 * var}
        return y * p["g"].reshape(shape) + p["b"].reshape(shape), jax.lax.stop_gradient(new)

    def max_pool(x):  # 3x3, stride 2, padding 1
        window = [1, 1, 1, 1]
        stride_ = [1, 1, 1, 1]
        pads = [(0, 0)] * 4
        for a in spatial:
            window[a], stride_[a], pads[a] = 3, 2, (1, 1)
        return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, window, stride_, pads)

    def loss(params, state, inputs):
        x, y = inputs
        new = {"blocks": []}
        h, new["bn1"] = batch_norm(conv(x, params["conv1"], 2, 3), params["bn1"], state["bn1"])
        h = max_pool(jax.nn.relu(h))
        for p, st, s in zip(params["blocks"], state["blocks"], strides):
            ns = {}
            out, ns["b1"] = batch_norm(conv(h, p["c1"], s, 1), p["b1"], st["b1"])
            out, ns["b2"] = batch_norm(conv(jax.nn.relu(out), p["c2"], 1, 1), p["b2"], st["b2"])
            if "down" in p:
                h, ns["bd"] = batch_norm(conv(h, p["down"], s, 0), p["bd"], st["bd"])
            h = jax.nn.relu(out + h)
            new["blocks"].append(ns)
        logits = h.mean(spatial) @ params["fc"][0] + params["fc"][1]
        logp = jax.nn.log_softmax(logits)
        return -jnp.take_along_axis(logp, y[:, None], 1).mean(), new

    x, y = _data()
    x = jnp.asarray(x.transpose(0, 2, 3, 1) if nhwc else x, f32)
    return time_jax_sgd(
        loss, params, (x, jnp.asarray(y)), state=state, against=against, n=3, repeats=3, warmup=1
    )


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _run_paddle(paddle)
    static = paddle.jit.to_static(_paddle_step(paddle, *_setup(paddle)))
    ours.update(time_static_step(static, n=3, repeats=3, warmup=1))
    twin = _jax_twin(against=static)
    ref = paddle_side(__file__)
    title = (
        f"ResNet-18 train step (fwd+bwd+SGD, cross-entropy, BatchNorm training), batch {BATCH}, "
        f"3x{SIZE}x{SIZE} NCHW, {CLASSES} classes"
    )
    report_train_step(title, ours, ref, twin, "JAX twin (lax.conv, jit)")
    if "--nhwc" in sys.argv:
        nhwc = _jax_twin(nhwc=True, against=static)
        print(
            f"JAX twin in NHWC/HWIO: {nhwc['ms']:.2f} ms/step, {nhwc['cpu_ms']:.2f} CPU ms/step "
            f"({nhwc['ms'] / twin['ms']:.2f}x / {nhwc['cpu_ms'] / twin['cpu_ms']:.2f}x the NCHW "
            f"twin); to_static / NHWC twin {ours['static_ms'] / nhwc['ms']:.2f}x wall, "
            f"{ours['static_cpu_ms'] / nhwc['cpu_ms']:.2f}x CPU, "
            f"{nhwc['paired']['median']:.2f}x in alternating rounds"
        )
        print(json.dumps({"jax_nhwc": nhwc}))


if __name__ == "__main__":
    main()
