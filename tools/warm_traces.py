"""What a warm process still traces: runs a script twice on one fresh cache directory and lists
every JAX trace of the second run with the package line that asked for it. A warm process
should read its eager kernels from the segment store; each line printed is a kernel (or a
``jnp`` call on a Python value) that still pays a trace, a lowering and a cache read.

    python tools/warm_traces.py SCRIPT [ARGS...]
"""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _child(script: str, args: list[str]) -> None:
    """Run ``script`` here, then print where each trace came from (most frequent first)."""
    import jax

    seen: Counter = Counter()

    def on_duration(event, _secs, **_):
        if "jaxpr_trace" not in event:
            return
        frames = traceback.extract_stack()[:-1]
        own = [f for f in frames if "/paddle_compat/" in f.filename]
        user = [
            f for f in frames if "/paddle_compat/" not in f.filename and "/jax" not in f.filename
        ]
        where = own[-2:] if own else [user[-1] if user else frames[-1]]
        caller = user[-1] if user else None
        text = " <- ".join(f"{Path(f.filename).name}:{f.lineno} ({f.name})" for f in where[::-1])
        seen[text + (f"  <- {Path(caller.filename).name}:{caller.lineno}" if caller else "")] += 1

    jax.monitoring.register_event_duration_secs_listener(on_duration)
    sys.argv = [script, *args]
    sys.path.insert(0, str(Path(script).resolve().parent))
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        print(f"--- {sum(seen.values())} traces in the warm run", file=sys.stderr)
        for line, n in seen.most_common():
            print(f"{n:5d}  {line}", file=sys.stderr)


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3:])
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory(prefix="warm_traces_") as cache:
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PADDLE_COMPAT_CACHE_DIR": cache, "PYTHONPATH": path}
        cold = subprocess.run([sys.executable, *sys.argv[1:]], env=env, capture_output=True)
        if cold.returncode:
            sys.exit(f"the cold run failed:\n{cold.stderr.decode()[-3000:]}")
        cmd = [sys.executable, __file__, "--child", *sys.argv[1:]]
        warm = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = warm.stderr.decode()
        print(err[err.find("--- ") :] if "--- " in err else err[-3000:])


if __name__ == "__main__":
    main()
