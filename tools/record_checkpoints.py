"""Record the checkpoint fixtures of tests/data/checkpoints/ with REAL Paddle 3.3.1, both ways:

* ``<name>_paddle.pdparams``: the state_dict real Paddle writes for each model of
  tests/data/checkpoints/models.py (seeded Paddle initialisation; the ResNet after two train-mode
  forwards, so its BatchNorm running statistics are not the defaults);
* ``<name>_ours.pdparams``: the state_dict paddle_compat writes for the same model with numpy
  weights (this script runs itself under the project venv, ``--ours DIR``);
* ``outputs.npz``: real Paddle's eval outputs on ``models.inputs(name)`` after loading each file
  into a fresh model (``<name>/paddle_file/<i>`` and ``<name>/ours_file/<i>``). Loading our file
  into Paddle must report no missing or unexpected keys, or this script fails.

tests/test_checkpoint_fixtures.py loads Paddle's files here and compares outputs, and checks that
what paddle_compat saves today has the structure of Paddle's file and reproduces Paddle's outputs.

    /work/paddle-venv/bin/python tools/record_checkpoints.py       # regenerate everything
    .venv/bin/python tools/record_checkpoints.py --ours DIR         # only write our files to DIR
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CKPT = ROOT / "tests" / "data" / "checkpoints"
OURS_PYTHON = ROOT / ".venv" / "bin" / "python"
MAX_FILE, MAX_TOTAL = 200_000, 1_000_000


def load_models():
    """tests/data/checkpoints/models.py, imported against whichever ``paddle`` is loaded."""
    spec = importlib.util.spec_from_file_location("checkpoint_models", CKPT / "models.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write_ours(outdir: Path) -> None:
    """Save paddle_compat's state_dict of every model (numpy weights) into ``outdir``."""
    import paddle

    assert "paddle_compat" in paddle.__file__, paddle.__file__
    models = load_models()
    for name in models.NAMES:
        paddle.save(models.make(name, "ours").state_dict(), str(outdir / f"{name}_ours.pdparams"))


def record() -> None:
    """Write every fixture; must run under real Paddle."""
    os.chdir("/")
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    import numpy as np

    import paddle

    assert "paddle_compat" not in paddle.__file__, "run this under real Paddle"
    models = load_models()
    CKPT.mkdir(parents=True, exist_ok=True)
    for name in models.NAMES:
        paddle.save(models.make(name, "paddle").state_dict(), str(CKPT / f"{name}_paddle.pdparams"))
    subprocess.run([str(OURS_PYTHON), __file__, "--ours", str(CKPT)], cwd=ROOT, check=True)

    outs = {}
    for name in models.NAMES:
        for source in ("paddle", "ours"):
            model = models.build(name)
            missing, unexpected = model.set_state_dict(
                paddle.load(str(CKPT / f"{name}_{source}.pdparams"))
            )
            if missing or unexpected:
                raise SystemExit(f"{name}_{source}: missing {missing}, unexpected {unexpected}")
            for i, o in enumerate(models.outputs(model, name)):
                outs[f"{name}/{source}_file/{i}"] = o
    np.savez_compressed(CKPT / "outputs.npz", **outs)

    sizes = {p.name: p.stat().st_size for p in sorted(CKPT.iterdir()) if p.is_file()}
    for f, n in sizes.items():
        print(f"{f}: {n} bytes")
    assert max(sizes.values()) < MAX_FILE and sum(sizes.values()) < MAX_TOTAL, sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", metavar="DIR", help="only save paddle_compat's files into DIR")
    args = ap.parse_args()
    if args.ours:
        write_ours(Path(args.ours))
    else:
        record()


if __name__ == "__main__":
    main()
