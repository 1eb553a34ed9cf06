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
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["new_objects_only"]

_lock = threading.Lock()
_depth = 0
_froze = False  # whether the outermost open block froze the heap (and must thaw it)


@contextmanager
def new_objects_only() -> Iterator[None]:
    """``gc.collect()`` inside the block scans only objects created since the outermost open
    block began (nested blocks share it)."""
    global _depth, _froze
    with _lock:
        if _depth == 0:
            _froze = gc.get_freeze_count() == 0
            if _froze:
                gc.freeze()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _froze:
                gc.unfreeze()
                _froze = False
