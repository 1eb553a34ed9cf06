"""``paddle.*`` functions and values that are not ops: broadcast_shape(s), finfo/iinfo,
get_flags/set_flags, dlpack and numpy interop, dtype aliases (paddle.float, paddle.long...),
math constants, in-place alias functions (paddle.div_, ...). Re-exported by
``paddle_compat/__init__``."""

from __future__ import annotations

import builtins
import math as _math
from collections.abc import Sequence

import jax
import numpy as np

from ._core import deferred, runtime_checks, views
from ._core import dtype as _dt
from ._core.random import seed as _seed
from ._core.registry import call_op
from ._core.tensor import Size, Tensor, to_device

# -- dtype aliases and constants --------------------------------------------------------------
float = _dt.float32  # noqa: A001 - Paddle's names
double = _dt.float64
half = _dt.float16
int = _dt.int32  # noqa: A001
long = _dt.int64
short = _dt.int16
cfloat = _dt.complex64
cdouble = _dt.complex128
uint16 = _dt.bfloat16  # measured: Paddle 3.3's paddle.uint16 is paddle.bfloat16
uint32 = _dt.uint32
uint64 = _dt.uint64
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
newaxis = None


# -- shapes -------------------------------------------------------------------------------------
def broadcast_shape(x_shape: Sequence[int], y_shape: Sequence[int]) -> list[int]:
    """The shape two shapes broadcast to (ValueError when they cannot)."""
    x, y = list(x_shape), list(y_shape)
    n = max(len(x), len(y))
    x, y = [1] * (n - len(x)) + x, [1] * (n - len(y)) + y
    out = []
    for i, (a, b) in enumerate(zip(x, y)):
        if a == b or a == 1 or b == 1:
            out.append(b if a == 1 else a)
        else:
            raise ValueError(
                "(InvalidArgument) Broadcast dimension mismatch. Operands could not be "
                f"broadcast together with the shape of X = {list(x_shape)} and the shape of "
                f"Y = {list(y_shape)}. Received [{a}] in X is not equal to [{b}] in Y at i:{i}."
            )
    return out


def broadcast_shapes(*shapes: Sequence[int]) -> list[int]:
    """The shape all ``shapes`` broadcast to."""
    out: list = []
    for s in shapes:
        out = broadcast_shape(out, s)
    return out


# -- dtype info -----------------------------------------------------------------------------------
def _g(v) -> str:
    return f"{v:g}"


class _FInfo:
    def __init__(self, d: _dt.DType):
        fi = np.finfo(d.np) if d.np.kind == "f" else __import__("ml_dtypes").finfo(d.np)
        self.dtype = d.name
        self.bits = fi.bits
        self.eps = builtins.float(fi.eps)
        self.max = builtins.float(fi.max)
        self.min = builtins.float(fi.min)
        self.tiny = builtins.float(fi.tiny)
        self.smallest_normal = builtins.float(fi.smallest_normal)
        self.resolution = 10.0 ** -_math.floor(-_math.log10(builtins.float(fi.eps)))

    def __repr__(self) -> str:
        return (
            f"paddle.finfo(min={_g(self.min)}, max={_g(self.max)}, eps={_g(self.eps)}, "
            f"resolution={_g(self.resolution)}, smallest_normal={_g(self.smallest_normal)}, "
            f"tiny={_g(self.tiny)}, bits={self.bits}, dtype={self.dtype})"
        )


class _IInfo:
    def __init__(self, d: _dt.DType):
        ii = np.iinfo(d.np)
        self.dtype = d.name
        self.bits = ii.bits
        self.min = builtins.int(ii.min)
        self.max = builtins.int(ii.max)

    def __repr__(self) -> str:
        return f"paddle.iinfo(min={self.min}, max={self.max}, bits={self.bits}, dtype={self.dtype})"


def finfo(dtype) -> _FInfo:
    """Machine limits of a floating-point dtype (eps, max, min, tiny, bits...)."""
    d = _dt.to_dtype(dtype)
    if not (_dt.is_floating(d) or _dt.is_complex(d)):
        raise ValueError(
            f"finfo: the input dtype must be a float or complex dtype, but received {d.name}."
        )
    if _dt.is_complex(d):
        d = _dt.float32 if d is _dt.complex64 else _dt.float64
    return _FInfo(d)


def iinfo(dtype) -> _IInfo:
    """Machine limits of an integer dtype (min, max, bits)."""
    d = _dt.to_dtype(dtype)
    if not _dt.is_integer(d):
        raise ValueError(f"iinfo: the input dtype must be an integer dtype, but received {d.name}.")
    return _IInfo(d)


