"""JAX's persistent compilation cache, on by default: a kernel compiled once (an eager op at a
new shape, a ``to_static`` program) is read back from disk in later processes instead of being
compiled again.

``PADDLE_COMPAT_CACHE_DIR`` moves the cache (default: ``$XDG_CACHE_HOME/paddle_compat/xla``,
else ``~/.cache/paddle_compat/xla``); set it to ``0``, ``off`` or an empty string to disable it.
A cache directory already configured for JAX (``JAX_COMPILATION_CACHE_DIR`` or
``jax.config``) is left as it is. Every compilation is cached, however short (JAX's default
skips those under a second, which is nearly every eager kernel).
"""

from __future__ import annotations

import os
from pathlib import Path

import jax

ENV = "PADDLE_COMPAT_CACHE_DIR"
_OFF = ("", "0", "off", "false", "none", "no")


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paddle_compat" / "xla"


def configure() -> str | None:
    """Point JAX's persistent cache at our directory; returns it (None when disabled or when the
    user configured JAX's cache themselves)."""
    env = os.environ.get(ENV)
    if env is not None and env.strip().lower() in _OFF:
        return None
    if env is None and (
        os.environ.get("JAX_COMPILATION_CACHE_DIR") or jax.config.jax_compilation_cache_dir
    ):
        return None
    path = Path(env) if env else default_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:  # read-only home: run without the cache
        return None
    jax.config.update("jax_compilation_cache_dir", str(path))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    return str(path)
