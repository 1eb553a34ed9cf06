"""Weight-only quantized linear vs float linear: time per call (paddle.nn.quant.weight_only_linear
int8/int4, llm_int8_linear, against F.linear in float32) and weight memory, plus the same
int8 matmul written directly in JAX to show the op-layer overhead. Best of several repeats
(the CPU may be shared). Prints a table and, last, one JSON line.

    /work/venv/bin/python benchmarks/bench_quant.py [k] [n]
"""

from __future__ import annotations

import json
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
import paddle.nn.functional as F
from paddle.nn.quant import llm_int8_linear, weight_only_linear, weight_quantize

import paddle


def _best(fn, n=20, repeats=5, warmup=3) -> float:
    for _ in range(warmup):
        fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def _sync(t):
    jax.block_until_ready(t._value)


def main(k: int = 2048, n: int = 2048) -> dict:
    rng = np.random.default_rng(0)
    w = paddle.to_tensor(rng.standard_normal((k, n)).astype("float32") * 0.02)
    b = paddle.to_tensor(np.zeros(n, "float32"))
    q8, s8 = weight_quantize(w, algo="weight_only_int8")
    q4, s4 = weight_quantize(w, algo="weight_only_int4")
    ql, sl = weight_quantize(w, algo="llm.int8")
    q8g, s8g = weight_quantize(w, algo="weight_only_int8", group_size=128)
    mem = {
        "float32": w._value.nbytes,
        "int8": q8._value.nbytes + s8._value.nbytes,
        "int4": q4._value.nbytes + s4._value.nbytes,
        "int8_g128": q8g._value.nbytes + s8g._value.nbytes,
    }
    raw = jax.jit(lambda x, q, s: jnp.matmul(x, q.astype(x.dtype).T) * s)
    res = {}
    for m in (1, 64):
        x = paddle.to_tensor(rng.standard_normal((m, k)).astype("float32"))
        cases = {
            "float32 F.linear": lambda x=x: _sync(F.linear(x, w, b)),
            "int8 weight_only_linear": lambda x=x: _sync(weight_only_linear(x, q8, b, s8, "int8")),
            "int8 g128 weight_only_linear": lambda x=x: _sync(
                weight_only_linear(x, q8g, b, s8g, "int8", group_size=128)
            ),
            "int4 weight_only_linear": lambda x=x: _sync(weight_only_linear(x, q4, b, s4, "int4")),
            "llm_int8_linear": lambda x=x: _sync(llm_int8_linear(x, ql, b, sl)),
            "int8 raw jax (reference)": lambda x=x: jax.block_until_ready(
                raw(x._value, q8._value, s8._value)
            ),
        }
        for name, fn in cases.items():
            res[f"m={m} {name}"] = _best(fn)
    print(f"weight [{k}, {n}] on {jax.devices()[0].platform}; time per call (us), best of 5")
    print("| case | us | vs float32 |\n|---|---|---|")
    for m in (1, 64):
        base = res[f"m={m} float32 F.linear"]
        for key, t in res.items():
            if key.startswith(f"m={m} "):
                print(f"| {key} | {t:.1f} | {t / base:.2f}x |")
    print("| weights | bytes | vs float32 |\n|---|---|---|")
    for key, v in mem.items():
        print(f"| {key} | {v} | {v / mem['float32']:.3f}x |")
    out = {"time_us": res, "weight_bytes": mem}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:3]])
