"""paddle.profiler beyond the goldens (tests/cases/profiler.py: scheduler states, the state
machine, step_info/Perf Summary text, the summary layout): one traced run checked for the files
TensorBoard/Perfetto read, RecordEvent nesting in the trace and in the summary, the operators
taken from the JAX trace, the protobuf round trip, tracing while another jax.profiler trace
runs, the summary's numbers on known events, the DataLoader hook and the errors.
One row per behaviour; at most two traced runs in all."""

from __future__ import annotations

import atexit
import contextlib
import functools
import glob
import io
import json
import os
import re
import shutil
import tempfile
import warnings

import jax
import pytest

import paddle
import paddle_compat.profiler as profiler
from paddle_compat.profiler import _events, _summary, _timer
from paddle_compat.profiler._events import HostEvent
from paddle_compat.profiler._trace import ProfilerResult

T = profiler.TracerEventType
SV = profiler.SummaryView


def _printed(fn, *args, **kw) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*args, **kw)
    return buf.getvalue()


def _none(prof):
    """An on_trace_ready that writes nothing (the default writes to ./profiler_log/)."""


@profiler.RecordEvent("decorated")
def _decorated(x):
    return x * 2


@functools.cache
def _traced():
    """Steps 1-2 of 4 recorded (one JAX trace), exported by export_chrome_tracing."""
    out_dir = tempfile.mkdtemp(prefix="paddle_profiler_test_")
    atexit.register(shutil.rmtree, out_dir, True)
    x = paddle.ones([8, 8])
    p = profiler.Profiler(
        scheduler=(1, 3), on_trace_ready=profiler.export_chrome_tracing(out_dir, "worker")
    )
    with p:
        for _ in range(4):
            with profiler.RecordEvent("outer"):
                y = paddle.matmul(x, x)
                inner = profiler.RecordEvent("inner")
                inner.begin()
                y = _decorated(paddle.nn.functional.relu(y))
                inner.end()
            y.numpy()
            p.step()
    pb = os.path.join(out_dir, "saved.pb")
    p.export(pb, "pb")
    return p, out_dir, pb


def trace_files_for_tensorboard():
    p, out_dir, _ = _traced()
    runs = glob.glob(os.path.join(out_dir, "plugins", "profile", "*"))
    assert len(runs) == 1 and os.path.basename(runs[0]).startswith("worker_time_")
    for pattern in ("*.xplane.pb", "*.trace.json.gz"):
        (path,) = glob.glob(os.path.join(runs[0], pattern))
        assert os.path.getsize(path) > 0
    (xplane,) = glob.glob(os.path.join(runs[0], "*.xplane.pb"))
    planes = [plane.name for plane in jax.profiler.ProfileData.from_file(xplane).planes]
    assert "/host:CPU" in planes


def chrome_json_has_the_ranges():
    _, out_dir, _ = _traced()
    (path,) = glob.glob(os.path.join(out_dir, "*.paddle_trace.json"))
    name = os.path.basename(path)
    assert re.fullmatch(r"worker_time_\d{4}(_\d\d){5}_\d{6}\.paddle_trace\.json", name)
    with open(path) as f:
        data = json.load(f)
    assert "metadata" not in data and "Process Cpu Utilization" in data["ExtraInfo"]
    spans = [e for e in data["traceEvents"] if e.get("ph") == "X"]
    names = [e["name"] for e in spans]
    assert names.count("outer") == 2 and names.count("inner") == 2
    assert names.count("ProfileStep") == 2 and names.count("decorated") == 2
    outer = next(e for e in spans if e["name"] == "outer")
    inner = next(e for e in spans if e["name"] == "inner" and e["ts"] >= outer["ts"])
    assert inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"]  # nested in the trace
    assert outer["args"]["event_type"] == "PythonUserDefined"


def record_events_nest_in_the_result():
    p, _, _ = _traced()
    events = p.profiler_result.events
    by_name = {}
    for e in events:
        by_name.setdefault(e.name, []).append(e)
    assert sorted(by_name) == ["ProfileStep#1", "ProfileStep#2", "decorated", "inner", "outer"]
    for outer, inner, deco, step in zip(
        by_name["outer"], by_name["inner"], by_name["decorated"], by_name["ProfileStep#1"] * 2
    ):
        assert outer.start_ns <= inner.start_ns <= deco.start_ns <= deco.end_ns
        assert deco.end_ns <= inner.end_ns <= outer.end_ns
        assert outer.type is T.PythonUserDefined and step.type is T.ProfileStep
    assert len({e.thread_id for e in events}) == 1


