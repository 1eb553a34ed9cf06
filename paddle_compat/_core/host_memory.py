"""Host arrays handed to JAX: JAX's CPU client wraps a numpy array whose data starts on a
64-byte boundary without copying it. Arrays the library made itself are allocated that way
(``aligned_empty``) so they move to the device for free; arrays a caller keeps are copied first
(``unshared``), so a later write to them never shows in a Tensor."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from .trace_state import jax_idle

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


def device_put(host: np.ndarray):
    """``jax.device_put(host)`` onto the default device (uncommitted), by JAX's transfer
    function itself while JAX is not tracing: ``jax.device_put`` spends ~25 us of its ~30 us
    in its primitive's dispatch before that call. Any other case (a trace, dtypes JAX would
    change, a JAX without that function) takes ``jax.device_put``."""
    import jax

    put = _FAST_PUT[0]
    if put is _UNSET:  # bound at the first transfer: JAX's backend is up by then
        put = _FAST_PUT[0] = _fast_put()
    if put is not None and host.dtype in _KEPT_DTYPES and jax_idle():
        try:
            return put(host)
        except Exception:  # pragma: no cover - a JAX whose internals changed: never again
            _FAST_PUT[0] = None
    return jax.device_put(host)


def _fast_put():
    """JAX's batched transfer bound to the default device, or None where unavailable."""
    try:
        import jax
        from jax._src import core
        from jax._src.interpreters import pxla

        if not jax.config.jax_enable_x64:
            return None
        shardings: dict = {}

        def sharding():
            dev = jax.config.jax_default_device
            s = shardings.get(dev)
            if s is None:
                d = jax.devices(dev)[0] if isinstance(dev, str) else dev or jax.devices()[0]
                s = shardings[dev] = (jax.sharding.SingleDeviceSharding(d), [d])
            return s

        def put(host):
            s, devices = sharding()
            aval = core.ShapedArray(host.shape, host.dtype)
            return pxla.batched_device_put(aval, s, [host], devices, committed=False)

        probe = np.arange(3, dtype=np.float32)
        out = put(probe)
        if not (isinstance(out, jax.Array) and np.array_equal(np.asarray(out), probe)):
            return None
        return put
    except Exception:  # pragma: no cover - JAX internals moved
        return None


_KEPT_DTYPES = frozenset(
    np.dtype(t) for t in (
        "float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "uint16",
        "uint32", "uint64", "bool", "complex64", "complex128", ml_dtypes.bfloat16,
    )
)  # fmt: skip
_UNSET = object()
_FAST_PUT: list = [_UNSET]
