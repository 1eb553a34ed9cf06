"""Creation ops: to_tensor, zeros/ones/full/empty (+ _like), arange, linspace, eye, assign."""

from __future__ import annotations

from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core import tensor as _tensor
from .._core.autograd import rebind_inplace
from .._core.dtype import DTypeLike
from .._core.place import Place, current_device, put, to_jax_device
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor, copy_array, to_device


def _dtype_or_default(dtype, default=None):
    if dtype is None:
        return (default or _dt.default_float()).np
    return _dt.to_dtype(dtype).np


def _shape(shape) -> tuple[int, ...]:
    if isinstance(shape, int):
        return (shape,)
    out = []
    for s in shape:
        if isinstance(s, Tensor):
            s = s.item()
        if not isinstance(s, int | np.integer) or isinstance(s, bool):
            raise TypeError(
                "(InvalidType) full(): argument (position 1) must be list of int, but got "
                f"{type(s).__name__} at pos {len(out)}"
            )
        if s < -1:
            raise ValueError(
                "(InvalidArgument) Each value of attribute 'shape' is expected to be no less "
                f"than 0. But received: shape[{len(out)}] = {s}; shape = {list(shape)}."
            )
        out.append(int(s))
    return tuple(out)


def infer_numpy_dtype(data, target=None) -> np.ndarray:
    """Host data -> numpy array with Paddle's dtype rules: Python floats become the default
    float dtype, Python ints int64 (one beyond int64 raises), numpy arrays keep their dtype.
    With a ``target`` numpy dtype the data is converted straight to it (no float32 step)."""
    if isinstance(data, np.ndarray | np.generic):
        a = np.asarray(data)
        return a if target is None else a.astype(target)
    if isinstance(data, list | tuple) and any(isinstance(x, Tensor) for x in _flat(data)):
        data = [_host(x) for x in data]
    try:
        a = np.asarray(data)
    except OverflowError:  # an int beyond 64 bits among other values
        a = np.asarray(data, dtype=object)
    except ValueError:
        raise ValueError(
            "(InvalidArgument) Failed to convert input data to a regular ndarray: usually the "
            "input data contains nested lists with different lengths."
        ) from None
    if a.dtype.kind in "OUS" and not all(type(v) is int for v in a.flat):
        raise TypeError(
            f"(InvalidArgument) to_tensor does not support data of type {type(data).__name__} "
            f"(numpy dtype {a.dtype})."
        )
    floating = target is not None and np.dtype(target).kind in "fcV"
    if not floating and a.dtype in (np.uint64, np.dtype(object)):
        big = next((int(v) for v in a.flat if not -(2**63) <= int(v) < 2**63), None)
        if big is not None:
            raise ValueError(
                f"(InvalidArgument) to_tensor: the integer {big} is out of the range of int64 "
                "[-9223372036854775808, 9223372036854775807], Paddle's widest integer type."
            )
    if target is not None:
        return a.astype(np.float64 if a.dtype == object else a.dtype).astype(target)
    if a.dtype == np.float64:
        return a.astype(_dt.default_float().np)
    if a.dtype == np.complex128:
        return a.astype(np.complex64)
    if a.dtype.kind in "iuO" and a.dtype != np.int64:
        return a.astype(np.int64)
    return a


def _flat(xs):
    for x in xs:
        if isinstance(x, list | tuple):
            yield from _flat(x)
        else:
            yield x


def _host(x):
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, list | tuple):
        return [_host(v) for v in x]
    return x


@op("to_tensor", tensors=(), composite=True, method=None)
def to_tensor(
    data: Tensor | np.ndarray | np.generic | complex | Sequence,
    dtype: DTypeLike | None = None,
    place: Place | str | None = None,
    stop_gradient: bool = True,
) -> Tensor:
    """Create a Tensor from Python data, a numpy array or a Tensor."""
    name = None  # a copy of a Tensor keeps its name; a cast copy is named on first read
    dev = to_jax_device(place)
    if isinstance(data, Tensor | jax.Array):
        arr = data._value if isinstance(data, Tensor) else data
        cast = dtype is not None and _dt.to_dtype(dtype) != _dt.to_dtype(arr.dtype)
        if isinstance(data, Tensor) and not cast:
            name = data._name
        if cast or dev is None:  # a copy (with a place, as put below leaves it)
            arr = copy_array(arr, _dt.to_dtype(dtype).np if cast else None)
    else:
        a = infer_numpy_dtype(data, None if dtype is None else _dt.to_dtype(dtype).np)
        arr = to_device(a)
    if dev is not None:
        arr = put(arr, dev)
    if not isinstance(data, Tensor):
        name = f"generated_tensor_{next(_tensor._tensor_names)}"
    return Tensor(arr, stop_gradient=stop_gradient, name=name)


