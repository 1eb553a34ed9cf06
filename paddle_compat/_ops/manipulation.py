"""Shape manipulation: cast, reshape/view, transpose/moveaxis, squeeze/unsqueeze/flatten,
concat/stack/split, expand/broadcast/tile.

flip/roll/rot90, diagonal, unfold, meshgrid, crop, tensordot, numel and narrow live in
``manip_extra.py``; gather/scatter-style ops in ``manipulation_gather.py``; ``x[i]`` in
``indexing.py``.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core import dtype as _dt
from .._core import views
from .._core.dtype import DTypeLike
from .._core.registry import NO_TORCH_KEYWORDS, op
from .._core.tensor import Tensor


# -- helpers ----------------------------------------------------------------------------------
def axis_of(axis, ndim: int, what: str = "axis", extra: int = 0) -> int:
    """One Paddle axis (negative counts from the end) -> a non-negative int; ValueError when
    out of range. ``extra`` widens the range (e.g. 1 for stack/unsqueeze)."""
    n = ndim + extra
    lo, hi = -builtins.max(n, 1), builtins.max(n, 1)
    if not lo <= axis < hi:
        raise ValueError(f"The {what} is expected to be in range of [{lo}, {hi}), but got {axis}.")
    return axis % hi if n else 0


def int_list(v) -> list[int]:
    """A static shape-like argument (int, list/tuple with ints, numpy) -> list of ints; a
    Tensor element arrives as its value (a one-element 1-D Tensor as a one-element tuple)."""
    if isinstance(v, int | np.integer):
        return [int(v)]
    if isinstance(v, np.ndarray):
        return [int(a) for a in v.reshape(-1)]
    return [_one_int(a) for a in v]


def _one_int(a):
    if isinstance(a, tuple | list) and len(a) == 1:  # a one-element 1-D Tensor's value
        a = a[0]
    return a if jax.export.is_symbolic_dim(a) else int(a)  # symbolic: jax.export


def axis_int(axis) -> int:
    """A static axis: an int, a float, or a Tensor's value (its first element, as Paddle)."""
    while isinstance(axis, tuple | list) and axis:
        axis = axis[0]
    return int(axis)


def check_shape_arg(shape, what: str, pos: int = 2) -> None:
    """Paddle's type checks of a shape argument: a list/tuple of ints or Tensors, or a Tensor
    (ValueError for another type, TypeError for another element type)."""
    if isinstance(shape, Tensor | np.ndarray):  # ints after x arrive packed (prebind)
        return
    if not isinstance(shape, list | tuple):
        raise ValueError(
            f"shape must be an instance of `list`, `tuple` `Variable`, got '{type(shape)}.'"
        )
    for i, a in enumerate(shape):
        if isinstance(a, bool) or not (
            isinstance(a, int | np.integer | Tensor) or jax.export.is_symbolic_dim(a)
        ):
            kind = type(a).__name__
            kind = f"numpy.{kind}" if type(a).__module__ == "numpy" else kind
            raise TypeError(
                f"(InvalidType) {what}(): argument (position {pos}) must be list of int, but "
                f"got {kind} at pos {i}"
            )


def _int_or_0d(a) -> bool:
    return isinstance(a, Tensor) and a.ndim == 0 or isinstance(a, int | np.integer)


def pack_ints(param: str):
    """``prebind`` of Paddle's reshape/expand/view decorators: ``f(x, 2, 3)`` (ints or 0-D
    Tensors after x) means ``f(x, param=[2, 3])``."""

    def prebind(args, kwargs):
        if len(args) >= 2 and all(_int_or_0d(a) for a in args[1:]):
            return args[:1], {**kwargs, param: list(args[1:])}
        return args, kwargs

    return prebind


def pack_varargs(param: str):
    """``prebind`` of Paddle's VariableArgsDecorator (permute, repeat): an int after x starts
    ``*param`` varargs."""

    def prebind(args, kwargs):
        if len(args) >= 2 and isinstance(args[1], int):
            return args[:1], {**kwargs, param: list(args[1:])}
        return args, kwargs

    return prebind


