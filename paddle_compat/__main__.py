"""``python -m paddle_compat script.py [args]``: run a Paddle script on paddle_compat."""

import runpy
import sys

from paddle_compat._install import install


def main() -> None:
    if len(sys.argv) < 2:
        print("usage: python -m paddle_compat script.py [args...]", file=sys.stderr)
        raise SystemExit(2)
    install()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
