"""Paddle's checks on input *values*: indices in range, integer divisors not zero.

Paddle's kernels check these as they run and raise; XLA cannot raise from inside a compiled
program (it clamps out-of-range gathers, drops out-of-range scatters, and integer ``x // 0`` is
undefined), so a check here runs before the kernel:

- eager mode: the values are read on the host (a device read, a sync on GPU) and a bad one
  raises Paddle's error at the op's own line;
- under ``to_static`` the values are tracers and nothing is checked, unless
  ``paddle.set_flags({"FLAGS_check_static_values": True})``: then each check is staged with
  ``jax.experimental.checkify`` and the compiled call raises the same error type after it
  runs (the flag is read when a function is traced; it costs a reduction per check).
"""

from __future__ import annotations

import contextlib
import threading

import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify

from . import dtype as _dt
from . import trace_state
from .tensor import Tensor

__all__ = [
    "EnforceNotMet",
    "check_in_range",
    "check_index",
    "check_nonzero",
    "check_true",
    "is_staging",
    "set_static_checks",
    "static_checks",
    "staging",
    "throw",
    "unstaged",
]


class EnforceNotMet(Exception):
    """Paddle's ``paddle.EnforceNotMet``: a failed kernel check with no more specific type
    (integer division by zero)."""


_ERRORS = {c.__name__: c for c in (IndexError, ValueError, RuntimeError, EnforceNotMet)}
_static = [False]
_local = threading.local()


def set_static_checks(on: bool) -> None:
    _static[0] = bool(on)


def static_checks() -> bool:
    """``FLAGS_check_static_values``: stage the checks inside ``to_static`` programs."""
    return _static[0]


@contextlib.contextmanager
def staging():
    """Inside a ``to_static`` trace wrapped by ``checkify``: checks are staged, not skipped."""
    prev = getattr(_local, "staging", False)
    _local.staging = True
    try:
        yield
    finally:
        _local.staging = prev


def is_staging() -> bool:
    """True inside a checkified ``to_static`` trace (tracer values are checked)."""
    return getattr(_local, "staging", False)


def _values(t):
    """(host array, None) for a concrete value, (None, tracer) under a trace."""
    v = getattr(t, "_value", t)
    if trace_state.is_tracer(v):
        return None, v
    return np.asarray(v), None


def check_in_range(
    t, lo: int, hi: int, error: type[Exception], message: str, low_message: str | None = None
) -> None:
    """Raise ``error(message)`` unless every value of ``t`` is in ``[lo, hi)``
    (``low_message`` for a value below ``lo``, when Paddle words that side differently).
    Messages may use ``{bad}`` (the first bad value), ``{lo}``, ``{hi}`` and ``{pos}`` (its
    flat position)."""
    a, tracer = _values(t)
    if a is not None:
        if a.size == 0 or (a.min() >= lo and a.max() < hi):
            return
        bad = (a < lo) | (a >= hi)
        if bad.any():
            pos = int(np.flatnonzero(bad)[0])
            v = a.reshape(-1)[pos]
            text = low_message if low_message is not None and v < lo else message
            raise error(text.format(bad=v, lo=lo, hi=hi, pos=pos))
    elif getattr(_local, "staging", False) and tracer.size:
        flat = tracer.reshape(-1)
        sides = [(flat < hi, message)]
        if low_message is None:
            sides = [((flat >= lo) & (flat < hi), message)]
        else:
            sides.append((flat >= lo, low_message))
        for ok, text in sides:
            pos = jnp.argmin(ok)
            text = text.format(bad="{bad}", lo=lo, hi=hi, pos="{pos}")
            _stage(jnp.all(ok), error, text, bad=flat[pos], pos=pos)


def check_index(
    index,
    x,
    axis,
    error,
    message: str,
    low_message: str | None = None,
    nonneg: bool = False,
    lo: int | None = None,
    hi: int | None = None,
) -> None:
    """Indices into ``x`` along ``axis`` lie in ``[-n, n)`` (``[0, n)`` with ``nonneg``;
    ``lo``/``hi`` override a bound); a non-integer index or an invalid axis is left for the
    op itself to report."""
    d = getattr(index, "dtype", None)
    if d is None or not _dt.is_integer(d):
        return
    shape = list(getattr(x, "shape", ()))
    if isinstance(axis, Tensor):
        axis = None if trace_state.is_tracer(axis._value) else int(axis)
    if not isinstance(axis, int | np.integer) or not -len(shape) <= axis < len(shape):
        return
    n = shape[axis]
    if not isinstance(n, int):  # a symbolic dim (jax.export)
        return
    low = (0 if nonneg else -n) if lo is None else lo
    check_in_range(index, low, n if hi is None else hi, error, message, low_message)


def check_nonzero(t, error: type[Exception], message: str) -> None:
    """Raise ``error(message)`` if any value of ``t`` is zero."""
    a, tracer = _values(t)
    if a is not None:
        if a.size and not a.all():
            raise error(message)
    elif getattr(_local, "staging", False):
        _stage(jnp.all(tracer != 0), error, message)


_unstaged = [0]  # checks on traced values met outside a checkified trace (see check_true)


def check_true(t, error: type[Exception], message: str) -> None:
    """Raise ``error(message)`` unless every value of ``t`` is true. A traced ``t`` is checked
    inside the program when the trace is checkified; otherwise the check is counted
    (``unstaged()``), so that ``to_static`` traces again with checks (an ``assert`` on a
    Tensor), and skipped (a backward's retrace: the forward checked it)."""
    a, tracer = _values(t)
    if a is not None:
        if not a.all():
            raise error(message)
    elif getattr(_local, "staging", False):  # (checkify formats the message: braces escaped)
        _stage(jnp.all(tracer), error, message.replace("{", "{{").replace("}", "}}"))
    else:
        _unstaged[0] += 1


def unstaged() -> int:
    return _unstaged[0]


def _stage(pred, error, message, **values):
    checkify.check(pred, f"{error.__name__}: {message}", **values)


def throw(err) -> None:
    """Raise a staged check's failure (``checkify.Error``) as the Paddle error it names."""
    msg = err.get()
    if msg is None:
        return
    name, _, text = msg.partition(": ")
    text = text.split(" (`check` failed)")[0]
    raise _ERRORS.get(name, RuntimeError)(text)


def checked(fn):
    """``fn`` functionalized by ``checkify``: returns ``(error, outputs)``."""

    def run(*args):
        with staging():
            return fn(*args)

    return checkify.checkify(run, errors=checkify.user_checks)
