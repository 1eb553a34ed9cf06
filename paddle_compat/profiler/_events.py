"""Host events: ``RecordEvent`` (a ``jax.profiler.TraceAnnotation`` that also times its range
for the summary tables), the recording switch the Profiler turns on during RECORD steps, and
the hooks other modules call (the DataLoader's reader timing and Dataloader events).

Each recorded range is a ``HostEvent`` in the profiler's own clock (``time.perf_counter_ns``)
on the thread that ran it; the same range appears in the JAX trace under the same name with an
``event_type`` argument.
"""

from __future__ import annotations

import contextlib
import threading
import time
import warnings
from contextlib import ContextDecorator
from typing import NamedTuple

import jax.profiler

from ._enums import RECORDABLE, TracerEventType
from ._timer import TIMER


class HostEvent(NamedTuple):
    name: str
    type: TracerEventType
    start_ns: int
    end_ns: int
    thread_id: int | str


class _State:
    profiler_used = False  # a Profiler (not timer_only) is started: RecordEvents annotate
    sink: list[HostEvent] | None = None  # where finished ranges go while a profiler records


STATE = _State()


def in_profiler_mode() -> bool:
    """Whether a Profiler that records events is started."""
    return STATE.profiler_used


class RecordEvent(ContextDecorator):
    """A user-named time range: a context manager, a decorator, or ``begin()``/``end()``.

    It is recorded only while a Profiler is started (and in a RECORD step, for the summary);
    in the JAX trace it is a ``jax.profiler.TraceAnnotation`` with the same name (a ``#`` in the
    name ends the name there: it is TraceMe's argument separator).
    """

    def __init__(
        self,
        name: str,
        event_type: TracerEventType = TracerEventType.PythonUserDefined,
    ) -> None:
        self.name = name
        self.event_type = event_type
        self.event = None  # the open trace annotation between begin() and end()
        self._start_ns = 0

    def __enter__(self) -> RecordEvent:
        self.begin()
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.end()

    def _annotation(self):
        return jax.profiler.TraceAnnotation(self.name, event_type=self.event_type.name)

    def begin(self) -> None:
        """Open the range (nothing happens unless a Profiler is started)."""
        if not STATE.profiler_used:
            return
        if self.event_type not in RECORDABLE:
            allowed = ", ".join(str(t) for t in RECORDABLE)
            warnings.warn(f"Only TracerEvent Type in [{allowed}] can be recorded.", stacklevel=2)
            self.event = None
            return
        self.event = self._annotation()
        self.event.__enter__()
        self._start_ns = time.perf_counter_ns()

    def end(self) -> None:
        """Close the range opened by ``begin``."""
        event, self.event = self.event, None
        if event is None:
            return
        end_ns = time.perf_counter_ns()
        event.__exit__(None, None, None)
        sink = STATE.sink
        if sink is not None:
            sink.append(
                HostEvent(
                    self.name, self.event_type, self._start_ns, end_ns, threading.get_native_id()
                )
            )


class StepEvent(RecordEvent):
    """The ProfileStep#N range the Profiler keeps open during step N: a step marker
    (``jax.profiler.StepTraceAnnotation``) in the trace, so TensorBoard sees the steps."""

    def __init__(self, step_num: int):
        super().__init__(f"ProfileStep#{step_num}", TracerEventType.ProfileStep)
        self.step_num = step_num

    def _annotation(self):
        return jax.profiler.StepTraceAnnotation(
            "ProfileStep", step_num=self.step_num, event_type="ProfileStep"
        )


_NULL = contextlib.nullcontext()


class _ReaderSpan:
    """One DataLoader read: reader cost for the step timer, a Dataloader event when recording."""

    __slots__ = ("loader", "event")

    def __init__(self, loader):
        self.loader = loader
        self.event = None

    def __enter__(self):
        if STATE.profiler_used:
            multi = getattr(self.loader, "num_workers", 0) > 0
            name = "_DataLoaderIterMultiProcess" if multi else "_DataLoaderIterSingleProcess"
            self.event = RecordEvent(name, TracerEventType.Dataloader)
            self.event.begin()
        TIMER.before_reader(getattr(self.loader, "dataset", None))
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if exc_type is None:
            TIMER.after_reader()
        if self.event is not None:
            self.event.end()
        return False


def reader_span(loader):
    """What the DataLoader wraps each batch read in: a no-op unless a Profiler is started."""
    if TIMER.runs or STATE.profiler_used:
        return _ReaderSpan(loader)
    return _NULL


def model_span(event_type: TracerEventType, name: str):
    """A Forward / Backward / Optimization range, for Layer.__call__, Tensor.backward and
    Optimizer.step to report as Paddle's do (a no-op unless a Profiler is started)."""
    if STATE.profiler_used:
        return RecordEvent(name, event_type)
    return _NULL
