"""``count_compiles()``: the XLA executables JAX builds inside a ``with`` block."""

from __future__ import annotations

from contextlib import contextmanager

import jax


@contextmanager
def count_compiles():
    """Yield a list that collects one entry per backend compile (persistent-cache loads
    included) until the block ends."""
    seen = []

    def listen(event, duration, **kw):
        if "backend_compile" in event:
            seen.append(event)

    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        yield seen
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)
