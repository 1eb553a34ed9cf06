"""Record goldens: run the case programs in tests/cases/ under real Paddle 3.3.1 and write their
normalized outputs to tests/goldens/<topic>.json.

Run with the side venv that has paddlepaddle==3.3.1 (never the project's venv):

    python -m venv /tmp/pdvenv && /tmp/pdvenv/bin/pip install paddlepaddle==3.3.1 numpy
    /tmp/pdvenv/bin/python tools/record_goldens.py [topic ...]

The script changes directory away from the repo so ``import paddle`` is real Paddle.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "cases"
GOLDENS = ROOT / "tests" / "goldens"


def load_case_module(path: Path):
    spec = importlib.util.spec_from_file_location(f"cases_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def case_names(mod) -> list[str]:
    return [n for n in vars(mod) if n.startswith("case_") and callable(getattr(mod, n))]


def main(argv: list[str]) -> int:
    os.chdir("/")
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    sys.path.insert(0, str(CASES))
    import paddle  # noqa: F401  real Paddle

    assert "paddle_compat" not in paddle.__file__, "run this with real Paddle, not paddle_compat"
    from _util import normalize

    topics = argv or sorted(p.stem for p in CASES.glob("*.py") if not p.stem.startswith("_"))
    GOLDENS.mkdir(exist_ok=True)
    failed = 0
    for topic in topics:
        mod = load_case_module(CASES / f"{topic}.py")
        out = {"_paddle_version": paddle.__version__}
        for name in case_names(mod):
            try:
                out[name] = normalize(getattr(mod, name)())
            except Exception:  # noqa: BLE001
                failed += 1
                print(f"[{topic}] {name} failed under real Paddle:", file=sys.stderr)
                traceback.print_exc()
        path = GOLDENS / f"{topic}.json"
        path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
        print(f"{topic}: {len(out) - 1} cases -> {path.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
