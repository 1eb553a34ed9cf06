"""paddle-compat: the PaddlePaddle 3.x Python API on JAX.

``import paddle`` resolves here (see ``paddle/``). JAX's 64-bit mode is switched on at import
so Paddle's int64/float64 dtypes exist; set ``PADDLE_COMPAT_X64=0`` before import to keep JAX
32-bit (int64 then maps to int32, float64 to float32; see docs/porting.md). Compiled kernels
are cached on disk across processes (``_core/compile_cache.py``; ``PADDLE_COMPAT_CACHE_DIR``),
and lowered in one MLIR context per thread (``_core/lowering.py``).
"""

import os as _os

import numpy.random as _np_random

# JAX draws from numpy's global random state while it imports (jax/_src/clusters): keep the
# state a script seeded before ``import paddle``, as importing real Paddle does
_np_state = _np_random.get_state()
import jax as _jax  # noqa: E402

_np_random.set_state(_np_state)
del _np_state

if _os.environ.get("PADDLE_COMPAT_X64", "1") != "0":
    _jax.config.update("jax_enable_x64", True)

from ._core import compile_cache as _compile_cache  # noqa: E402
from ._core import lowering as _lowering  # noqa: E402

_compile_cache.configure()  # JAX's persistent compilation cache (PADDLE_COMPAT_CACHE_DIR)
_lowering.install()  # one MLIR context per thread for every lowering
from ._core import mt19937 as _mt19937  # noqa: E402

_mt19937.prepare()  # a new version's first process builds the compiled random generator
from ._core import segment_store as _segment_store  # noqa: E402

_segment_store.note_start()  # read ahead what this script's last run took first

__version__ = "3.3.1"  # the Paddle API version this package follows (scripts check it)
__compat_version__ = "0.1.0"  # this package's own version
from . import _ops  # noqa: E402  (registers every op)
from ._core import dtype as _dtype_mod  # noqa: E402
from ._core.autograd import (  # noqa: E402, F401
    enable_grad,
    grad,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from ._core.dtype import (  # noqa: E402, F401
    bfloat16,
    complex64,
    complex128,
    float8_e4m3fn,
    float8_e5m2,
    float16,
    float32,
    float64,
    get_default_dtype,
    int8,
    int16,
    int32,
    int64,
    set_default_dtype,
    uint8,
)
from ._core.place import (  # noqa: E402, F401
    CPUPlace,
    CUDAPinnedPlace,
    CUDAPlace,
    is_compiled_with_cuda,
    set_device,
)
from ._core.random import DeviceGenerator as Generator  # noqa: E402, F401
from ._core.random import get_cuda_rng_state, get_rng_state, seed, set_cuda_rng_state, set_rng_state  # noqa: E402, F401
from ._core.runtime_checks import EnforceNotMet  # noqa: E402, F401
from ._core.tensor import Tensor  # noqa: E402, F401
from ._core.tensor_repr import set_printoptions  # noqa: E402, F401
from ._io.serialization import async_save, clear_async_save_task_queue, load, save  # noqa: E402, F401
from .framework import ParamAttr  # noqa: E402, F401
from .framework._param_attr import create_parameter  # noqa: E402, F401

bool = _dtype_mod.bool_  # noqa: A001 - paddle.bool
dtype = _dtype_mod.DType
from . import nn  # noqa: E402, F401  (registers nn.functional ops, some also in paddle.*)
from .nn.initializer._lazy import LazyGuard  # noqa: E402, F401

_ops.install_tensor_methods()
globals().update(_ops.namespace("paddle"))
from ._api_extra import *  # noqa: E402,F403  (non-op paddle.* names)
from ._dtype_tensors import FACTORIES as _FACTORIES  # noqa: E402
from .amp._auto_cast import (  # noqa: E402, F401
    autocast,
    get_autocast_cpu_dtype,
    get_autocast_dtype,
    get_autocast_gpu_dtype,
    is_autocast_enabled,
)
from .compat.nn.functional import softmax  # noqa: E402, F401  (Paddle 3.3: the compat one)
from .device import (  # noqa: E402, F401  (paddle.device's, as Paddle exports them)
    Event,
    Stream,
    device_guard,
    get_device,
    get_device_module,
)

globals().update(_FACTORIES)  # paddle.FloatTensor, paddle.LongTensor, ...


def is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def is_compiled_with_distribute() -> bool:
    return True


from .static._mode import disable_static, enable_static, in_dynamic_mode  # noqa: E402, F401


def install() -> None:
    """Make ``import paddle`` resolve to paddle_compat (also where real Paddle is installed)."""
    from ._install import install as _install

    _install()


def __getattr__(name):
    import importlib
    import importlib.util

    if name in _SUBMODULES or name in _NOT_YET and importlib.util.find_spec(f"{__name__}.{name}"):
        return importlib.import_module(f"{__name__}.{name}")
    if name == "core":  # paddle.core is paddle.base.core, imported on first use
        return importlib.import_module(f"{__name__}.base.core")
    if name in _HAPI:  # paddle.Model, paddle.summary, paddle.flops
        return getattr(importlib.import_module(f"{__name__}.hapi"), name)
    if name == "DataParallel":  # lives in parallel/, imported on first use
        from parallel import DataParallel

        return DataParallel
    if name in _NOT_YET:
        raise AttributeError(
            f"module 'paddle' has no attribute '{name}': paddle.{name} is not implemented by "
            "paddle-compat yet (docs/porting.md lists the missing areas)"
        )
    raise AttributeError(f"module 'paddle' has no attribute '{name}'")


# public submodules imported on first use (each has a file here)
_HAPI = ("Model", "summary", "flops")
_SUBMODULES = (
    "amp",
    "audio",
    "autograd",
    "base",
    "callbacks",
    "compat",
    "cuda",
    "dataset",
    "device",
    "distributed",
    "distribution",
    "fft",
    "framework",
    "functional",
    "geometric",
    "hapi",
    "hub",
    "incubate",
    "inference",
    "io",
    "jit",
    "linalg",
    "metric",
    "nn",
    "optimizer",
    "profiler",
    "quantization",
    "random",
    "reader",
    "regularizer",
    "signal",
    "sparse",
    "special",
    "static",
    "sysconfig",
    "tensor",
    "text",
    "utils",
    "version",
    "vision",
)
# Paddle 3.3 modules that paddle-compat does not have yet (one that gains a file here is
# imported like the ones above, before this list is updated)
_NOT_YET = ("onnx",)

from ._core import gc_scope as _gc_scope  # noqa: E402

_gc_scope.freeze_imported()  # the import's heap: later full collections and exit skip it
