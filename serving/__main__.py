"""``python -m serving --model PATH --port N``: serve a saved model over HTTP on 127.0.0.1."""

from __future__ import annotations

import argparse
import signal
import sys


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m serving",
        description="Serve a model saved by paddle.jit.save over HTTP on 127.0.0.1 "
        "(POST /v1/predict, GET /health, GET /v1/metadata; see docs/serving.md).",
    )
    ap.add_argument(
        "--model",
        required=True,
        help="the path prefix given to paddle.jit.save, its directory, or the .json",
    )
    ap.add_argument("--port", type=int, default=8866, help="TCP port (0: any free port)")
    ap.add_argument("--device", default="cpu", help="cpu, gpu or gpu:N")
    ap.add_argument(
        "--max-body-mb",
        type=float,
        default=16.0,
        help="largest accepted request body in MiB (larger: 413)",
    )
    ap.add_argument("--access-log", action="store_true", help="log every request to stderr")
    ap.add_argument(
        "--no-warmup", action="store_true", help="do not compile the batch-1 shape before serving"
    )
    args = ap.parse_args(argv)

    from paddle_compat._core.seams import saved_model

    from ._http import HOST, serve

    try:
        server = serve(
            args.model,
            args.port,
            args.device,
            int(args.max_body_mb * (1 << 20)),
            args.access_log,
            warmup=not args.no_warmup,
        )
    except (saved_model.ArtifactError, RuntimeError, ValueError, OSError) as e:
        print(f"serving: {e}", file=sys.stderr, flush=True)
        return 2

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    port = server.server_address[1]
    print(f"serving {args.model} on http://{HOST}:{port}", flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
