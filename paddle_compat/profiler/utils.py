"""paddle.profiler.utils: RecordEvent, load_profiler_result and in_profiler_mode (whether a
Profiler that records events is started), at the module path Paddle code imports them from."""

from ._events import RecordEvent, in_profiler_mode
from ._trace import load_profiler_result

__all__ = ["RecordEvent", "load_profiler_result", "in_profiler_mode"]
