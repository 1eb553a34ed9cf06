"""Single convolution layers on CPU, forward + backward (input and weight gradients for a
random output gradient), eager:
paddle-compat against real Paddle (same run, side venv) and against the same layer written
with XLA's own convolution (``jax.lax.conv_general_dilated``, jitted forward + VJP): the
geometries where ``nn/functional/_conv_cpu.py`` takes over from XLA's kernel (maps smaller
than the kernel, few positions over many channels, strided transposed convolutions) and a
few where it does not.

    .venv/bin/python benchmarks/bench_conv_cpu.py

Prints milliseconds per forward + backward and the ratios ours / Paddle and ours / XLA's;
the last line is the JSON of the numbers.
"""

from __future__ import annotations

import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, run_inner_paddle  # noqa: E402

# (name, transposed, x shape, weight shape, stride, padding, groups)
CASES = [
    (
        "conv 8x512->512 3x3 at 2x2 (ResNet-18 stage 4, 64x64 input)",
        False,
        (8, 512, 2, 2),
        (512, 512, 3, 3),
        1,
        1,
        1,
    ),
    ("conv 8x256->512 3x3 s2 at 4x4", False, (8, 256, 4, 4), (512, 256, 3, 3), 2, 1, 1),
    (
        "conv 1x512->512 3x3 at 7x7 (stage 4, 224x224 input)",
        False,
        (1, 512, 7, 7),
        (512, 512, 3, 3),
        1,
        1,
        1,
    ),
    ("conv 8x64->64 3x3 at 16x16 (XLA's)", False, (8, 64, 16, 16), (64, 64, 3, 3), 1, 1, 1),
    ("conv 8x512->512 3x3 at 7x7 (XLA's)", False, (8, 512, 7, 7), (512, 512, 3, 3), 1, 1, 1),
    (
        "conv 8x64->64 3x3 groups 4 at 32x32 (split)",
        False,
        (8, 64, 32, 32),
        (64, 16, 3, 3),
        1,
        1,
        4,
    ),
    (
        "conv 8x128->128 3x3 groups 32 at 16x16 (ResNeXt)",
        False,
        (8, 128, 16, 16),
        (128, 4, 3, 3),
        1,
        1,
        32,
    ),
    ("conv3d 2x32->64 3x3x3 s2 at 8x16x16", False, (2, 32, 8, 16, 16), (64, 32, 3, 3, 3), 2, 1, 1),
    ("conv3d 2x16->32 3x3x3 at 16x32x32", False, (2, 16, 16, 32, 32), (32, 16, 3, 3, 3), 1, 1, 1),
    ("conv_transpose 8x512->256 4x4 s2 at 2x2", True, (8, 512, 2, 2), (512, 256, 4, 4), 2, 1, 1),
    ("conv_transpose 8x128->64 4x4 s2 at 8x8", True, (8, 128, 8, 8), (128, 64, 4, 4), 2, 1, 1),
    ("conv_transpose 8x64->32 4x4 s2 at 16x16", True, (8, 64, 16, 16), (64, 32, 4, 4), 2, 1, 1),
    ("conv_transpose 8x64->64 3x3 at 16x16", True, (8, 64, 16, 16), (64, 64, 3, 3), 1, 1, 1),
    (
        "conv_transpose 8x64->32 4x4 s2 groups 4 at 16x16",
        True,
        (8, 64, 16, 16),
        (64, 8, 4, 4),
        2,
        1,
        4,
    ),
]


def _steps(paddle, sync) -> dict:
    rng = np.random.default_rng(0)
    steps = {}
    for name, transposed, xs, ws, stride, padding, groups in CASES:
        x = paddle.to_tensor(rng.standard_normal(xs).astype("float32"), stop_gradient=False)
        w = paddle.to_tensor(0.05 * rng.standard_normal(ws).astype("float32"), stop_gradient=False)
        F = paddle.nn.functional
        conv = F.conv2d_transpose if transposed else (F.conv3d if len(xs) == 5 else F.conv2d)
        y_shape = conv(x, w, stride=stride, padding=padding, groups=groups).shape
        g = paddle.to_tensor(rng.standard_normal(y_shape).astype("float32"))

        def step(x=x, w=w, g=g, conv=conv, s=stride, p=padding, groups=groups):
            (conv(x, w, stride=s, padding=p, groups=groups) * g).sum().backward()
            grads = (x.grad, w.grad)
            x.clear_gradient(False)
            w.clear_gradient(False)
            return sync(grads)

        steps[name] = step
    return steps


def _time(steps: dict) -> dict:
    return {k: best_us(f, n=5, repeats=5, warmup=2) / 1e3 for k, f in steps.items()}


def _run_paddle(paddle) -> dict:
    return _time(_steps(paddle, lambda g: [t.numpy() for t in g]))


def _xla_steps() -> dict:
    import jax
    import jax.numpy as jnp

    from paddle_compat.nn.functional import _conv

    rng = np.random.default_rng(0)
    steps = {}
    for name, transposed, xs, ws, stride, padding, groups in CASES:
        x = jnp.asarray(rng.standard_normal(xs).astype("float32"))
        w = jnp.asarray(0.05 * rng.standard_normal(ws).astype("float32"))
        nsp = len(xs) - 2
        s, p = (stride,) * nsp, ((padding, padding),) * nsp
        if transposed:

            def conv(x, w, s=s, p=p, g=groups):
                return _conv.transpose_by_dilation(x, w, s, p, (0, 0), (1, 1), g, False)
        else:

            def conv(x, w, s=s, p=p, g=groups):
                dims = _conv._dims(len(s), False)
                return jax.lax.conv_general_dilated(
                    x, w, s, p, dimension_numbers=dims, feature_group_count=g
                )

        # the eager sides' random output gradient (not foldable ones), and the value too, so
        # the forward runs (a gradient alone needs no forward output)
        gy = jnp.asarray(rng.standard_normal(jax.eval_shape(conv, x, w).shape).astype("float32"))
        step = jax.jit(jax.value_and_grad(lambda x, w, gy, f=conv: (f(x, w) * gy).sum(), (0, 1)))
        steps[name] = lambda f=step, x=x, w=w, gy=gy: jax.block_until_ready(f(x, w, gy))
    return steps


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(_steps(paddle, lambda g: [t._value.block_until_ready() for t in g]))
    xla = _time(_xla_steps())
    pd = paddle_side(__file__)
    print(
        f"{'layer (forward + backward, ms)':62s} {'ours':>8s} {'Paddle':>8s} {'XLA conv':>8s} {'/Paddle':>8s} {'/XLA':>6s}"
    )
    for k in ours:
        p = pd.get(k)
        ratio = f"{ours[k] / p:8.2f}" if p else f"{'-':>8s}"
        print(
            f"{k:62s} {ours[k]:8.2f} {p or float('nan'):8.2f} {xla[k]:8.2f} {ratio} {ours[k] / xla[k]:6.2f}"
        )
    print(json.dumps({"bench": "conv_cpu", "compat_ms": ours, "paddle_ms": pd, "xla_ms": xla}))


if __name__ == "__main__":
    main()