# -- Paddle 3.3's keyword arguments of the creation ops: device, requires_grad, pin_memory --------
def _device(device):
    """A JAX device for Paddle's ``device=`` ("cpu", "gpu:0", a Place), None for the default."""
    if device is None:
        return None
    if isinstance(device, str | Place):
        return to_jax_device(device)
    raise ValueError(f"place only support string which is 'Place' and so on, but got {device!r}")


def created(
    t: Tensor, device=None, requires_grad: bool = False, pin_memory: bool = False
) -> Tensor:
    """A new Tensor on ``device`` (committed there when that is not the default one), with
    ``stop_gradient = not requires_grad``. ``pin_memory=True`` is Paddle's RuntimeError on a
    CPU place; on an accelerator it is not supported here (no page-locked host Tensors)."""
    dev = _device(device)
    if pin_memory:
        target = dev if dev is not None else current_device()
        if target.platform == "cpu":
            raise RuntimeError("(Unavailable) Pinning memory is not supported for Place(cpu)")
        raise NotImplementedError(
            "pin_memory=True: paddle-compat has no page-locked (pinned) host Tensors; create "
            "the Tensor on the device instead."
        )
    if dev is not None and dev != current_device():
        t = Tensor(put(t._value, dev))
    if requires_grad:
        t.stop_gradient = False
    return t


def pack_size(args, kwargs):
    """``prebind`` of Paddle 3.3's size decorator: ``zeros(2, 3)`` means ``zeros([2, 3])`` (ints
    after an int shape are more dimensions; anything else there is Paddle's TypeError)."""
    if len(args) >= 2 and isinstance(args[0], int | np.integer) and not isinstance(args[0], bool):
        return (list(args),), kwargs
    return args, kwargs


def _out_dtype_check(dtype_pos: int, pack: bool = True):
    """``prebind`` of zeros/ones/full: an ``out`` Tensor must have the dtype asked for (the
    default float dtype when none is), Paddle's TypeError otherwise."""

    def prebind(args, kwargs):
        if pack:
            args, kwargs = pack_size(args, kwargs)
        out = kwargs.get("out")
        if isinstance(out, Tensor):
            dtype = kwargs.get("dtype", args[dtype_pos] if len(args) > dtype_pos else None)
            want = _dt.default_float() if dtype is None else _dt.to_dtype(dtype)
            if out.dtype != want:
                raise TypeError(
                    "Required out.dtype == dtype if specifying out, but received "
                    f"{out.dtype} != {want}"
                )
        return args, kwargs

    return prebind


_NEW = dict(tensors=(), method=None, composite=True)
_FULL = dict(tensors=(), namespaces=(), method=None)


@op("_full", **_FULL)
def _full(shape, fill_value, dtype):
    if dtype is None:
        default = _dt.bool_ if isinstance(fill_value, bool) else None
        dtype = _dtype_or_default(None, default)
    else:
        dtype = _dt.to_dtype(dtype).np
    return jnp.full(_shape(shape), fill_value, dtype)


