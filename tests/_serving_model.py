"""A small model saved by ``paddle.jit.save`` in a separate process, with its eager outputs
(shared by tests/test_inference.py and tests/test_http_serving.py)."""

from __future__ import annotations

import os
import subprocess
import sys

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
