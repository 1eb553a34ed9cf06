"""Streams and events. JAX has no user-visible streams: XLA orders the work it runs on a
device itself. So a Stream is a handle that orders nothing (every op runs on the device's one
ordered queue as far as the program can tell), ``query()`` is True once pending work is done,
and ``synchronize``/``wait_*`` wait for all pending work. An Event records the host time at
which all work queued before it had finished (recording waits for that work), so
``elapsed_time`` measures real device time between two records."""

from __future__ import annotations

import contextlib
import time

from .._core.place import Place, current_device, place_of_device
from . import _jax


def _place(device) -> Place:
    from . import device_to_place

    return device_to_place(device)


class Stream:
    """A device's stream handle (``priority`` is kept, ordering is XLA's)."""

    def __init__(self, device=None, priority: int = 2, stream_base=None):
        if priority not in (1, 2):
            raise ValueError(f"priority should be 1 (high) or 2 (normal), but got {priority}")
        self.device = _place(device)
        self.priority = priority
        self.stream_base = stream_base if stream_base is not None else self

    def query(self) -> bool:
        """True when the work queued on the device is done (waits for it)."""
        _jax.synchronize()
        return True

    def synchronize(self) -> None:
        _jax.synchronize()

    def wait_event(self, event: Event) -> None:
        event.synchronize()

    def wait_stream(self, stream: Stream) -> None:
        stream.synchronize()

    def record_event(self, event: Event | None = None) -> Event:
        event = Event() if event is None else event
        event.record(self)
        return event

    @property
    def cuda_stream(self) -> int:
        """The raw stream pointer: 0 (the default stream; JAX exposes no other)."""
        return 0

    raw_stream = cuda_stream

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and (self.device, self.priority) == (
            other.device,
            other.priority,
        )

    def __hash__(self) -> int:
        return hash((self.device, self.priority))

    def __repr__(self) -> str:
        return f"<paddle.device.Stream device={self.device} priority={self.priority}>"


class Event:
    """A point in the device's work; recording it waits for the work queued before it."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess=False):
        self.enable_timing, self.blocking, self.interprocess = enable_timing, blocking, interprocess
        self._time: float | None = None
        self.event_base = self

    def record(self, stream: Stream | None = None) -> None:
        _jax.synchronize()
        self._time = time.perf_counter()

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        _jax.synchronize()

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds between this event's record and ``end_event``'s."""
        if not (self.enable_timing and end_event.enable_timing):
            raise ValueError("Both events must be created with enable_timing=True.")
        if self._time is None or end_event._time is None:
            raise ValueError("Both events must be recorded before calling elapsed_time.")
        return (end_event._time - self._time) * 1000.0

    def __repr__(self) -> str:
        return f"<paddle.device.Event enable_timing={self.enable_timing}>"


_DEFAULT: dict = {}  # Place -> the device's default Stream
_CURRENT: dict = {}  # Place -> the Stream set with set_stream / stream_guard


def current_stream(device=None) -> Stream:
    """The stream ops on ``device`` (default: the current device) are queued on."""
    place = _place(device) if device is not None else place_of_device(current_device())
    hit = _CURRENT.get(place)
    if hit is None:
        hit = _DEFAULT.get(place)
        if hit is None:
            hit = _DEFAULT[place] = Stream(place)
    return hit


def set_stream(stream: Stream) -> Stream:
    """Make ``stream`` current on its device; returns the previous one."""
    if not isinstance(stream, Stream):
        raise AttributeError(f"'{type(stream).__name__}' object has no attribute 'stream_base'")
    prev = current_stream(stream.device)
    _CURRENT[stream.device] = stream
    return prev


class stream_guard(contextlib.ContextDecorator):  # noqa: N801 - Paddle's name
    """Make ``stream`` current inside the block (None: no change)."""

    def __init__(self, stream: Stream | None = None):
        self.stream = stream
        self._prev: list = []

    def __enter__(self):
        if self.stream is not None:
            self._prev.append(set_stream(self.stream))

    def __exit__(self, *exc):
        if self.stream is not None:
            set_stream(self._prev.pop())
        return False


StreamContext = stream_guard


def stream(stream: Stream | None) -> stream_guard:
    return stream_guard(stream)


def get_stream_from_external(data_ptr: int, device=None) -> Stream:
    """A Stream for an external stream pointer (JAX cannot run on it: a handle only)."""
    s = Stream(device)
    s._external = int(data_ptr)
    return s


def is_current_stream_capturing() -> bool:
    """False: no CUDA-graph capture (XLA compiles whole programs instead)."""
    return False
