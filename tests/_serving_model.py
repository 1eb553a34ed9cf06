"""A small model saved by ``paddle.jit.save`` in a separate process, with its eager outputs,
and ``python -m serving`` run as a process (shared by the inference and serving tests)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time

import numpy as np

IN, HID, OUT = 16, 32, 4

SAVE_SCRIPT = (
    r"""
import sys
import numpy as np
import paddle

prefix, out_npz = sys.argv[1], sys.argv[2]
r = np.random.default_rng(0)

class MLP(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = paddle.nn.Linear(@IN@, @HID@)
        self.bn = paddle.nn.BatchNorm1D(@HID@)
        self.fc2 = paddle.nn.Linear(@HID@, @OUT@)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.bn(self.fc1(x))))

m = MLP()
m.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32") if "variance" not in k
                  else r.uniform(0.5, 2.0, v.shape).astype("float32")
                  for k, v in m.state_dict().items()})
paddle.jit.save(m, prefix, input_spec=[paddle.static.InputSpec([None, @IN@], "float32", "x")])
m.eval()
x = r.standard_normal((200, @IN@)).astype("float32")
y = m(paddle.to_tensor(x)).numpy()
y1 = m(paddle.to_tensor(x[:1])).numpy()
y64 = m(paddle.to_tensor(x[:64])).numpy()
np.savez(out_npz, x=x, y=y, y1=y1, y64=y64)
""".replace("@IN@", str(IN))
    .replace("@HID@", str(HID))
    .replace("@OUT@", str(OUT))
)


def save_model(tmpdir) -> tuple[str, dict]:
    """Save the model from a fresh interpreter; returns (path prefix, arrays x/y/y1/y64)."""
    tmpdir = os.fspath(tmpdir)
    prefix = os.path.join(tmpdir, "mlp", "inference")
    out = os.path.join(tmpdir, "expected.npz")
    script = os.path.join(tmpdir, "save_model.py")
    with open(script, "w") as f:
        f.write(SAVE_SCRIPT)
    res = subprocess.run(
        [sys.executable, script, prefix, out],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmpdir,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    with np.load(out) as d:
        return prefix, {k: d[k] for k in d.files}


@contextlib.contextmanager
def serving_process(*args: str, start_timeout: float = 180):
    """``python -m serving --port 0 *args`` from the repo root: yields ``(proc, port)`` once it
    prints its address; SIGKILLed on exit."""
    import pytest

    proc = subprocess.Popen(
        [sys.executable, "-m", "serving", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    try:
        port, line = None, ""
        deadline = time.time() + start_timeout
        while time.time() < deadline and proc.poll() is None:
            if select.select([proc.stdout], [], [], 1.0)[0]:
                line = proc.stdout.readline()
                if "http://127.0.0.1:" in line:
                    port = int(line.rsplit(":", 1)[1])
                    break
        if port is None:
            proc.kill()
            pytest.fail(f"server did not start: {line!r} {proc.stderr.read()[-2000:]}")
        yield proc, port
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
