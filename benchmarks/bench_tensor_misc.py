"""The tensor API's last gaps, timed: to_tensor (named at creation), from_dlpack of a numpy array
and a write through it, set_tensor, new_zeros, cumprod_, a static fetch of int64, and
paddle.linalg.fp8_fp8_half_gemm_fused (ours only: Paddle's CPU build has no kernel for it);
paddle-compat against real Paddle on CPU (same run, side venv).

    .venv/bin/python benchmarks/bench_tensor_misc.py

Prints microseconds per call and the ratio ours / Paddle; the last line is the JSON of the
numbers.
"""

from __future__ import annotations

import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, print_vs_paddle, run_inner_paddle  # noqa: E402


def _cases(paddle) -> dict:
    host = np.random.default_rng(0).standard_normal((64, 64)).astype("float32")
    x = paddle.to_tensor(host)
    src = paddle.to_tensor(host * 2)
    buf = host.copy()
    shared = paddle.from_dlpack(buf)
    one = paddle.to_tensor(1.0)

    def set_tensor():
        x.set_tensor(src)
        return x

    def write_through():
        shared[0, 0] = one
        return shared

    def cumprod_():
        y = paddle.to_tensor(host[:4])
        return y.cumprod_(1)

    return {
        "to_tensor [64,64] + .name": lambda: (paddle.to_tensor(host), x)[1],
        "from_dlpack(numpy [64,64])": lambda: paddle.from_dlpack(buf),
        "setitem through from_dlpack": write_through,
        "set_tensor [64,64]": set_tensor,
        "new_zeros(64, 64)": lambda: x.new_zeros(64, 64),
        "to_tensor + cumprod_ [4,64]": cumprod_,
    }


def _fp8_cases(paddle) -> dict:
    r = np.random.default_rng(1)
    a = paddle.to_tensor(r.standard_normal((256, 512)).astype("float32")).astype("float8_e4m3fn")
    b = paddle.to_tensor(r.standard_normal((256, 512)).astype("float32")).astype("float8_e4m3fn")
    bias = paddle.zeros([256], "bfloat16")
    gemm = paddle.linalg.fp8_fp8_half_gemm_fused
    return {
        "fp8 gemm [256,512]x[256,512]^T gelu": lambda: gemm(
            a, b, transpose_y=True, bias=bias, output_dtype="bfloat16", act="gelu"
        )
    }


def _static_fetch(paddle) -> dict:
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        v = paddle.static.data(name="x", shape=[64, 64], dtype="float32")
        out = paddle.argmax(v, axis=1)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    feed = {"x": np.ones((64, 64), "float32")}
    t = best_us(lambda: exe.run(main, feed=feed, fetch_list=[out]), n=10, repeats=5, warmup=3)
    paddle.disable_static()
    return {"static fetch argmax int64 [64]": t}


def _time(cases: dict, sync) -> dict:
    return {k: best_us(lambda f=f: sync(f()), n=20, repeats=5, warmup=3) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    out = _time(_cases(paddle), lambda t: t)  # Paddle's CPU kernels return when done
    out.update(_static_fetch(paddle))
    return out


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    def sync(t):
        return t._value.block_until_ready()

    ours = _time({**_cases(paddle), **_fp8_cases(paddle)}, sync)
    ours.update(_static_fetch(paddle))
    pd = paddle_side(__file__)
    print_vs_paddle(ours, pd)


if __name__ == "__main__":
    main()
