"""paddle.profiler: scheduler state sequences, the Profiler's state machine (on_trace_ready
calls, warnings), enums, errors, step_info / Perf Summary text on a scripted clock (exact
characters), and the summary tables' layout with the measured numbers masked (goldens from
real Paddle)."""

import contextlib
import io
import re
import threading
import time
import timeit
import warnings

import numpy as np
import paddle.profiler as profiler
from _util import expect_error

import paddle

S = profiler.ProfilerState


def _warned(fn):
    """(result, [warning texts, whitespace collapsed])."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [" ".join(str(w.message).split()) for w in caught]


def case_make_scheduler():
    params = [
        {"closed": 1, "ready": 1, "record": 4, "repeat": 1},
        {"closed": 1, "ready": 1, "record": 4, "skip_first": 1},
        {"closed": 0, "ready": 0, "record": 1},
        {"closed": 2, "ready": 1, "record": 2, "repeat": 2, "skip_first": 3},
        {"closed": 0, "ready": 2, "record": 3},
        {"closed": 3, "ready": 0, "record": 1, "repeat": 3},
    ]
    out = {}
    for i, kw in enumerate(params):
        sched, warned = _warned(lambda kw=kw: profiler.make_scheduler(**kw))
        out[f"s{i}"] = {"states": [sched(k).name for k in range(24)], "warnings": warned}
    bad = [
        {"closed": -1, "ready": 1, "record": 1},
        {"closed": 1, "ready": 1, "record": 0},
        {"closed": 1, "ready": -1, "record": 1},
        {"closed": 1, "ready": 1, "record": 1, "repeat": -1},
        {"closed": 1, "ready": 1, "record": 1, "skip_first": -1},
    ]
    out["bad"] = [expect_error(lambda kw=kw: profiler.make_scheduler(**kw)) for kw in bad]
    out["positional"] = expect_error(lambda: profiler.make_scheduler(1, 1, 1))
    sched = profiler.make_scheduler(closed=1, ready=1, record=1)
    out["negative_step"] = expect_error(lambda: sched(-1))
    return out


def _quiet():
    return lambda prof: None


def case_range_scheduler():
    out = {}
    for rng in [(2, 5), (0, 3), (-2, 3), (1, 2), [3, 7], (5, 6)]:
        p, warned = _warned(lambda r=rng: profiler.Profiler(scheduler=r, on_trace_ready=_quiet()))
        out[str(rng)] = {
            "states": [p.scheduler(k).name for k in range(10)],
            "warnings": warned,
            "initial": [p.step_num, p.current_state.name, p.previous_state.name],
        }
    for rng in [(3, 2), (3, 3), (3,), (1, 2, 3)]:
        out[f"bad{rng}"] = expect_error(
            lambda r=rng: profiler.Profiler(scheduler=r, on_trace_ready=_quiet())
        )
    p = profiler.Profiler(on_trace_ready=_quiet())
    out["default"] = [p.scheduler(k).name for k in (0, 1, 7, 100)]
    out["default_attrs"] = [p.timer_only, p.record_shapes, p.profile_memory, p.with_flops]
    out["cpu_target"] = [
        profiler.ProfilerTarget.CPU in p.targets,
        profiler.ProfilerTarget.CUSTOM_DEVICE in p.targets,
    ]
    return out


def _run(scheduler, steps, stop=True):
    """Step a Profiler ``steps`` times; the log of states, on_trace_ready calls, warnings."""
    log = {"states": [], "ready_calls": []}

    def on_ready(prof):
        log["ready_calls"].append([prof.step_num, prof.current_state.name])

    def go():
        p = profiler.Profiler(scheduler=scheduler, on_trace_ready=on_ready)
        p.start()
        for _ in range(steps):
            log["states"].append([p.step_num, p.previous_state.name, p.current_state.name])
            p.step()
        log["states"].append([p.step_num, p.previous_state.name, p.current_state.name])
        if stop:
            p.stop()

    (_, log["warnings"]), printed = _printed(lambda: _warned(go))
    log["printed"] = _mask(printed)  # the Perf Summary of runs over 10 steps
    return log


def case_state_machine():
    script = [S.RECORD, S.CLOSED, S.READY, S.CLOSED, S.RECORD, S.READY, S.RECORD_AND_RETURN]
    script += [S.RECORD_AND_RETURN, S.READY, S.RECORD, S.RECORD_AND_RETURN, S.READY]
    return {
        "cycles": _run(profiler.make_scheduler(closed=1, ready=1, record=2, repeat=2), 9),
        "improper": _run(lambda k: script[k], len(script) - 1),
        "range": _run((2, 5), 7),
        "stop_ready": _run(lambda k: S.READY, 2),
        "stop_recording": _run(lambda k: S.RECORD, 2),
        "stop_closed": _run(lambda k: S.CLOSED, 2),
    }


def case_enums():
    out = {}
    for cls in (profiler.ProfilerState, profiler.ProfilerTarget, profiler.SortedKeys):
        out[cls.__name__] = [[m.name, m.value] for m in cls]
    out["SummaryView"] = [[m.name, m.value] for m in profiler.SummaryView]
    out["TracerEventType"] = {n: int(v) for n, v in profiler.TracerEventType.__members__.items()}
    out["strs"] = [str(S.RECORD), repr(S.RECORD), str(profiler.SortedKeys.GPUMin)]
    out["event_type_str"] = str(profiler.TracerEventType.Forward)
    out["all"] = sorted(profiler.__all__)
    ev = profiler.RecordEvent("x")
    out["record_event"] = [ev.name, str(ev.event_type), ev.event]
    ev.begin()  # no profiler started: nothing happens
    ev.end()
    out["record_event_idle"] = ev.event
    return out


class _Clock:
    """A clock the timers read (``time.perf_counter`` and ``timeit.default_timer``): each read
    from the main thread advances it by the next of a fixed cycle of increments, and ``spend``
    advances it for work done in the loop body."""

    def __init__(self):
        self.now = 1000.0
        self.reads = 0
        self.main = threading.main_thread()

    def __call__(self):
        if threading.current_thread() is self.main:
            self.reads += 1
            self.now += 0.0001 * (self.reads % 7 + 1)
        return self.now

    def spend(self, seconds):
        self.now += seconds


@contextlib.contextmanager
def _scripted_clock():
    clock = _Clock()
    saved = time.perf_counter, timeit.default_timer
    time.perf_counter = timeit.default_timer = clock
    try:
        yield clock
    finally:
        time.perf_counter, timeit.default_timer = saved


def _printed(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        out = fn()
    return out, buf.getvalue().splitlines()


class _Samples(paddle.io.Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.full([3], i, "float32")

    def __len__(self):
        return self.n


def _timed(steps, body=None, num_samples=None, unit=None, info_every=5, loader=None, **kw):
    """A timer-only run on the scripted clock: step_info texts and the printed summary."""

    def go():
        infos = []
        with _scripted_clock() as clock:
            p = profiler.Profiler(on_trace_ready=_quiet(), timer_only=True, **kw)
            p.start()
            batches = iter(loader) if loader is not None else range(steps)
            for k, _ in enumerate(batches):
                clock.spend(body(k) if body else 0.01)
                p.step(num_samples=num_samples)
                if k % info_every == 0:
                    infos.append(p.step_info(unit) if unit else p.step_info())
            p.stop()
        return infos

    infos, printed = _printed(go)
    return {"step_info": infos, "printed": printed}


def case_timer_only():
    return {
        "steps": _timed(23, body=lambda k: 0.01 * (k % 4 + 1)),
        "samples": _timed(16, num_samples=8, unit="images", body=lambda k: 0.02 + 0.001 * k),
        "samples_default_unit": _timed(13, num_samples=4),
        "slowing_down": _timed(14, body=lambda k: 0.01 * (k + 1)),  # min stays inf
        "few_steps": _timed(10),
        "loader": _timed(0, loader=paddle.io.DataLoader(_Samples(28), batch_size=2)),
        "loader_samples": _timed(
            0, num_samples=2, unit="rows", loader=paddle.io.DataLoader(_Samples(30), batch_size=2)
        ),
    }


def case_timer_edges():
    out = {}

    def info_first():
        p = profiler.Profiler(on_trace_ready=_quiet(), timer_only=True)
        p.start()
        text = p.step_info()
        p.stop()
        return text

    out["info_before_step"] = info_first()

    def nested():
        infos = []
        with _scripted_clock() as clock:
            outer = profiler.Profiler(on_trace_ready=_quiet(), timer_only=True)
            outer.start()
            for k in range(12):
                clock.spend(0.02)
                outer.step()
                if k == 5:
                    inner = profiler.Profiler(on_trace_ready=_quiet(), timer_only=True)
                    inner.start()
                    for _ in range(12):
                        clock.spend(0.001)
                        inner.step(num_samples=3)
                    infos.append(inner.step_info("img"))
                    inner.stop()
            infos.append(outer.step_info())
            outer.stop()
        return infos

    out["nested"] = dict(zip(("infos", "printed"), _printed(nested), strict=True))

    def paused_by_other_loader():
        infos = []
        train = paddle.io.DataLoader(_Samples(26), batch_size=2)
        evaluate = paddle.io.DataLoader(_Samples(4), batch_size=2)
        with _scripted_clock() as clock:
            p = profiler.Profiler(on_trace_ready=_quiet(), timer_only=True)
            p.start()
            for k, _ in enumerate(train):
                clock.spend(0.01)
                if k == 4:
                    for _ in evaluate:  # another dataset: the run pauses until train is read
                        clock.spend(0.5)
                p.step()
                if k % 4 == 0:
                    infos.append(p.step_info())
            p.stop()
        return infos

    out["paused"] = dict(zip(("infos", "printed"), _printed(paused_by_other_loader), strict=True))
    out["info_without_profiler"] = expect_error(
        lambda: profiler.Profiler(on_trace_ready=_quiet(), timer_only=True).step_info()
    )
    return out


def _mask(lines):
    """Measured numbers -> '#'; a line that had numbers has its runs of spaces collapsed (the
    separator, header and title lines keep their exact layout); thread ids -> T."""
    out = []
    for line in lines:
        line = re.sub(r"-*Thread: \d+-*", "Thread: T", line)
        masked = re.sub(r"\d+\.\d+|\binf\b", "#", line)
        out.append(" ".join(masked.split()) if masked != line else line)
    return out


def _sleepy_steps(steps, loader=None):
    p = profiler.Profiler(scheduler=(1, steps - 1), on_trace_ready=_quiet())
    p.start()
    batches = iter(loader) if loader is not None else range(steps)
    for _ in batches:
        with profiler.RecordEvent("outer"):
            time.sleep(0.002)
            with profiler.RecordEvent("inner_step"):
                time.sleep(0.001)
        with profiler.RecordEvent("memcpy_h2d"):
            time.sleep(0.0005)
        p.step()
    p.stop()
    return p


def case_summary_tables():
    p = _sleepy_steps(4)
    out = {}
    SV = profiler.SummaryView
    calls = {
        "default": {},
        "device": {"views": SV.DeviceView},
        "udf_by_thread_s": {"views": [SV.UDFView], "thread_sep": True, "time_unit": "s"},
        "udf_cpu_min": {
            "views": [SV.UDFView, SV.OverView],
            "sorted_by": profiler.SortedKeys.CPUMin,
        },
        "memory_copies": {"views": [SV.MemoryManipulationView]},
        "empty_views": {"views": [SV.KernelView, SV.DistributedView, SV.MemoryView]},
    }
    for name, kw in calls.items():
        out[name] = _mask(_printed(lambda kw=kw: p.summary(**kw))[1])
    return out


def case_summary_model_view():
    loader = paddle.io.DataLoader(_Samples(10), batch_size=2)
    p = _sleepy_steps(5, loader=loader)
    SV = profiler.SummaryView
    return {
        "model": _mask(_printed(lambda: p.summary(views=[SV.ModelView]))[1]),
        "model_udf": _mask(_printed(lambda: p.summary(views=[SV.UDFView, SV.ModelView]))[1]),
    }


def case_summary_idle():
    out = {}
    p = profiler.Profiler(on_trace_ready=_quiet(), timer_only=True)
    p.start()
    p.step()
    p.stop()
    out["timer_only"] = _printed(p.summary)[1]
    p = profiler.Profiler(scheduler=lambda k: S.CLOSED, on_trace_ready=_quiet())
    p.start()
    p.step()
    p.stop()
    out["never_recorded"] = _printed(p.summary)[1]
    out["export_nothing"] = p.export("never_written.json")
    return out
