"""Tensor methods and properties that are not ops: dtype conversions (``x.float()``),
``new_*`` constructors, ``to``, ``type_as``, ``requires_grad`` and other torch-style names
Paddle 3.3 has. ``Tensor`` inherits them from ``TensorApiMixin``; op methods are generated
from the registry (``_ops/_methods.py``)."""

from __future__ import annotations

import enum
import inspect
from typing import TYPE_CHECKING

import numpy as np

from . import dtype as _dt

if TYPE_CHECKING:
    from .tensor import Tensor


def _call_op(name: str, *args, **kwargs):
    from .registry import call_op  # the registry imports Tensor, which inherits this mixin

    return call_op(name, *args, **kwargs)


# -- dtype conversions: x.float(), x.long(), ... -----------------------------------------------
_CASTS = {
    "bfloat16": "bfloat16",
    "bool": "bool",
    "byte": "uint8",
    "uint8": "uint8",
    "char": "int8",
    "int8": "int8",
    "short": "int16",
    "int16": "int16",
    "int": "int32",
    "int32": "int32",
    "long": "int64",
    "int64": "int64",
    "half": "float16",
    "float16": "float16",
    "float": "float32",
    "float32": "float32",
    "double": "float64",
    "float64": "float64",
    "cfloat": "complex64",
    "complex64": "complex64",
    "cdouble": "complex128",
    "complex128": "complex128",
}


def _cast_method(name: str, dtype: str):
    def method(self) -> Tensor:
        return _call_op("cast", self, dtype)

    method.__name__ = name
    method.__doc__ = f"``x.{name}()``: cast to {dtype}."
    return method


def _size_args(name: str, args) -> list:
    """``x.new_ones(3, 3)`` and ``x.new_ones([3, 3])``: positional ints are the shape."""
    if len(args) == 1 and not isinstance(args[0], int | np.integer):
        size = args[0]
        return size.tolist() if hasattr(size, "tolist") else size
    for a in args:
        if not isinstance(a, int | np.integer) or isinstance(a, bool):
            raise TypeError(
                f"(InvalidType) {name}(): argument (position 1) must be list of int, but got "
                f"{type(a).__name__}"
            )
    return list(args)


def _new_method(name: str, creator: str, filled: bool):
    if filled:

        def method(
            var,
            size,
            fill_value,
            *,
            dtype=None,
            device=None,
            requires_grad=False,
            pin_memory=False,
        ) -> Tensor:
            out = _call_op(creator, size, fill_value, dtype=dtype or var.dtype)
            out.stop_gradient = not requires_grad
            return out
    else:

        def method(
            self, *size, dtype=None, device=None, requires_grad=False, pin_memory=False, **kw
        ) -> Tensor:
            if "size" in kw:
                size = (kw.pop("size"),)
            if kw:
                raise TypeError(f"{name}() got unexpected keyword arguments {sorted(kw)}")
            if not size:
                raise TypeError(f"{name}() missing 1 required positional argument: 'size'")
            shape = _size_args("full" if creator != "empty" else "empty", size)
            out = _call_op(creator, shape, dtype=dtype or self.dtype)
            out.stop_gradient = not requires_grad
            return out

        method.__signature__ = inspect.signature(_new_signature)  # Paddle's, ints packed
    method.__name__ = name
    method.__doc__ = (
        f"``x.{name}(size)``: a new Tensor with x's dtype (``paddle.{creator}``); the shape "
        "may also be given as several ints, and dtype is keyword-only, as in Paddle."
    )
    return method


def _new_signature(
    var, size, *, dtype=None, device=None, requires_grad=False, pin_memory=False
) -> Tensor:
    """What ``inspect.signature(paddle.Tensor.new_zeros)`` shows (``x.new_zeros(2, 3)`` packs
    the ints into ``size``)."""


def type_as(self, other: Tensor) -> Tensor:
    """Cast to ``other``'s dtype."""
    return _call_op("cast", self, other.dtype)


def requires_grad_(self, requires_grad: bool = True) -> Tensor:
    """Set ``stop_gradient = not requires_grad`` in place; returns the Tensor."""
    self.stop_gradient = not requires_grad
    return self


