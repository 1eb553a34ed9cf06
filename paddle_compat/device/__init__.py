"""paddle.device: select and query devices (JAX's devices underneath)."""

from __future__ import annotations

import jax

from .._api_extra import (  # noqa: F401 - is_compiled_with_custom_device is not in __all__
    is_compiled_with_custom_device,
    is_compiled_with_rocm,
    is_compiled_with_xpu,
)
from .._core.place import (
    CPUPlace,
    CUDAPlace,
    Place,
    get_device,
    is_compiled_with_cuda,
    set_device,
)
from . import cuda


def get_all_device_type() -> list[str]:
    return sorted({"gpu" if d.platform == "gpu" else d.platform for d in jax.devices()} | {"cpu"})


def get_available_device() -> list[str]:
    out = ["cpu"]
    for d in jax.devices():
        if d.platform == "gpu":
            out.append(f"gpu:{d.id}")
    return out


def get_all_custom_device_type() -> list[str]:
    return []


def synchronize(device=None) -> None:
    """Wait for all queued work (JAX dispatches asynchronously)."""
    (jax.device_put(0) + 0).block_until_ready()


__all__ = [
    "CPUPlace",
    "CUDAPlace",
    "Place",
    "cuda",
    "get_all_custom_device_type",
    "get_all_device_type",
    "get_available_device",
    "get_device",
    "is_compiled_with_cuda",
    "is_compiled_with_rocm",
    "is_compiled_with_xpu",
    "set_device",
    "synchronize",
]
