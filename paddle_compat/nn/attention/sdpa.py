"""``paddle.nn.attention.sdpa``: the scaled-dot-product-attention backend switch.

``sdpa_kernel(backends, set_priority=False)`` enables only ``backends`` (and, with
``set_priority``, puts them first in the priority order) for the ``with`` block, then restores
the previous set. As in Paddle on CPU, only MATH is enabled outside any block (FLASH and
EFFICIENT are off: Paddle enables them from its build flags on GPU builds)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from enum import IntEnum

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(IntEnum):
    """The attention backends ``sdpa_kernel`` selects among."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2


_backend_enabled = {
    SDPBackend.MATH: True,
    SDPBackend.FLASH_ATTENTION: False,
    SDPBackend.EFFICIENT_ATTENTION: False,
}
_current_priority = [
    SDPBackend.FLASH_ATTENTION,
    SDPBackend.EFFICIENT_ATTENTION,
    SDPBackend.MATH,
]


def _get_enabled_backends() -> list[SDPBackend]:
    return [b for b, on in _backend_enabled.items() if on]


def _set_enabled_backends(backends: list[SDPBackend]) -> None:
    for b in _backend_enabled:
        _backend_enabled[b] = b in backends


def _get_backend_priority() -> list[SDPBackend]:
    return list(_current_priority)


def _set_backend_priority(priority: list[SDPBackend]) -> None:
    _current_priority[:] = priority


def _validate_backends(backends) -> list[SDPBackend]:
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, list | tuple):
        raise TypeError(
            "backends must be an instance of SDPBackend or a list of SDPBackend instances"
        )
    for b in backends:
        if not isinstance(b, SDPBackend):
            raise TypeError(f"All backends must be SDPBackend instances, got {type(b)}")
    return list(dict.fromkeys(backends))


def _cur_sdpa_kernel_backends(with_priority: bool = False) -> list[SDPBackend]:
    """The enabled backends (in priority order when ``with_priority``)."""
    backends = _get_enabled_backends()
    if with_priority:
        prio = _get_backend_priority()
        backends.sort(key=lambda b: prio.index(b) if b in prio else float("inf"))
    return backends


def _sdpa_kernel(backends: Iterable[SDPBackend], set_priority: bool = False) -> None:
    backends = list(backends)
    _set_enabled_backends(backends)
    if set_priority:
        _set_backend_priority(backends + [b for b in _get_backend_priority() if b not in backends])


@contextlib.contextmanager
def sdpa_kernel(backends: list[SDPBackend] | SDPBackend, set_priority: bool = False):
    """Enable only ``backends`` for scaled dot product attention inside the block (yields
    ``{}``); the previous set is restored on exit."""
    assert isinstance(backends, list | SDPBackend), (
        "Backend must be an instance of SDPBackend or a list of SDPBackend instances"
    )
    backends = _validate_backends(backends)
    if not backends:
        raise ValueError("At least one backend must be specified")
    previous = _cur_sdpa_kernel_backends(with_priority=set_priority)
    try:
        _sdpa_kernel(backends, set_priority)
        yield {}
    finally:
        _sdpa_kernel(previous, set_priority)


@contextlib.contextmanager
def sdp_kernel(
    enable_math: bool = False, enable_flash: bool = True, enable_mem_efficient: bool = True
):
    """``paddle.nn.functional.sdp_kernel``: the older switch, by flags, over the same backend
    set as ``sdpa_kernel`` (yields ``{}``; the previous set is restored on exit)."""
    flags = {
        SDPBackend.MATH: enable_math,
        SDPBackend.FLASH_ATTENTION: enable_flash,
        SDPBackend.EFFICIENT_ATTENTION: enable_mem_efficient,
    }
    backends = [b for b, on in flags.items() if on]
    if not backends:
        raise ValueError("At least one backend must be enabled")
    previous = _get_enabled_backends()
    try:
        _set_enabled_backends(backends)
        yield {}
    finally:
        _set_enabled_backends(previous)


def check_sdpa_backend() -> None:
    """``scaled_dot_product_attention`` on a CPU runs only with MATH enabled: Paddle's CPU build
    raises this RuntimeError otherwise (on GPUs XLA or cuDNN runs whatever is enabled)."""
    if not _backend_enabled[SDPBackend.MATH]:
        import jax

        if jax.default_backend() == "cpu":
            raise RuntimeError("No available backend for scaled_dot_product_attention was found.")