def _get_requires_grad(self) -> bool:
    return not self.stop_gradient


def _set_requires_grad(self, value: bool) -> None:
    self.stop_gradient = not value


def apply(self, func) -> Tensor:
    """``func(x)`` computed without gradient; refused on Tensors that require grad."""
    if not self.stop_gradient:
        raise RuntimeError("Cannot apply function on a tensor that required gradient.")
    from .autograd import no_grad

    with no_grad():
        return func(self)


def apply_(self, func) -> Tensor:
    """Like ``apply``, writing the result into x in place."""
    out = apply(self, func)
    self._set_value(out._value.astype(self._value.dtype).reshape(self._value.shape))
    return self


def _parse_to(args, kwargs):
    """Tensor.to(device), to(dtype), to(device, dtype), to(other), with keywords."""
    device, dtype = kwargs.get("device"), kwargs.get("dtype")
    for a in args:
        if isinstance(a, TensorApiMixin):
            dtype, device = a.dtype, a.place
        elif isinstance(a, bool):  # blocking / copy flags
            continue
        elif isinstance(a, str):
            try:
                dtype = _dt.to_dtype(a)
            except TypeError:
                device = a
        elif isinstance(a, _dt.DType | np.dtype) or a in (float, int, bool, complex):
            dtype = a
        else:
            device = a
    if "other" in kwargs:
        dtype, device = kwargs["other"].dtype, kwargs["other"].place
    return device, dtype


def to(self, *args, **kwargs) -> Tensor:
    """Move to a device and/or cast to a dtype (``x.to('cpu')``, ``x.to('float64')``,
    ``x.to(other)``); returns x itself when nothing changes."""
    device, dtype = _parse_to(args, kwargs)
    out = self
    if device is not None:
        from .place import device_from_spec, to_jax_device

        dev = device_from_spec(device) if isinstance(device, str) else to_jax_device(device)
        if dev not in self._value.devices():
            out = out._to_device(dev)
    if dtype is not None and _dt.to_dtype(dtype) != out.dtype:
        out = _call_op("cast", out, dtype)
    return out


def get_device(self) -> int:
    """-1 for CPU Tensors, else the GPU index."""
    p = self.place
    return p.get_device_id() if p.is_gpu_place() else -1


def gradient(self):
    """Deprecated Paddle API: the gradient as a numpy array (None when there is none)."""
    g = self.grad
    return None if g is None else g.numpy()


def is_tensor(x) -> bool:
    """``x.is_tensor()``: True (Paddle's ``paddle.is_tensor`` as a method)."""
    return True


def _device(self) -> str:
    p = self.place
    return f"gpu:{p.get_device_id()}" if p.is_gpu_place() else "cpu"


def _is_cuda(self) -> bool:
    return self.place.is_gpu_place()


# -- Paddle's VarDesc.VarType and the DenseTensor behind ``get_tensor()`` -------------------
class VarType(enum.Enum):
    """``paddle.base.core.VarDesc.VarType`` (values as in Paddle 3.3.1); ``Tensor.type`` is
    ``VarType.DENSE_TENSOR``."""

    BOOL = 0
    INT16 = 1
    INT32 = 2
    INT64 = 3
    FP16 = 4
    FP32 = 5
    FP64 = 6
    DENSE_TENSOR = 7
    SELECTED_ROWS = 8
    FEED_MINIBATCH = 9
    FETCH_LIST = 10
    STEP_SCOPES = 11
    DENSE_TENSOR_ARRAY = 13
    PLACE_LIST = 14
    READER = 15
    RAW = 17
    UINT8 = 20
    INT8 = 21
    BF16 = 22
    COMPLEX64 = 23
    COMPLEX128 = 24
    STRING = 25
    STRINGS = 26
    VOCAB = 27
    SPARSE_COO = 30
    FP8_E4M3FN = 32
    FP8_E5M2 = 33
    UINT16 = 36
    UINT32 = 37
    UINT64 = 38

    def __int__(self) -> int:
        return self.value

    __index__ = __int__

    def __str__(self) -> str:
        """Data types print as their paddle dtype (``paddle.float32``), the rest as
        ``VarType.DENSE_TENSOR``, as in Paddle."""
        name = _VARTYPE_DTYPE_NAMES.get(self.name)
        return f"paddle.{name}" if name else f"VarType.{self.name}"


