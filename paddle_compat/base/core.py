"""``paddle.base.core``: the names of Paddle's C++ core module that Python code reads: the
``VarDesc.VarType`` and ``DataType`` enums, ``eager.Tensor``, ``DenseTensor``, places,
build queries, device counts and the default CPU generator."""

from __future__ import annotations

import enum
from types import SimpleNamespace

from .._api_extra import (  # noqa: F401
    is_compiled_with_cinn,
    is_compiled_with_custom_device,
    is_compiled_with_ipu,
    is_compiled_with_rocm,
    is_compiled_with_xpu,
)
from .._core import dtype as _dt
from .._core.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, Place, is_compiled_with_cuda  # noqa: F401
from .._core.random import default_generator as _default_generator
from .._core.tensor import Tensor
from .._core.tensor_api import DenseTensor, VarType  # noqa: F401


class VarDesc:
    """Holds the ``VarType`` enum (``core.VarDesc.VarType.DENSE_TENSOR``)."""

    VarType = VarType


class AmpLevel(enum.Enum):
    """``core.AmpLevel``: the auto-mixed-precision levels (values as in Paddle 3.3.1)."""

    O0 = 0
    O1 = 1
    O2 = 2
    O3 = 3
    OD = 4

    def __int__(self) -> int:
        return self.value


class DataType:
    """``core.DataType``: Paddle's dtype enum, whose members are the ``paddle.*`` dtypes."""

    BOOL = _dt.bool_
    UINT8 = _dt.uint8
    INT8 = _dt.int8
    UINT16 = _dt.uint16
    INT16 = _dt.int16
    UINT32 = _dt.uint32
    INT32 = _dt.int32
    UINT64 = _dt.uint64
    INT64 = _dt.int64
    FLOAT32 = _dt.float32
    FLOAT64 = _dt.float64
    COMPLEX64 = _dt.complex64
    COMPLEX128 = _dt.complex128
    FLOAT16 = _dt.float16
    BFLOAT16 = _dt.bfloat16
    FLOAT8_E4M3FN = _dt.float8_e4m3fn
    FLOAT8_E5M2 = _dt.float8_e5m2


eager = SimpleNamespace(Tensor=Tensor)  # core.eager.Tensor is paddle.Tensor


def get_cuda_device_count() -> int:
    """The number of GPUs JAX sees."""
    from .._core.place import _gpus

    return len(_gpus())


def get_xpu_device_count() -> int:
    return 0


def get_custom_device_count(device_type: str) -> int:
    return 0


def default_cpu_generator():
    """The generator behind ``paddle.seed`` (Paddle's CPU generator)."""
    return _default_generator
