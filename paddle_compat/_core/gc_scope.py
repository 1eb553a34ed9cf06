"""Collecting the garbage one block of code made, without scanning the whole heap.

Discovering a function's state (``to_static``'s first call, ``functionalize``'s trace, the
``scan_layers`` probe) calls ``gc.collect()`` so that Tensors the call created and released in
reference cycles are not taken for state it keeps. A full collection walks every object of the
process: seconds in a notebook or server that holds large models, repeated for every function
and input signature. Inside ``new_objects_only()``, the objects that were alive when the
outermost such block began are frozen (``gc.freeze``), so a collection only walks what the
block created; they are thawed when that block ends.

A process that froze objects itself (``gc.freeze`` before forking workers) keeps them frozen:
the block then leaves the collector alone, and its collections stay full ones.

``import paddle`` itself ends with ``freeze_imported()``: the ~120k objects the import built
(modules, JAX's and the registry's tables) are frozen, so the full collections a first forward
triggers and the interpreter's collection at exit skip them (an EfficientNet-B0 script exits
~140 ms sooner). The first ``new_objects_only`` block thaws them with its own freeze, and the
process runs as without it from then on. ``PADDLE_COMPAT_GC_FREEZE=0`` switches it off.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["freeze_imported", "new_objects_only"]

_lock = threading.Lock()
_depth = 0
_froze = False  # whether the outermost open block froze the heap (and must thaw it)
_imported = 0  # objects freeze_imported() froze (0: none, or thawed since)


def freeze_imported() -> None:
    """Freeze the heap ``import paddle`` built, unless the process froze objects already, its
    collector is off, or ``PADDLE_COMPAT_GC_FREEZE=0``. (The import leaves no cyclic garbage
    to freeze with it: a full collection right after it finds none.)"""
    global _imported
    if os.environ.get("PADDLE_COMPAT_GC_FREEZE", "1").strip().lower() in ("0", "off", "false"):
        return
    with _lock:
        if _depth == 0 and gc.isenabled() and gc.get_freeze_count() == 0:
            gc.freeze()
            _imported = gc.get_freeze_count()


@contextmanager
def new_objects_only() -> Iterator[None]:
    """``gc.collect()`` inside the block scans only objects created since the outermost open
    block began (nested blocks share it)."""
    global _depth, _froze, _imported
    with _lock:
        if _depth == 0:
            # frozen objects that die leave the count, so the import's freeze alone is at most
            # what it froze; anything more is someone else's freeze to keep
            _froze = gc.get_freeze_count() <= _imported
            if _froze:
                gc.freeze()
                _imported = 0  # its thaw below thaws the import's objects too
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _froze:
                gc.unfreeze()
                _froze = False
