"""``python -m serving --model PATH --port N``: serve a saved model over HTTP on 127.0.0.1."""

from __future__ import annotations

import argparse
import gc
import signal
import sys


def _positive(kind):
    def parse(text: str):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if v <= 0:
            raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
        return v

    return parse


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= 500 else text[:497] + "..."


def main(argv: list[str] | None = None) -> int:
    from ._http import (
        DEFAULT_CACHE_SIZE,
        DEFAULT_MAX_BATCH,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_REQUEST_TIMEOUT,
    )

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
        type=_positive(float),
        default=16.0,
        help="largest accepted request body in MiB (larger: 413)",
    )
    ap.add_argument(
        "--max-batch",
        type=_positive(int),
        default=DEFAULT_MAX_BATCH,
        help="largest batch (rows) per request; batches are padded to the next power of two "
        f"up to it, larger ones get 413 (default {DEFAULT_MAX_BATCH})",
    )
    ap.add_argument(
        "--cache-size",
        type=_positive(int),
        default=DEFAULT_CACHE_SIZE,
        help="compiled input shapes kept; the least recently used is dropped "
        f"(default {DEFAULT_CACHE_SIZE})",
    )
    ap.add_argument(
        "--request-timeout",
        type=_positive(float),
        default=DEFAULT_REQUEST_TIMEOUT,
        help="seconds a request's headers and body may take from its first byte (then 408) "
        f"and an idle connection may wait (default {DEFAULT_REQUEST_TIMEOUT:g})",
    )
    ap.add_argument(
        "--max-connections",
        type=_positive(int),
        default=DEFAULT_MAX_CONNECTIONS,
        help="connections served at once; more get 503 at once "
        f"(default {DEFAULT_MAX_CONNECTIONS})",
    )
    ap.add_argument(
        "--warmup-batch",
        type=int,
        default=1,
        help="compile the batch buckets up to this many rows before serving (default 1; 0: none)",
    )
    ap.add_argument("--access-log", action="store_true", help="log every request to stderr")
    ap.add_argument(
        "--no-warmup", action="store_true", help="compile nothing before serving (--warmup-batch 0)"
    )
    args = ap.parse_args(argv)

    from ._http import HOST, serve

    try:
        server = serve(
            args.model,
            args.port,
            args.device,
            int(args.max_body_mb * (1 << 20)),
            args.access_log,
            warmup=0 if args.no_warmup else max(args.warmup_batch, 0),
            max_batch=args.max_batch,
            cache_size=args.cache_size,
            request_timeout=args.request_timeout,
            max_connections=args.max_connections,
        )
    except (ValueError, RuntimeError, OSError) as e:  # ArtifactError is a ValueError
        print(f"serving: {_one_line(e)}", file=sys.stderr, flush=True)
        return 2
    except Exception as e:  # anything else from reading or compiling a damaged model
        print(
            f"serving: cannot load the model {args.model}: {type(e).__name__}: {_one_line(e)}",
            file=sys.stderr,
            flush=True,
        )
        return 2

    # the model, JAX and the warmed executables are ~100k long-lived objects: a full
    # collection of them takes ~80 ms with the GIL held, a pause every request in flight
    # would wait for; frozen, the collector only walks what requests create
    gc.collect()
    gc.freeze()

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
