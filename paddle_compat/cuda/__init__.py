"""``paddle.cuda``: Paddle 3.3's torch-style CUDA namespace, made from paddle.device; names
Paddle shares with paddle.device are the same objects here."""

from __future__ import annotations

from .. import device as _d

# the same objects as paddle.device's, as in Paddle
from ..device import (  # noqa: F401
    Event,
    Stream,
    StreamContext,
    _jax,
    current_device,
    device,
    ipc_collect,
    is_bf16_supported,
    manual_seed,
    reset_peak_memory_stats,
    set_stream,
    stream,
)

current_stream = _d.current_stream
device_count = _d.device_count
empty_cache = _d.empty_cache
get_device_capability = _d.get_device_capability
get_device_name = _d.get_device_name
get_device_properties = _d.get_device_properties
get_rng_state = _d.get_rng_state
set_rng_state = _d.set_rng_state
get_stream_from_external = _d.get_stream_from_external
is_available = _d.is_available
is_current_stream_capturing = _d.is_current_stream_capturing
manual_seed_all = _d.manual_seed_all
device_manual_seed_all = _d.manual_seed_all
max_memory_allocated = _d.max_memory_allocated
max_memory_reserved = _d.max_memory_reserved
memory_allocated = _d.memory_allocated
memory_reserved = _d.memory_reserved
reset_max_memory_allocated = _d.reset_max_memory_allocated
reset_max_memory_reserved = _d.reset_max_memory_reserved
set_device = _d.set_device
synchronize = _d.synchronize
nvtx = _d.nvtx
amp = _d.amp


def is_initialized() -> bool:
    """Whether a GPU backend is up (JAX sees a GPU)."""
    return bool(_jax.gpus())


def mem_get_info(device=None) -> tuple[int, int]:  # noqa: F811 - Paddle's argument name
    """(free, total) bytes of the GPU, from XLA's allocator (total is its limit)."""
    if not _jax.gpus():
        raise ValueError(f"Expected a cuda device, but got: {_d.device_to_place(device)}")
    stats = _jax.memory_stats(device, "paddle.cuda.mem_get_info")
    total = int(stats.get("bytes_limit", 0))
    return total - int(stats.get("bytes_in_use", 0)), total


def __getattr__(name):
    return getattr(_d, name) if name in _d._TYPED else _missing(name)


def _missing(name):
    raise AttributeError(f"module 'paddle.cuda' has no attribute '{name}'")
