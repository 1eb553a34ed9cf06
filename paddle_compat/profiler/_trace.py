"""One recorded range of steps: a ``jax.profiler`` trace plus the host events timed meanwhile,
and the ``ProfilerResult`` made of them (exported as a chrome trace or as JAX's XSpace
protobuf, read back by ``load_profiler_result``).

Each RECORD range traces into its own temporary folder (JAX names its run folders by the
second, so two short ranges would share one); the folder lives as long as its result, and the
export callbacks copy it next to the exported file for TensorBoard.
"""

from __future__ import annotations

import glob
import gzip
import json
import os
import shutil
import tempfile
import time
import warnings
import weakref
from collections import defaultdict

import jax.profiler

from .._core import deferred, segment_store
from ._enums import TracerEventType
from ._events import STATE, HostEvent


def _system_cpu() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs from /proc/stat ((0, 0) where there is none)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


class _CpuClock:
    def __init__(self):
        self.wall = time.perf_counter()
        self.process = time.process_time()
        self.system = _system_cpu()

    def utilization(self) -> dict[str, str]:
        """Paddle's extra info: process CPU time over elapsed time, system busy share."""
        wall = time.perf_counter() - self.wall
        process = (time.process_time() - self.process) / wall if wall > 0 else 0.0
        (b0, t0), (b1, t1) = self.system, _system_cpu()
        system = (b1 - b0) / (t1 - t0) if t1 > t0 else 0.0
        return {
            "Process Cpu Utilization": f"{process:.6f}",
            "System Cpu Utilization": f"{system:.6f}",
        }


class TraceSession:
    """Start/stop of one RECORD range."""

    def __init__(self):
        self.events: list[HostEvent] = []
        self.folder: str | None = None
        self.clock: _CpuClock | None = None

    def start(self) -> None:
        self.events = []
        self.clock = _CpuClock()
        self.folder = tempfile.mkdtemp(prefix="paddle_profiler_")
        options = jax.profiler.ProfileOptions()
        options.python_tracer_level = 0  # Python function calls would swamp the trace
        try:
            jax.profiler.start_trace(self.folder, profiler_options=options)
        except RuntimeError as e:  # another jax.profiler trace is running
            warnings.warn(
                f"paddle.profiler: no JAX trace for this range ({e}); only RecordEvent ranges "
                "and steps are recorded",
                stacklevel=3,
            )
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
        else:  # ops dispatch one by one through jax.jit, which names them in the trace
            segment_store.direct_calls(False)
            deferred.pause(True)
        STATE.sink = self.events

    def stop(self, keep: bool = True) -> ProfilerResult | None:
        STATE.sink = None
        folder, self.folder = self.folder, None
        if folder is not None:
            segment_store.direct_calls(True)
            deferred.pause(False)
            try:
                jax.profiler.stop_trace()
            except RuntimeError as e:  # someone stopped our trace: keep the host events
                warnings.warn(f"paddle.profiler: the JAX trace was lost ({e})", stacklevel=3)
        if not keep:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            return None
        run_dir = None
        if folder is not None:
            runs = sorted(glob.glob(os.path.join(folder, "plugins", "profile", "*")))
            run_dir = runs[-1] if runs else None
        result = ProfilerResult(self.events, self.clock.utilization(), run_dir)
        if folder is not None:
            weakref.finalize(result, shutil.rmtree, folder, True)
        return result


def _first(run_dir: str | None, pattern: str) -> str | None:
    found = sorted(glob.glob(os.path.join(run_dir, pattern))) if run_dir else []
    return found[0] if found else None


def _read_xplane(path: str) -> tuple[list[HostEvent], list[HostEvent]]:
    """(host events, operator events) of a JAX XSpace file. Host events are the annotations
    RecordEvent/the Profiler wrote (they carry ``event_type``); an operator event is the
    outermost ``PjitFunction(name)`` dispatch on a host thread (an eager op's jitted kernel or
    a to_static function), named ``name``. Threads are named by their trace line (``python``,
    ``python 2`` ...): XSpace lines keep thread names, not ids."""
    data = jax.profiler.ProfileData.from_file(path)
    origin = 0
    for plane in data.planes:
        if plane.name == "Task Environment":
            origin = int(dict(plane.stats).get("profile_start_time", 0))
    hosts, ops = [], []
    for plane in data.planes:
        if not plane.name.startswith("/host:"):
            continue
        seen: dict[str, int] = defaultdict(int)
        for line in plane.lines:
            seen[line.name] += 1
            label = line.name if seen[line.name] == 1 else f"{line.name} {seen[line.name]}"
            outer_end = -1
            for e in sorted(line.events, key=lambda e: (e.start_ns, -e.end_ns)):
                start, end = origin + int(e.start_ns), origin + int(e.end_ns)
                name = e.name
                if name.startswith("PjitFunction(") and name.endswith(")"):
                    if start < outer_end:
                        continue  # a dispatch inside another (a trace in progress)
                    outer_end = end
                    ops.append(HostEvent(name[13:-1], TracerEventType.Operator, start, end, label))
                    continue
                stats = dict(e.stats)
                kind = TracerEventType.__members__.get(str(stats.get("event_type", "")))
                if kind is None:
                    continue
                if kind is TracerEventType.ProfileStep:
                    name = f"ProfileStep#{stats.get('step_num', '')}"
                hosts.append(HostEvent(name, kind, start, end, label))
    return hosts, ops


