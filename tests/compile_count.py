"""``count_compiles()``: the XLA executables JAX builds inside a ``with`` block."""

from __future__ import annotations

from contextlib import contextmanager

import jax


@contextmanager
def count_compiles():
    """Yield a list that collects one entry per backend compile (persistent-cache loads
    included) until the block ends."""
    from paddle_compat._core import mt19937

    mt19937.wait_prepared()  # a new version's first import builds the random generator
    seen = []

    def listen(event, duration, **kw):
        if "backend_compile" in event:
            seen.append(event)

    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        yield seen
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)
