"""Paddle's legacy static-graph mode: the mode flag and the hook that records ops.

``paddle.enable_static()`` turns the mode on. While it is on (and no Program is being run),
``registry.call_op`` hands every op call to ``record`` instead of running it: the recorder
installed by ``paddle_compat.static`` appends the call to the current Program and returns
placeholder Variables. ``paddle.static.Executor`` runs a Program by calling the same registry
ops again on real (or traced) Tensors, with recording suspended. One op set, two uses.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import contextmanager

# True while static mode is on (the one flag call_op reads before asking ``records()``)
recording = False
_local = threading.local()  # .suspended: this thread runs ops for real (a replay)
_static = False  # the mode itself (paddle.in_dynamic_mode() is its negation)
_recorder: Callable | None = None  # (od, args, kwargs) -> result, set by paddle_compat.static
_minimizer: Callable | None = None  # (optimizer, loss, startup, parameters, no_grad_set)


def is_static() -> bool:
    """Whether ``paddle.enable_static()`` is in effect."""
    return _static


def set_static(flag: bool) -> None:
    global _static, recording
    _static = bool(flag)
    recording = _static


def install(recorder: Callable, minimizer: Callable) -> None:
    """Set the functions that record an op call and an ``optimizer.minimize``."""
    global _recorder, _minimizer
    _recorder, _minimizer = recorder, minimizer


def record(od, args, kwargs):
    """Record one op call into the current Program (called by ``registry.call_op``)."""
    return _recorder(od, args, kwargs)


def minimize(optimizer, loss, startup_program=None, parameters=None, no_grad_set=None):
    """``optimizer.minimize(loss)`` in static mode: record backward and the update."""
    return _minimizer(optimizer, loss, startup_program, parameters, no_grad_set)


def records() -> bool:
    """Whether an op called in this thread now goes into the Program: static mode is on and
    this thread is not replaying one (``suspended``)."""
    return recording and not getattr(_local, "suspended", 0)


@contextmanager
def suspended():
    """Run ops for real inside the block (replaying a Program, shape inference), in this
    thread only: another thread's ops are still recorded, as in Paddle's static mode."""
    depth = getattr(_local, "suspended", 0)
    _local.suspended = depth + 1
    try:
        yield
    finally:
        _local.suspended = depth
