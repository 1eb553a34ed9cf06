"""Run the benchmarks under paddle-compat, real Paddle (side venv) and hand-written JAX in one
session, print the ratio table and write docs/benchmarks.md.

    PADDLE_PYTHON=/path/to/pdvenv/bin/python python benchmarks/run_all.py
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def run(python: str, script: str, cwd: str) -> dict:
    out = subprocess.run(
        [python, str(HERE / script)], capture_output=True, text=True, cwd=cwd, timeout=1200
    )
    if out.returncode != 0:
        raise RuntimeError(f"{script} under {python} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


_EXTRA = [
    ("optimizer_step.py", "Fused optimizer step"),
    ("bench_amp.py", "AMP train step (bfloat16 on CPU)"),
    ("bench_hapi.py", "Model.fit throughput"),
    ("bench_dataloader.py", "DataLoader worker processes"),
    ("bench_parallel.py", "Sharded MLP step on the 8-device CPU mesh"),
    ("bench_quant.py", "Weight-only quantized linear"),
    ("bench_serving.py", "Predictor latency and HTTP round trip"),
    ("bench_checkpoint_io.py", "paddle.save / paddle.load"),
    ("bench_rnn.py", "Recurrent layers"),
    ("bench_attention.py", "Transformer encoder"),
    ("bench_cnn.py", "ResNet-18 CNN"),
    ("bench_conv_cpu.py", "Convolution layers on CPU"),
    ("bench_nn_layers.py", "Common nn layers, eager forward + backward"),
    ("bench_dy2static.py", "Tensor control flow under to_static"),
    ("bench_to_static_first_call.py", "First calls of a new to_static model"),
    ("bench_paddle_programs.py", "Inference programs exported by real Paddle"),
    ("bench_jit_save.py", "jit.save / jit.load round trip"),
    ("eager_startup.py", "Eager startup: import, build, first and steady forward, train step"),
]


def main():
    paddle_py = os.environ.get("PADDLE_PYTHON", "/work/paddle-venv/bin/python")
    ours = run(sys.executable, "bench_core.py", str(ROOT))
    ref_paddle = run(paddle_py, "bench_core.py", "/") if Path(paddle_py).exists() else {}
    ref_jax = run(sys.executable, "jax_reference.py", str(ROOT))
    rows = [
        "| case | paddle-compat (us) | Paddle 3.3.1 (us) | ratio vs Paddle | "
        "hand-written JAX (us) | ratio vs JAX |",
        "|---|---|---|---|---|---|",
    ]
    for case, t in ours.items():
        p, j = ref_paddle.get(case), ref_jax.get(case)
        rows.append(
            f"| {case} | {t:.1f} | {'' if p is None else f'{p:.1f}'} | "
            f"{'' if p is None else f'{t / p:.2f}x'} | {'' if j is None else f'{j:.1f}'} "
            f"| {'' if j is None else f'{t / j:.2f}x'} |"
        )
    table = "\n".join(rows)
    print(table)
    sections = []
    for script, title in _EXTRA:
        out = subprocess.run(
            [sys.executable, str(HERE / script)],
            capture_output=True,
            text=True,
            cwd=str(ROOT),
            timeout=1800,
            env={**os.environ, "PADDLE_PYTHON": paddle_py},
        )
        text = out.stdout.strip() if out.returncode == 0 else f"failed:\n{out.stderr[-2000:]}"
        print(f"\n## {title}\n{text}")
        sections.append(f"## {title} (`benchmarks/{script}`)\n\n```\n{text}\n```\n")
    doc = ROOT / "docs" / "benchmarks.md"
    doc.write_text(
        "# Benchmarks\n\n"
        f"Latest run of `python benchmarks/run_all.py` ({time.strftime('%Y-%m-%d')}): every "
        "comparison is measured in the same "
        "session (ratio > 1 means paddle-compat is slower). Machine: "
        f"{platform.machine()}, {os.cpu_count()} CPU cores, no GPU, Python "
        f"{platform.python_version()}. Read the ratios, not the absolute times: the machines "
        "are noisy.\n\n## Core: eager ops, autograd, train step (`benchmarks/bench_core.py`, "
        "`benchmarks/jax_reference.py`)\n\nMedians of 5 repeats.\n\n"
        f"{table}\n\n" + "\n".join(sections)
    )


if __name__ == "__main__":
    main()
