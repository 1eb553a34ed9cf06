"""One MLIR context per thread for JAX's lowerings.

JAX lowers each jitted function into a new MLIR context: about 3 ms to create one (it loads
every dialect), and JAX's lowering cache then keeps each one alive. An eager framework lowers a
kernel per (op, shape) on the first call in a process, even when the compiled program comes
from the persistent cache, so paddle-compat hands JAX one context per thread instead. The
lowered modules are the same, so the persistent-cache keys are too.

Measured with jax 0.10.2 on 2 CPU cores: an EfficientNet-B0 first eager forward on a warm cache
went from 1.25 s to 0.81 s, and 1500 lowerings from 15.8 s and 2.1 GB to 5.7 s and 0.28 GB.
``PADDLE_COMPAT_SHARED_MLIR_CONTEXT=0`` (read at import) keeps JAX's own behaviour.
"""

from __future__ import annotations

import os
import threading

ENV = "PADDLE_COMPAT_SHARED_MLIR_CONTEXT"
_local = threading.local()
_jax_make_ir_context = None


def _thread_context():
    ctx = getattr(_local, "context", None)
    if ctx is None:
        ctx = _local.context = _jax_make_ir_context()
    return ctx


def install() -> bool:
    """Route JAX's ``make_ir_context`` through the per-thread context; False when switched off
    or when this JAX has no such hook (then JAX runs unchanged)."""
    global _jax_make_ir_context
    if os.environ.get(ENV, "1").strip().lower() in ("0", "off", "false", "no"):
        return False
    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return False
    current = getattr(mlir, "make_ir_context", None)
    if current is None or current is _thread_context:
        return current is _thread_context
    _jax_make_ir_context = current
    mlir.make_ir_context = _thread_context
    return True


def installed() -> bool:
    from jax._src.interpreters import mlir

    return getattr(mlir, "make_ir_context", None) is _thread_context
