"""``paddle.incubate.ModelAverage``: running sums of the parameters over a sliding window of
steps; ``apply()`` swaps the averages in (and back out), e.g. for evaluation."""

from __future__ import annotations

import contextlib
import functools

import jax
import jax.numpy as jnp

from ..._core import trace_state
from ..._core.autograd import no_grad
from ...optimizer import Optimizer
from .lookahead import _flat, _trainable

__all__: list[str] = []

_MAX_NUM_ACCUMULATES = 16384  # Paddle moves sum_1 into sum_2 every this many updates


@functools.partial(jax.jit, static_argnames=("rate", "max_window", "min_window"))
def _accumulate(params, states, rate: float, max_window: int, min_window: int):
    """Paddle's average_accumulates kernel over every parameter; each state is
    [sum_1, sum_2, sum_3, restore, num_accumulates, old_num_accumulates, num_updates]."""
    out = []
    for p, (s1, s2, s3, restore, n_acc, n_old, n_upd) in zip(params, states):
        n_upd, n_acc = n_upd + 1, n_acc + 1
        s1 = s1 + p
        zero = jnp.zeros_like(s1)
        roll = n_upd % _MAX_NUM_ACCUMULATES == 0  # keep sum_1 short (precision)
        s2 = jnp.where(roll, s2 + s1, s2)
        s1 = jnp.where(roll, zero, s1)
        # Paddle: int64 updates times the float32 rate, truncated back to int64
        window = (n_upd.astype(jnp.float32) * jnp.float32(rate)).astype(jnp.int64)
        restart = (n_acc >= min_window) & (n_acc >= jnp.minimum(max_window, window))
        s3 = jnp.where(restart, s1 + s2, s3)  # the window is full: keep only its sum
        s1 = jnp.where(restart, zero, s1)
        s2 = jnp.where(restart, zero, s2)
        n_old = jnp.where(restart, n_acc, n_old)
        n_acc = jnp.where(restart, 0, n_acc)
        out.append([s1, s2, s3, restore, n_acc, n_old, n_upd])
    return out


@jax.jit
def _average(p, s1, s2, s3, n_acc, n_old):
    total = (s1 + s2 + s3).astype(jnp.float32)
    count = (n_acc + n_old).astype(jnp.float32)
    return (total / count).reshape(p.shape).astype(p.dtype)


_NAMES = ("sum_1", "sum_2", "sum_3", "restore")
_COUNTS = ("num_accumulates", "old_num_accumulates", "num_updates")


class ModelAverage(Optimizer):
    """Averages each parameter over its recent values: ``step()`` adds the current values to
    running sums, restarting the window once it holds at least ``min_average_window`` and
    ``min(max_average_window, num_updates * average_window_rate)`` steps (the last full
    window's sum is kept); ``with apply():`` sets the parameters to the averages and restores
    them on exit (``need_restore``); ``restore()`` does that by hand."""

    def __init__(
        self,
        average_window_rate: float,
        parameters=None,
        min_average_window: int = 10000,
        max_average_window: int = 10000,
        name: str | None = None,
    ) -> None:
        super().__init__(
            learning_rate=0.0, parameters=parameters, weight_decay=None, grad_clip=None, name=name
        )
        self.average_window = average_window_rate
        self.min_average_window = min_average_window
        self.max_average_window = max_average_window
        self.type = "average_accumulates"

    def _acc_specs(self, param) -> list:
        return [(n, 0.0, None, None) for n in _NAMES] + [(n, 0.0, [1], "int64") for n in _COUNTS]

    @no_grad()
    def step(self) -> None:
        """Add the current value of every parameter that has a gradient to its sums."""
        params = _flat(self._parameter_list)
        self._create_accumulators(None, params)
        params = [p for p in params if _trainable(p) and p.grad is not None]
        if not params:
            return
        lo, hi = self.min_average_window, self.max_average_window
        if lo > hi:
            raise ValueError(
                "(InvalidArgument) The min_average_window > max_average_window is not right, "
                f"min_average_window is {lo}, max_average_window is {hi}.\n  [Hint: Expected "
                f"min_average_window <= max_average_window, but received "
                f"min_average_window:{lo} > max_average_window:{hi}.]"
            )
        read = trace_state.read
        states = [self._state_lists[p.name] for p in params]
        new = _accumulate(
            [read(p) for p in params],
            [[read(t) for t in st] for st in states],
            rate=float(self.average_window),
            max_window=int(hi),
            min_window=int(lo),
        )
        for st, arrays in zip(states, new):
            for t, a in zip(st, arrays):
                t._set_value(a)

    @no_grad()
    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None) -> None:
        """Same as ``step()`` (the gradients come from ``loss.backward()``)."""
        self.step()

    @contextlib.contextmanager
    def apply(self, executor=None, need_restore: bool = True):
        """Context manager: the parameters hold their averages inside the block; restored on
        exit when ``need_restore``."""
        with no_grad():
            for p in _flat(self._parameter_list):
                acc = {n: self._get_accumulator(n, p) for n in (*_NAMES, *_COUNTS[:2])}
                read = trace_state.read
                acc["restore"]._set_value(read(p))
                acc["restore"].stop_gradient = p.stop_gradient  # as Paddle's assign
                p._set_value(
                    _average(
                        read(p),
                        *(read(acc[n]) for n in ("sum_1", "sum_2", "sum_3", *_COUNTS[:2])),
                    )
                )
        try:
            yield
        finally:
            if need_restore:
                self.restore()

    @no_grad()
    def restore(self, executor=None) -> None:
        """Put back the parameter values saved by ``apply()``."""
        for p in _flat(self._parameter_list):
            p._set_value(trace_state.read(self._get_accumulator("restore", p)))
