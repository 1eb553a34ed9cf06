"""Memory statistics of a GPU: XLA's allocator statistics (``jax.Device.memory_stats()``).

``*_allocated`` is what live arrays hold (``bytes_in_use``); ``*_reserved`` is what the
allocator holds from the driver (``bytes_reserved``, else its pool size or limit). Paddle's
CPU build raises ValueError for these, and so do they here when JAX sees no GPU."""

from __future__ import annotations

from . import _jax


class Memory:
    """The memory-statistics functions of one namespace (``prefix`` names it in errors)."""

    def __init__(self, prefix: str, cpu_error: str):
        self.prefix, self.cpu_error = prefix, cpu_error

    def _stats(self, device, name: str) -> dict:
        if not _jax.gpus():
            raise ValueError(self.cpu_error.format(api=f"{self.prefix}.{name}"))
        return _jax.memory_stats(device, f"{self.prefix}.{name}")

    def memory_allocated(self, device=None) -> int:
        """Bytes held by live arrays on the GPU."""
        return int(self._stats(device, "memory_allocated").get("bytes_in_use", 0))

    def max_memory_allocated(self, device=None) -> int:
        """The peak of ``memory_allocated`` since the start or the last reset."""
        self._stats(device, "max_memory_allocated")
        return _jax.peak(device, "peak_bytes_in_use", "bytes_in_use", "max_memory_allocated")

    def memory_reserved(self, device=None) -> int:
        """Bytes the allocator holds from the driver."""
        return _reserved(self._stats(device, "memory_reserved"))

    def max_memory_reserved(self, device=None) -> int:
        """The peak of ``memory_reserved`` (XLA's peak pool size where it keeps one)."""
        stats = self._stats(device, "max_memory_reserved")
        for key in _PEAK_RESERVED:
            if key in stats:
                return _jax.peak(device, key, "bytes_reserved", "max_memory_reserved")
        return _reserved(stats)

    def reset_max_memory_allocated(self, device=None) -> None:
        """Start a new peak: later ``max_memory_allocated`` calls report the peak since now
        (XLA keeps only an all-time peak: until it rises again, the current use is
        reported)."""
        self._stats(device, "reset_max_memory_allocated")
        _jax.reset_peak(device, "peak_bytes_in_use", "reset_max_memory_allocated")

    def reset_max_memory_reserved(self, device=None) -> None:
        """As ``reset_max_memory_allocated``, for ``max_memory_reserved``."""
        stats = self._stats(device, "reset_max_memory_reserved")
        for key in _PEAK_RESERVED:
            if key in stats:
                _jax.reset_peak(device, key, "reset_max_memory_reserved")

    def reset_peak_memory_stats(self, device=None) -> None:
        """Both resets."""
        self._stats(device, "reset_max_memory_allocated")
        self.reset_max_memory_allocated(device)
        self.reset_max_memory_reserved(device)


_PEAK_RESERVED = ("peak_bytes_reserved", "peak_pool_bytes")


def _reserved(stats: dict) -> int:
    for key in ("bytes_reserved", "pool_bytes", "bytes_limit"):
        if key in stats:
            return int(stats[key])
    return 0


_DEVICE = Memory(
    "paddle.device",
    "The API {api} is not supported in CPU PaddlePaddle (JAX sees no GPU). Please run where "
    "JAX sees a GPU to call this API.",
)
memory_allocated = _DEVICE.memory_allocated
max_memory_allocated = _DEVICE.max_memory_allocated
memory_reserved = _DEVICE.memory_reserved
max_memory_reserved = _DEVICE.max_memory_reserved
reset_max_memory_allocated = _DEVICE.reset_max_memory_allocated
reset_max_memory_reserved = _DEVICE.reset_max_memory_reserved
reset_peak_memory_stats = _DEVICE.reset_peak_memory_stats


def empty_cache() -> None:
    """No-op: XLA's allocator keeps its pool and JAX has no call to hand it back."""


def ipc_collect() -> None:
    """No-op on a GPU (JAX shares no memory between processes); RuntimeError on the CPU, as
    Paddle's CPU build."""
    if not _jax.gpus():
        raise RuntimeError(
            "(Unavailable) Paddle is not compiled with CUDA/XPU, so `ipc_collect` cannot be used."
        )
