"""Record the signature of every public function of real Paddle's ``paddle``, ``paddle.linalg``,
``paddle.fft``, ``paddle.signal`` (the names in each module's ``__all__``) and every
``paddle.Tensor`` method into
tests/goldens/signatures.json: parameter names, kinds and default values (``repr``), from
``inspect.signature``, and for each ``paddle.<fn>(x, ...)`` which of the PyTorch-style
keywords ``input=``/``other=`` it refuses. Facts only, no source. ``tests/test_signatures.py``
compares ours.

Run with the project's venv; real Paddle runs in a subprocess of the side venv, from ``/`` so
``import paddle`` is real Paddle:

    python tools/record_signatures.py [--paddle-python /work/paddle-venv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "goldens" / "signatures.json"
NAMESPACES = ("paddle", "paddle.linalg", "paddle.fft", "paddle.signal", "paddle.Tensor")

# runs under real Paddle and (for a self-check) here: {qualified name: params or None}
PROBE = """
import importlib, inspect, json, sys, warnings
warnings.filterwarnings("ignore")
import paddle

def params(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
            for p in sig.parameters.values()]

def callables(ns):
    if ns == "paddle.Tensor":
        owner = paddle.Tensor
    else:
        owner = importlib.import_module(ns)
    public = getattr(owner, "__all__", None) if ns != "paddle.Tensor" else None
    for name in sorted(public if public is not None else dir(owner)):
        if name.startswith("_"):
            continue
        try:
            obj = getattr(owner, name)
        except Exception:
            continue
        if inspect.isclass(obj) or inspect.ismodule(obj) or not callable(obj):
            continue
        if ns != "paddle.Tensor" and not getattr(obj, "__module__", "").startswith("paddle"):
            continue  # typing helpers, builtins re-exported by a module
        yield name, obj

out = {}
for ns in json.loads(sys.argv[1]):
    try:
        importlib.import_module(ns if ns != "paddle.Tensor" else "paddle")
    except ImportError:
        continue
    for name, obj in callables(ns):
        out[f"{ns}.{name}"] = params(obj)

# the PyTorch-style keywords (input for x, other for y) that obj refuses: a call with only
# that keyword raises "unexpected keyword argument"
def refused_keywords(obj, names):
    refused = []
    for kw, param in (("input", "x"), ("other", "y")):
        if param not in names:
            continue
        try:
            obj(**{kw: paddle.ones([2, 2])})
        except TypeError as e:
            if f"unexpected keyword argument '{kw}'" in str(e):
                refused.append(kw)
        except BaseException:
            pass
    return refused

refused = {}
for name, obj in callables("paddle"):
    names = [p[0] for p in (out.get(f"paddle.{name}") or [])]
    if names and names[0] == "x":
        refused[f"paddle.{name}"] = refused_keywords(obj, names)
print(json.dumps({"version": paddle.__version__, "signatures": out, "refused_keywords": refused}))
"""


def probe(python: str, cwd: str) -> dict:
    res = subprocess.run(
        [python, "-c", PROBE, json.dumps(NAMESPACES)],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=True,
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--paddle-python", default="/work/paddle-venv/bin/python")
    args = ap.parse_args(argv)
    data = probe(args.paddle_python, "/")
    if not data["version"].startswith("3.3"):
        sys.exit(f"expected real Paddle 3.3.x, got {data['version']}")
    GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"{len(data['signatures'])} signatures -> {GOLDEN.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
