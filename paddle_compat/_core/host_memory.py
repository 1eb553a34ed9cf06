"""Host arrays handed to JAX: JAX's CPU client wraps a numpy array whose data starts on a
64-byte boundary without copying it. Arrays the library made itself are allocated that way
(``aligned_empty``) so they move to the device for free; arrays a caller keeps are copied first
(``unshared``), so a later write to them never shows in a Tensor."""

from __future__ import annotations

import numpy as np

ALIGN = 64


def aligned_empty(shape, dtype) -> np.ndarray:
    """An uninitialized C-contiguous array whose data starts on a 64-byte boundary."""
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, int | np.integer) else tuple(shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = np.empty(nbytes + ALIGN, np.uint8)
    start = -raw.ctypes.data % ALIGN
    return raw[start : start + nbytes].view(dtype).reshape(shape)


def unshared(host):
    """``host`` (an array or a list of arrays) safe to give to ``jax.device_put`` when the
    caller keeps it: JAX's CPU client wraps a numpy array whose data starts on a 64-byte
    boundary without copying it, so a later in-place write to the caller's array would change
    the Tensor (Paddle copies). Such arrays are copied here; JAX copies the others itself."""
    if isinstance(host, list | tuple):
        return type(host)(unshared(h) for h in host)
    if isinstance(host, np.ndarray) and host.nbytes and host.ctypes.data % ALIGN == 0:
        return host.copy()
    return host