def dims_to_perm(args, kwargs):
    """``prebind`` of Paddle's transpose decorator: ``transpose(x, 0, 1)`` or
    ``dim0=``/``dim1=`` (``axis0=``/``axis1=``) swap two dims."""
    d0 = kwargs.pop("dim0", kwargs.pop("axis0", None))
    d1 = kwargs.pop("dim1", kwargs.pop("axis1", None))
    if d0 is None and len(args) > 1 and isinstance(args[1], int):
        d0 = args[1]
    if d1 is None and len(args) > 2 and isinstance(args[2], int):
        d1 = args[2]
    if d0 is not None and d1 is not None:
        x = kwargs.pop("x", None) if not args else args[0]
        perm = list(range(x.ndim))
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return (x,), {**kwargs, "perm": perm}
    return args, kwargs


def tensor_list(x, what, arg="x"):
    """A list/tuple of arrays (Paddle refuses a single Tensor or an empty list)."""
    if not isinstance(x, list | tuple):
        raise ValueError(
            f"{what}(): argument '{arg}' (position 0) must be list of Tensors, but got Tensor"
        )
    if not x:
        raise ValueError(
            f"{what}(): argument '{arg}' (position 0) must be list of Tensors, but got empty list"
        )
    return list(x)


def _same_dtypes(xs, what):
    d0 = xs[0].dtype
    for i, a in enumerate(xs[1:], 1):
        if a.dtype != d0:
            raise ValueError(
                f"The data_type of input tensor in list isn't consistent, "
                f"the first tensor is {_dt.to_dtype(d0).name}, but {i}th tensor is "
                f"{_dt.to_dtype(a.dtype).name}. ({what})"
            )


# -- dtype ------------------------------------------------------------------------------------
@op(
    "cast",
    tensor_modules=("linalg", "manipulation", "math", "stat"),
    inplace="cast_",
    aliases=NO_TORCH_KEYWORDS,
)
def cast(x: jax.Array, dtype: DTypeLike) -> jax.Array:
    """Convert ``x`` to ``dtype`` (float -> int truncates toward zero)."""
    return x.astype(_dt.to_dtype(dtype).np)


@op("astype", namespaces=())
def astype(self, dtype):
    """Tensor.astype: same as ``paddle.cast``."""
    return self.astype(_dt.to_dtype(dtype).np)


# -- reshape ----------------------------------------------------------------------------------
def infer_shape(in_shape, shape, what="reshape"):
    """Paddle reshape rules: 0 copies the input dim at that position, one -1 is inferred."""
    shape = int_list(shape)
    total = math.prod(in_shape)  # not np.prod: dims may be symbolic (jax.export)
    out, unk = [], None
    for i, s in enumerate(shape):
        if s == -1:
            if unk is not None:
                raise ValueError(
                    "Only one dimension value of 'shape' in ReshapeOp can be "
                    f"-1. But received shape = {shape}, shape[{i}] is also -1."
                )
            unk = i
            out.append(1)
        elif s == 0:
            if i >= len(in_shape):
                raise ValueError(
                    f"The index of 0 in `shape` must be less than the input "
                    f"tensor X's dimensions. But received shape = {shape}, X's shape = "
                    f"{list(in_shape)}."
                )
            out.append(in_shape[i])
        elif s < 0:
            raise ValueError(
                f"Each dimension value of 'shape' in ReshapeOp must not be "
                f"negative except one unknown dimension. But received shape = {shape}."
            )
        else:
            out.append(s)
    known = math.prod(out)
    if unk is not None:
        if known == 0 or total % known:
            if known == 0 and total == 0:  # Paddle keeps the input dim at the -1 position
                out[unk] = in_shape[unk] if unk < len(in_shape) else 0
                return tuple(out)
            raise ValueError(
                "The 'shape' attribute in ReshapeOp is invalid. The input "
                "tensor X'size must be divisible by known capacity of 'shape'. But received "
                f"X's shape = {list(in_shape)}, 'shape' is {shape}, known capacity of 'shape' "
                f"is {known}."
            )
        out[unk] = total // known
    elif known != total:
        raise ValueError(
            "The 'shape' in ReshapeOp is invalid. The input tensor X'size "
            f"must be equal to the capacity of 'shape'. But received X's shape = "
            f"{list(in_shape)}, X's size = {total}, 'shape' is {shape}, the capacity of "
            f"'shape' is {known}."
        )
    return tuple(out)


def _check_reshape(vals):
    check_shape_arg(vals["shape"], "reshape")


@op(
    "reshape",
    tensor_modules=("einsum", "manipulation"),
    inplace="reshape_",
    check=_check_reshape,
    prebind=pack_ints("shape"),
    view=lambda vals, x: views.RESHAPE_SAME,
)
def reshape(x: jax.Array, shape: Sequence[int], name: str | None = None) -> jax.Array:
    """New shape with the same data; 0 keeps the input dim, -1 is inferred."""
    return jnp.reshape(x, infer_shape(x.shape, shape))


