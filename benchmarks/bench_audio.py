"""paddle.audio feature Layers: paddle-compat eager and ``to_static`` against real Paddle on CPU
(same run, side venv; Paddle eager and Paddle ``to_static``).

    .venv/bin/python benchmarks/bench_audio.py

Cases: ``MelSpectrogram`` (sr 16000, n_fft 512, hop 160, 64 mels) and ``MFCC`` (40 coefficients,
n_fft 512, 64 mels) of a float32 [8, 16000] batch (one second of 16 kHz audio each), plus the
layers' construction (window, filter bank and DCT matrices). Prints microseconds per call and
the ratios ours / Paddle; the last line is the JSON of the numbers.
"""

from __future__ import annotations

import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from _timing import best_us, paddle_side, run_inner_paddle  # noqa: E402

MEL = dict(sr=16000, n_fft=512, hop_length=160, n_mels=64)
MFCC = dict(sr=16000, n_mfcc=40, n_fft=512, n_mels=64)


def _cases(paddle, static: bool) -> dict:
    x = paddle.to_tensor(np.random.default_rng(0).uniform(-1, 1, (8, 16000)).astype("float32"))
    feats = paddle.audio.features
    mel, mfcc = feats.MelSpectrogram(**MEL), feats.MFCC(**MFCC)
    cases = {
        "MelSpectrogram eager": lambda: mel(x),
        "MFCC eager": lambda: mfcc(x),
        "MFCC construct": lambda: feats.MFCC(**MFCC),
    }
    if static:
        smel, smfcc = paddle.jit.to_static(mel), paddle.jit.to_static(mfcc)
        cases["MelSpectrogram to_static"] = lambda: smel(x)
        cases["MFCC to_static"] = lambda: smfcc(x)
    return cases


def _sync(out):
    value = getattr(out, "_value", None)  # paddle-compat: wait for the device
    if value is not None:
        value.block_until_ready()
    return out


def _time(cases: dict) -> dict:
    return {k: best_us(lambda f=f: _sync(f()), n=10, repeats=5, warmup=3) for k, f in cases.items()}


def _run_paddle(paddle) -> dict:
    return _time(_cases(paddle, static=True))


def main() -> None:
    if run_inner_paddle(_run_paddle):
        return
    import paddle_compat as paddle

    ours = _time(_cases(paddle, static=True))
    pd = paddle_side(__file__)
    print(f"{'case':28s} {'ours us':>10s} {'Paddle us':>10s} {'/Paddle':>8s}")
    for k, v in ours.items():
        p = pd.get(k)
        ratio = v / p if p else float("nan")
        print(f"{k:28s} {v:10.1f} {p or float('nan'):10.1f} {ratio:8.2f}")
    print(json.dumps({"ours_us": ours, "paddle_us": pd}))


if __name__ == "__main__":
    main()