def summary_has_operators_from_the_trace():
    p, _, _ = _traced()
    text = _printed(p.summary, time_unit="us")
    ops = text.split("Operator Summary")[1].split("\n\n\n")[0]
    rows = {line.split()[0]: int(line.split()[1]) for line in ops.splitlines()[6:-1]}
    assert rows["matmul"] == 2 and rows["relu"] == 2
    overview = text.split("Overview Summary")[1].split("Note:")[0]
    assert re.search(r"\n  Operator +\d+ ", overview)
    udf = text.split("UserDefined Summary")[1]
    assert re.search(r"\nouter +2 ", udf) and re.search(r"\ninner +2 ", udf)
    for title in ("Device Summary", "Overview Summary", "Operator Summary", "UserDefined Summary"):
        assert title in text
    assert "Model Summary" not in text  # only steps: Paddle prints it from two phases on


def protobuf_round_trip():
    p, out_dir, pb = _traced()
    profiler.export_protobuf(out_dir, "w2")(p)  # as on_trace_ready would
    (written,) = glob.glob(os.path.join(out_dir, "w2_time_*.paddle_trace.pb"))
    assert open(written, "rb").read() == open(pb, "rb").read()
    loaded = profiler.load_profiler_result(pb)
    names = {e.name for evs in loaded.get_data().values() for e in evs}
    assert {"outer", "inner", "decorated", "ProfileStep#1", "ProfileStep#2", "matmul"} <= names
    assert sorted(loaded.get_extra_info()) == ["Process Cpu Utilization", "System Cpu Utilization"]
    text = _summary.build_summary(loaded, views=[SV.UDFView, SV.OperatorView])
    assert re.search(r"\nouter +2 ", text) and re.search(r"\nmatmul +2 ", text)
    again = os.path.join(os.path.dirname(pb), "again.json")
    loaded.save(again, "json")
    assert os.path.getsize(again) > 0


def records_beside_another_trace():
    """A jax.profiler trace already running: the Profiler warns and still records its ranges
    (no operators); export writes a chrome trace of those ranges."""
    folder = tempfile.mkdtemp(prefix="paddle_profiler_test_")
    jax.profiler.start_trace(folder)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            p = profiler.Profiler(on_trace_ready=_none)
            p.start()
            for _ in range(2):
                with profiler.RecordEvent("work"):
                    paddle.ones([2]).numpy()
                p.step()
            p.stop()
    finally:
        jax.profiler.stop_trace()
    assert any("no JAX trace for this range" in str(w.message) for w in caught)
    assert [e.name for e in p.profiler_result.events].count("work") == 2
    assert p.profiler_result.ops == []
    path = os.path.join(folder, "fallback.json")
    p.export(path, "json")
    with open(path) as f:
        cats = {e["cat"] for e in json.load(f)["traceEvents"]}
    assert cats == {"ProfileStep", "PythonUserDefined"}
    with pytest.raises(RuntimeError, match="no JAX trace"):
        p.export(os.path.join(folder, "x.pb"), "pb")
    with pytest.warns(UserWarning, match="nothing to write as protobuf"):
        profiler.export_protobuf(folder)(p)
    assert not glob.glob(os.path.join(folder, "*.pb"))
    shutil.rmtree(folder, ignore_errors=True)


def _result(unit_events, ops=()):
    extra = {"Process Cpu Utilization": "1.500000", "System Cpu Utilization": "0.250000"}
    return ProfilerResult(unit_events, extra, None, list(ops))


KNOWN = [
    HostEvent("ProfileStep#0", T.ProfileStep, 0, 2_000_000, 1),
    HostEvent("a", T.PythonUserDefined, 100_000, 600_000, 1),
    HostEvent("_DataLoaderIterSingleProcess", T.Dataloader, 0, 250_000, 1),
]
OPS = [HostEvent("matmul", T.Operator, 0, 300_000, "python")]


@pytest.mark.parametrize(
    "unit,text", [("s", "0.00"), ("ms", "0.50"), ("us", "500.00"), ("ns", "500000.00")]
)
def test_summary_time_units(unit, text):
    out = _summary.build_summary(_result(KNOWN), time_unit=unit, views=[SV.UDFView])
    row = next(line for line in out.splitlines() if line.startswith("a "))
    assert row.split("  ")[0] == "a" and f"{text} / {text} / {text} / {text} / 25.00" in row


