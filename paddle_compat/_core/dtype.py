"""Paddle dtypes on top of numpy/JAX dtypes, the default dtype and Paddle's promotion rules."""

from __future__ import annotations

import jax.numpy as jnp
import ml_dtypes
import numpy as np

__all__ = [
    "DType",
    "DTypeLike",
    "to_dtype",
    "get_default_dtype",
    "set_default_dtype",
    "promote_types",
    "scalar_result_dtype",
    "is_floating",
    "is_integer",
    "is_complex",
]


class DType:
    """A Paddle dtype: prints as ``paddle.float32`` and compares equal to its numpy dtype."""

    __slots__ = ("name", "np")

    def __init__(self, name: str, np_dtype):
        self.name = name
        self.np = np.dtype(np_dtype)

    def __repr__(self) -> str:
        return f"paddle.{self.name}"

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        if isinstance(other, DType):
            return self.name == other.name
        if other is None:  # to_dtype(None) is the default dtype, but no dtype equals None
            return False
        try:
            return to_dtype(other) is self
        except (TypeError, ValueError):
            return False

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self):
        return (to_dtype, (self.name,))

    def __segment_name__(self) -> str:
        """Stable text for the segment store's keys (a static argument of many ops)."""
        return f"paddle.{self.name}"

    @property
    def itemsize(self) -> int:
        return self.np.itemsize

    @property
    def is_floating_point(self) -> bool:
        return is_floating(self)


bool_ = DType("bool", np.bool_)
uint8 = DType("uint8", np.uint8)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
float16 = DType("float16", np.float16)
bfloat16 = DType("bfloat16", ml_dtypes.bfloat16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
float8_e4m3fn = DType("float8_e4m3fn", ml_dtypes.float8_e4m3fn)
float8_e5m2 = DType("float8_e5m2", ml_dtypes.float8_e5m2)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)

ALL = [
    bool_,
    uint8,
    int8,
    int16,
    int32,
    int64,
    float16,
    bfloat16,
    float32,
    float64,
    complex64,
    complex128,
    float8_e4m3fn,
    float8_e5m2,
    uint16,
    uint32,
    uint64,
]
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(
    {
        "bool_": bool_,
        "float": float32,
        "double": float64,
        "half": float16,
        "int": int32,
        "long": int64,
    }
)
_BY_NP = {d.np: d for d in ALL}

_FLOATS = {float16, bfloat16, float32, float64, float8_e4m3fn, float8_e5m2}
_INTS = {uint8, int8, int16, int32, int64, uint16, uint32, uint64}
_COMPLEX = {complex64, complex128}

_default_float = float32

# What ``to_dtype`` accepts: paddle.float32, "float32", np.float32 / np.dtype, jnp dtypes, and
# the Python types bool/int/float/complex (the annotation of every op's ``dtype`` argument).
DTypeLike = DType | str | np.dtype | type


def to_dtype(dtype) -> DType:
    """Accept ``paddle.float32``, ``'float32'``, ``np.float32``, ``np.dtype`` or a jnp dtype."""
    if isinstance(dtype, DType):
        return dtype
    if isinstance(dtype, str):
        key = dtype.replace("paddle.", "")
        if key in _BY_NAME:
            return _BY_NAME[key]
        raise TypeError(f"The data type '{dtype}' is not supported by paddle.")
    if dtype is bool:
        return bool_
    if dtype is int:
        return int64
    if dtype is float:
        return _default_float
    if dtype is complex:
        return complex64
    try:
        npd = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"The data type '{dtype}' is not supported by paddle.") from None
    if npd in _BY_NP:
        return _BY_NP[npd]
    raise TypeError(f"The data type '{dtype}' is not supported by paddle.")


def get_default_dtype() -> str:
    return _default_float.name


def set_default_dtype(d) -> None:
    """Paddle accepts float16, bfloat16, float32, float64 as the default float dtype."""
    global _default_float
    dt = to_dtype(d)
    if dt not in (float16, bfloat16, float32, float64):
        raise TypeError(
            "set_default_dtype only supports [float16, float32, float64, bfloat16], "
            f"but received {dt.name}"
        )
    _default_float = dt


