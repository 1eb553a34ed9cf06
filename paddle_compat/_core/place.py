"""Places (CPUPlace, CUDAPlace) mapped to JAX devices; ``paddle.set_device``/``get_device``."""

from __future__ import annotations

import atexit
import os

import jax
import numpy as np

from .host_memory import device_put, unshared

# JAX's concrete array type (read off a transfer, which compiles nothing)
ArrayImpl = type(jax.device_put(np.zeros((), np.float32)))


class Place:
    """A device as Paddle names it; prints ``Place(cpu)`` or ``Place(gpu:0)``."""

    def __init__(self, kind: str = "cpu", index: int = 0):
        self._kind, self._index = kind, index

    def __repr__(self) -> str:
        return "Place(cpu)" if self._kind == "cpu" else f"Place({self._kind}:{self._index})"

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        return isinstance(other, Place) and (self._kind, self._index) == (other._kind, other._index)

    def __hash__(self) -> int:
        return hash((self._kind, self._index))

    def is_cpu_place(self) -> bool:
        return self._kind == "cpu"

    def is_gpu_place(self) -> bool:
        return self._kind == "gpu"

    def gpu_device_id(self) -> int:
        return self._index

    def get_device_id(self) -> int:
        return self._index

    @property
    def jax_device(self):
        return device_from_spec(f"{self._kind}:{self._index}")


def CPUPlace() -> Place:  # noqa: N802 - Paddle's name
    return Place("cpu", 0)


def CUDAPlace(device_id: int = 0) -> Place:  # noqa: N802
    return Place("gpu", int(device_id))


def CUDAPinnedPlace() -> Place:  # noqa: N802
    return Place("cpu", 0)


def _gpus():
    try:
        return jax.local_devices(backend="gpu")
    except RuntimeError:
        return []


def is_compiled_with_cuda() -> bool:
    """True when JAX sees a GPU (what this build can really run on)."""
    return len(_gpus()) > 0


def device_from_spec(spec: str):
    kind, _, idx = spec.partition(":")
    kind = {"cuda": "gpu"}.get(kind, kind)
    i = int(idx) if idx else 0
    if kind == "cpu":
        return jax.local_devices(backend="cpu")[0]
    if kind == "gpu":
        gpus = _gpus()
        if not gpus:
            raise ValueError(
                f"(InvalidArgument) The device should not be '{spec}', since PaddlePaddle "
                "(paddle-compat) sees no GPU: JAX reports only "
                f"{sorted({d.platform for d in jax.devices()})} devices."
            )
        if i >= len(gpus):
            raise ValueError(
                f"(InvalidArgument) The device id {i} is out of range: {len(gpus)} GPU(s) seen."
            )
        return gpus[i]
    raise ValueError(
        f"(InvalidArgument) The device must be a string like 'cpu', 'gpu' or 'gpu:x', but "
        f"received '{spec}'."
    )


_current = None


def set_device(device: str) -> Place:
    """Select where new Tensors live: 'cpu', 'gpu', 'gpu:N'."""
    global _current
    if isinstance(device, Place):
        device = "cpu" if device.is_cpu_place() else f"gpu:{device.gpu_device_id()}"
    dev = device_from_spec(str(device).lower())
    jax.config.update("jax_default_device", dev)
    _current = dev
    return place_of_device(dev)


def current_device():
    return _current if _current is not None else jax.local_devices()[0]


def put(host, device=None, owned: bool = False):
    """``jax.device_put`` that commits only to a device other than JAX's default: arrays on the
    default device stay uncommitted, so kernels see one signature whether a Tensor came from
    ``to_tensor``, a DataLoader, ``paddle.load`` or an op (JAX compiles committed and
    uncommitted arguments separately; a parameter flipping between them recompiles its whole
    forward and backward). Host arrays are ``unshared`` unless ``owned`` says no one else
    holds them (then JAX may take them over without a copy)."""
    if not owned:
        host = unshared(host)
    if device is None or device == jax.local_devices()[0]:
        return device_put(host) if isinstance(host, np.ndarray) else jax.device_put(host)
    return jax.device_put(host, device)


def device_name(d) -> str:
    """Paddle's name of a JAX device: ``cpu`` or ``gpu:<id>``."""
    return "cpu" if d.platform == "cpu" else f"gpu:{d.id}"


def get_device() -> str:
    return device_name(current_device())


def place_of_device(d) -> Place:
    if d.platform == "cpu":
        return Place("cpu", 0)
    return Place("gpu", d.id)


def place_of(arr) -> Place:
    try:
        devs = arr.devices()
    except Exception:  # tracer
        return place_of_device(current_device())
    return place_of_device(next(iter(devs)))


def to_jax_device(place):
    if place is None:
        return None
    if isinstance(place, str):
        return device_from_spec(place.lower())
    return place.jax_device


def wait_for_device_work() -> None:
    """At exit: wait for the computations still running (JAX dispatches asynchronously, and a
    script's last optimizer update may still be running when it ends). XLA:CPU tearing down
    while one runs crashed the process (seen in YNNPACK building a fusion's runtime). A
    forked child has no XLA of its own to wait for."""
    if os.getpid() != _PID:
        return
    try:
        for a in jax.live_arrays():
            a.block_until_ready()
    except Exception:  # noqa: BLE001 - at exit: a deleted or failed array has nothing to wait for
        pass


_PID = os.getpid()
atexit.register(wait_for_device_work)  # runs before JAX's own exit hook (registered earlier)