@op(
    "full",
    tensor_modules=("creation", "linalg", "logic"),
    aliases={"size": "shape"},
    prebind=_out_dtype_check(2, pack=False),
    **_NEW,
)
def full(
    shape: int | Sequence[int],
    fill_value: bool | complex | Tensor,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """Tensor of ``shape`` filled with ``fill_value`` (default dtype float32; bool for bool)."""
    return created(_full(shape, fill_value, dtype), device, requires_grad, pin_memory)


@op("_zeros", **_FULL)
def _zeros(shape, dtype, value):
    return jnp.full(_shape(shape), value, _dtype_or_default(dtype))


def _filled(value: int, doc: str):
    def f(
        shape: int | Sequence[int],
        dtype: DTypeLike | None = None,
        name: str | None = None,
        *,
        out: Tensor | None = None,
        device: str | Place | None = None,
        requires_grad: bool = False,
        pin_memory: bool = False,
    ) -> Tensor:
        return created(_zeros(shape, dtype, value), device, requires_grad, pin_memory)

    f.__doc__ = doc
    return f


_SIZE = dict(aliases={"size": "shape"}, **_NEW)
zeros = op(
    "zeros", tensor_modules=("creation", "manipulation"), prebind=_out_dtype_check(1), **_SIZE
)(_filled(0, "Tensor of zeros of ``shape`` (default float dtype)."))
ones = op("ones", prebind=_out_dtype_check(1), **_SIZE)(
    _filled(1, "Tensor of ones of ``shape`` (default float dtype).")
)
empty = op("empty", prebind=pack_size, **_SIZE)(
    _filled(0, "Uninitialized in Paddle; zeros here (XLA has no uninitialized buffers).")
)


def _like_dtype(x, dtype):
    return x.dtype if dtype is None else _dt.to_dtype(dtype).np


@op("_full_like", namespaces=(), method=None, differentiable=False)
def _full_like(x, fill_value, dtype):
    return jnp.full(x.shape, fill_value, _like_dtype(x, dtype))


@op("full_like", method=None, composite=True)
def full_like(
    x: Tensor,
    fill_value: bool | complex,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    device: str | Place | None = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A Tensor of x's shape (and dtype, unless given) filled with ``fill_value``."""
    return created(_full_like(x, fill_value, dtype), device, requires_grad, pin_memory)


def _like(value, doc: str):
    def f(
        x: Tensor,
        dtype: DTypeLike | None = None,
        name: str | None = None,
        *,
        device: str | Place | None = None,
        requires_grad: bool = False,
        pin_memory: bool = False,
    ) -> Tensor:
        return created(_full_like(x, value, dtype), device, requires_grad, pin_memory)

    f.__doc__ = doc
    return f


zeros_like = op("zeros_like", method=None, composite=True)(
    _like(0, "Zeros of x's shape (and dtype, unless given).")
)
ones_like = op("ones_like", method=None, composite=True)(
    _like(1, "Ones of x's shape (and dtype, unless given).")
)
empty_like = op("empty_like", method=None, composite=True)(
    _like(0, "Uninitialized in Paddle; zeros here, of x's shape (and dtype, unless given).")
)


@op("_arange", **_FULL)
def _arange(start, end, step, dtype):
    if end is None:
        start, end = 0, start
    if dtype is None:
        ints = all(isinstance(v, int | np.integer) for v in (start, end, step))
        dtype = np.int64 if ints else _dt.default_float().np
    else:
        dtype = _dt.to_dtype(dtype).np
    if step == 0:
        raise ValueError("(InvalidArgument) The step of arange must not be 0.")
    return jnp.arange(start, end, step, dtype=dtype)


@op("arange", **_NEW)
def arange(
    start: float = 0,
    end: float | None = None,
    step: float = 1,
    dtype: DTypeLike | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
    name: str | None = None,
) -> Tensor:
    """[start, end) by ``step``: int64 when start/end/step are all ints, else the default
    float dtype."""
    return created(_arange(start, end, step, dtype), device, requires_grad, pin_memory)


@op("_linspace", **_FULL)
def _linspace(start, stop, num, dtype):
    dt = _dtype_or_default(dtype)
    return jnp.linspace(start, stop, int(num), dtype=np.float64).astype(dt)


@op("linspace", aliases={"steps": "num"}, **_NEW)
def linspace(
    start: float,
    stop: float,
    num: int,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` (both included)."""
    return created(_linspace(start, stop, num, dtype), device, requires_grad)


@op("logspace", tensors=(), method=None)
def logspace(
    start: float,
    stop: float,
    num: int,
    base: float = 10.0,
    dtype: DTypeLike | None = None,
    name: str | None = None,
) -> jax.Array:
    dt = _dtype_or_default(dtype)
    return jnp.logspace(start, stop, int(num), base=base, dtype=np.float64).astype(dt)


@op("_eye", **_FULL)
def _eye(num_rows, num_columns, dtype):
    return jnp.eye(
        int(num_rows),
        None if num_columns is None else int(num_columns),
        dtype=_dtype_or_default(dtype),
    )


@op("eye", aliases={"n": "num_rows", "m": "num_columns"}, **_NEW)
def eye(
    num_rows: int,
    num_columns: int | None = None,
    dtype: DTypeLike | None = None,
    name: str | None = None,
    *,
    out: Tensor | None = None,
    device: str | Place | None = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """A 2-D Tensor with ones on the diagonal."""
    return created(_eye(num_rows, num_columns, dtype), device, requires_grad, pin_memory)


@op("_assign", namespaces=(), method=None)
def _assign(x: jax.Array) -> jax.Array:
    return jnp.array(x)


@op(
    "assign",
    composite=True,
    tensor_modules=("attribute", "creation", "search"),
    method=None,
    aliases=NO_TORCH_KEYWORDS,
)
def assign(x: Tensor, output: Tensor | None = None) -> Tensor:
    """A copy of ``x`` (gradient flows through). A non-Tensor ``x`` keeps numpy's dtype
    (Python floats are float64) and a scalar becomes shape [1]; ``output`` takes the copy's
    value, shape, dtype and history and is returned."""
    if not isinstance(x, Tensor):
        a = np.array(x)
        x = Tensor(a.reshape(1) if a.ndim == 0 else a)
    out = _assign(x)
    return out if output is None else rebind_inplace(output, out)


@op("clone", composite=True, method=None, aliases=NO_TORCH_KEYWORDS)
def clone(x: Tensor, name: str | None = None) -> Tensor:
    """A copy of ``x``; gradients flow back to ``x``."""
    return _assign(x)


@op("tril", inplace="tril_", aliases={"input": "x"})
def tril(
    x: jax.Array, diagonal: int = 0, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.tril(x, diagonal)


@op("triu", inplace="triu_")
def triu(
    x: jax.Array, diagonal: int = 0, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    return jnp.triu(x, diagonal)


@op("diag", aliases={"input": "input"})  # Paddle 3.3.1: no input= alias
def diag(
    x: jax.Array, offset: int = 0, padding_value: float = 0, name: str | None = None
) -> jax.Array:
    if x.ndim == 1 and padding_value != 0:  # the padding selected off the diagonal (no
        n = x.shape[0] + abs(offset)  # arithmetic: adding and taking it back rounded x)
        on_diag = np.eye(n, k=offset, dtype=bool)
        return jnp.where(on_diag, jnp.diag(x, offset), jnp.full((), padding_value, x.dtype))
    return jnp.diag(x, offset)


@op("_diag_embed", namespaces=(), method=None, differentiable=False)
def _diag_embed(x: jax.Array, offset: int, dim1: int, dim2: int) -> jax.Array:
    n = x.shape[-1]
    m = n + abs(offset)
    i = jnp.arange(n)
    out = jnp.zeros(x.shape[:-1] + (m, m), x.dtype)
    out = out.at[..., i + max(-offset, 0), i + max(offset, 0)].set(x)
    return jnp.moveaxis(out, (-2, -1), (dim1, dim2))


@op("diag_embed", composite=True, namespaces=("paddle", "paddle.nn.functional"))
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: A002
    """Tensor whose 2-D planes over (dim1, dim2) hold the last axis of ``input`` on their
    ``offset`` diagonal (a list or array input is converted first: Python floats give float64).
    As in Paddle 3.3.1, int32/int64/float32/float64 only, and no gradient (the result has
    stop_gradient=True)."""
    if not isinstance(input, Tensor):
        input = Tensor(to_device(np.asarray(input)))  # noqa: A001
    for pos, v in ((2, offset), (3, dim1), (4, dim2)):
        if not isinstance(v, int | np.integer) or isinstance(v, bool):
            raise TypeError(
                f"(InvalidType) diag_embed(): argument (position {pos}) must be int, but got "
                f"{type(v).__name__}"
            )
    from .._core.registry import check_dtype

    check_dtype(input, ("int32", "int64", "float32", "float64"), "diag_embed", arg="input")
    r = len(input.shape) + 1
    for name, d in (("Dim1", dim1), ("Dim2", dim2)):
        if not -r <= d < r:
            raise IndexError(
                f"(OutOfRange) {name} is out of range (expected to be in range of [{-r}, "
                f"{r - 1}], but got {d})."
            )
    d1, d2 = dim1 % r, dim2 % r
    if d1 == d2:
        raise ValueError(
            f"(InvalidArgument) diagonal dimensions should not be identical {dim1} vs {dim2}."
        )
    return _diag_embed(input, int(offset), d1, d2)
