"""One MLIR context per thread for JAX's lowerings (paddle_compat/_core/lowering.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import jax
import jax.numpy as jnp
import numpy as np
from jax._src.interpreters import mlir

import paddle  # noqa: F401  (installs the shared context)
from paddle_compat._core import lowering


def test_installed_at_import_and_one_context_per_thread():
    assert lowering.installed()
    lowering.reset()
    assert mlir.make_ir_context() is mlir.make_ir_context()
    other = []
    t = threading.Thread(target=lambda: other.append(mlir.make_ir_context()))
    t.start()
    t.join()
    assert other[0] is not mlir.make_ir_context()


def test_a_context_is_renewed_after_its_lowerings_and_on_reset(monkeypatch):
    monkeypatch.setattr(lowering, "LOWERINGS_PER_CONTEXT", 3)
    lowering.reset()
    first = [mlir.make_ir_context() for _ in range(3)]
    assert first[0] is first[1] is first[2]
    second = mlir.make_ir_context()  # the fourth lowering: a fresh context
    assert second is not first[0]
    lowering.reset()
    assert mlir.make_ir_context() is not second


def test_kernels_lowered_in_two_threads_at_once_are_right():
    def work(k, out):
        for n in range(1, 6):  # a new shape each time: a new lowering
            f = jax.jit(lambda a, k=k: jnp.tanh(a * k).sum())
            a = np.linspace(-1, 1, n * 7 + k, dtype=np.float32)
            out.append((float(f(a)), float(np.tanh(a * k).sum())))

    results = [[], []]
    threads = [threading.Thread(target=work, args=(k + 2, results[k])) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in results[0] + results[1]:
        assert abs(got - want) < 1e-5


def test_switched_off_by_the_environment():
    env = {**os.environ, lowering.ENV: "0"}
    code = "import paddle; from paddle_compat._core import lowering; print(lowering.installed())"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
