"""``paddle.profiler.Profiler`` on ``jax.profiler``: a scheduler picks, step by step, when to
record; each recorded range is a JAX trace (viewable in TensorBoard/XProf or Perfetto) plus
the host ranges timed for ``summary``; ``on_trace_ready`` receives the profiler after each
range (by default it writes a chrome trace to ``./profiler_log/``)."""

from __future__ import annotations

import datetime
import os
import socket
import warnings
from collections.abc import Callable, Iterable

import jax

from ._enums import ProfilerState, ProfilerTarget, SortedKeys, SummaryView
from ._events import STATE, StepEvent
from ._summary import build_summary
from ._timer import TIMER
from ._trace import ProfilerResult, TraceSession

_S = ProfilerState


def make_scheduler(
    *, closed: int, ready: int, record: int, repeat: int = 0, skip_first: int = 0
) -> Callable[[int], ProfilerState]:
    """A scheduler: ``skip_first`` CLOSED steps, then cycles of ``closed`` CLOSED, ``ready``
    READY and ``record`` RECORD steps (the last one RECORD_AND_RETURN), ``repeat`` times
    (0: forever), CLOSED after that."""
    if not (closed >= 0 and ready >= 0 and record > 0 and repeat >= 0 and skip_first >= 0):
        raise AssertionError("Invalid profiler scheduler arguments")
    if ready == 0:
        warnings.warn(
            "Profiler will record data after enabling profiler immediately, some data "
            "collected at the beginning of profiling may be 'noisy' because of overhead.",
            stacklevel=2,
        )
    period = closed + ready + record

    def scheduler(step: int) -> ProfilerState:
        if step < 0:
            raise AssertionError(f"step must be >= 0, got {step}")
        if step < skip_first:
            return _S.CLOSED
        cycle, pos = divmod(step - skip_first, period)
        if repeat > 0 and cycle >= repeat:
            return _S.CLOSED
        if pos < closed:
            return _S.CLOSED
        if pos < closed + ready:
            return _S.READY
        return _S.RECORD if pos < period - 1 else _S.RECORD_AND_RETURN

    return scheduler


def _always_record(step: int) -> ProfilerState:
    return _S.RECORD


def _range_scheduler(start: int, end: int) -> Callable[[int], ProfilerState]:
    """Record steps [start, end): one READY step before, unless the range starts at 0."""
    start = max(start, 0)
    if start >= 1:
        return make_scheduler(closed=start - 1, ready=1, record=end - start, repeat=1)
    return make_scheduler(closed=0, ready=0, record=end - start, repeat=1)


def _run_name(worker_name: str | None) -> str:
    """Paddle's ``<worker>_time_<now>`` (worker by default ``host_<hostname>pid_<pid>``)."""
    worker = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
    return f"{worker}_time_{datetime.datetime.now().strftime('%Y_%m_%d_%H_%M_%S_%f')}"


class _Exporter:
    """The on_trace_ready callback of export_chrome_tracing/export_protobuf: the file Paddle
    writes, plus the JAX trace folder under ``dir_name/plugins/profile/<same name>/`` for
    ``tensorboard --logdir dir_name`` (or XProf)."""

    def __init__(self, dir_name: str, worker_name: str | None, fmt: str):
        try:
            os.makedirs(dir_name, exist_ok=True)
        except OSError as e:
            raise RuntimeError(
                f"Can not create directory '{dir_name}' for saving profiling results."
            ) from e
        self.dir_name, self.worker_name, self.format = dir_name, worker_name, fmt

    def __call__(self, prof: Profiler) -> None:
        result = prof.profiler_result
        if result is None:
            return
        run = _run_name(self.worker_name)
        if self.format == "pb" and result.run_dir is None:
            warnings.warn(
                "paddle.profiler: this range has no JAX trace (another jax.profiler trace was "
                "running): nothing to write as protobuf",
                stacklevel=2,
            )
            return
        prof.export(os.path.join(self.dir_name, f"{run}.paddle_trace.{self.format}"), self.format)
        result.copy_trace(self.dir_name, run)


def export_chrome_tracing(
    dir_name: str, worker_name: str | None = None
) -> Callable[[Profiler], None]:
    """An ``on_trace_ready`` callback writing each range's chrome trace to
    ``dir_name/<worker_name>_time_<time>.paddle_trace.json`` (worker name by default
    ``host_<hostname>pid_<pid>``), and JAX's trace folder beside it for TensorBoard."""
    return _Exporter(dir_name, worker_name, "json")


def export_protobuf(dir_name: str, worker_name: str | None = None) -> Callable[[Profiler], None]:
    """As export_chrome_tracing, writing ``.paddle_trace.pb``: JAX's XSpace protobuf, which
    ``load_profiler_result`` reads back."""
    return _Exporter(dir_name, worker_name, "pb")


def _supported_targets() -> list[ProfilerTarget]:
    platforms = {d.platform for d in jax.devices()}
    if "gpu" in platforms or "cuda" in platforms or "rocm" in platforms:
        return [ProfilerTarget.CPU, ProfilerTarget.GPU, ProfilerTarget.CUSTOM_DEVICE]
    return [ProfilerTarget.CPU, ProfilerTarget.CUSTOM_DEVICE]


