"""``Profiler.summary``: Paddle's summary tables, laid out as Paddle prints them, from a
``ProfilerResult``.

Tables printed: Device (CPU utilization), Overview (time per event type), Model (steps,
Dataloader/Forward/Backward/Optimization phases), Operator (the operators of the JAX trace),
Memory Manipulation and UserDefined (RecordEvent ranges). Distributed, Kernel and Memory tables
need device, communication and allocator events that are not recorded, so, as in Paddle
without such events, they are left out. GPU columns read 0.
"""

from __future__ import annotations

import math
from collections import defaultdict, deque

from ._enums import SortedKeys, SummaryView, TracerEventType
from ._events import HostEvent

_T = TracerEventType
_MODEL_PHASES = (_T.Dataloader, _T.Forward, _T.Backward, _T.Optimization)
_SCALE = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}

DEVICE_NOTE = (
    "Note:\nCPU(Process) Utilization = Current process CPU time over all cpu cores / elapsed "
    "time, so max utilization can be reached 100% * number of cpu cores.\n"
    "CPU(System) Utilization = All processes CPU time over all cpu cores(busy time) / (busy "
    "time + idle time).\nGPU Utilization = Current process GPU time / elapsed time."
)
OVERVIEW_NOTE = (
    "Note:\nIn this table, We sum up all collected events in terms of event type.\n"
    "The time of events collected on host are presented as CPU Time, and as GPU Time if on "
    "device.\nEvents with different types may overlap or inclusion, e.g. Operator includes "
    "OperatorInner, so the sum of ratios is not 100%.\nThe time of events in the same type "
    "with overlap will not calculate twice, and all time is summed after merged.\n"
    "Example:\nThread 1:\n  Operator: |___________|     |__________|\nThread 2:\n"
    "  Operator:   |____________|     |___|\nAfter merged:\n"
    "  Result:   |______________|  |__________|\n"
)
MODEL_NOTE = (
    "Note:\nIn this table, GPU time is the sum of all device(GPU) events called in the phase.\n"
    "Unlike overview summary, if two device(GPU) events execute on different streams with "
    "overlap time, we sum them directly here.\n"
)
_HEADERS = (
    "Name",
    "Calls",
    "CPU Total / Avg / Max / Min / Ratio(%)",
    "GPU Total / Avg / Max / Min / Ratio(%)",
)


class _Item:
    """Calls and CPU time of one name (GPU time is never recorded: it stays 0)."""

    def __init__(self):
        self.call = 0
        self.cpu = 0
        self.max = 0
        self.min = math.inf

    def add(self, ns: int) -> None:
        self.call += 1
        self.cpu += ns
        self.max = max(self.max, ns)
        self.min = min(self.min, ns)

    @property
    def avg(self) -> float:
        return self.cpu / self.call


def _union_ns(events) -> int:
    """Total time covered by the events' ranges, overlaps counted once."""
    total, cur_start, cur_end = 0, None, None
    for s, e in sorted((ev.start_ns, ev.end_ns) for ev in events):
        if cur_end is None or s > cur_end:
            if cur_end is not None:
                total += cur_end - cur_start
            cur_start, cur_end = s, e
        else:
            cur_end = max(cur_end, e)
    return total + (cur_end - cur_start if cur_end is not None else 0)


def _model_nodes(events: list[HostEvent]) -> list[HostEvent]:
    """Per thread, the steps and, below them, the outermost Dataloader/Forward/Backward/
    Optimization ranges (a Forward inside a Forward is part of the outer one)."""
    children: dict = defaultdict(list)
    by_thread: dict = defaultdict(list)
    for e in events:
        by_thread[e.thread_id].append(e)
    for tid, evs in by_thread.items():
        stack: list[HostEvent] = []
        for e in sorted(evs, key=lambda e: (e.start_ns, -e.end_ns)):
            while stack and stack[-1].end_ns <= e.start_ns:
                stack.pop()
            children[stack[-1] if stack else ("root", tid)].append(e)
            stack.append(e)
    found = []
    for tid in by_thread:
        queue = deque(children[("root", tid)])
        while queue:
            node = queue.popleft()
            if node.type in _MODEL_PHASES:
                found.append(node)
                continue
            if node.type is _T.ProfileStep:
                found.append(node)
            queue.extend(children[node])
    return found


