"""Record real Paddle 3.3.1's AMP op lists into tests/goldens/amp_lists.json (read by
tests/test_amp.py, which checks every op's ``op(amp=...)`` against them).

    cd / && /work/paddle-venv/bin/python /work/main/tools/record_amp_lists.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    os.chdir("/")
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
    from paddle.amp import amp_lists

    import paddle

    assert "paddle_compat" not in paddle.__file__, "run this with real Paddle, not paddle_compat"
    out = {
        "_paddle_version": paddle.__version__,
        "white": sorted(amp_lists.FP16_WHITE_LIST),
        "black": sorted(amp_lists.FP16_BLACK_LIST),
        "extra_black": sorted(amp_lists.EXTRA_BLACK_LIST),
        "bf16_white": sorted(amp_lists.BF16_WHITE_LIST),
        "bf16_black": sorted(amp_lists.BF16_BLACK_LIST),
    }
    path = ROOT / "tests" / "goldens" / "amp_lists.json"
    path.write_text(json.dumps(out, indent=0) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
