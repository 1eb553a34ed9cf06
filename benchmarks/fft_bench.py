"""Eager paddle.fft / paddle.signal calls: paddle-compat against real Paddle on CPU (same run,
side venv) and against the same transform hand-written with ``jnp.fft`` (one ``jax.jit`` per
case, what a JAX user would write).

    .venv/bin/python benchmarks/fft_bench.py

Cases: ``fft`` of complex64 [64, 1024], ``rfft2`` of float32 [16, 128, 128], ``irfft`` of
complex64 [64, 513] and ``stft`` of float32 [8, 16000] (n_fft 512, hop 128, Hann window).
Prints microseconds per call and the ratios ours / Paddle and ours / jnp; the last line is the
JSON of the numbers.
"""

from __future__ import annotations

import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, run_inner_paddle  # noqa: E402

N_FFT, HOP = 512, 128


def _data() -> dict:
    r = np.random.default_rng(0)
    return {
        "fft": (r.standard_normal((64, 1024)) + 1j * r.standard_normal((64, 1024))).astype(
            "complex64"
        ),
        "rfft2": r.standard_normal((16, 128, 128)).astype("float32"),
        "irfft": (r.standard_normal((64, 513)) + 1j * r.standard_normal((64, 513))).astype(
            "complex64"
        ),
        "stft": r.standard_normal((8, 16000)).astype("float32"),
        "window": np.hanning(N_FFT).astype("float32"),
    }


def _cases(paddle) -> dict:
    d = {k: paddle.to_tensor(v) for k, v in _data().items()}
    return {
        "fft [64, 1024] c64": lambda: paddle.fft.fft(d["fft"]),
        "rfft2 [16, 128, 128] f32": lambda: paddle.fft.rfft2(d["rfft2"]),
        "irfft [64, 513] c64": lambda: paddle.fft.irfft(d["irfft"]),
        "stft [8, 16000] n_fft 512 hop 128": lambda: paddle.signal.stft(
            d["stft"], N_FFT, HOP, window=d["window"]
        ),
    }


def _time(cases: dict, sync) -> dict:
    return {k: best_us(lambda f=f: sync(f()), n=20, repeats=5, warmup=3) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    return _time(_cases(paddle), lambda out: out)  # Paddle's CPU kernels return when done


def _jnp_cases() -> dict:
    import jax
    import jax.numpy as jnp

    d = {k: jnp.asarray(v) for k, v in _data().items()}

    @jax.jit
    def stft(x, w):
        x = jnp.pad(x, ((0, 0), (N_FFT // 2, N_FFT // 2)), mode="reflect")
        n = 1 + (x.shape[-1] - N_FFT) // HOP
        idx = np.arange(N_FFT)[None, :] + HOP * np.arange(n)[:, None]
        return jnp.swapaxes(jnp.fft.rfft(x[:, idx] * w, axis=-1), 1, 2)

    fft, rfft2, irfft = (jax.jit(f) for f in (jnp.fft.fft, jnp.fft.rfft2, jnp.fft.irfft))
    return {
        "fft [64, 1024] c64": lambda: fft(d["fft"]),
        "rfft2 [16, 128, 128] f32": lambda: rfft2(d["rfft2"]),
        "irfft [64, 513] c64": lambda: irfft(d["irfft"]),
        "stft [8, 16000] n_fft 512 hop 128": lambda: stft(d["stft"], d["window"]),
    }


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(_cases(paddle), lambda out: out._value.block_until_ready())
    ref = _time(_jnp_cases(), lambda out: out.block_until_ready())
    pd = paddle_side(__file__)
    print(
        f"{'case':36s} {'ours us':>9s} {'Paddle us':>10s} {'jnp us':>9s} {'/Paddle':>8s} {'/jnp':>6s}"
    )
    for k, v in ours.items():
        p = pd.get(k)
        print(
            f"{k:36s} {v:9.1f} {p or float('nan'):10.1f} {ref[k]:9.1f} "
            f"{(v / p if p else float('nan')):8.2f} {v / ref[k]:6.2f}"
        )
    print(json.dumps({"ours_us": ours, "paddle_us": pd, "jnp_us": ref}))


if __name__ == "__main__":
    main()