# -- flags --------------------------------------------------------------------------------------
# The global flags a user script commonly reads or sets, with Paddle 3.3.1's CPU defaults.
# They are recorded (get_flags returns what set_flags stored) but change nothing on JAX.
_FLAGS: dict[str, object] = {
    "FLAGS_check_nan_inf": False,
    "FLAGS_check_nan_inf_level": 0,
    "FLAGS_use_mkldnn": False,
    "FLAGS_eager_delete_tensor_gb": 0.0,
    "FLAGS_allocator_strategy": "auto_growth",
    "FLAGS_fraction_of_gpu_memory_to_use": 0.92,
    "FLAGS_benchmark": False,
    "FLAGS_call_stack_level": 1,
    "FLAGS_enable_pir_api": True,
    "FLAGS_use_stride_kernel": True,
    "FLAGS_print_ir": False,
    "FLAGS_max_inplace_grad_add": 0,
    "FLAGS_set_to_1d": False,
    "FLAGS_low_precision_op_list": 0,
    "FLAGS_enable_api_kernel_fallback": True,
    "FLAGS_use_autotune": False,
    "FLAGS_cudnn_deterministic": False,
    "FLAGS_embedding_deterministic": 0,
    "FLAGS_cudnn_exhaustive_search": False,
    "FLAGS_conv_workspace_size_limit": 512,
    "FLAGS_use_cuda_managed_memory": False,
    "FLAGS_initial_gpu_memory_in_mb": 0,
}
# paddle-compat's own flags (not in Paddle): they take effect
_OWN_FLAGS = ("FLAGS_deferred_eager", "FLAGS_check_static_values")


def get_flags(flags: str | Sequence[str]) -> dict:
    """{flag: value} for one flag name or a list of names."""
    names = [flags] if isinstance(flags, str) else list(flags)
    out = {}
    for f in names:
        if f == "FLAGS_deferred_eager":
            out[f] = deferred.enabled()
            continue
        if f == "FLAGS_check_static_values":
            out[f] = runtime_checks.static_checks()
            continue
        if f not in _FLAGS:
            raise ValueError(f"Flag {f} cannot get its value through this function.")
        out[f] = _FLAGS[f]
    return out


def set_flags(flags: dict) -> None:
    """Set global flags. Paddle's are recorded (they have no effect on the JAX backend);
    ``FLAGS_deferred_eager`` turns deferred eager execution on or off,
    ``FLAGS_check_static_values`` checks indices and integer divisors inside ``to_static``
    programs too (``_core/runtime_checks.py``)."""
    if not isinstance(flags, dict):
        raise TypeError("flags in set_flags should be a dict")
    for f in flags:
        if f not in _FLAGS and f not in _OWN_FLAGS:
            raise ValueError(f"Flag {f} cannot set its value through this function.")
    flags = dict(flags)
    if "FLAGS_deferred_eager" in flags:
        deferred.set_enabled(bool(flags.pop("FLAGS_deferred_eager")))
    if "FLAGS_check_static_values" in flags:
        runtime_checks.set_static_checks(bool(flags.pop("FLAGS_check_static_values")))
    _FLAGS.update(flags)


def disable_signal_handler() -> None:
    """No-op: paddle-compat installs no signal handlers."""


def is_compiled_with_cinn() -> bool:
    return False


def is_compiled_with_ipu() -> bool:
    return False


def is_compiled_with_rocm() -> bool:
    return False


def is_compiled_with_xpu() -> bool:
    return False


def is_compiled_with_custom_device(device_type: str) -> bool:
    return False


def get_cudnn_version() -> int | None:
    """None: no cuDNN is linked (XLA picks GPU kernels itself)."""
    return None


def get_default_device() -> str:
    from ._core.place import get_device

    return get_device()


def set_default_device(device) -> None:
    from ._core.place import set_device

    set_device(device)


def manual_seed(seed: int):
    """Same as ``paddle.seed``."""
    return _seed(seed)


# -- interop ------------------------------------------------------------------------------------
def to_dlpack(x: Tensor):
    """A DLPack capsule sharing x's buffer."""
    if not isinstance(x, Tensor):
        raise TypeError(
            f"The type of 'x' in to_dlpack must be paddle.Tensor, but received {type(x)}."
        )
    return x._value.__dlpack__()