_VARTYPE_DTYPE_NAMES = {
    "BOOL": "bool",
    "UINT8": "uint8",
    "INT8": "int8",
    "INT16": "int16",
    "INT32": "int32",
    "INT64": "int64",
    "FP16": "float16",
    "FP32": "float32",
    "FP64": "float64",
    "BF16": "bfloat16",
    "COMPLEX64": "complex64",
    "COMPLEX128": "complex128",
    "FP8_E4M3FN": "float8_e4m3fn",
    "FP8_E5M2": "float8_e5m2",
    "RAW": "raw",
    "STRING": "pstring",
}


def _dense_item(v) -> str:
    if isinstance(v, complex | np.complexfloating):
        return f"{v.real:g}{v.imag:+g}j"
    if isinstance(v, bool | np.bool_ | int | np.integer):
        return str(int(v))
    return f"{float(v):g}"


class DenseTensor:
    """Paddle's DenseTensor as ``Tensor.get_tensor()`` returns it: a view of the Tensor's
    storage (here its held array), printed as Paddle prints it; ``set`` replaces the data."""

    __slots__ = ("_t",)

    def __init__(self, tensor=None):
        if tensor is None:
            from .tensor import Tensor

            tensor = Tensor()
        self._t = tensor

    def shape(self) -> list[int]:
        return list(self._t.shape)

    def _dtype(self):
        return self._t.dtype

    def _place(self):
        return self._t.place

    def _layout(self) -> str:
        return "NCHW"

    def _numel(self) -> int:
        return self._t.size

    def _is_initialized(self) -> bool:
        return True

    def lod(self) -> list:
        return []

    def set(self, array, place=None) -> None:
        """Replace the data (shape and dtype from ``array``)."""
        from .tensor import to_device

        self._t._set_value(to_device(np.asarray(array)))
        self._t.__dict__.pop("_uninitialized", None)

    def __array__(self, dtype=None, copy=None):
        a = self._t.numpy()
        return a if dtype is None else a.astype(dtype)

    def __str__(self) -> str:
        a = self._t.numpy().reshape(-1)
        if a.dtype.kind not in "biufc":  # bfloat16, float8: through float32
            a = a.astype(np.float32)
        data = " ".join(_dense_item(v) for v in a.tolist())
        return (
            f"  - shape: {list(self._t.shape)}\n  - layout: NCHW\n  - place: {self._t.place}\n"
            f"  - dtype: {self._t.dtype.name}\n  - data: [{data}]"
        )


# -- storage layout: strides, offset, set_, resize_ --------------------------------------------
# A Tensor's strides are the row-major ones and its offset 0, except for Paddle's views
# (``_core/views.py`` keeps each view's strides and byte offset into its buffer) and after
# ``set_``, which records the (shape, strides, byte offset) it was given, as Paddle reports
# them, until the Tensor is next written.


def _contiguous_strides(shape) -> list[int]:
    """Row-major strides; Paddle 3.3.1 reports a zero-size Tensor's strides as its shape."""
    if 0 in list(shape):
        return [int(d) for d in shape]
    st, acc = [], 1
    for d in reversed(list(shape)):
        st.append(acc)
        acc *= int(d)
    return st[::-1]


def _layout(self):
    lay = self.__dict__.get("_set_layout")
    if lay is not None and lay[0] == self._version:
        return lay
    if self._alias is not None:
        from . import views

        view = views.layout(self)
        return None if view is None else (self._version, *view)
    return None


def get_strides(self, /) -> list[int]:
    """The strides (in elements) of x's storage layout."""
    lay = _layout(self)
    return list(lay[1]) if lay is not None else _contiguous_strides(self._val.shape)


def is_contiguous(self, /) -> bool:
    """True when x's strides are the row-major ones of its shape."""
    return get_strides(self) == _contiguous_strides(self._val.shape)


