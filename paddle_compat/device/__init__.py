"""paddle.device: select and query devices, answered from what JAX reports.

A GPU is what JAX's GPU backend sees (``jax.devices('gpu')``); the CPU is always there. So on
a CPU-only machine the answers are those of Paddle's CPU build (no GPU, ``device_count() ==
0``, ``get_all_device_type() == []``), and with a GPU those of its GPU build. XPU, IPU, CINN
and custom devices are never there. Streams and events are handles over XLA's own ordering
(see ``_streams``); memory statistics are XLA's allocator statistics of a GPU."""

from __future__ import annotations

import re

from .._core import place as _place
from .._core import random as _random
from .._core.place import CPUPlace, CUDAPlace, Place, is_compiled_with_cuda
from .._core.tensor import Tensor
from .._dtype_tensors import FACTORIES as _DTYPE_TENSORS
from . import _jax, cpu, cuda, xpu
from ._memory import (
    empty_cache,
    ipc_collect,
    max_memory_allocated,
    max_memory_reserved,
    memory_allocated,
    memory_reserved,
    reset_max_memory_allocated,
    reset_max_memory_reserved,
    reset_peak_memory_stats,
)
from ._streams import (
    Event,
    Stream,
    StreamContext,
    current_stream,
    get_stream_from_external,
    is_current_stream_capturing,
    set_stream,
    stream,  # noqa: F401 - in dir(paddle.device), not in __all__
    stream_guard,
)

_FORMS = "'cpu', 'gpu', 'gpu:x', 'dcu', 'dcu:x', 'xpu', 'xpu:x', 'npu', 'npu:x'"


# -- what is there ---------------------------------------------------------------------------
def is_compiled_with_rocm() -> bool:
    """True when JAX's GPU backend is ROCm."""
    return _jax.is_rocm()


def is_compiled_with_xpu() -> bool:
    return False


def is_compiled_with_ipu() -> bool:
    return False


def is_compiled_with_cinn() -> bool:
    return False


def is_compiled_with_distribute() -> bool:
    """True: ``paddle.distributed`` runs (over JAX's devices)."""
    return True


def is_compiled_with_custom_device(device_type: str) -> bool:
    return False


def get_cudnn_version() -> int | None:
    """The cuDNN version JAX's GPU backend loaded (cuDNN's own number, e.g. 90100), or None
    without a CUDA GPU."""
    if not _jax.gpus() or _jax.is_rocm():
        return None
    try:
        from jax._src.lib import cuda_versions
    except ImportError:
        return None
    if cuda_versions is None:
        return None
    return int(cuda_versions.cudnn_get_version())


def get_all_device_type() -> list[str]:
    """``['gpu']`` when JAX sees a GPU, else ``[]`` (the CPU is not listed, as in Paddle)."""
    return ["gpu"] if _jax.gpus() else []


def get_available_device() -> list[str]:
    """``'gpu:N'`` for each GPU JAX sees."""
    return [f"gpu:{i}" for i in range(len(_jax.gpus()))]


def get_all_custom_device_type() -> list[str]:
    return []


def get_available_custom_device() -> list[str]:
    return []


def device_count() -> int:
    """The number of GPUs JAX sees."""
    return len(_jax.gpus())


def is_available() -> bool:
    """Whether an accelerator (a GPU JAX sees) is there."""
    return device_count() > 0


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """bfloat16 runs everywhere XLA does; natively on a GPU from compute capability 8.0 (the
    CPU answers True, as Paddle's CPU build)."""
    g = _jax.gpus()
    if not g or including_emulation:
        return True
    cc = str(getattr(g[0], "compute_capability", "0"))
    return float(cc) >= 8.0


# -- which device ------------------------------------------------------------------------------
class Device(str):
    """A device name (``'cpu'``, ``'gpu:0'``) with ``type`` and ``index``."""

    def __new__(cls, type=None, index=None):  # noqa: A002 - Paddle's argument name
        if isinstance(type, Place):
            type = _name(type)
        if isinstance(type, int):
            type, index = "gpu", type
        kind, _, idx = str(type if type is not None else get_device()).partition(":")
        if idx:
            index = int(idx)
        obj = super().__new__(cls, kind if index is None else f"{kind}:{index}")
        obj.type, obj.index = kind, index
        return obj


