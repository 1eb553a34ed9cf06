"""What JAX reports about this process's devices, in Paddle's terms (shared by paddle.device
and its cuda/cpu/xpu submodules)."""

from __future__ import annotations

import jax

from .._core import deferred
from .._core.place import Place, _gpus, current_device


def gpus() -> list:
    return _gpus()


def is_rocm() -> bool:
    """JAX's GPU backend is ROCm (``platform_version`` names it)."""
    g = _gpus()
    return bool(g) and "rocm" in str(getattr(g[0].client, "platform_version", "")).lower()


def device_id(device, op_name: str = "paddle.device") -> int:
    """The GPU index ``device`` names: None (the current one), an int, ``'gpu:N'``/``'gpu'``
    or a Place."""
    if device is None:
        d = current_device()
        return d.id if d.platform == "gpu" else 0
    if isinstance(device, bool):
        raise ValueError(f"The device id of {op_name} must be an int, but received {device}.")
    if isinstance(device, int):
        return device
    if isinstance(device, Place):
        return device.get_device_id()
    if isinstance(device, str):
        kind, _, idx = device.lower().partition(":")
        if kind in ("gpu", "cuda") and (not idx or idx.isdigit()):
            return int(idx) if idx else 0
    raise ValueError(
        f"The current string {device} is not expected. Because {op_name} only support string "
        "which is like 'gpu:x'. Please input appropriate string again!"
    )


def gpu(device, op_name: str):
    """The JAX GPU ``device`` names (ValueError when JAX sees none or the index is out of
    range)."""
    g = _gpus()
    i = device_id(device, op_name)
    if not g:
        raise ValueError(
            f"The API {op_name} is not supported in CPU-only PaddlePaddle (paddle-compat sees "
            "no GPU: JAX reports none). Please run on a machine where JAX sees a GPU."
        )
    if not 0 <= i < len(g):
        raise ValueError(f"The device id {i} of {op_name} is out of range: {len(g)} GPU(s) seen.")
    return g[i]


def memory_stats(device, op_name: str) -> dict:
    """XLA's allocator statistics of the GPU ``device`` (empty when the backend keeps none)."""
    return gpu(device, op_name).memory_stats() or {}


# -- peak-memory resets: XLA keeps an all-time peak and cannot reset it --------------------------
_RESET: dict = {}  # (device id, key) -> XLA's peak when reset_* was called


def peak(device, key: str, current_key: str, op_name: str) -> int:
    """The peak since the last reset: XLA's peak once it rose past its value at the reset,
    else the current use (the largest value known to have been reached since)."""
    d = gpu(device, op_name)
    stats = d.memory_stats() or {}
    top = int(stats.get(key, 0))
    base = _RESET.get((d.id, key))
    if base is None or top > base:
        return top
    return int(stats.get(current_key, 0))


def reset_peak(device, key: str, op_name: str) -> None:
    d = gpu(device, op_name)
    _RESET[(d.id, key)] = int((d.memory_stats() or {}).get(key, 0))


def synchronize(devices=None) -> None:
    """Run the pending deferred segment and wait for every array JAX is computing."""
    deferred.flush()
    for a in jax.live_arrays():
        try:
            a.block_until_ready()
        except Exception:  # a deleted or donated buffer: nothing to wait for
            pass
    jax.effects_barrier()
