"""More manipulation and creation: flip/roll/rot90, diagonal, unfold, meshgrid, crop, tensordot,
numel, narrow, ravel, scatter_add/scatter_reduce, block_diag, as_strided,
fill_/zero_/fill_diagonal_/fill_diagonal_tensor, tril/triu_indices, diagflat, range,
split_with_sizes."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core import dtype as _dt
from .._core import runtime_checks, views
from .._core.dtype import DTypeLike
from .._core.place import Place, put, to_jax_device
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor
from .manipulation import _same_dtypes, _sections, _split_at, axis_of, int_list, tensor_list
from .manipulation_gather import put_along_axis as _put_along_axis


# -- reorder ----------------------------------------------------------------------------------
def _flip_axes(axis, nd):
    axes = int_list(axis)
    for a in axes:
        if not -nd <= a < nd:
            raise ValueError(f"The axis of flip ({a}) should be in range [{-nd}, {nd}).")
    return tuple(a % nd for a in axes)


@op("flip", extra_names=("reverse",), aliases=NO_TORCH_KEYWORDS)
def flip(x: jax.Array, axis: int | Sequence[int], name: str | None = None) -> jax.Array:
    """Reverse the order of elements along ``axis``."""
    return jnp.flip(x, _flip_axes(axis, x.ndim)) if x.ndim else x


@op("reverse", namespaces=())
def reverse(x, axis, name=None):
    """Tensor.reverse: same as flip."""
    return flip.fn(x, axis)


@op("roll")
def roll(
    x: jax.Array,
    shifts: int | Sequence[int],
    axis: int | Sequence[int] | None = None,
    name: str | None = None,
) -> jax.Array:
    """Shift elements circularly (over the flattened tensor when ``axis`` is None)."""
    sh = int_list(shifts)
    if axis is None:
        return jnp.roll(x.reshape(-1), builtins.sum(sh)).reshape(x.shape)
    axes = int_list(axis)
    if len(axes) != len(sh):
        raise ValueError(
            "When dims.size() != 0, dims.size() should be equal to "
            f"shifts.size(). But received dims.size() = {len(axes)}, shifts.size() = {len(sh)}"
        )
    return jnp.roll(x, sh, [axis_of(a, x.ndim) for a in axes])


@op("rot90", aliases=NO_TORCH_KEYWORDS)
def rot90(
    x: jax.Array,
    k: int = 1,
    axes: Sequence[int] = [0, 1],  # noqa: B006 (Paddle's default, never mutated)
    name: str | None = None,
) -> jax.Array:
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    a0, a1 = int_list(axes)
    nd = x.ndim
    if len(int_list(axes)) != 2:
        raise ValueError("expected total rotation axes == 2")
    if nd < 2:
        raise ValueError(f"expected total dims >= 2, but got total dims = {nd}")
    if a0 % nd == a1 % nd:
        raise ValueError(
            f"expected rotation axes to be different, but got axis0 = {a0}, and axis1 = {a1}"
        )
    if not (-nd <= a0 < nd and -nd <= a1 < nd):
        raise ValueError(f"Axis out of range: axes {(a0, a1)} for tensor of rank {nd}")
    return jnp.rot90(x, k, (a0, a1))


@op(
    "diagonal",
    tensor_modules=("linalg",),
    namespaces=("paddle", "paddle.linalg"),
    view=lambda vals, x: views.diagonal_view(x.ndim, vals["offset"], vals["axis1"], vals["axis2"]),
)
def diagonal(
    x: jax.Array, offset: int = 0, axis1: int = 0, axis2: int = 1, name: str | None = None
) -> jax.Array:
    """The diagonal of the (axis1, axis2) planes, appended as the last dim."""
    a1, a2 = axis_of(axis1, x.ndim), axis_of(axis2, x.ndim)
    if a1 == a2:
        raise ValueError(f"The dimensions should not be identical {a1} vs {a2}.")
    return jnp.diagonal(x, offset, a1, a2)


@op(
    "tensor_unfold",
    tensor_modules=(),
    extra_names=("unfold",),
    method="unfold",
    aliases=NO_TORCH_KEYWORDS,
    view=lambda vals, x: views.unfold_view(
        axis_of(vals["axis"], x.ndim), vals["size"], vals["step"]
    ),
)
def tensor_unfold(
    x: jax.Array, axis: int, size: int, step: int, name: str | None = None
) -> jax.Array:
    """Windows of ``size`` with stride ``step`` along ``axis``, appended as the last dim."""
    ax = axis_of(axis, x.ndim)
    n = x.shape[ax]
    if size > n or size < 0 or step <= 0:
        raise ValueError(f"unfold: size ({size}) must be in [0, {n}] and step ({step}) positive.")
    count = (n - size) // step + 1
    idx = np.arange(count)[:, None] * step + np.arange(size)[None, :]
    y = jnp.take(x, jnp.asarray(idx.reshape(-1)), axis=ax)
    y = y.reshape(x.shape[:ax] + (count, size) + x.shape[ax + 1 :])
    return jnp.moveaxis(y, ax + 1, -1)


# -- grids, crops, contractions ---------------------------------------------------------------
@op("meshgrid", tensor_modules=("creation",), tensors=("args",), method=None)
def meshgrid(*args: jax.Array | Sequence[jax.Array], indexing: str = "ij") -> list[jax.Array]:
    """Coordinate grids from 1-D (or 0-d) inputs (``indexing='ij'`` by default)."""
    xs = list(args[0]) if len(args) == 1 and isinstance(args[0], list | tuple) else list(args)
    tensor_list(xs, "meshgrid", "inputs")
    _same_dtypes(xs, "meshgrid")
    return list(jnp.meshgrid(*[a.reshape(-1) for a in xs], indexing=indexing))


@op("crop", method=None, aliases=NO_TORCH_KEYWORDS)
def crop(
    x: jax.Array,
    shape: Sequence[int] | None = None,
    offsets: Sequence[int] | None = None,
    name: str | None = None,
) -> jax.Array:
    """Slice a block of ``shape`` (-1: up to the end) starting at ``offsets``."""
    nd = x.ndim
    offs = [0] * nd if offsets is None else int_list(offsets)
    shp = list(x.shape) if shape is None else int_list(shape)
    out = []
    for i in builtins.range(nd):
        s = x.shape[i] - offs[i] if shp[i] == -1 else shp[i]
        if offs[i] + s > x.shape[i]:
            raise ValueError(
                f"The sum of the {i}th elements of offsets ({offs[i]}) and "
                f"shape ({s}) of Op(crop_tensor) should be less than or equal to the size of "
                f"{i}th dimension of the input."
            )
        out.append(s)
    return lax.slice(x, offs, [o + s for o, s in zip(offs, out)])


def _td_axes(axes, nx):
    if isinstance(axes, int | np.integer):
        n = int(axes)
        return list(builtins.range(nx - n, nx)), list(builtins.range(n))
    axes = list(axes)
    if axes and all(isinstance(a, int | np.integer) for a in axes):
        return [int(a) for a in axes], [int(a) for a in axes]
    ax = [int_list(a) for a in axes]
    if len(ax) == 1:
        return ax[0], ax[0]
    a, b = ax[0], ax[1]
    if len(b) < len(a):
        b = b + a[len(b) :]
    elif len(a) < len(b):
        a = a + b[len(a) :]
    return a, b


@op("tensordot", tensors=("x", "y"), aliases=NO_TORCH_KEYWORDS)
def tensordot(
    x: jax.Array,
    y: jax.Array,
    axes: int | Sequence[int] | Sequence[Sequence[int]] = 2,
    name: str | None = None,
) -> jax.Array:
    """Sum products over the paired ``axes`` of x and y."""
    if x.dtype != y.dtype:
        raise ValueError(
            f"tensordot: x ({_dt.to_dtype(x.dtype).name}) and y "
            f"({_dt.to_dtype(y.dtype).name}) must have the same dtype."
        )
    a, b = _td_axes(axes, x.ndim)
    return jnp.tensordot(x, y, (a, b))


@op(
    "numel",
    tensor_modules=("stat",),
    differentiable=False,
    composite=True,
    aliases=NO_TORCH_KEYWORDS,
)
def numel(x: Tensor, name: str | None = None) -> Tensor:
    """Number of elements as an int64 0-d Tensor (known while tracing, like shapes)."""
    from .attribute import known_tensor

    dims = tuple(x._value.shape)
    n = np.prod(dims, dtype=np.int64) if all(isinstance(d, int) for d in dims) else None
    if n is None:  # a symbolic dim (jit.save's dynamic dims): computed in the program
        return Tensor(jnp.asarray(jnp.prod(jnp.asarray(dims, jnp.int64)), jnp.int64))
    return known_tensor(int(n), jnp.int64)


def _narrow_view(vals, x):
    shape = x._val.shape
    ax = axis_of(vals["dim"], len(shape))
    s = vals["start"] + shape[ax] if vals["start"] < 0 else vals["start"]
    return views.index_view(shape, (slice(None),) * ax + (slice(s, s + vals["length"]),))


@op("narrow", view=_narrow_view)
def narrow(input: jax.Array, dim: int, start: int, length: int) -> jax.Array:
    """``length`` elements of dim ``dim`` from ``start`` (negative start counts back)."""
    x = input
    ax = axis_of(dim, x.ndim)
    n = x.shape[ax]
    s = start + n if start < 0 else start
    if not 0 <= s <= n or length < 0 or s + length > n:
        raise ValueError(
            f"narrow: start ({start}) + length ({length}) exceeds dim {ax} of size {n}."
        )
    return lax.slice_in_dim(x, s, s + length, axis=ax)


@op("ravel")
def ravel(input: jax.Array) -> jax.Array:
    """Flatten to 1-D."""
    return input.reshape(-1)


_SCATTER_REDUCE = {"sum": "add", "prod": "mul", "mean": "mean", "amin": "amin", "amax": "amax"}


def _scatter(x, dim, index, src, reduce, include_self):
    if index.ndim != x.ndim:
        raise ValueError(
            f"(InvalidArgument) scatter: index ({index.ndim}-D) must have as many "
            f"dims as input ({x.ndim}-D)."
        )
    src = jnp.asarray(src)
    if src.ndim:
        src = src[tuple(slice(0, s) for s in index.shape)]
    return _put_along_axis.fn(
        x, index, src, dim, reduce=reduce, include_self=include_self, broadcast=False
    )


def _check_scatter_dim(v):
    """Paddle's Python check rejects an index >= the dim size (RuntimeError); its kernel
    rejects one below -size (IndexError)."""
    index, x, dim = v["index"], v["input"], v["dim"]
    big = np.iinfo(np.int64).max
    shape = list(x.shape)
    size = shape[dim] if isinstance(dim, int) and -len(shape) <= dim < len(shape) else "?"
    runtime_checks.check_index(
        index,
        x,
        dim,
        RuntimeError,
        f"one of element of indices is out of bounds for dimension {dim} with size {{hi}}",
        low_message=None,
        lo=-big,
    )
    runtime_checks.check_index(
        index,
        x,
        dim,
        IndexError,
        "(OutOfRange) Variable value (index) of scatter cpu kernel, expected >= {lo} and "
        f"< {size}, but got {{bad}}.Please check the input value.",
        hi=big,
    )


@op(
    "scatter_add",
    tensors=("input", "index", "src"),
    aliases={"input": "input", "x": "input"},
    inplace="scatter_add_",
    check=_check_scatter_dim,
)
def scatter_add(input: jax.Array, dim: int, index: jax.Array, src: jax.Array) -> jax.Array:  # noqa: A002
    """Add ``src`` into ``input`` at ``index`` along ``dim`` (duplicates accumulate)."""
    return _scatter(input, dim, index, src, "add", True)


@op(
    "scatter_reduce",
    tensors=("input", "index", "src"),
    aliases={"input": "input", "x": "input"},
    check=_check_scatter_dim,
)
def scatter_reduce(
    input: jax.Array,
    dim: int,
    index: jax.Array,
    src: jax.Array,
    reduce: str,  # noqa: A002
    *,
    include_self: bool = True,
) -> jax.Array:
    """Reduce ``src`` into ``input`` at ``index`` along ``dim`` ('sum', 'prod', 'mean', 'amin',
    'amax')."""
    if reduce not in _SCATTER_REDUCE:
        raise ValueError(
            f"(InvalidArgument) scatter_reduce: reduce must be one of "
            f"{', '.join(_SCATTER_REDUCE)}, but got {reduce!r}."
        )
    return _scatter(input, dim, index, src, _SCATTER_REDUCE[reduce], include_self)


@op("block_diag", tensors=("inputs",))
def block_diag(inputs: Sequence[jax.Array], name: str | None = None) -> jax.Array:
    """Block-diagonal matrix from 0-D, 1-D and 2-D Tensors."""
    mats = []
    for a in inputs:
        if a.ndim > 2:
            raise ValueError(
                f"(InvalidArgument) block_diag: inputs must have at most 2 dims, "
                f"but got shape {list(a.shape)}."
            )
        mats.append(a.reshape(1, -1) if a.ndim < 2 else a)
    dt = mats[0].dtype
    for m in mats[1:]:
        dt = jnp.promote_types(dt, m.dtype)
    rows = builtins.sum(m.shape[0] for m in mats)
    cols = builtins.sum(m.shape[1] for m in mats)
    out = jnp.zeros((rows, cols), dt)
    r = c = 0
    for m in mats:
        out = out.at[r : r + m.shape[0], c : c + m.shape[1]].set(m.astype(dt))
        r, c = r + m.shape[0], c + m.shape[1]
    return out


@op(
    "as_strided",
    aliases=NO_TORCH_KEYWORDS,
    view=lambda vals, x: views.strided_view(
        int_list(vals["shape"]), int_list(vals["stride"]), vals["offset"], x.dtype.itemsize
    ),
)
def as_strided(
    x: jax.Array,
    shape: Sequence[int],
    stride: Sequence[int],
    offset: int = 0,
    name: str | None = None,
) -> jax.Array:
    """A Tensor of ``shape`` reading x's (contiguous) elements at sum(i * stride), starting
    ``offset`` bytes in (Paddle measures the offset in bytes, strides in elements)."""
    shape, stride = int_list(shape), int_list(stride)
    size = np.dtype(x.dtype).itemsize
    if offset % size:
        raise ValueError(
            f"(InvalidArgument) as_strided: offset ({offset} bytes) must be a "
            f"multiple of the element size ({size} bytes)."
        )
    offset //= size
    if len(shape) != len(stride):
        raise ValueError(
            f"(InvalidArgument) as_strided: shape {shape} and stride {stride} "
            "must have the same length."
        )
    idx = np.full(shape, int(offset), np.int64)
    for d, (s, st) in enumerate(zip(shape, stride)):
        view = [1] * len(shape)
        view[d] = s
        idx = idx + (np.arange(s, dtype=np.int64) * st).reshape(view)
    if idx.size and (idx.max() >= x.size or idx.min() < 0):
        raise ValueError(
            f"(InvalidArgument) as_strided: the view reads past the {x.size} elements of x."
        )
    return x.reshape(-1)[jnp.asarray(idx)]


# -- in-place fills (Tensor methods only) -------------------------------------------------------
@op("_fill", tensor_inplace=True, namespaces=(), method=None, inplace="fill_")
def _fill(x, value):
    return jnp.full(x.shape, value, x.dtype)


@op("_zero", tensor_inplace=True, namespaces=(), method=None, inplace="zero_")
def _zero(x):
    return jnp.zeros(x.shape, x.dtype)


@op("_fill_diagonal", tensor_inplace=True, namespaces=(), method=None, inplace="fill_diagonal_")
def _fill_diagonal(x, value, offset=0, wrap=False, name=None):
    if x.ndim < 2:
        raise ValueError(
            f"(InvalidArgument) fill_diagonal_: x must have at least 2 dims, but "
            f"got shape {list(x.shape)}."
        )
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise ValueError(
            "(InvalidArgument) fill_diagonal_: all dims of x must be equal when "
            "x has more than 2 dims."
        )
    if x.ndim == 2:
        rows, cols = x.shape
        limit = rows * cols if wrap else builtins.min(rows, cols) * cols
        flat = np.arange(0, limit, cols + 1, dtype=np.int64) + offset
        r, c = np.divmod(np.arange(0, limit, cols + 1, dtype=np.int64), cols)
        keep = (c + offset < cols) & (c + offset >= 0) & (flat < rows * cols)
        idx = (r[keep], c[keep] + offset)
    else:
        i = np.arange(x.shape[0])
        idx = (i,) * x.ndim
    return x.at[idx].set(jnp.asarray(value).astype(x.dtype))


def _diag_scatter(x, y, offset, dim1, dim2):
    a1, a2 = axis_of(dim1, x.ndim), axis_of(dim2, x.ndim)
    if a1 == a2:
        raise ValueError("(InvalidArgument) fill_diagonal_tensor: dim1 and dim2 must differ.")
    xt = jnp.moveaxis(x, (a1, a2), (-2, -1))
    n1, n2 = xt.shape[-2:]
    r0, c0 = (0, offset) if offset >= 0 else (-offset, 0)
    k = builtins.max(0, builtins.min(n1 - r0, n2 - c0))
    rows, cols = np.arange(k) + r0, np.arange(k) + c0
    y = jnp.asarray(y).astype(x.dtype)
    want = (*xt.shape[:-2], k)
    if tuple(y.shape) != want:  # Paddle asserts this
        raise AssertionError(
            f"fill_diagonal_tensor: y must have shape {list(want)}, but got {list(y.shape)}."
        )
    xt = xt.at[..., rows, cols].set(y)
    return jnp.moveaxis(xt, (-2, -1), (a1, a2))


@op(
    "fill_diagonal_tensor",
    tensor_inplace=True,
    tensors=("x", "y"),
    namespaces=(),
    inplace="fill_diagonal_tensor_",
)
def fill_diagonal_tensor(x, y, offset=0, dim1=0, dim2=1, name=None):
    """Write ``y`` onto the diagonal of x over dims (dim1, dim2)."""
    return _diag_scatter(x, y, offset, dim1, dim2)


# -- creation -----------------------------------------------------------------------------------
def _tri_indices(row, col, offset, dtype, lower):
    dt = _dt.to_dtype(dtype)
    if dt not in (_dt.int32, _dt.int64):
        raise TypeError(f"(InvalidType) dtype must be int32 or int64, but received {dt.name}.")
    r, c = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return jnp.asarray(np.stack([r, c]).astype(dt.np).reshape(2, -1))


@op("tril_indices", tensor_modules=("creation",), tensors=(), method=None, differentiable=False)
def tril_indices(row: int, col: int, offset: int = 0, dtype: DTypeLike = "int64") -> jax.Array:
    """[2, N] row/column indices of the lower triangle of a row x col matrix."""
    if row < 0 or col < 0:
        raise ValueError("(InvalidArgument) tril_indices: row and col must be non-negative.")
    return _tri_indices(row, col, offset, dtype, True)


@op("triu_indices", tensor_modules=("creation",), tensors=(), method=None, differentiable=False)
def triu_indices(
    row: int, col: int | None = None, offset: int = 0, dtype: DTypeLike = "int64"
) -> jax.Array:
    """[2, N] row/column indices of the upper triangle of a row x col matrix."""
    col = row if col is None else col
    if row < 0 or col < 0:
        raise ValueError("(InvalidArgument) triu_indices: row and col must be non-negative.")
    return _tri_indices(row, col, offset, dtype, False)


@op("diagflat", tensor_modules=("creation",), method=True, aliases=NO_TORCH_KEYWORDS)
def diagflat(x: jax.Array, offset: int = 0, name: str | None = None) -> jax.Array:
    """2-D Tensor with the flattened x on diagonal ``offset``."""
    return jnp.diag(x.reshape(-1), k=offset)


@op("_range", tensors=(), method=None, namespaces=(), differentiable=False)
def _range(start, end, step, dtype):
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("(InvalidArgument) range: step must not be 0.")
    dt = _dt.default_float() if dtype is None else _dt.to_dtype(dtype)
    n = int(np.floor((end - start) / step)) + 1
    n = builtins.max(n, 0)
    return (jnp.arange(n, dtype=jnp.float64) * step + start).astype(dt.np)


@op("range", tensor_modules=("creation",), tensors=(), method=None, composite=True)
def range(
    start: float = 0,
    end: float | None = None,
    step: float = 1,  # noqa: A001
    dtype: DTypeLike | None = None,
    *,
    out: Tensor | None = None,
    device: Place | str | None = None,
    requires_grad: bool = False,
    name: str | None = None,
) -> Tensor:
    """Deprecated Paddle API: values from start to end *inclusive*, step apart (default dtype:
    the default float), on ``device``; ``requires_grad=True`` makes it a gradient leaf."""
    if device is not None and not isinstance(device, Place | str):
        raise ValueError(f"place only support string which is 'Place' and so on, but got {device}")
    t = _range(start, end, step, dtype)
    dev = to_jax_device(device)
    if dev is not None:
        t = Tensor(put(t._value, dev))
    t.stop_gradient = not requires_grad
    return t


@op("split_with_sizes", namespaces=())
def split_with_sizes(self, split_sizes, dim=0):
    """Tensor.split_with_sizes: split along ``dim`` into parts of the given sizes."""
    ax = axis_of(dim, self.ndim)
    return _split_at(self, _sections(self.shape[ax], list(split_sizes)), ax)