def stride(self, dim=None, /):
    """``get_strides()``, or the stride of dimension ``dim``."""
    st = get_strides(self)
    if dim is None:
        return st
    n = len(st)
    if not -n <= dim < n:
        raise ValueError(
            f"(InvalidArgument) Dimension out of range (expected to be in range of "
            f"[{-n}, {n - 1}], but got {dim})"
        )
    return st[dim]


def _offset(self) -> int:
    lay = _layout(self)
    return lay[2] if lay is not None else 0


def _check_inplace_leaf(self) -> None:
    from .autograd import is_grad_enabled

    if not self.stop_gradient and self._node is None and is_grad_enabled():
        raise ValueError(
            f"(InvalidArgument) Leaf Tensor {self.name} that doesn't stop gradient can't use "
            "inplace strategy."
        )


def _int_list(op: str, arg: str, values) -> list[int]:
    if not isinstance(values, list | tuple):
        raise ValueError(f"Input ({arg}) should be list or tuple but received {type(values)}")
    for v in values:
        if not isinstance(v, int | np.integer) or isinstance(v, bool):
            raise TypeError(
                f"(InvalidType) {op}(): argument (position 1) must be list of int, but got "
                f"{type(v).__name__}"
            )
    return [int(v) for v in values]


def set_(x, source=None, shape=None, stride=None, offset: int = 0, name=None) -> Tensor:
    """Make x hold ``source``'s data, read with ``shape``, ``stride`` (elements) and
    ``offset`` (bytes) and reinterpreted as x's dtype; no source: an empty Tensor. Here x
    gets a copy of the elements (a JAX array is immutable: later writes to ``source`` do not
    show in x) and reads outside ``source`` raise instead of returning stray memory."""
    from .tensor import Tensor

    _check_inplace_leaf(x)
    npd = np.dtype(x._val.dtype)
    if source is None:
        import jax.numpy as jnp

        x._set_value(jnp.zeros((0,), npd))
        x._node = None
        return x
    if not isinstance(source, Tensor):
        raise ValueError(f"Input (source) should be paddle.Tensor but received {type(source)}")
    if isinstance(shape, int | np.integer):
        shape = [shape]
    if isinstance(stride, int | np.integer):
        stride = [stride]
    shp = list(source.shape) if shape is None else _int_list("set_", "shape", shape)
    st = _contiguous_strides(shp) if stride is None else _int_list("set_", "stride", stride)
    if len(st) != len(shp):
        raise ValueError(
            f"(InvalidArgument) set_: stride {st} must have one entry per dimension of shape {shp}."
        )
    if offset % npd.itemsize:
        raise ValueError(
            f"(InvalidArgument) set_: offset {offset} must be a multiple of the element size "
            f"({npd.itemsize} bytes of {npd.name})."
        )
    src = source._value
    if src.dtype == npd:
        flat = src.reshape(-1)
    else:  # Paddle reads the source's bytes as x's dtype
        from . import trace_state

        trace_state.check_concrete(source, "Tensor.set_() with another dtype")
        raw = np.ascontiguousarray(np.asarray(src)).reshape(-1).view(np.uint8)
        flat = np.frombuffer(raw[: raw.size - raw.size % npd.itemsize].tobytes(), npd)
    idx = np.full(shp, offset // npd.itemsize, np.int64)
    for d, (n, s) in enumerate(zip(shp, st)):
        idx += (np.arange(n, dtype=np.int64) * s).reshape([n] + [1] * (len(shp) - d - 1))
    if idx.size and (idx.min() < 0 or idx.max() >= flat.shape[0]):
        raise ValueError(
            f"(InvalidArgument) set_: shape {shp}, stride {st} and offset {offset} read "
            f"outside the source's {flat.shape[0]} elements of {npd.name}."
        )
    plain = shp == list(src.shape) and stride is None and offset == 0 and src.dtype == npd
    from .tensor import to_device

    value = src if plain else to_device(flat)[idx.reshape(-1)].reshape(shp)
    x._set_value(value)
    x._node = None
    x.__dict__["_set_layout"] = (x._version, st, offset)
    x.__dict__.pop("_uninitialized", None)
    return x


def resize_(x, shape, fill_zero: bool = False, name=None) -> Tensor:
    """Give x the shape ``shape`` in place, keeping its first elements in row-major order;
    new elements are zeros (Paddle leaves them uninitialized unless ``fill_zero``)."""
    import jax.numpy as jnp

    shp = _int_list("empty", "shape", shape)
    for i, d in enumerate(shp):
        if d < 0:
            raise ValueError(
                "(InvalidArgument) Each value of attribute 'shape' is expected to be no less "
                f"than 0. But received: shape[{i}] = {d}; shape = {shp}."
            )
    _check_inplace_leaf(x)
    n = int(np.prod(shp, dtype=np.int64))
    flat = x._value.reshape(-1)[:n]
    if flat.shape[0] < n:
        flat = jnp.concatenate([flat, jnp.zeros((n - flat.shape[0],), flat.dtype)])
    x._set_value(flat.reshape(shp))
    x._node = None
    return x


def reconstruct_from_(self, /, other: Tensor) -> None:
    """Make x take ``other``'s data, dtype, ``stop_gradient`` and autograd history (x keeps
    its name)."""
    from .tensor import Tensor

    if not isinstance(other, Tensor):
        raise TypeError(f"reconstruct_from_(): other must be a Tensor, but got {type(other)}")
    self._set_value(other._val)
    self.__dict__.pop("_uninitialized", None)
    self.stop_gradient = other.stop_gradient
    self._node, self._out_idx = other._node, other._out_idx


def set_tensor(self, value=None, /, **ignored) -> None:
    """Make x hold ``value``'s data (its shape and dtype; x keeps its name, ``stop_gradient``
    and autograd history). Keywords are ignored, as Paddle's C++ method ignores them."""
    from .tensor import Tensor

    if not isinstance(value, Tensor):
        shown = "None" if value is None else _type_name(value)
        raise ValueError(
            f"(InvalidArgument) set_tensor(): argument 'value' (position 0) must be Tensor, "
            f"but got {shown}"
        )
    self._set_value(value._value)
    self.__dict__.pop("_uninitialized", None)


def _type_name(value) -> str:
    t = type(value)
    return t.__qualname__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"


def _is_shared_buffer_with(self, other: Tensor) -> bool:
    """True when x and ``other`` hold the same array (e.g. after ``x.set_(other)``)."""
    return self._val is getattr(other, "_val", None)


def _share_buffer_to(self, other: Tensor) -> None:
    """Make ``other`` hold x's data (the same array: shape and dtype follow)."""
    other._set_value(self._value)
    other.__dict__.pop("_uninitialized", None)


def _block(self):
    from ..base._program import default_main_program

    return default_main_program().global_block()


_PROPERTIES = {
    "requires_grad": property(
        _get_requires_grad, _set_requires_grad, doc="``not stop_gradient`` (settable)."
    ),
    "device": property(_device, doc="The device as a string ('cpu', 'gpu:0')."),
    "is_cuda": property(_is_cuda, doc="True for Tensors on a GPU."),
    "itemsize": property(lambda self: self._value.dtype.itemsize, doc="Bytes per element."),
    "layout": property(lambda self: "NCHW", doc="Paddle reports 'NCHW' for dense Tensors."),
    "offset": property(_offset, doc="Storage offset in bytes (0 unless set by ``set_``)."),
    "block": property(_block, doc="The global block of the default main program."),
    "inplace_version": property(
        lambda self: self._version, doc="How many times the Tensor was modified in place."
    ),
    "grad_fn": property(lambda self: self._node, doc="The autograd node that made x, or None."),
    "grad_": property(lambda self: self.grad, doc="Same as ``grad``."),
    "num_shard": property(lambda self: None, doc="None for a non-distributed Tensor."),
}

_METHODS = {
    "type_as": type_as,
    "requires_grad_": requires_grad_,
    "apply": apply,
    "apply_": apply_,
    "to": to,
    "get_device": get_device,
    "gradient": gradient,
    "is_tensor": is_tensor,
    "get_strides": get_strides,
    "stride": stride,
    "is_contiguous": is_contiguous,
    "set_": set_,
    "resize_": resize_,
    "reconstruct_from_": reconstruct_from_,
    "set_tensor": set_tensor,
    "_is_shared_buffer_with": _is_shared_buffer_with,
    "_share_buffer_to": _share_buffer_to,
    "_unsafe_share_buffer_to": _share_buffer_to,
    "is_selected_rows": lambda self: False,
}


class TensorApiMixin:
    """Non-op Tensor methods and properties (see the module docstring)."""

    __slots__ = ()


for _name, _fn in _METHODS.items():
    setattr(TensorApiMixin, _name, _fn)
for _name, _prop in _PROPERTIES.items():
    setattr(TensorApiMixin, _name, _prop)
for _name, _dtype in _CASTS.items():
    setattr(TensorApiMixin, _name, _cast_method(_name, _dtype))
for _name, _creator, _filled in (
    ("new_empty", "empty", False),
    ("new_zeros", "zeros", False),
    ("new_ones", "ones", False),
    ("new_full", "full", True),
):
    setattr(TensorApiMixin, _name, _new_method(_name, _creator, _filled))
del _name


def _compat_softmax(input, dim=None, dtype=None, *, out=None):  # noqa: A002 - Paddle's name
    """``x.softmax(dim)``: Paddle 3.3's Tensor method is ``paddle.compat``'s torch-style
    softmax (``dim``, torch's implicit dim when None), not ``nn.functional.softmax``."""
    from ..compat.nn.functional import softmax

    return softmax(input, dim, dtype, out=out)


TensorApiMixin.softmax = _compat_softmax


def create_tensor(dtype, name: str | None = None, persistable: bool = False):
    """An uninitialized 0-D Tensor of ``dtype`` named ``name`` (default ``create_tensor_N``),
    to be filled later (``paddle.assign(x, output=t)``); prints ``Tensor(Not initialized)``."""
    from ..base import unique_name
    from .dtype import to_dtype
    from .tensor import Tensor

    try:
        dt = to_dtype(dtype)
    except (TypeError, ValueError) as e:
        raise TypeError(f"data type '{dtype}' not understood") from e
    return Tensor(dt.name, [], name or unique_name.generate("create_tensor"), None, persistable)


TensorApiMixin.create_tensor = create_tensor  # as in Paddle, a plain function on the class


# -- sparse Tensor methods: thin calls into paddle_compat.sparse._methods (Paddle's signatures);
# dense Tensors get Paddle's answers and errors there ------------------------------------------
def _sparse():
    from ..sparse import _methods

    return _methods


def _is_sparse_coo(self, /) -> bool:
    return _sparse().is_sparse_coo(self)


def _is_sparse_csr(self, /) -> bool:
    return _sparse().is_sparse_csr(self)


def _nnz(self, /) -> int:
    return _sparse().nnz(self)


def _indices(self, /):
    return _sparse().indices(self)


def _values(self):
    return _sparse().values(self)


def _crows(self, /):
    return _sparse().crows(self)


def _cols(self, /):
    return _sparse().cols(self)


def _sparse_dim(self, /) -> int:
    return _sparse().sparse_dim(self)


def _dense_dim(self, /) -> int:
    return _sparse().dense_dim(self)


def _to_dense(self):
    return _sparse().to_dense(self)


def _to_sparse_coo(self, sparse_dim):
    return _sparse().to_sparse_coo(self, sparse_dim)


def _to_sparse_csr(self, /):
    return _sparse().to_sparse_csr(self)


def _coalesce(self, name=None):
    return _sparse().coalesce(self)


def _is_coalesced(self, /) -> bool:
    return _sparse().is_coalesced(self)


def _is_same_shape(self, y, /) -> bool:
    return _sparse().is_same_shape(self, y)


for _f in (
    _is_sparse_coo,
    _is_sparse_csr,
    _nnz,
    _indices,
    _values,
    _crows,
    _cols,
    _sparse_dim,
    _dense_dim,
    _to_dense,
    _to_sparse_coo,
    _to_sparse_csr,
    _coalesce,
    _is_coalesced,
    _is_same_shape,
):
    _f.__name__ = _f.__qualname__ = _f.__name__[1:]
    setattr(TensorApiMixin, _f.__name__, _f)
del _f
