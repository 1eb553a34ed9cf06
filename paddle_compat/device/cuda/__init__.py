"""paddle.device.cuda: the GPUs JAX sees. Without one, the errors of Paddle's CPU build."""

from __future__ import annotations

from .. import _jax, _streams
from .._memory import Memory
from . import graphs  # noqa: F401 - paddle.device.cuda.graphs


def _no_gpu(what: str) -> RuntimeError:
    return RuntimeError(f"(Unavailable) {what} (paddle-compat: JAX sees no GPU).")


class Stream(_streams.Stream):
    """A GPU stream handle (see ``paddle.device.Stream``)."""

    def __init__(self, device=None, priority: int = 2, stream_base=None):
        if not _jax.gpus():
            raise _no_gpu("Class CUDAStream can only be initialized on the GPU platform.")
        super().__init__(_jax.gpu(device, "paddle.device.cuda.Stream").id, priority, stream_base)


class Event(_streams.Event):
    """A GPU event (see ``paddle.device.Event``)."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess=False):
        if not _jax.gpus():
            raise _no_gpu("Class CUDAEvent can only be initialized on the GPU platform.")
        super().__init__(enable_timing, blocking, interprocess)


def create_stream(device_id=None, priority: int = 2, device_type=None, blocking: bool = False):
    return Stream(device_id, priority)


def create_event(enable_timing=False, blocking=False, interprocess=False, device_type=None,
                 device_id: int = 0):  # fmt: skip
    return Event(enable_timing, blocking, interprocess)


def current_stream(device=None) -> _streams.Stream:
    if not _jax.gpus():
        raise _no_gpu("Paddle is not compiled with CUDA. Cannot visit device current_stream.")
    return _streams.current_stream(_jax.gpu(device, "paddle.device.cuda.current_stream").id)


stream_guard = _streams.stream_guard


def synchronize(device=None) -> None:
    """Wait for all queued GPU work."""
    if not _jax.gpus():
        raise _no_gpu("Paddle is not compiled with CUDA. Cannot visit device synchronize.")
    _jax.gpu(device, "paddle.device.cuda.synchronize")
    _jax.synchronize()


def device_count() -> int:
    return len(_jax.gpus())


def empty_cache() -> None:
    """No-op: XLA's allocator keeps its pool and JAX has no call to hand it back."""


_MEM = Memory(
    "paddle.device.cuda",
    "The API {api} is not supported in CPU-only PaddlePaddle (JAX sees no GPU). Please run "
    "where JAX sees a GPU to call this API.",
)
memory_allocated = _MEM.memory_allocated
max_memory_allocated = _MEM.max_memory_allocated
memory_reserved = _MEM.memory_reserved
max_memory_reserved = _MEM.max_memory_reserved
reset_max_memory_allocated = _MEM.reset_max_memory_allocated
reset_max_memory_reserved = _MEM.reset_max_memory_reserved


def memory_summary(device=None) -> None:
    """Print XLA's allocator statistics of the GPU, one ``key: value`` line each."""
    stats = _MEM._stats(device, "memory_summary")
    d = _jax.gpu(device, "paddle.device.cuda.memory_summary")
    print(f"paddle-compat memory summary of gpu:{d.id} ({d.device_kind}), from XLA's allocator")
    for key in sorted(stats):
        print(f"  {key}: {stats[key]}")


def vmm_compact(device=None) -> int:
    """0: XLA's allocator has no virtual-memory pool to compact."""
    _MEM._stats(device, "vmm_compact")
    return 0


class _gpuDeviceProperties:  # noqa: N801 - Paddle's name
    """name, major, minor, total_memory (bytes: XLA's allocator limit), multi_processor_count."""

    def __init__(self, d):
        self.name = d.device_kind
        cc = str(getattr(d, "compute_capability", "0.0"))
        self.major, _, minor = (int(cc.split(".")[0]), None, cc.split(".")[1:] or ["0"])
        self.minor = int(minor[0])
        self.total_memory = int((d.memory_stats() or {}).get("bytes_limit", 0))
        self.multi_processor_count = int(getattr(d, "core_count", 0))

    def __repr__(self) -> str:
        return (
            f"_gpuDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
            f"total_memory={self.total_memory // (1024 * 1024)}MB, "
            f"multi_processor_count={self.multi_processor_count})"
        )


def get_device_properties(device=None) -> _gpuDeviceProperties:
    """The GPU's name, compute capability, memory and multiprocessor count."""
    if not _jax.gpus():
        raise ValueError(
            "The API paddle.device.cuda.get_device_properties is not supported in CPU-only "
            "PaddlePaddle (JAX sees no GPU). Please run where JAX sees a GPU to call this API."
        )
    if isinstance(device, str) and device.split(":")[0] not in ("gpu", "cuda"):
        raise ValueError(
            f"The current string {device} is not expected. Because paddle.device."
            "cuda.get_device_properties only support string which is like 'gpu:x'. "
            "Please input appropriate string again!"
        )
    return _gpuDeviceProperties(_jax.gpu(device, "paddle.device.cuda.get_device_properties"))


def get_device_name(device=None) -> str:
    return get_device_properties(device).name


def get_device_capability(device=None) -> tuple[int, int]:
    p = get_device_properties(device)
    return (p.major, p.minor)


def extract_cuda_device_id(device, op_name: str) -> int:
    return _jax.device_id(device, op_name)


def get_rng_state(device=None):
    from .. import get_rng_state as _get

    return _get(device)


def set_rng_state(new_state, device=None) -> None:
    from .. import set_rng_state as _set

    _set(new_state, device)


def manual_seed(seed: int) -> None:
    from .. import manual_seed as _seed

    _seed(seed)


__all__ = [
    "Stream",
    "Event",
    "current_stream",
    "synchronize",
    "device_count",
    "empty_cache",
    "max_memory_allocated",
    "max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "stream_guard",
    "get_device_properties",
    "get_device_name",
    "get_device_capability",
    "reset_max_memory_allocated",
    "reset_max_memory_reserved",
    "memory_summary",
    "vmm_compact",
]
