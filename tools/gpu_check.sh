#!/usr/bin/env bash
# The GPU checks, as one short script for a session that is lent a GPU machine (run from the
# repository root there; the machine's own jax/flax/optax are used, no install):
#   1. what the machine has and what paddle-compat sees (devices, AMP support);
#   2. the AMP, Model, DataLoader-worker and dy2static tests, and the training/AMP/dy2static
#      goldens recorded from real Paddle on CPU, with JAX on the GPU (expected differences
#      there: printed device names, last bits of worker-made Tensors; docs/benchmarks.md);
#   3. the benchmarks that have a GPU story: the DataLoader keeping a compiled step fed (spare
#      cores for the workers), Model.fit throughput, the AMP train step.
# Logs go to $OUT (the device tool brings that folder back) or /tmp/gpu_check.
set -u
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 JAX_PLATFORMS=cuda,cpu PADDLE_PYTHON=/nonexistent
# several pytest workers share the GPU: no process may take 75% of its memory up front
export XLA_PYTHON_CLIENT_PREALLOCATE=false
OUT=${OUT:-/tmp/gpu_check}
mkdir -p "$OUT"
PY=${PY:-python3}

$PY - <<'EOF' 2>&1 | tee "$OUT/env.txt"
import os, sys
import jax, flax, optax, numpy
print(sys.version.split()[0], "jax", jax.__version__, "flax", flax.__version__, "optax", optax.__version__,
      "numpy", numpy.__version__, "cores", os.cpu_count())
print(jax.devices())
import paddle
print("device", paddle.device.get_device(), "cuda devices", paddle.device.cuda.device_count())
print("fp16 amp", paddle.amp.is_float16_supported(), "bf16 amp", paddle.amp.is_bfloat16_supported())
x = paddle.randn([256, 256])
with paddle.amp.auto_cast(dtype="float16"):
    y = x @ x
print("auto_cast matmul", y.dtype, y.place)
EOF

# the goldens are real Paddle's CPU numbers: compare at full float32 precision (the GPU's
# default TF32 matmuls miss their 1e-5 tolerance by ~1e-4, as Paddle's GPU build would)
JAX_DEFAULT_MATMUL_PRECISION=${JAX_DEFAULT_MATMUL_PRECISION:-highest} \
timeout "${TEST_TIMEOUT:-200}" $PY -m pytest -q -p no:cacheprovider -n 6 --tb=line -rf \
    tests/test_amp.py tests/test_hapi.py tests/test_dataloader_workers.py tests/test_dy2static.py \
    tests/test_cleared_grads.py tests/test_conv_lowering.py \
    "tests/test_goldens.py" -k "not test_goldens or amp or training or dy2static or hapi" \
    2>&1 | tee "$OUT/tests.txt" | tail -40

[ -n "${ONLY_TESTS:-}" ] && exit 0
cd benchmarks || exit 1
bench() { echo "== $*"; env "$@" 2>&1 | tail -25; }
{
    # the step on the GPU, then on the 16 CPU cores (spare cores for the workers either way)
    bench timeout 100 "$PY" bench_dataloader.py
    bench BENCH_BLUR=1 timeout 100 "$PY" bench_dataloader.py
    bench JAX_PLATFORMS=cpu timeout 100 "$PY" bench_dataloader.py
    bench JAX_PLATFORMS=cpu BENCH_BLUR=1 timeout 100 "$PY" bench_dataloader.py
    bench timeout 100 "$PY" bench_hapi.py
    bench timeout 100 "$PY" bench_amp.py
    bench BENCH_AMP_DTYPE=float16 timeout 100 "$PY" bench_amp.py
} | tee "$OUT/bench.txt"
