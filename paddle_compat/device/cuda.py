"""paddle.device.cuda: GPU queries answered from what JAX sees."""

from __future__ import annotations

import jax

from .._core.place import _gpus  # this process's GPUs


def device_count() -> int:
    return len(_gpus())


def synchronize(device=None) -> None:
    for d in _gpus():
        jax.device_put(0, d).block_until_ready()


def get_device_name(device=None) -> str:
    gpus = _gpus()
    if not gpus:
        raise ValueError("(InvalidArgument) No GPU is visible to JAX.")
    i = 0 if device is None else int(str(device).split(":")[-1])
    return gpus[i].device_kind


def _stat(device, key: str) -> int:
    gpus = _gpus()
    if not gpus:
        return 0
    i = 0 if device is None else int(str(device).split(":")[-1])
    stats = gpus[i].memory_stats() or {}
    return int(stats.get(key, 0))


def memory_allocated(device=None) -> int:
    return _stat(device, "bytes_in_use")


def max_memory_allocated(device=None) -> int:
    return _stat(device, "peak_bytes_in_use")


def memory_reserved(device=None) -> int:
    return _stat(device, "bytes_reserved") or _stat(device, "bytes_limit")


def max_memory_reserved(device=None) -> int:
    return memory_reserved(device)


def empty_cache() -> None:
    """XLA manages its own allocator; nothing to release."""