class Profiler:
    """Profile a range of training steps: a context manager, or ``start()`` / ``step()`` per
    step / ``stop()``.

    Recording follows Paddle's ``scheduler`` states; each recorded range runs one
    ``jax.profiler`` trace. ``record_shapes``, ``profile_memory``, ``with_flops``,
    ``emit_nvtx`` and ``custom_device_types`` are accepted and record nothing more (the
    summary has no shapes, memory, FLOPs or NVTX ranges). ``timer_only=True`` only times
    the steps (``step_info`` and the Perf Summary printed at ``stop``).
    """

    def __init__(
        self,
        *,
        targets: Iterable[ProfilerTarget] | None = None,
        scheduler: Callable[[int], ProfilerState] | tuple[int, int] | None = None,
        on_trace_ready: Callable[[Profiler], None] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        timer_only: bool = False,
        emit_nvtx: bool = False,
        custom_device_types: list[str] | None = None,
        with_flops: bool = False,
    ) -> None:
        supported = _supported_targets()
        if targets:
            self.targets = set(targets)
            for target in targets:
                if target not in supported:
                    self.targets.discard(target)
                    warnings.warn(
                        f"Profiling {target} is not supported in current context.", stacklevel=2
                    )
        else:
            self.targets = supported
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, tuple | list):
            if not (len(scheduler) == 2 and scheduler[1] > scheduler[0]):
                raise AssertionError(
                    f"scheduler must be (start_batch, end_batch) with end > start, "
                    f"got {scheduler!r}"
                )
            self.scheduler = _range_scheduler(*scheduler)
        else:
            self.scheduler = _always_record
        if on_trace_ready is None:
            on_trace_ready = export_chrome_tracing("./profiler_log/")
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.previous_state = _S.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.record_event: StepEvent | None = None
        self.profiler_result: ProfilerResult | None = None
        self.timer_only = timer_only
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_flops = with_flops
        self.emit_nvtx = emit_nvtx
        self.custom_device_types = list(custom_device_types or [])
        self._session = TraceSession()
        self._tracing = False

    def __enter__(self) -> Profiler:
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        self.stop()

    # -- the recording range
    def _begin_range(self) -> None:
        self._session.start()
        self._tracing = True

    def _end_range(self, keep: bool = True) -> None:
        if self._tracing:
            self._tracing = False
            result = self._session.stop(keep)
            if keep:
                self.profiler_result = result

    def _open_step(self) -> None:
        self.record_event = StepEvent(self.step_num)
        self.record_event.begin()

    def _close_step(self) -> None:
        if self.record_event is not None:
            self.record_event.end()
            self.record_event = None

    def start(self) -> None:
        """Start profiling at step 0 (recording if the scheduler says so)."""
        TIMER.begin()
        if not self.timer_only or self.emit_nvtx:
            STATE.profiler_used = True
        if self.timer_only:
            return
        if self.current_state in (_S.RECORD, _S.RECORD_AND_RETURN):
            self._begin_range()
        self._open_step()

    def stop(self) -> None:
        """Stop profiling; a range still recording ends and goes to ``on_trace_ready``."""
        TIMER.end()
        if self.timer_only:
            STATE.profiler_used = False
            return
        self._close_step()
        if self.current_state is _S.READY:
            warnings.warn(
                "Improper Profiler state transform: READY->CLOSED, profiler will start and "
                "stop without saving data",
                stacklevel=2,
            )
        if self.current_state in (_S.RECORD, _S.RECORD_AND_RETURN):
            self._end_range()
            if self.on_trace_ready:
                self.on_trace_ready(self)
        STATE.profiler_used = False

    def step(self, num_samples: int | None = None) -> None:
        """Mark the start of the next step (``num_samples``: its batch size, for ips)."""
        TIMER.step(num_samples)
        if self.timer_only:
            return
        self._close_step()
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._transition(self.previous_state, self.current_state)
        self._open_step()

    def _transition(self, prev: ProfilerState, cur: ProfilerState) -> None:
        recording = (_S.RECORD, _S.RECORD_AND_RETURN)
        if prev is _S.CLOSED or prev is _S.READY:
            if prev is _S.READY and cur is _S.CLOSED:
                warnings.warn(
                    "Improper schedule: READY->CLOSED, profiler will start and stop without "
                    "saving data",
                    stacklevel=3,
                )
            if cur in recording:
                self._begin_range()
        elif prev is _S.RECORD:
            if cur is _S.CLOSED:
                warnings.warn(
                    "Improper schedule: RECORD->CLOSED, profiler will not saving data",
                    stacklevel=3,
                )
                self._end_range(keep=False)
            elif cur is _S.READY:
                warnings.warn(
                    "Improper schedule: RECORD->READY, profiler will stop and re-prepare",
                    stacklevel=3,
                )
                self._end_range(keep=False)
        else:  # RECORD_AND_RETURN: the range is complete
            self._end_range()
            if cur in recording:
                self._begin_range()
            if self.on_trace_ready:
                self.on_trace_ready(self)

    def step_info(self, unit: str | None = None) -> str:
        """Average reader cost, batch cost and ips over the steps since the last call
        (``unit``: what ``num_samples`` counts, default ``samples``)."""
        return TIMER.step_info("samples" if unit is None else unit)

    def export(self, path: str = "", format: str = "json") -> None:
        """Write the last recorded range: ``json`` (chrome trace, from JAX's trace) or ``pb``
        (JAX's XSpace protobuf)."""
        if self.profiler_result:
            self.profiler_result.save(path, format)

    def summary(
        self,
        sorted_by: SortedKeys = SortedKeys.CPUTotal,
        op_detail: bool = True,
        thread_sep: bool = False,
        time_unit: str = "ms",
        views: SummaryView | list[SummaryView] | None = None,
    ) -> None:
        """Print Paddle's summary tables of the last recorded range (``op_detail`` changes
        nothing: operators have no recorded inner events)."""
        if self.profiler_result:
            print(build_summary(self.profiler_result, sorted_by, thread_sep, time_unit, views))
        if self.with_flops:
            print(" Flops Profiler Begin ".center(100, "-"))
            print("")  # per-layer FLOPs need op input shapes, which are not recorded
            print("- Flops Profiler End -".center(100, "-"))
