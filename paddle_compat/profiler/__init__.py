"""paddle.profiler: Paddle's profiler API on ``jax.profiler``.

``Profiler`` records the steps its scheduler picks as JAX traces (TensorBoard/XProf, Perfetto)
and prints Paddle's summary tables; ``RecordEvent`` names a range (a
``jax.profiler.TraceAnnotation``); ``timer_only=True`` measures reader cost, batch cost and
throughput (``step_info`` and the Perf Summary).

Example::

    import paddle.profiler as profiler

    with profiler.Profiler(scheduler=(2, 5), on_trace_ready=profiler.export_chrome_tracing("./log")) as p:
        for step in range(8):
            with profiler.RecordEvent("train_step"):
                train_step()
            p.step()
    p.summary()
"""

from ._enums import (
    ProfilerState,
    ProfilerTarget,
    SortedKeys,
    SummaryView,
    TracerEventType,  # noqa: F401  (public in Paddle, not in __all__)
)
from ._events import RecordEvent
from ._profiler import Profiler, export_chrome_tracing, export_protobuf, make_scheduler
from ._trace import load_profiler_result

__all__ = [
    "ProfilerState",
    "ProfilerTarget",
    "make_scheduler",
    "export_chrome_tracing",
    "export_protobuf",
    "Profiler",
    "RecordEvent",
    "load_profiler_result",
    "SortedKeys",
    "SummaryView",
]