def default_float() -> DType:
    return _default_float


def is_floating(d) -> bool:
    return to_dtype(d) in _FLOATS


def is_integer(d) -> bool:
    return to_dtype(d) in _INTS


def is_complex(d) -> bool:
    return to_dtype(d) in _COMPLEX


# Paddle 3.3 promotes between tensors only within floats (and complex); int/float mixes of two
# tensors follow the same rule as numpy's table restricted to Paddle's dtypes.
_FLOAT_RANK = {float8_e5m2: 0, float8_e4m3fn: 0, float16: 1, bfloat16: 1, float32: 2, float64: 3}


def promote_types(a: DType, b: DType) -> DType:
    """Result dtype of a binary op between two tensors. Paddle 3.3 promotes only between floats
    and between complex and real; any other mix (int32 with int64, int with float) is a
    TypeError."""
    if a is b:
        return a
    if a in _COMPLEX or b in _COMPLEX:
        return to_dtype(jnp.promote_types(a.np, b.np))
    if a in _FLOATS and b in _FLOATS:
        if {a, b} == {float16, bfloat16}:
            return float32
        return a if _FLOAT_RANK[a] >= _FLOAT_RANK[b] else b
    raise TypeError(
        "(InvalidType) Type promotion only support calculations between floating-point numbers "
        "and between complex and real numbers. But got different data type "
        f"x: {a.name}, y: {b.name}."
    )


def _kind(d: DType) -> int:
    return 0 if d is bool_ else 1 if d in _INTS else 2 if d in _FLOATS else 3


def promote_with_0d(a: DType, a_0d: bool, b: DType, b_0d: bool, keep_nd: bool) -> DType:
    """Paddle 3.3's result dtype for its arithmetic and comparison ops when an operand is a
    0-D Tensor: across kinds (bool < int < float) the higher kind's dtype (``int32[2] +
    float64[]`` is float64); within a kind the N-D operand's dtype when ``keep_nd``
    (``float32[2] + float64[]`` is float32; floor_divide promotes instead), else the wider
    (two 0-D ints too: ``int32[] + int64[]`` is int64). Complex operands promote as usual."""
    if not (a_0d or b_0d) or a in _COMPLEX or b in _COMPLEX:
        return promote_types(a, b)
    ka, kb = _kind(a), _kind(b)
    if ka != kb:
        return a if ka > kb else b
    if keep_nd and a_0d != b_0d:
        return b if a_0d else a
    if ka == 1:
        return to_dtype(jnp.promote_types(a.np, b.np))
    return promote_types(a, b)


def scalar_result_dtype(t: DType, scalar) -> DType:
    """Dtype of ``tensor <op> python_scalar``: the tensor's dtype wins unless the scalar is a
    float and the tensor is int/bool (then the default float dtype), or the scalar is an int and
    the tensor is bool (then int64)."""
    if isinstance(scalar, bool):
        return t
    if isinstance(scalar, complex):
        return t if t in _COMPLEX else complex64
    if isinstance(scalar, float):
        return t if (t in _FLOATS or t in _COMPLEX) else _default_float
    if isinstance(scalar, int):
        return int64 if t is bool_ else t
    return t


HALF = (np.dtype(jnp.float16), np.dtype(jnp.bfloat16))


def half_as_float32(x):
    """``x`` as float32 when it is float16 or bfloat16, else unchanged: Paddle's CPU kernels
    compute half-precision tensors in float32 and round once at the end."""
    return x.astype(jnp.float32) if x.dtype in HALF else x


_INEXACT_CACHE: dict = {}


def is_inexact_np(npd) -> bool:
    """True for float/complex numpy or JAX dtypes (those that carry gradients)."""
    r = _INEXACT_CACHE.get(npd)
    if r is None:
        r = _INEXACT_CACHE[npd] = bool(jnp.issubdtype(npd, jnp.inexact))
    return r


# dtype names for the ``dtypes=`` option of ops (Paddle's kernel dtype lists)
FLOATING = ("float16", "bfloat16", "float32", "float64", "float8_e4m3fn", "float8_e5m2")
INEXACT = (*FLOATING, "complex64", "complex128")