class ProfilerResult:
    """What one RECORD range recorded: host events (steps, RecordEvents, Dataloader reads),
    the operators dispatched (from the JAX trace), CPU utilization, and the trace files."""

    def __init__(self, events, extra_info: dict, run_dir: str | None, ops=None):
        self.events: list[HostEvent] = list(events)
        self._extra_info = dict(extra_info)
        self.run_dir = run_dir
        self._ops = ops

    @property
    def ops(self) -> list[HostEvent]:
        if self._ops is None:
            xplane = _first(self.run_dir, "*.xplane.pb")
            self._ops = _read_xplane(xplane)[1] if xplane else []
        return self._ops

    def get_data(self) -> dict:
        """The recorded events by thread: ``{thread: [HostEvent, ...]}`` (Paddle returns its
        C++ event trees here)."""
        out = defaultdict(list)
        for e in sorted(self.events + self.ops, key=lambda e: (e.start_ns, -e.end_ns)):
            out[e.thread_id].append(e)
        return dict(out)

    def get_extra_info(self) -> dict:
        return dict(self._extra_info)

    def save(self, path: str, format: str = "json") -> None:
        """Write the chrome trace (``json``) or JAX's XSpace protobuf (``pb``) to ``path``."""
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if format == "json":
            self._save_json(path)
        elif format == "pb":
            xplane = _first(self.run_dir, "*.xplane.pb")
            if xplane is None:
                raise RuntimeError(
                    "paddle.profiler: this range has no JAX trace to save as protobuf "
                    "(another jax.profiler trace was running)"
                )
            shutil.copyfile(xplane, path)
        else:
            raise ValueError(f"format must be 'json' or 'pb', got {format!r}")

    def _save_json(self, path: str) -> None:
        trace = _first(self.run_dir, "*.trace.json.gz")
        if trace is not None:  # JAX's chrome trace, less the key Perfetto refuses
            with gzip.open(trace, "rt") as f:
                data = json.load(f)
            data.pop("metadata", None)
        else:
            pid = os.getpid()
            data = {
                "displayTimeUnit": "ms",
                "traceEvents": [
                    {
                        "name": e.name,
                        "cat": e.type.name,
                        "ph": "X",
                        "pid": pid,
                        "tid": e.thread_id,
                        "ts": e.start_ns / 1e3,
                        "dur": (e.end_ns - e.start_ns) / 1e3,
                    }
                    for e in self.events
                ],
            }
        data["ExtraInfo"] = self._extra_info
        with open(path, "w") as f:
            json.dump(data, f)

    def copy_trace(self, log_dir: str, run_name: str) -> str | None:
        """Copy the JAX run folder to ``log_dir/plugins/profile/run_name`` (where TensorBoard's
        profile plugin and XProf look); returns that folder."""
        if self.run_dir is None:
            return None
        dest = os.path.join(log_dir, "plugins", "profile", run_name)
        shutil.copytree(self.run_dir, dest, dirs_exist_ok=True)
        return dest


def load_profiler_result(filename: str) -> ProfilerResult:
    """Read a result saved with ``Profiler.export(path, "pb")`` (a JAX XSpace file; any
    ``*.xplane.pb`` written by ``jax.profiler`` reads too, its operators and annotations)."""
    if not os.path.isfile(filename):
        raise FileNotFoundError(f"profiler result file not found: {filename}")
    folder = tempfile.mkdtemp(prefix="paddle_profiler_")
    shutil.copyfile(filename, os.path.join(folder, "loaded.xplane.pb"))
    hosts, ops = _read_xplane(filename)
    idle = {"Process Cpu Utilization": "0.000000", "System Cpu Utilization": "0.000000"}
    result = ProfilerResult(hosts, idle, folder, ops)
    weakref.finalize(result, shutil.rmtree, folder, True)
    return result
