"""The throughput timer behind ``Profiler.step_info`` and the "Perf Summary" printed at
``Profiler.stop``: batch cost between ``step`` calls, reader cost reported by the DataLoader,
and instances per second.

Every started Profiler (``timer_only`` or not) times its steps. As in Paddle, ``step_info``
averages the steps since its previous call, and the summary covers the steps after the first
10 (warm-up). Runs nest: a Profiler started inside another one (evaluation inside training)
times its own steps, and the outer run's next step starts when it stops; without an inner
Profiler, reading a DataLoader over another dataset pauses the run until its own is read again.
"""

from __future__ import annotations

import math
import time

_SKIP = 10  # warm-up steps left out of the summary


class _Extremes:
    """Max / min (/ total) of a measure after the warm-up. Paddle updates the minimum only for
    a value that is not a new maximum, so a run that only ever slows down keeps ``inf`` as its
    minimum; kept for identical summaries."""

    def __init__(self, with_total: bool = True):
        self.max = 0
        self.min = math.inf
        self.total = 0 if with_total else None

    def add(self, value: float) -> None:
        if value > self.max:
            self.max = value
        elif value < self.min:
            self.min = value
        if self.total is not None:
            self.total += value


class _Run:
    """The timing of one started Profiler."""

    def __init__(self):
        self.window_reader = [0.0, 0]  # time, count: since the last step_info
        self.window_batch = [0.0, 0, 0]  # time, steps, samples
        self.steps = 0
        self.samples = 0
        self.reader = _Extremes()
        self.batch = _Extremes()
        self.ips = _Extremes(with_total=False)
        self.per_step = False  # a step without num_samples switches ips to steps/s for good
        self.unit = "samples/s"
        self.dataset = None
        self.dataset_seen = False
        self.paused = False

    def add_reader(self, cost: float) -> None:
        self.window_reader[0] += cost
        self.window_reader[1] += 1
        if self.steps >= _SKIP:
            self.reader.add(cost)

    def add_batch(self, cost: float, num_samples) -> None:
        if num_samples is None:
            self.per_step = True
            self.unit = "steps/s"
        w = self.window_batch
        w[0] += cost
        w[1] += 1
        w[2] += num_samples or 0
        self.steps += 1
        if self.steps >= _SKIP:
            self.batch.add(cost)
            if self.per_step:
                self.ips.add(1.0 / cost)
            else:
                self.ips.add(float(num_samples) / cost)
                self.samples += num_samples

    def window_info(self, unit: str) -> str:
        """The step_info text for the steps since the previous call, then a new window."""
        (rt, rn), (bt, bn, bs) = self.window_reader, self.window_batch
        reader = rt / rn if rn else 0
        batch = bt / bn if bn else 0
        text = ""
        if reader:
            text += f" reader_cost: {reader:.5f} s"
        if batch:
            self.unit = "steps/s" if self.per_step else unit + "/s"
            text += f" batch_cost: {batch:.5f} s"
        if self.per_step:
            ips = bn / bt if bn else 0
        else:
            ips = bs / bt if bs and bn else 0
        if ips:
            text += f" ips: {ips:.3f} {self.unit}"
        self.window_reader = [0.0, 0]
        self.window_batch = [0.0, 0, 0]
        return text

    def summary_lines(self) -> list[str]:
        """The Perf Summary table (empty when the run had no step after the warm-up)."""
        if self.steps <= _SKIP:
            return []
        n = float(self.steps - _SKIP)
        reader_avg, batch_avg = self.reader.total / n, self.batch.total / n
        ips_avg = (n if self.per_step else float(self.samples)) / self.batch.total
        lines = ["Perf Summary".center(100, "=")]
        ratio = reader_avg / batch_avg * 100
        if ratio != 0:
            lines.append(f"Reader Ratio: {ratio:.3f}%")
        lines.append(f"Time Unit: s, IPS Unit: {self.unit}")
        lines.append(_row("", "avg", "max", "min"))
        rows = [("batch_cost", self.batch, batch_avg), ("ips", self.ips, ips_avg)]
        if reader_avg != 0:  # no DataLoader: no reader row
            rows.insert(0, ("reader_cost", self.reader, reader_avg))
        for name, ext, avg in rows:
            lines.append(_row(name, *(f"{v:.5f}" for v in (avg, ext.max, ext.min))))
        return lines


def _row(*cells: str) -> str:
    return "| " + " | ".join(c.center(15) for c in cells) + " |"


class Timer:
    """The process-wide stack of timed runs (one per started Profiler)."""

    def __init__(self):
        self.runs: list[_Run] = []
        self.step_start = time.perf_counter()
        self.reader_start = time.perf_counter()

    @property
    def current(self) -> _Run | None:
        return self.runs[-1] if self.runs else None

    def begin(self) -> None:
        self.runs.append(_Run())
        self.step_start = time.perf_counter()

    def end(self) -> None:
        if not self.runs:
            return
        lines = self.runs[-1].summary_lines()
        if lines:
            print("\n".join(lines))
        self.runs.pop()
        self.step_start = time.perf_counter()

    def step(self, num_samples=None) -> None:
        run = self.current
        if run is None or run.paused:
            return
        now = time.perf_counter()
        run.add_batch(now - self.step_start, num_samples)
        self.step_start = time.perf_counter()

    def step_info(self, unit: str) -> str:
        run = self.current
        if run is None:
            raise AttributeError(
                "Profiler.step_info() needs a started Profiler (call start() first)"
            )
        return run.window_info(unit)

    # -- called by the DataLoader around each batch it reads
    def before_reader(self, dataset) -> None:
        run = self.current
        if run is not None:
            self._check_dataset(run, dataset)
        self.reader_start = time.perf_counter()

    def after_reader(self) -> None:
        cost = time.perf_counter() - self.reader_start
        run = self.current
        if run is None or run.paused or cost == 0:
            return
        run.add_reader(cost)

    def _check_dataset(self, run: _Run, dataset) -> None:
        """The first loader read in a run is its own; reading another dataset (evaluation inside
        training, without a Profiler of its own) pauses the run until its own is read again."""
        if not run.dataset_seen:
            run.dataset, run.dataset_seen = dataset, True
        elif not run.paused and run.dataset != dataset:
            run.paused = True
        elif run.paused and run.dataset == dataset:
            run.paused = False
            self.step_start = time.perf_counter()


TIMER = Timer()