def _sort(items: dict, key: SortedKeys) -> list:
    rows = list(items.items())
    if key in (SortedKeys.CPUTotal, SortedKeys.CPUAvg, SortedKeys.CPUMax):
        attr = {SortedKeys.CPUTotal: "cpu", SortedKeys.CPUAvg: "avg", SortedKeys.CPUMax: "max"}
        return sorted(rows, key=lambda kv: getattr(kv[1], attr[key]), reverse=True)
    if key is SortedKeys.CPUMin:
        return sorted(rows, key=lambda kv: kv[1].min)
    return rows  # GPU keys: every GPU time is 0, Python's sort keeps the order


class _Table:
    """Left-aligned columns two spaces apart, as Paddle's tables."""

    def __init__(self, *widths: int):
        self.fmt = "".join(f"{{:<{w}}}  " for w in widths)
        self.sep = "".join("-" * w + "  " for w in widths)
        self.width = sum(widths) + 2 * len(widths) - 2

    def row(self, *values) -> str:
        return self.fmt.format(*values)

    def title(self, text: str) -> str:
        pad = self.width - len(text)
        return "-" * (pad // 2) + text + "-" * (pad - pad // 2)


class _Report:
    def __init__(self, result, sorted_by, thread_sep, time_unit):
        self.result, self.sorted_by, self.thread_sep = result, sorted_by, thread_sep
        self.scale = _SCALE.get(time_unit, 1.0)
        self.unit = time_unit
        self.lines: list[str] = []
        self.hosts = list(result.events)
        self.ops = list(result.ops)
        self.total = _union_ns(e for e in self.hosts if e.type is _T.ProfileStep)

    def time(self, ns) -> str:
        return "-" if ns == math.inf else f"{float(ns) / self.scale:.2f}"

    @staticmethod
    def ratio(r: float) -> str:
        return f"{r * 100:.2f}"

    def stats(self, item: _Item, ratio: float) -> str:
        times = (item.cpu, item.avg, item.max, item.min)
        return " / ".join([*(self.time(ns) for ns in times), self.ratio(ratio)])

    def gpu_zero(self) -> str:
        return " / ".join([self.time(0)] * 4 + [self.ratio(0)])

    def emit(self, *lines: str) -> None:
        self.lines.extend(lines)

    def widths(self, rows, base=(6, 40, 40)) -> list[int]:
        calls, cpu, gpu = base
        for r in rows:
            if isinstance(r, str):
                continue
            if isinstance(r[1], int):
                calls = max(calls, len(str(r[1])))
            cpu, gpu = max(cpu, len(r[2])), max(gpu, len(r[3]))
        return [calls, cpu, gpu]

    # -- the tables, in Paddle's order
    def device(self) -> None:
        tab = _Table(30, 20)
        info = self.result.get_extra_info()
        self.emit(tab.title("Device Summary"), tab.sep, tab.row("Device", "Utilization (%)"))
        self.emit(tab.sep)
        for label, key in (("CPU(Process)", "Process"), ("CPU(System)", "System")):
            value = float(info.get(f"{key} Cpu Utilization", 0))
            self.emit(tab.row(label, self.ratio(value)))
        self.emit(tab.sep, DEVICE_NOTE, "-" * tab.width, "", "")

    def overview(self) -> None:
        tab = _Table(25, 25, 25, 25)
        self.emit(tab.title("Overview Summary"), f"Time unit: {self.unit}", tab.sep)
        self.emit(tab.row("Event Type", "Calls", "CPU Time", "Ratio (%)"), tab.sep)
        by_type: dict = defaultdict(list)
        for e in self.hosts + self.ops:
            by_type[e.type].append(e)
        cpu = {t: _union_ns(evs) for t, evs in by_type.items()}
        calls = {t: len(evs) for t, evs in by_type.items()}
        for t, item in self.model_items().items():
            if t in _MODEL_PHASES and t in calls:
                calls[t], cpu[t] = item.call, item.cpu
        for i, (t, ns) in enumerate(sorted(cpu.items(), key=lambda kv: kv[1], reverse=True)):
            name = t.name if i == 0 else f"  {t.name}"
            self.emit(tab.row(name, calls[t], self.time(ns), self.ratio(ns / self.total)))
        self.emit(tab.sep, tab.row("", "Calls", "GPU Time", "Ratio (%)"), tab.sep, tab.sep)
        self.emit(OVERVIEW_NOTE, "-" * tab.width, "", "")

    def model_items(self) -> dict:
        items: dict = {}
        for node in _model_nodes(self.hosts):
            items.setdefault(node.type, _Item()).add(node.end_ns - node.start_ns)
        return items

    def model(self) -> None:
        items = self.model_items()
        if len(items) <= 1:
            return
        rows, phases_ns = [], 0
        for t in (_T.ProfileStep, *_MODEL_PHASES):
            if t in items:
                item = items[t]
                name = t.name if t is _T.ProfileStep else f"  {t.name}"
                rows.append([name, item.call, self.stats(item, item.cpu / self.total)])
                rows[-1].append(self.gpu_zero())
                phases_ns += 0 if t is _T.ProfileStep else item.cpu
        others = self.total - phases_ns
        zero = self.time(0)
        rows.append(
            [
                "  Others",
                "-",
                f"{self.time(others)} / - / - / - / {self.ratio(others / self.total)}",
                f"{zero} / - / - / - / {self.ratio(0)}",
            ]
        )
        tab = _Table(15, *self.widths(rows))
        self.emit(tab.title("Model Summary"), f"Time unit: {self.unit}", tab.sep)
        self.emit(tab.row(*_HEADERS))
        self.emit(tab.sep, *(tab.row(*r) for r in rows), tab.sep)
        self.emit(MODEL_NOTE, "-" * tab.width, "", "")

    def grouped(self, events, split: bool) -> dict:
        """{thread title: {name: _Item}} (all threads merged unless ``split``)."""
        groups: dict = defaultdict(dict)
        for e in sorted(events, key=lambda e: e.start_ns):
            key = e.thread_id if split else "All threads merged"
            groups[key].setdefault(e.name, _Item()).add(e.end_ns - e.start_ns)
        return groups

    def operator(self) -> None:
        if not self.ops:
            return
        rows: list = []
        for thread, items in self.grouped(self.ops, self.thread_sep).items():
            rows.append(f"Thread: {thread}")
            total = sum(item.cpu for item in items.values())
            for name, item in _sort(items, self.sorted_by):
                ratio = item.cpu / total if total else 0
                rows.append([name, item.call, self.stats(item, ratio), self.gpu_zero(), 0])
        tab = _Table(52, *self.widths(rows), 10)
        self.emit(tab.title("Operator Summary"), f"Time unit: {self.unit}", tab.sep)
        self.emit(tab.row(*_HEADERS, "FLOPs"), tab.sep)
        self.emit(*(tab.title(r) if isinstance(r, str) else tab.row(*r) for r in rows))
        self.emit(tab.sep, "", "")

    def named_table(self, title: str, events, by_thread: bool) -> None:
        """The Memory Manipulation and UserDefined tables (their names set the width)."""
        groups = self.grouped(events, by_thread and self.thread_sep)
        if not groups:
            return
        rows: list = []
        for thread, items in groups.items():
            if by_thread:  # the UserDefined table: per thread, sorted
                rows.append(f"Thread: {thread}")
            for name, item in _sort(items, self.sorted_by) if by_thread else items.items():
                rows.append([name, item.call, self.stats(item, item.cpu / self.total)])
                rows[-1].append(self.gpu_zero())
        name_width = max(len(r[0]) for r in rows if not isinstance(r, str))
        tab = _Table(name_width, *self.widths(rows))
        self.emit(tab.title(title), f"Time unit: {self.unit}", tab.sep, tab.row(*_HEADERS))
        self.emit(tab.sep, *(tab.title(r) if isinstance(r, str) else tab.row(*r) for r in rows))
        if not by_thread:
            self.emit(tab.sep)
        self.emit("", "")


def _is_memory_copy(name: str) -> bool:
    low = name.lower()
    return "memcpy" in low or "memorycopy" in low or "memset" in low


def build_summary(
    result,
    sorted_by: SortedKeys = SortedKeys.CPUTotal,
    thread_sep: bool = False,
    time_unit: str = "ms",
    views=None,
) -> str:
    """The text Profiler.summary prints for ``result``."""
    if isinstance(views, SummaryView):
        views = [views]

    def wanted(view: SummaryView) -> bool:
        return views is None or view in views

    rep = _Report(result, sorted_by, thread_sep, time_unit)
    if wanted(SummaryView.DeviceView):
        rep.device()
    if rep.total == 0:  # no step was recorded: nothing to relate times to
        return "".join(line + "\n" for line in rep.lines)
    if wanted(SummaryView.OverView):
        rep.overview()
    if wanted(SummaryView.ModelView):
        rep.model()
    if wanted(SummaryView.OperatorView):
        rep.operator()
    user = [e for e in rep.hosts if e.type is _T.PythonUserDefined]
    if wanted(SummaryView.MemoryManipulationView):
        copies = [e for e in user if _is_memory_copy(e.name)]
        rep.named_table("Memory Manipulation Summary", copies, by_thread=False)
    if wanted(SummaryView.UDFView):
        udf = [e for e in user if not _is_memory_copy(e.name)]
        rep.named_table("UserDefined Summary", udf, by_thread=True)
    return "".join(line + "\n" for line in rep.lines)