def summary_numbers_on_known_events():
    out = _summary.build_summary(_result(KNOWN, OPS))
    lines = out.splitlines()
    assert "CPU(Process)                    150.00                " in lines
    assert "CPU(System)                     25.00                 " in lines
    assert (
        "ProfileStep                1                          2.00                       100.00"
        "                     "
    ) in lines
    model = out.split("Model Summary")[1]
    assert "  Dataloader     1       0.25 / 0.25 / 0.25 / 0.25 / 12.50" in model
    assert "  Others         -       1.75 / - / - / - / 87.50" in model
    assert re.search(r"\nmatmul +1 +0\.30 / 0\.30 / 0\.30 / 0\.30 / 100\.00 ", out)
    no_step = _summary.build_summary(_result(KNOWN[1:]))
    assert "Device Summary" in no_step and "Overview" not in no_step


def model_phases_are_recorded():
    """Layer calls (named after their class, nested), Tensor.backward and Optimizer.step
    report Paddle's Forward / Backward / Optimization ranges while a profiler records."""
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.ReLU())
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    sink: list = []
    saved = (_events.STATE.profiler_used, _events.STATE.sink)
    _events.STATE.profiler_used, _events.STATE.sink = True, sink
    try:
        net(paddle.ones([1, 2])).sum().backward()
        opt.step()
    finally:
        _events.STATE.profiler_used, _events.STATE.sink = saved
    got = [(e.name, e.type) for e in sorted(sink, key=lambda e: e.start_ns)]
    assert got == [
        ("Sequential", T.Forward),
        ("Linear", T.Forward),
        ("ReLU", T.Forward),
        ("Gradient Backward", T.Backward),
        ("Optimization Step", T.Optimization),
    ]
    phases = _summary._model_nodes(
        [HostEvent("ProfileStep#0", T.ProfileStep, 0, max(e.end_ns for e in sink), 1), *sink]
    )
    assert [n.name for n in phases if n.type is T.Forward] == ["Sequential"]  # outermost only


def loader_hook_is_free_when_idle():
    assert _events.reader_span(object()) is _events._NULL
    assert _events.model_span(T.Forward, "Linear") is _events._NULL
    loader = paddle.io.DataLoader(paddle.io.TensorDataset([paddle.ones([4, 2])]), batch_size=2)
    p = profiler.Profiler(timer_only=True, on_trace_ready=_none)
    p.start()
    for _ in loader:
        p.step(num_samples=2)
    assert p.step_info("rows").startswith(" reader_cost: ")
    p.stop()
    assert _timer.TIMER.runs == []


def record_event_rules():
    ev = profiler.RecordEvent("op", event_type=T.Operator)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _events.STATE.profiler_used = True
        try:
            ev.begin()
        finally:
            _events.STATE.profiler_used = False
    assert ev.event is None and "can be recorded" in str(caught[0].message)
    ev.end()  # nothing open: nothing happens
    with profiler.RecordEvent("idle") as idle:  # no profiler: a no-op
        assert idle.event is None
    from paddle.profiler.utils import in_profiler_mode

    p = profiler.Profiler(
        scheduler=lambda step: profiler.ProfilerState.CLOSED, on_trace_ready=_none
    )
    assert not in_profiler_mode()
    with p:
        assert in_profiler_mode()
    assert not in_profiler_mode()


def errors():
    res = _result(KNOWN)
    with pytest.raises(ValueError, match="'json' or 'pb'"):
        res.save(os.path.join(tempfile.gettempdir(), "x.bin"), "csv")
    with pytest.raises(FileNotFoundError):
        profiler.load_profiler_result("/nonexistent/profile.pb")
    with pytest.raises(AssertionError):
        profiler.Profiler(scheduler=(4, 2), on_trace_ready=_none)
    with pytest.raises(AttributeError, match="started Profiler"):
        profiler.Profiler(timer_only=True, on_trace_ready=_none).step_info()
    with pytest.raises(RuntimeError, match="Can not create directory"):
        profiler.export_chrome_tracing("/proc/no_such_dir/log")


def public_names():
    assert set(profiler.__all__) <= set(dir(profiler))
    assert paddle.profiler is profiler and int(T.Forward) == 9
    with pytest.warns(UserWarning, match="Profiling ProfilerTarget.XPU is not supported"):
        p = profiler.Profiler(targets=[profiler.ProfilerTarget.XPU], on_trace_ready=_none)
    assert p.targets == set()


ROWS = [
    trace_files_for_tensorboard,
    chrome_json_has_the_ranges,
    record_events_nest_in_the_result,
    summary_has_operators_from_the_trace,
    protobuf_round_trip,
    records_beside_another_trace,
    summary_numbers_on_known_events,
    model_phases_are_recorded,
    loader_hook_is_free_when_idle,
    record_event_rules,
    errors,
    public_names,
]


@pytest.mark.parametrize("check", ROWS, ids=[f.__name__ for f in ROWS])
def test_profiler(check):
    check()
