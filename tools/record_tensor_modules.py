"""Record which ``paddle.tensor.<module>`` modules of real Paddle expose each public name of our
``paddle`` namespace (op names, extra names, in-place variants) into
tests/goldens/tensor_modules.json. Facts only: names from ``dir()``, no source.

Run with the project's venv; real Paddle runs in a subprocess of the side venv, from ``/`` so
``import paddle`` is real Paddle:

    python tools/record_tensor_modules.py [--paddle-python /work/paddle-venv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "goldens" / "tensor_modules.json"
MODULES = (
    "attribute",
    "creation",
    "einsum",
    "linalg",
    "logic",
    "manipulation",
    "math",
    "ops",
    "random",
    "search",
    "stat",
    "to_string",
    "array",
)

# runs under real Paddle: {module: public callables in dir()}, "": paddle.tensor itself
_PROBE = """
import importlib, inspect, json, sys
import paddle
assert "paddle_compat" not in paddle.__file__
mods = json.loads(sys.argv[1])
def public(mod):
    return sorted(n for n in dir(mod) if not n.startswith("_")
                  and callable(getattr(mod, n)) and not inspect.ismodule(getattr(mod, n)))
out = {m: public(importlib.import_module("paddle.tensor." + m)) for m in mods}
out[""] = public(paddle.tensor)
print(json.dumps({"version": paddle.__version__, "dirs": out}))
"""


def our_names() -> list[str]:
    """Every public name our registry puts in the ``paddle`` namespace."""
    sys.path.insert(0, str(ROOT))
    from paddle_compat._ops._methods import namespace

    return sorted(namespace("paddle"))


def our_tensor_names() -> list[str]:
    """Every public name of our ``paddle.tensor``: the ``paddle`` ops and those only there."""
    from paddle_compat._ops._methods import namespace

    return sorted(namespace("paddle.tensor"))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paddle-python", default="/work/paddle-venv/bin/python")
    args = ap.parse_args(argv)
    res = subprocess.run(
        [args.paddle_python, "-c", _PROBE, json.dumps(MODULES)],
        cwd="/",
        capture_output=True,
        text=True,
        check=True,
    )
    probe = json.loads(res.stdout.strip().splitlines()[-1])
    dirs = {m: set(v) for m, v in probe["dirs"].items()}
    names = our_names()
    golden = {
        "_paddle_version": probe["version"],
        "_what": "for each public name of our paddle namespace: the paddle.tensor.<module> "
        "modules whose dir() has it in real Paddle ([] = none)",
        "modules": list(MODULES),
        "in_paddle_tensor": [n for n in our_tensor_names() if n in dirs[""]],
        "names": {n: [m for m in MODULES if n in dirs[m]] for n in names},
    }
    GOLDEN.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    print(f"{len(names)} names -> {GOLDEN.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
