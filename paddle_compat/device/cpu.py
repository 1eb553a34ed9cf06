"""paddle.device.cpu: the CPU, as Paddle's (no memory statistics; one random generator)."""

from __future__ import annotations

from . import _streams
from ._memory import Memory

Stream = _streams.Stream
Event = _streams.Event


def create_stream(device_id=None, priority: int = 2, device_type=None, blocking: bool = False):
    return Stream("cpu", priority)


def create_event(enable_timing=False, blocking=False, interprocess=False, device_type=None,
                 device_id: int = 0):  # fmt: skip
    return Event(enable_timing, blocking, interprocess)


def device_count() -> int:
    """0, as Paddle's (it counts accelerators)."""
    return 0


def _cpu_only(name: str):
    def f(device=None):
        raise ValueError(
            f"The API {name} is not supported in CPU PaddlePaddle. Please reinstall "
            "PaddlePaddle with GPU or XPU support to call this API."
        )

    f.__name__ = name
    return f


max_memory_allocated = _cpu_only("max_memory_allocated")
max_memory_reserved = _cpu_only("max_memory_reserved")
reset_max_memory_allocated = _cpu_only("reset_max_memory_allocated")
reset_max_memory_reserved = _cpu_only("reset_max_memory_reserved")
del Memory


def get_rng_state(device=None):
    from . import get_rng_state as _get

    return _get(device)


def set_rng_state(new_state, device=None) -> None:
    from . import set_rng_state as _set

    _set(new_state, device)


def manual_seed(seed: int) -> None:
    from . import manual_seed as _seed

    _seed(seed)