def _name(p: Place) -> str:
    return "cpu" if p.is_cpu_place() else f"gpu:{p.get_device_id()}"


def _spec(device) -> str:
    """``device`` (str, int, Place, None) as ``'cpu'`` / ``'gpu:N'``, with Paddle's errors."""
    if device is None:
        return "cpu" if not _jax.gpus() else "gpu:0"
    if isinstance(device, Place):
        return _name(device)
    if isinstance(device, int) and not isinstance(device, bool):
        return f"gpu:{device}" if _jax.gpus() else "cpu"
    if not isinstance(device, str):
        raise ValueError(f"The device must be a string which is like {_FORMS}")
    d = device.lower()
    if d == "cuda" or d.startswith("cuda:"):
        d = "gpu" + d[4:]
    m = re.fullmatch(r"(cpu|gpu|xpu|dcu|npu|ipu)(?::(\d+))?", d)
    if m is None:
        raise ValueError(f"The device must be a string which is like {_FORMS}")
    kind, idx = m.group(1), m.group(2)
    if kind == "cpu":
        return "cpu"
    if kind in ("gpu", "dcu"):
        if not _jax.gpus():
            raise ValueError(
                f"The device should not be '{device}', since PaddlePaddle is not compiled with "
                "CUDA (JAX sees no GPU)"
            )
        return f"gpu:{idx or 0}"
    name = {"xpu": "XPU", "ipu": "IPU", "npu": "a custom device"}[kind]
    raise ValueError(
        f"The device should not be '{device}', since PaddlePaddle is not compiled with {name}"
    )


def set_device(device) -> Place:
    """Make ``device`` ('cpu', 'gpu', 'gpu:N', an int, a Place) where new Tensors live;
    returns its Place."""
    return _place.set_device(_spec(device))


def get_device(input=None) -> str | int:  # noqa: A002 - Paddle's argument name
    """The current device's name (``'cpu'``, ``'gpu:0'``); for a Tensor, its GPU index, or -1
    on the CPU."""
    if isinstance(input, Tensor):
        p = input.place
        return -1 if p.is_cpu_place() else p.get_device_id()
    return _place.get_device()


def current_device() -> int:
    """The current GPU's index (0 on the CPU, as Paddle)."""
    d = _place.current_device()
    return d.id if d.platform == "gpu" else 0


def get_default_device() -> Device:
    return Device(get_device())


def set_default_device(device) -> None:
    set_device(device)


def device_to_place(device=None) -> Place:
    """The Place ``device`` names (None: the current device)."""
    if device is None:
        return _place.place_of_device(_place.current_device())
    spec = _spec(device)
    return CPUPlace() if spec == "cpu" else CUDAPlace(int(spec.split(":")[1]))


def extract_device_id(device, op_name: str) -> int:
    """The device index in ``device`` (an int, ``'gpu:N'``, a Place)."""
    return _jax.device_id(device, op_name)


def get_device_module(device=None):
    """The submodule for ``device``'s type: ``paddle.device.cpu``, ``.cuda`` or ``.xpu``."""
    kind = str(device if device is not None else get_device()).lower().split(":")[0]
    if isinstance(device, Place):
        kind = "cpu" if device.is_cpu_place() else "gpu"
    if kind == "cpu":
        return cpu
    if kind in ("gpu", "cuda"):
        return cuda
    if kind == "xpu":
        return xpu
    raise RuntimeError(f"Unsupported device type: {kind}")


class device:  # noqa: N801 - Paddle's name
    """Run a block on ``device``, then go back to the previous device."""

    def __init__(self, device=None):
        self.place = device_to_place(device) if device is not None else None
        self.prev_place_str = None

    def __enter__(self):
        self.prev_place_str = get_device()
        if self.place is not None:
            _place.set_device(_name(self.place))

    def __exit__(self, *exc):
        _place.set_device(self.prev_place_str)
        return False


class device_guard(device):  # noqa: N801
    """Same as ``device`` (Paddle's older name)."""

    def __init__(self, device):
        super().__init__(device)