def from_dlpack(dlpack, *, device=None, copy=None) -> Tensor:
    """A Tensor from a DLPack capsule or any object with ``__dlpack__``.

    Paddle shares the source's memory. JAX copies it, so here writes to the Tensor
    (``y[0, 0] = 10``, ``y.add_(z)``) are copied back into a writable host source (a numpy
    array), but writes to the source after the call do not show in the Tensor."""
    if type(dlpack).__name__ == "PyCapsule":
        return Tensor(jax.dlpack.from_dlpack(_Capsule(dlpack)))
    host = _host_view(dlpack) if not copy else None
    if host is None:
        return Tensor(jax.dlpack.from_dlpack(dlpack))
    t = Tensor(to_device(host))
    if host.flags.writeable:
        mirror = _HostMirror(host)
        views.share(t, mirror, _same, _replace)
        if mirror._alias is not None:
            t.__dict__["_host_mirror"] = mirror  # lives as long as the Tensor
    return t


def _host_view(src) -> np.ndarray | None:
    """A numpy array over the memory of a CPU DLPack source (None for other devices and for
    dtypes numpy cannot view)."""
    try:
        if src.__dlpack_device__()[0] != 1:  # kDLCPU
            return None
        return np.from_dlpack(src)
    except (AttributeError, TypeError, ValueError, BufferError, RuntimeError):
        return None


def _same(root):
    return root


def _replace(root, value):
    return value


class _HostMirror:
    """The host array a ``from_dlpack`` Tensor came from, as a member of the Tensor's view
    group (``_core/views.py``): each write to the Tensor is copied into it."""

    __slots__ = ("_host", "_alias", "_version", "__weakref__")

    def __init__(self, host: np.ndarray):
        self._host, self._alias, self._version = host, None, 0

    @property
    def _val(self):
        return self._host

    @_val.setter
    def _val(self, value) -> None:
        value = np.asarray(deferred.resolve(value))  # written back now, deferred or not
        if value.shape == self._host.shape:
            np.copyto(self._host, value)
        else:  # an in-place reshape of the Tensor: same elements in row-major order
            self._host.reshape(-1)[...] = value.reshape(-1)


class _Capsule:
    """Wrap a bare capsule so JAX's ``from_dlpack`` (which wants ``__dlpack__``) takes it."""

    def __init__(self, cap):
        self._cap = cap

    def __dlpack__(self, **kwargs):
        return self._cap

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def from_numpy(ndarray: np.ndarray) -> Tensor:
    """A Tensor with the numpy array's dtype and values (a copy on JAX)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy expects np.ndarray, but received {type(ndarray)}.")
    return call_op("to_tensor", ndarray)


def as_tensor(
    data, dtype=None, device=None, requires_grad: bool = False, pin_memory: bool = False
) -> Tensor:
    """``to_tensor`` with torch-style keywords (a Tensor argument is copied, as Paddle does)."""
    return call_op("to_tensor", data, dtype=dtype, place=device, stop_gradient=not requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad: bool = False) -> Tensor:
    """Array-API ``asarray``: like ``as_tensor``."""
    return as_tensor(obj, dtype=dtype, device=device, requires_grad=requires_grad)


def tolist(x: Tensor):
    """Nested Python lists of x's values."""
    return x.tolist()


# top-level names that live in other modules, imported on first use (PEP 562)
_ELSEWHERE = {
    "batch": ("utils._batch", "batch"),
    "MmapStorage": ("base._mmap", "MmapStorage"),
    "check_shape": ("base.data_feeder", "check_shape"),
    "enable_compat": ("compat.proxy", "enable_torch_proxy"),
    "disable_compat": ("compat.proxy", "disable_torch_proxy"),
    "use_compat_guard": ("compat.proxy", "use_torch_proxy_guard"),
}


def __getattr__(name: str):
    if name in _ELSEWHERE:
        import importlib

        module, attr = _ELSEWHERE[name]
        return getattr(importlib.import_module(f"{__package__}.{module}"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    *_ELSEWHERE,
    "Size",
    "as_tensor",
    "asarray",
    "broadcast_shape",
    "broadcast_shapes",
    "cdouble",
    "cfloat",
    "disable_signal_handler",
    "double",
    "e",
    "finfo",
    "float",
    "from_dlpack",
    "from_numpy",
    "get_cudnn_version",
    "get_default_device",
    "get_flags",
    "half",
    "iinfo",
    "inf",
    "int",
    "is_compiled_with_cinn",
    "is_compiled_with_custom_device",
    "is_compiled_with_ipu",
    "is_compiled_with_rocm",
    "is_compiled_with_xpu",
    "long",
    "manual_seed",
    "nan",
    "newaxis",
    "pi",
    "set_default_device",
    "set_flags",
    "short",
    "to_dlpack",
    "tolist",
    "uint16",
    "uint32",
    "uint64",
]
