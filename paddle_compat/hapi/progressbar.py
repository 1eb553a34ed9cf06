"""The progress bar and log lines ``paddle.Model`` prints (``ProgBarLogger``), in Paddle's
format: verbose 1 redraws one bar in place (a terminal, Jupyter), 2 and 3 print a line per
update."""

from __future__ import annotations

import os
import shutil
import sys
import time

import numpy as np

__all__ = ["ProgressBar"]


def _format_value(v) -> str:
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype in (np.float32, np.float64):
        v = v.item()
    if isinstance(v, float | np.float32 | np.float64):
        return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"
    return f" {v}"


def _time_per_unit(seconds: float, name: str) -> str:
    if seconds >= 1 or seconds == 0:
        return f" - {seconds:.0f}s/{name}"
    if seconds >= 1e-3:
        return f" - {seconds * 1e3:.0f}ms/{name}"
    return f" - {seconds * 1e6:.0f}us/{name}"


def _eta(seconds: int) -> str:
    if seconds > 3600:
        return f"{seconds // 3600}:{(seconds % 3600) // 60:02}:{seconds % 60:02}"
    if seconds > 60:
        return f"{seconds // 60}:{seconds % 60:02}"
    return f"{seconds}s"


class ProgressBar:
    """``num`` steps (None: unknown) shown as ``step  3/10 [====>....] - loss: 0.1234 - ETA: 2s
    - 15ms/step``; ``update(current, [(name, value), ...])`` redraws it."""

    def __init__(
        self,
        num: int | None = None,
        width: int = 30,
        verbose: int = 1,
        start: bool = True,
        file=sys.stdout,
        name: str = "step",
    ) -> None:
        self._num = num
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        columns = shutil.get_terminal_size().columns
        columns = columns if columns > 0 else 80
        self._width = min(width, min(int(columns * 0.6), columns - 50))
        self._total_width = 0
        self._verbose = verbose
        self.file = file
        self._values = {}
        self._values_order = []
        if start:
            self._start = time.time()
        self._last_update = 0
        self.name = name
        # Paddle redraws in place in a terminal, Jupyter, or any POSIX system
        self._dynamic_display = (
            (hasattr(self.file, "isatty") and self.file.isatty())
            or "ipykernel" in sys.modules
            or os.name == "posix"
            or "PYCHARM_HOSTED" in os.environ
        )

    def start(self) -> None:
        self.file.flush()
        self._start = time.time()

    def _bar(self, current: int) -> str:
        if self._num is None:
            return f"{self.name} {current:3}"
        digits = int(np.log10(self._num)) + 1
        bar = f"{self.name} {current:{digits}d}/{self._num} ["
        filled = int(self._width * float(current) / self._num)
        if filled > 0:
            bar += "=" * (filled - 1) + (">" if current < self._num else "=")
        return bar + "." * (self._width - filled) + "]"

    def update(self, current_num: int, values=()) -> None:
        """Show step ``current_num`` with the (name, value) pairs ``values``."""
        now = time.time()
        per_unit = (now - self._start) / current_num if current_num else 0
        fps = _time_per_unit(per_unit, self.name)
        out = sys.stdout
        info = ""
        for k, val in values:
            info += f" - {k}:" + "".join(
                _format_value(v) for v in (val if isinstance(val, list) else [val])
            )
        if self._verbose == 1:
            prev_width = self._total_width
            out.write(("\b" * prev_width + "\r") if self._dynamic_display else "\n")
            bar = self._bar(current_num)
            self._total_width = len(bar)
            out.write(bar)
            if self._num is not None and current_num < self._num:
                info += f" - ETA: {_eta(int(per_unit * (self._num - current_num)))}"
            info += fps
            self._total_width += len(info)
            if prev_width > self._total_width:
                info += " " * (prev_width - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(info)
            out.flush()
            self._last_update = now
        elif self._verbose in (2, 3):
            if self._num:
                digits = int(np.log10(self._num)) + 1
                count = f"{self.name} {current_num:{digits}d}/{self._num}"
            else:
                count = f"{self.name} {current_num:3}"
            out.write(count + info + fps + "\n")
            out.flush()
