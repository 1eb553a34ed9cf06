"""Write tests/data/optimizer_adamw_steplr.pdopt (+ .json) with REAL Paddle: an AdamW + StepDecay
state after 3 steps, the parameters at that point, and the parameters after 2 more steps.
tests/test_optimizer.py loads the file into paddle_compat and checks it continues identically.

    /work/pdvenv/bin/python tools/make_optimizer_fixture.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def grads(step):
    import numpy as np

    rng = np.random.default_rng(50 + step)
    return [
        rng.standard_normal((3, 4)).astype("float32"),
        rng.standard_normal((4,)).astype("float32"),
    ]


def main() -> None:
    os.chdir("/")
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    import numpy as np

    import paddle

    assert "paddle_compat" not in paddle.__file__
    rng = np.random.default_rng(7)
    params = []
    for name, shape in (("pdopt_w", (3, 4)), ("pdopt_b", (4,))):
        t = paddle.to_tensor(rng.standard_normal(shape).astype("float32"), stop_gradient=False)
        t.name = name
        params.append(t)
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5)
    opt = paddle.optimizer.AdamW(sched, parameters=params, weight_decay=0.05)
    for step in range(3):
        for p, g in zip(params, grads(step)):
            p.grad = paddle.to_tensor(g)
        opt.step()
        sched.step()
    out = ROOT / "tests" / "data" / "optimizer_adamw_steplr.pdopt"
    paddle.save(opt.state_dict(), str(out))
    record = {
        "params_at_save": [p.numpy().tolist() for p in params],
        "keys": list(opt.state_dict()),
    }
    for step in range(3, 5):
        for p, g in zip(params, grads(step)):
            p.grad = paddle.to_tensor(g)
        opt.step()
        sched.step()
    record["params_final"] = [p.numpy().tolist() for p in params]
    record["lr_final"] = opt.get_lr()
    out.with_suffix(".json").write_text(json.dumps(record, indent=1) + "\n")
    print("wrote", out)


if __name__ == "__main__":
    main()
