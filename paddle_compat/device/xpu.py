"""paddle.device.xpu: there is never an XPU (JAX has no XPU backend); the calls that need one
raise as in Paddle's CPU build."""

from __future__ import annotations


def device_count() -> int:
    return 0


def _xpu_only(name: str, error=ValueError, text=None):
    def f(*args, **kwargs):
        raise error(
            text
            or f"The API paddle.device.xpu.{name} is only supported in XPU PaddlePaddle. "
            "Please reinstall PaddlePaddle with XPU support to call this API."
        )

    f.__name__ = name
    return f


_NOT_COMPILED = "(Unavailable) Paddle is not compiled with XPU. Cannot visit device {}."
synchronize = _xpu_only("synchronize", RuntimeError, _NOT_COMPILED.format("synchronize"))
current_stream = _xpu_only("current_stream", RuntimeError, _NOT_COMPILED.format("stream"))
Stream = _xpu_only("Stream", RuntimeError, "(Unavailable) XPUStream needs an XPU.")
Event = _xpu_only("Event", RuntimeError, "(Unavailable) XPUEvent needs an XPU.")
create_stream = Stream
create_event = Event
empty_cache = _xpu_only("empty_cache")
memory_allocated = _xpu_only("memory_allocated")
memory_reserved = _xpu_only("memory_reserved")
max_memory_allocated = _xpu_only("max_memory_allocated")
max_memory_reserved = _xpu_only("max_memory_reserved")
reset_max_memory_allocated = _xpu_only("reset_max_memory_allocated")
reset_max_memory_reserved = _xpu_only("reset_max_memory_reserved")
memory_total = _xpu_only("memory_total")
memory_used = _xpu_only("memory_used")
set_debug_level = _xpu_only("set_debug_level")
extract_xpu_device_id = _xpu_only("extract_xpu_device_id")


def get_rng_state(device=None):
    from . import get_rng_state as _get

    return _get(device)


def set_rng_state(new_state, device=None) -> None:
    from . import set_rng_state as _set

    _set(new_state, device)


def manual_seed(seed: int) -> None:
    from . import manual_seed as _seed

    _seed(seed)