def _is_dtype(s) -> bool:
    return isinstance(s, str | _dt.DType | type | np.dtype)


def _check_view(vals):
    """Paddle's view(dtype) errors for an itemsize change (the strides are checked by
    views.dtype_view, which knows them)."""
    s, x = vals["shape_or_dtype"], vals["x"]
    if not _is_dtype(s) or not isinstance(x, Tensor):
        return
    src, dst = x.dtype, _dt.to_dtype(s)
    a, b = src.np.itemsize, dst.np.itemsize
    if a == b:
        return
    shape = x._val.shape
    if not shape:
        raise ValueError(
            f"(InvalidArgument) input.strides[-1] must be 1 to view {src.name} as {dst.name}, "
            "but got 0"
        )
    if a < b and shape[-1] % (b // a):
        raise ValueError(
            f"(InvalidArgument) input.shape[{len(shape) - 1}]({shape[-1]}) must be multiple of "
            f"{b // a} to view {src.name} as {dst.name}"
        )


def _view_spec(vals, x):
    s = vals["shape_or_dtype"]
    return views.dtype_view(x, s) if _is_dtype(s) else views.STRICT


@op(
    "view",
    aliases={"size": "shape_or_dtype", "dtype": "shape_or_dtype", **NO_TORCH_KEYWORDS},
    prebind=pack_ints("shape_or_dtype"),
    check=_check_view,
    view=_view_spec,
)
def view(
    x: jax.Array, shape_or_dtype: Sequence[int] | DTypeLike, name: str | None = None
) -> jax.Array:
    """Reshape (shape) or reinterpret the bytes (dtype) of ``x`` (a view: Paddle refuses a
    shape its strides cannot describe)."""
    s = shape_or_dtype
    if _is_dtype(s):
        return views.reinterpret(x, _dt.to_dtype(s).np)
    return jnp.reshape(x, infer_shape(x.shape, s, "view"))


@op("view_as", composite=True, aliases=NO_TORCH_KEYWORDS)
def view_as(x: Tensor, other: Tensor, name: str | None = None) -> Tensor:
    """``x.view(other.shape)``: a view of ``x`` with ``other``'s shape."""
    return view(x, list(other.shape))


@op(
    "unflatten",
    aliases={"dim": "axis", "sizes": "shape"},
    view=lambda vals, x: views.RESHAPE_SAME,
)
def unflatten(x: jax.Array, axis: int, shape: Sequence[int], name: str | None = None) -> jax.Array:
    """Split dim ``axis`` into ``shape`` (one -1 allowed)."""
    ax = axis_of(axis, x.ndim)
    sub = infer_shape((x.shape[ax],), shape)
    return jnp.reshape(x, x.shape[:ax] + sub + x.shape[ax + 1 :])


@op("flatten", inplace="flatten_", view=True)
def flatten(
    x: jax.Array, start_axis: int = 0, stop_axis: int = -1, name: str | None = None
) -> jax.Array:
    """Merge dims ``start_axis..stop_axis`` into one (0-d input -> shape [1])."""
    nd = x.ndim
    if nd == 0:
        return x.reshape((1,))
    for a, nm in ((start_axis, "start_axis"), (stop_axis, "stop_axis")):
        if not -nd <= a < nd:
            raise ValueError(f"The {nm} should be a int, and in range [-rank(x), rank(x))")
    s, e = start_axis % nd, stop_axis % nd
    if s > e:
        raise ValueError("The stop_axis should be larger than stat_axis")
    return x.reshape(x.shape[:s] + (-1 if 0 not in x.shape[s : e + 1] else 0,) + x.shape[e + 1 :])


# -- axes -------------------------------------------------------------------------------------
def _perm(perm, nd):
    perm = int_list(perm)
    if len(perm) != nd:
        raise ValueError(f"The length of perm ({len(perm)}) must equal the rank of x ({nd}).")
    out = []
    for a in perm:
        if not -nd <= a < nd:
            raise ValueError(
                f"The axis index {a} should be in the range [ -dimension(X), "
                f"dimension(X) ) which dimension = {nd}."
            )
        out.append(a % nd)
    if len(set(out)) != len(out):
        raise ValueError(f"Each element of axis should be unique: {perm}.")
    return out


def _check_transpose(vals):
    if isinstance(vals["perm"], Tensor):
        raise TypeError(
            "(InvalidType) transpose(): argument (position 2) must be list or tuple, but got Tensor"
        )


@op(
    "transpose",
    tensor_modules=("einsum", "linalg", "manipulation"),
    inplace="transpose_",
    check=_check_transpose,
    prebind=dims_to_perm,
    view=lambda vals, x: views.permute_view(_perm(vals["perm"], x.ndim)),
)
def transpose(x: jax.Array, perm: Sequence[int], name: str | None = None) -> jax.Array:
    """Permute the dims of ``x``."""
    return jnp.transpose(x, _perm(perm, x.ndim))


@op(
    "permute",
    tensor_modules=("linalg",),
    prebind=pack_varargs("dims"),
    view=lambda vals, x: views.permute_view(_perm(vals["dims"], x.ndim)),
)
def permute(input: jax.Array, dims: Sequence[int]) -> jax.Array:
    """Tensor.permute(*dims) / permute(list): same as transpose."""
    return jnp.transpose(input, _perm(dims, input.ndim))


def _moveaxis_perm(vals, nd):
    src, dst = int_list(vals["source"]), int_list(vals["destination"])
    src, dst = [a % nd for a in src], [a % nd for a in dst]
    perm = [a for a in range(nd) if a not in src]
    for d, a in sorted(zip(dst, src)):
        perm.insert(d, a)
    return perm


@op(
    "moveaxis",
    aliases=NO_TORCH_KEYWORDS,
    view=lambda vals, x: views.permute_view(_moveaxis_perm(vals, x.ndim)),
)
def moveaxis(
    x: jax.Array,
    source: int | Sequence[int],
    destination: int | Sequence[int],
    name: str | None = None,
) -> jax.Array:
    """Move dims ``source`` to positions ``destination``."""
    src, dst = int_list(source), int_list(destination)
    nd = x.ndim
    if len(src) != len(dst):
        raise ValueError("'source' must have the same number with 'destination'")
    for a in src:
        assert -nd <= a < nd, f"'source' must be in the range of [-{nd}, {nd})"
    for a in dst:
        assert -nd <= a < nd, f"'destination' must be in the range of [-{nd}, {nd})"
    src = [a % nd for a in src] if nd else src
    dst = [a % nd for a in dst] if nd else dst
    if len(set(src)) != len(src):
        raise ValueError("Each element of 'source' must be unique!")
    if len(set(dst)) != len(dst):
        raise ValueError("Each element of 'destination' must be unique!")
    return jnp.moveaxis(x, src, dst)


@op(
    "swapaxes",
    tensor_modules=(),
    extra_names=("swapdims",),
    prebind=dims_to_perm,
    view=lambda vals, x: views.permute_view(_perm(vals["perm"], x.ndim)),
)
def swapaxes(x: jax.Array, perm: Sequence[int], name: str | None = None) -> jax.Array:
    """transpose under Paddle's alias names: ``swapaxes(x, 0, 1)`` swaps two dims."""
    return jnp.transpose(x, _perm(perm, x.ndim))


@op(
    "swapdims",
    namespaces=(),
    prebind=dims_to_perm,
    view=lambda vals, x: views.permute_view(_perm(vals["perm"], x.ndim)),
)
def swapdims(x, perm, name=None):
    """Tensor.swapdims: same as swapaxes."""
    return swapaxes.fn(x, perm)


def _axes(axis, nd, what="axis"):
    if axis is None:
        return None
    return [axis_of(a, nd, what) for a in int_list(axis)]


@op(
    "squeeze",
    tensor_modules=("einsum", "manipulation"),
    inplace="squeeze_",
    aliases={"dim": "axis"},
    view=True,
)
def squeeze(
    x: jax.Array, axis: int | Sequence[int] | None = None, name: str | None = None
) -> jax.Array:
    """Drop size-1 dims (all, or those in ``axis``; other listed dims are kept)."""
    if axis is None:
        return jnp.squeeze(x)
    nd = x.ndim
    axes = []
    for a in int_list(axis):
        if not -builtins.max(nd, 1) <= a < builtins.max(nd, 1):
            raise ValueError(
                f"Each axis in Attr(axes) should be in the range of "
                f"[{-nd}, {nd - 1}]But current axis is:{a}, input tensor's shape = "
                f"{list(x.shape)}."
            )
        if nd:
            axes.append(a % nd)
    axes = tuple(a for a in set(axes) if x.shape[a] == 1)
    return jnp.squeeze(x, axes) if axes else x


@op(
    "unsqueeze",
    tensor_modules=("einsum", "manipulation"),
    inplace="unsqueeze_",
    aliases={"dim": "axis"},
    view=True,
)
def unsqueeze(x: jax.Array, axis: int | Sequence[int], name: str | None = None) -> jax.Array:
    """Insert size-1 dims at ``axis`` (a list is applied one insertion at a time)."""
    shape = list(x.shape)
    for a in int_list(axis):
        r = len(shape)
        cur = a + r + 1 if a < 0 else a
        if not 0 <= cur <= r:
            raise ValueError(
                "The insert dimension value should not be larger than the "
                f"dimension size of input tensor: axis {a}, rank {r}."
            )
        shape.insert(cur, 1)
    return x.reshape(shape)


# -- join / split -----------------------------------------------------------------------------
@op(
    "concat",
    extra_names=("cat", "concatenate"),
    aliases={"tensors": "x", "dim": "axis", **NO_TORCH_KEYWORDS},
)
def concat(
    x: Sequence[jax.Array], axis: int = 0, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    """Join tensors along an existing dim (dtypes must match)."""
    xs = tensor_list(x, "concat")
    _same_dtypes(xs, "concat")
    nd = xs[0].ndim
    axis = axis_int(axis)
    ax = axis_of(axis, nd) if nd else axis_of(axis, 0, "axis")
    for i, a in enumerate(xs[1:], 1):
        bad = [d for d in range(nd) if d != ax and a.ndim == nd and a.shape[d] != xs[0].shape[d]]
        if a.ndim != nd or bad:
            raise ValueError(
                f"The {bad[0] if bad else ax}-th dimension of input[0] and input[{i}] is "
                f"expected to be equal. But received input[0]'s shape = {list(xs[0].shape)}, "
                f"input[{i}]'s shape = {list(a.shape)}."
            )
    return jnp.concatenate(xs, axis=ax)


@op("stack", aliases={"tensors": "x", "dim": "axis", **NO_TORCH_KEYWORDS})
def stack(
    x: Sequence[jax.Array], axis: int = 0, name: str | None = None, *, out: Tensor | None = None
) -> jax.Array:
    """Join same-shape tensors along a new dim."""
    xs = tensor_list(x, "stack")
    _same_dtypes(xs, "stack")
    nd = xs[0].ndim
    axis = axis_int(axis)
    if not -(nd + 1) <= axis < nd + 1:
        raise ValueError(
            f"Attr(axis) must be inside [-(rank+1), rank+1), where rank = "
            f"{nd}, but received axis is:{axis}"
        )
    for i, a in enumerate(xs[1:], 1):
        if a.shape != xs[0].shape:
            raise ValueError(
                f"The shape of input[0] and input[{i}] is expected to be "
                f"equal. But received input[0]'s shape = {list(xs[0].shape)}, input[{i}]'s "
                f"shape = {list(a.shape)}."
            )
    return jnp.stack(xs, axis=axis % (nd + 1))


def _sections(n, num_or_sections, what="split"):
    if isinstance(num_or_sections, int | np.integer):
        k = int(num_or_sections)
        if k <= 0 or n % k:
            raise ValueError(
                "The input's size along the split dimension must be evenly "
                f"divisible by Attr(num_or_sections). But received Attr(num_or_sections) = {k}, "
                f"input(X)'s shape along the split dimension = {n}."
            )
        return [n // k] * k
    secs = int_list(num_or_sections)
    if secs.count(-1) > 1:
        raise ValueError(
            "Only one dimension value of Attr(num_or_sections) in SplitOp "
            f"can be -1. But received Attr(num_or_sections) = {secs}."
        )
    if -1 in secs:
        secs[secs.index(-1)] = n - (builtins.sum(secs) + 1)
    if builtins.sum(secs) != n or builtins.min(secs) < 0:
        raise ValueError(
            "Sum of Attr(num_or_sections) must be equal to the input's size "
            f"along the split dimension. But received Attr(num_or_sections) = {secs}, "
            f"input(X)'s shape along the split dimension = {n}."
        )
    return secs


def _split_at(x, sizes, ax):
    outs, s = [], 0
    for k in sizes:
        outs.append(lax.slice_in_dim(x, s, s + k, axis=ax))
        s += k
    return outs


def _check_split(vals):
    if isinstance(vals["num_or_sections"], Tensor):
        raise TypeError(
            "The type of 'num_or_sections' in split must be int, list or tuple in imperative "
            "mode, but received Tensor."
        )


@op("split", check=_check_split, aliases=NO_TORCH_KEYWORDS)
def split(
    x: jax.Array, num_or_sections: int | Sequence[int], axis: int = 0, name: str | None = None
) -> list[jax.Array]:
    """Split into equal parts (int) or parts of the given sizes (list; one -1 inferred)."""
    ax = axis_of(axis, x.ndim)
    return _split_at(x, _sections(x.shape[ax], num_or_sections), ax)


@op("chunk", aliases={"dim": "axis"})
def chunk(x: jax.Array, chunks: int, axis: int = 0, name: str | None = None) -> list[jax.Array]:
    """Split into ``chunks`` equal parts."""
    ax = axis_of(axis, x.ndim)
    return _split_at(x, _sections(x.shape[ax], int(chunks)), ax)


def _check_tensor_split(vals):
    if isinstance(vals["num_or_indices"], Tensor):
        raise ValueError("The num_or_indices should be int, list or tuple of ints, but got Tensor.")


@op("tensor_split", check=_check_tensor_split)
def tensor_split(
    x: jax.Array, num_or_indices: int | Sequence[int], axis: int = 0, name: str | None = None
) -> list[jax.Array]:
    """numpy.array_split: n nearly equal parts, or split before the given indices."""
    ax = axis_of(axis, x.ndim)
    return list(
        jnp.array_split(
            x,
            num_or_indices if isinstance(num_or_indices, int) else int_list(num_or_indices),
            axis=ax,
        )
    )


@op("hsplit", aliases=NO_TORCH_KEYWORDS)
def hsplit(
    x: jax.Array, num_or_indices: int | Sequence[int], name: str | None = None
) -> list[jax.Array]:
    """tensor_split along dim 1 (dim 0 for 1-D)."""
    if x.ndim < 1:
        raise ValueError("hsplit needs a tensor with at least 1 dim.")
    return tensor_split.fn(x, num_or_indices, 1 if x.ndim > 1 else 0)


@op("vsplit", aliases=NO_TORCH_KEYWORDS)
def vsplit(
    x: jax.Array, num_or_indices: int | Sequence[int], name: str | None = None
) -> list[jax.Array]:
    """tensor_split along dim 0 (needs >= 2 dims)."""
    if x.ndim < 2:
        raise ValueError("vsplit needs a tensor with at least 2 dims.")
    return tensor_split.fn(x, num_or_indices, 0)


@op("dsplit", aliases=NO_TORCH_KEYWORDS)
def dsplit(
    x: jax.Array, num_or_indices: int | Sequence[int], name: str | None = None
) -> list[jax.Array]:
    """tensor_split along dim 2 (needs >= 3 dims)."""
    if x.ndim < 3:
        raise ValueError("dsplit needs a tensor with at least 3 dims.")
    return tensor_split.fn(x, num_or_indices, 2)


@op(
    "unbind",
    aliases={"dim": "axis"},
    view=lambda vals, x: views.unbind_views(x._val.shape, axis_of(vals["axis"], x.ndim)),
)
def unbind(input: jax.Array, axis: int = 0) -> list[jax.Array]:
    """Split into the slices along ``axis`` (that dim removed)."""
    ax = axis_of(axis, input.ndim)
    return [jnp.squeeze(p, ax) for p in _split_at(input, [1] * input.shape[ax], ax)]


@op("unstack", aliases=NO_TORCH_KEYWORDS)
def unstack(x: jax.Array, axis: int = 0, num: int | None = None) -> list[jax.Array]:
    """Same as unbind; ``num`` must equal the dim size when given."""
    ax = axis_of(axis, x.ndim)
    if num is not None and num != x.shape[ax]:
        raise ValueError(
            f"The number of attribute num is not equal to the length of the "
            f"{ax} axis of Input(X). Expect {x.shape[ax]} but got {num}."
        )
    return unbind.fn(x, ax)


def _stack_fn(op_name, fn, doc):
    def f(x: Sequence[jax.Array], name: str | None = None) -> jax.Array:
        xs = tensor_list(x, op_name)
        _same_dtypes(xs, op_name)
        return fn(xs)

    f.__doc__ = doc
    op(op_name, method=None, aliases=NO_TORCH_KEYWORDS)(f)


_stack_fn("hstack", jnp.hstack, "Concatenate along dim 1 (dim 0 for 1-D inputs).")
_stack_fn("vstack", jnp.vstack, "Concatenate along dim 0 (1-D inputs become rows).")
_stack_fn("row_stack", jnp.vstack, "Same as vstack.")
_stack_fn("dstack", jnp.dstack, "Concatenate along dim 2 (inputs raised to 3-D).")
_stack_fn("column_stack", jnp.column_stack, "Stack 1-D inputs as columns, else hstack.")


def _atleast(op_name, fn):
    def f(*inputs: jax.Array, name: str | None = None) -> jax.Array | list[jax.Array]:
        outs = [fn(a) for a in inputs]
        return outs[0] if len(outs) == 1 else outs

    f.__doc__ = f"Each input viewed with at least {op_name[-2]} dims."
    op(op_name, tensors=("inputs",))(f)


_atleast("atleast_1d", jnp.atleast_1d)
_atleast("atleast_2d", jnp.atleast_2d)
_atleast("atleast_3d", jnp.atleast_3d)


# -- expand / tile ----------------------------------------------------------------------------
def _expand_shape(in_shape, shape, what="expand_v2"):
    shape = int_list(shape)
    nd = len(in_shape)
    if len(shape) < nd:
        raise ValueError(
            f"The number of elements ({len(shape)}) of 'shape' for "
            f"{what} op must be greater than or equal to the rank ({nd}) of the input."
        )
    lead = len(shape) - nd
    out = []
    for i, s in enumerate(shape):
        if i < lead:
            if s < 0:
                raise ValueError(
                    f"The expanded size ({s}) for non-existing dimensions "
                    f"must be positive for {what} op."
                )
            out.append(s)
            continue
        d = in_shape[i - lead]
        if s == -1:
            out.append(d)
        elif d != 1 and s != d:
            raise ValueError(
                f"The value ({d}) of the non-singleton dimension does not "
                f"match the corresponding value ({s}) in shape for {what} op."
            )
        else:
            out.append(s)
    return tuple(out)


@op("expand", aliases={"size": "shape"}, prebind=pack_ints("shape"))
def expand(x: jax.Array, shape: Sequence[int], name: str | None = None) -> jax.Array:
    """Broadcast ``x`` to ``shape`` (-1 keeps the input dim)."""
    return jnp.broadcast_to(x, _expand_shape(x.shape, shape))


@op("broadcast_to", aliases={"size": "shape"})
def broadcast_to(x: jax.Array, shape: Sequence[int], name: str | None = None) -> jax.Array:
    """Broadcast ``x`` to ``shape`` (-1 keeps the input dim)."""
    return jnp.broadcast_to(x, _expand_shape(x.shape, shape))


@op("expand_as", composite=True)
def expand_as(x: Tensor, y: Tensor, name: str | None = None) -> Tensor:
    """Broadcast ``x`` to ``y``'s shape."""
    return expand(x, list(y.shape))


@op("broadcast_tensors")
def broadcast_tensors(input: Sequence[jax.Array], name: str | None = None) -> list[jax.Array]:
    """Broadcast all inputs to their common shape."""
    xs = tensor_list(input, "broadcast_tensors", "input")
    _same_dtypes(xs, "broadcast_tensors")
    try:
        shape = np.broadcast_shapes(*[a.shape for a in xs])
    except ValueError:
        raise ValueError(
            "BroadcastTensorsOp inputs does not satisfy bcast semantics: "
            f"{[list(a.shape) for a in xs]}."
        ) from None
    return [jnp.broadcast_to(a, shape) for a in xs]


@op("tile", aliases={"dims": "repeat_times"})
def tile(x: jax.Array, repeat_times: int | Sequence[int], name: str | None = None) -> jax.Array:
    """Repeat the whole tensor ``repeat_times[i]`` times along each dim."""
    reps = int_list(repeat_times)
    for r in reps:
        if r < 0:
            raise ValueError(
                "All elements of the input 'repeat_times' for tile op must "
                f"be positive integers, but the value received is {r}."
            )
    return jnp.tile(x, reps)


@op("repeat", namespaces=(), prebind=pack_varargs("repeats"))
def repeat(input, repeats):
    """Tensor.repeat(*sizes): same as tile."""
    return tile.fn(input, repeats)