def synchronize(device=None) -> None:
    """Wait until all queued work has finished (JAX dispatches asynchronously)."""
    if device is not None:
        device_to_place(device)  # Paddle's errors for a device that is not there
    _jax.synchronize()


# -- device properties ---------------------------------------------------------------------------
get_device_name = cuda.get_device_name
get_device_capability = cuda.get_device_capability
get_device_properties = cuda.get_device_properties


# -- random ----------------------------------------------------------------------------------------
def manual_seed(seed: int) -> None:
    """Seed the generator (one for every device: Paddle's CPU stream, see paddle.seed)."""
    _random.seed(int(seed))


manual_seed_all = manual_seed


def get_rng_state(device=None):
    """The generator's state (one GeneratorState; ``paddle.get_rng_state()[0]``)."""
    return _random.default_generator.get_state()


def set_rng_state(new_state, device=None) -> None:
    """Restore a state from ``get_rng_state`` (a GeneratorState, not a list)."""
    _random.default_generator.set_state(new_state)


# -- places Paddle's CPU build cannot make -----------------------------------------------------
def XPUPlace(dev_id: int):  # noqa: N802 - Paddle's name
    raise ValueError("(InvalidArgument) use wrong place, Please check. (no XPU: JAX sees none)")


def IPUPlace():  # noqa: N802
    raise ValueError("(InvalidArgument) use wrong place, Please check. (no IPU: JAX sees none)")


class amp:  # noqa: N801 - Paddle's namespace class
    """``paddle.device.amp.autocast``: the torch-style AMP context."""

    @staticmethod
    def autocast(enabled=True, dtype="float16", cache_enabled=True):
        from ..amp._auto_cast import autocast

        return autocast(None, dtype=str(dtype).split(".")[-1].lower(), enabled=enabled)


class nvtx:  # noqa: N801
    """NVTX ranges as JAX profiler trace annotations (they show in ``jax.profiler`` traces)."""

    _stack: list = []

    @staticmethod
    def range_push(msg: str) -> None:
        import jax

        ann = jax.profiler.TraceAnnotation(msg)
        ann.__enter__()
        nvtx._stack.append(ann)

    @staticmethod
    def range_pop() -> None:
        if nvtx._stack:
            nvtx._stack.pop().__exit__(None, None, None)


_TYPED = frozenset(_DTYPE_TENSORS)  # paddle.FloatTensor, ... are paddle.device names too


def __getattr__(name):
    if name in _TYPED:  # paddle.FloatTensor, ... (the same objects)
        import paddle_compat

        return getattr(paddle_compat, name)
    raise AttributeError(f"module 'paddle.device' has no attribute '{name}'")


__all__ = [
    "get_cudnn_version",
    "set_device",
    "get_device",
    "XPUPlace",
    "IPUPlace",
    "is_compiled_with_xpu",
    "is_compiled_with_ipu",
    "is_compiled_with_cinn",
    "is_compiled_with_cuda",
    "is_compiled_with_rocm",
    "is_compiled_with_distribute",
    "is_compiled_with_custom_device",
    "get_all_device_type",
    "get_all_custom_device_type",
    "get_available_device",
    "get_available_custom_device",
    "get_device_properties",
    "Stream",
    "Event",
    "current_stream",
    "set_stream",
    "stream_guard",
    "device_guard",
    "synchronize",
    "device_count",
    "empty_cache",
    "max_memory_allocated",
    "max_memory_reserved",
    "reset_max_memory_allocated",
    "reset_max_memory_reserved",
    "memory_allocated",
    "memory_reserved",
    "is_available",
    "is_current_stream_capturing",
    "get_device_name",
    "get_device_capability",
    "get_rng_state",
    "set_rng_state",
    "FloatTensor",
    "DoubleTensor",
    "HalfTensor",
    "BFloat16Tensor",
    "ByteTensor",
    "CharTensor",
    "ShortTensor",
    "IntTensor",
    "LongTensor",
    "BoolTensor",
    "device",
    "is_bf16_supported",
    "manual_seed",
    "reset_peak_memory_stats",
    "ipc_collect",
    "get_stream_from_external",
    "StreamContext",
]
