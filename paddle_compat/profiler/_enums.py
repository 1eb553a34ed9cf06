"""The enumerations of paddle.profiler: profiler states and targets, summary views and sort keys,
and the event types a recorded host event carries."""

from __future__ import annotations

from enum import Enum


class ProfilerState(Enum):
    """What the profiler does during a step: nothing (CLOSED), warm up (READY), record (RECORD),
    or record and hand the result to ``on_trace_ready`` after this step (RECORD_AND_RETURN)."""

    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


class ProfilerTarget(Enum):
    """The devices a Profiler records. JAX traces the host and every device it runs on
    whichever targets are chosen; the targets only decide which ones Paddle reports as
    supported (see ``Profiler``)."""

    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


class SummaryView(Enum):
    """The tables ``Profiler.summary`` can print."""

    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


class SortedKeys(Enum):
    """How ``Profiler.summary`` orders the rows of its operator and user-defined tables."""

    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class TracerEventType(Enum):
    """The kind of a recorded event (Paddle's ``paddle.profiler.TracerEventType``; ``int()``
    gives Paddle's number)."""

    Operator = 0
    Dataloader = 1
    ProfileStep = 2
    CudaRuntime = 3
    Kernel = 4
    Memcpy = 5
    Memset = 6
    UserDefined = 7
    OperatorInner = 8
    Forward = 9
    Backward = 10
    Optimization = 11
    Communication = 12
    PythonOp = 13
    PythonUserDefined = 14
    DygraphKernelLaunch = 15
    StaticKernelLaunch = 16

    def __int__(self) -> int:
        return self.value

    __index__ = __int__


# the event types a RecordEvent may carry (others are warned about and not recorded)
RECORDABLE = (
    TracerEventType.Dataloader,
    TracerEventType.ProfileStep,
    TracerEventType.Forward,
    TracerEventType.Backward,
    TracerEventType.Optimization,
    TracerEventType.PythonOp,
    TracerEventType.PythonUserDefined,
)
