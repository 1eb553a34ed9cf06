"""``paddle.geometric`` message passing and segment pooling: ``send_u_recv``, ``send_ue_recv``,
``send_uv`` and ``segment_sum/mean/max/min`` (graph sampling and reindexing live in
``geometric_sampling.py``).

Every reduction is a ``jax.ops.segment_*`` over the destination index. A destination that
receives no message is 0 (Paddle's kernels fill 0). The gradient of ``max``/``min`` goes in
full to every message equal to its destination's result (ties each get the whole gradient,
as Paddle's grad kernels do; JAX's own rule splits it). The output size of ``send_*`` is static
(``out_size`` or the rows of ``x``), so they compile under ``to_static``; a segment op's row
count is ``max(segment_ids) + 1``, read on the host, so it runs eagerly only.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._core import runtime_checks, trace_state
from .._core.op_errors import leaf_dtype
from .._core.registry import op
from .._core.tensor import Tensor

_REDUCE_OPS = ("sum", "mean", "max", "min")
_MESSAGE_OPS = ("add", "sub", "mul", "div")
_SEND_DTYPES = ("float32", "float64", "int32", "int64")  # Paddle's CPU kernels
_SEGMENT_DTYPES = ("float32", "float64", "int32", "int64", "float16")
_INDEX_DTYPES = ("int32", "int64")


# -- argument checks (Paddle's infermeta and kernel checks, before the kernel runs) -----------
def _dtype_name(t) -> str | None:
    d = leaf_dtype(t)
    return None if d is None else d.name


def _shape(t) -> list[int]:
    return [int(s) for s in getattr(t, "shape", np.shape(t))]


def _check_choice(value, choices, what: str) -> None:
    if value not in choices:
        names = ", ".join(f"`{c}`" for c in choices[:-1])
        raise ValueError(f"{what} should be {names} or `{choices[-1]}`, but received {value}")


def _check_index_pair(kernel: str, src, dst, names=("Src_index", "Dst_index")) -> int:
    """Both indices int32/int64 of one dtype, 1-D (or [E, 1]), the same length: returns E."""
    kinds = [_dtype_name(src), _dtype_name(dst)]
    for name, kind in zip(names, kinds):
        if kind not in _INDEX_DTYPES:
            raise ValueError(
                f"(InvalidArgument) {kernel}: {name} must be an int32 or int64 Tensor, but "
                f"received {kind}."
            )
    if kinds[0] != kinds[1]:
        raise ValueError(
            f"(InvalidArgument) {kernel}: {names[0]} and {names[1]} must have the same dtype, "
            f"but received {kinds[0]} and {kinds[1]}."
        )
    lengths = []
    for name, t in zip(names, (src, dst)):
        s = _shape(t)
        if len(s) == 2 and s[1] != 1:
            raise ValueError(
                f"(InvalidArgument) The last dim of {name} should be 1 when it is 2D, but we get "
                f"{s[1]}"
            )
        if len(s) not in (1, 2):
            raise ValueError(
                f"(InvalidArgument) The {name} should be 1D, when it is not 2D, but we get {s}"
            )
        lengths.append(s[0])
    if lengths[0] != lengths[1]:
        raise ValueError(
            f"(InvalidArgument) {names[0]} and {names[1]} should have the same shape, but "
            f"received {names[0]} dims[0]:{lengths[0]} != {names[1]} dims[0]:{lengths[1]}."
        )
    return lengths[0]


def _check_rows(kernel: str, what: str, index, rows: int, holder: str) -> None:
    runtime_checks.check_in_range(
        index,
        0,
        rows,
        IndexError,
        f"(OutOfRange) {kernel}: every {what} must be less than {{hi}} (the rows of {holder}), "
        "but received {bad} at position {pos}.",
        f"(OutOfRange) {kernel}: every {what} must be >= 0, but received {{bad}} at position "
        "{pos}.",
    )


def _out_rows(kernel: str, out_size, x_rows: int) -> int:
    """Paddle's ``out_size``: None or <= 0 keeps the rows of ``x``; a Tensor gives its value."""
    if out_size is None:
        return x_rows
    if isinstance(out_size, Tensor):
        if trace_state.is_tracer(out_size._value):
            raise trace_state.DataDependentError(
                f"paddle.geometric.{kernel}: out_size is a Tensor computed inside "
                "paddle.jit.to_static, but the output shape must be known when the function is "
                "compiled: pass out_size as a Python int (or compute it outside)."
            )
        out_size = np.asarray(out_size._value).reshape(-1)[0]
    n = int(out_size)
    return n if n > 0 else x_rows


def _check_same_dtype(kernel: str, x, y) -> None:
    a, b = _dtype_name(x), _dtype_name(y)
    if a != b:
        raise ValueError(
            f"(InvalidArgument) {kernel}: x and y must have the same dtype, but received {a} "
            f"and {b}."
        )


def _padded_shapes(xs: list[int], ys: list[int]) -> tuple[list[int], list[int]]:
    """Paddle's ``reshape_lhs_rhs``: 1-D -> [n, 1]; the lower-rank one gains 1s after dim 0."""
    xs = xs + [1] if len(xs) == 1 else list(xs)
    ys = ys + [1] if len(ys) == 1 else list(ys)
    n = max(len(xs), len(ys))
    xs = xs[:1] + [1] * (n - len(xs)) + xs[1:]
    ys = ys[:1] + [1] * (n - len(ys)) + ys[1:]
    return xs, ys


def _check_broadcast(xs: list[int], ys: list[int]) -> None:
    fx, fy = xs[1:], ys[1:]
    for i, (a, b) in enumerate(zip(fx, fy)):
        if a != b and not (0 < a <= 1) and not (0 < b <= 1):
            raise ValueError(
                "(InvalidArgument) Broadcast dimension mismatch. Operands could not be "
                f"broadcast together with the shape of X = {fx} and the shape of Y = {fy}. "
                f"Received [{a}] in X is not equal to [{b}] in Y at i:{i}."
            )


def _check_x(kernel: str, x) -> int:
    s = _shape(x)
    if not s:
        raise IndexError(
            f"(OutOfRange) {kernel}: x must have at least 1 dimension (its rows are the nodes), "
            "but received a 0-D Tensor."
        )
    return s[0]


def _check_send_u_recv(v: dict) -> None:
    _check_choice(v["reduce_op"], _REDUCE_OPS, "reduce_op")
    n = _check_x("send_u_recv", v["x"])
    _check_index_pair("send_u_recv", v["src_index"], v["dst_index"])
    rows = _out_rows("send_u_recv", v["out_size"], n)
    _check_rows("send_u_recv", "src_index", v["src_index"], n, "x")
    _check_rows("send_u_recv", "dst_index", v["dst_index"], rows, "the output")


def _check_message(kernel: str, v: dict) -> None:
    _check_choice(v["message_op"], _MESSAGE_OPS, "message_op")
    if v["message_op"] == "div" and "int" in str(_dtype_name(v["y"])):
        # Paddle divides as ``x * (1 / (y + 1e-12))``: a float y beside an integer x
        raise ValueError(
            f"(InvalidArgument) {kernel}: message_op 'div' computes 1 / (y + 1e-12) in "
            f"floating point, which does not match the integer x ({_dtype_name(v['x'])})."
        )
    _check_same_dtype(kernel, v["x"], v["y"])


def _check_send_ue_recv(v: dict) -> None:
    _check_message("send_ue_recv", v)
    _check_choice(v["reduce_op"], _REDUCE_OPS, "reduce_op")
    n = _check_x("send_ue_recv", v["x"])
    e = _check_index_pair("send_ue_recv", v["src_index"], v["dst_index"])
    ys = _shape(v["y"])
    if not ys or ys[0] != e:
        got = ys[0] if ys else "a 0-D Tensor"
        raise ValueError(
            f"(InvalidArgument) Expect Input Y to have size {e} as Src_index on the first "
            f"dimension, but we get {got}"
        )
    _check_broadcast(*_padded_shapes(_shape(v["x"]), ys))
    rows = _out_rows("send_ue_recv", v["out_size"], n)
    _check_rows("send_ue_recv", "src_index", v["src_index"], n, "x")
    _check_rows("send_ue_recv", "dst_index", v["dst_index"], rows, "the output")


def _check_send_uv(v: dict) -> None:
    _check_message("send_uv", v)
    n = _check_x("send_uv", v["x"])
    m = _check_x("send_uv", v["y"])
    _check_index_pair("send_uv", v["src_index"], v["dst_index"], ("src_index", "dst_index"))
    _check_broadcast(*_padded_shapes(_shape(v["x"]), _shape(v["y"])))
    _check_rows("send_uv", "src_index", v["src_index"], n, "x")
    _check_rows("send_uv", "dst_index", v["dst_index"], m, "y")


# -- kernels ---------------------------------------------------------------------------------
def _message(x: jax.Array, y: jax.Array, message_op: str) -> jax.Array:
    """Paddle's message ops: ``sub`` adds -y, ``div`` multiplies by 1 / (y + 1e-12)."""
    if message_op == "sub":
        return x + (-y)
    if message_op == "div":
        return x * (1.0 / (y + jnp.asarray(1e-12, y.dtype)))
    if message_op == "mul":
        return x * y
    return x + y


def _counts(ids: jax.Array, rows: int) -> jax.Array:
    return jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, num_segments=rows)


def _per_row(a: jax.Array, ndim: int) -> jax.Array:
    return a.reshape(a.shape + (1,) * (ndim - 1))


def _extreme_value(msg, ids, rows, is_max):
    seg = jax.ops.segment_max if is_max else jax.ops.segment_min
    out = seg(msg, ids, num_segments=rows)
    hit = _per_row(_counts(ids, rows) > 0, msg.ndim)
    return jnp.where(hit, out, jnp.zeros((), msg.dtype))


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3))
def _extreme(msg, ids, rows, is_max):
    """Segment max/min (0 where a segment is empty); each message equal to its segment's
    result gets the segment's whole gradient."""
    return _extreme_value(msg, ids, rows, is_max)


def _extreme_fwd(msg, ids, rows, is_max):
    out = _extreme_value(msg, ids, rows, is_max)
    return out, (msg, ids, out)


def _extreme_bwd(rows, is_max, res, g):
    msg, ids, out = res
    return jnp.where(msg == out[ids], g[ids], jnp.zeros((), g.dtype)), None


_extreme.defvjp(_extreme_fwd, _extreme_bwd)


def _reduce(msg: jax.Array, ids: jax.Array, rows: int, reduce_op: str) -> jax.Array:
    if reduce_op in ("max", "min"):
        return _extreme(msg, ids, rows, reduce_op == "max")
    total = jax.ops.segment_sum(msg, ids, num_segments=rows)
    if reduce_op == "sum":
        return total
    # counted per element, not broadcast per row: XLA turns ``a / broadcast(b)`` into
    # ``a * (1 / b)``, which rounds differently from Paddle's division
    count = jnp.maximum(jax.ops.segment_sum(jnp.ones_like(msg), ids, num_segments=rows), 1)
    if jnp.issubdtype(msg.dtype, jnp.integer):  # Paddle's integer mean truncates
        return lax.div(total, count)
    return total / count


def _flat(index: jax.Array) -> jax.Array:
    return index.reshape(-1)


def _empty_result(x: jax.Array, out_size, rows: int) -> jax.Array:
    """No edges: zeros. With a positive ``out_size`` Paddle's kernel returns shape
    ``[out_size]`` (the feature dims dropped); without it, the shape of ``x``."""
    shape = (rows,) if out_size is not None and int(out_size) > 0 else (rows, *x.shape[1:])
    return jnp.zeros(shape, x.dtype)


def _static_out_size(out_size):
    """The hashed static ``out_size`` (an int, a number, or a 1-tuple from a 1-D Tensor)."""
    if isinstance(out_size, tuple | list):
        out_size = out_size[0]
    return None if out_size is None else int(out_size)


@op(
    "send_u_recv",
    tensors=("x", "src_index", "dst_index"),
    namespaces=("paddle.geometric",),
    method=None,
    dtypes=_SEND_DTYPES,
    check=_check_send_u_recv,
)
def send_u_recv(
    x: jax.Array,
    src_index: jax.Array,
    dst_index: jax.Array,
    reduce_op: str = "sum",
    out_size: int | None = None,
    name: str | None = None,
) -> jax.Array:
    """Gather rows ``x[src_index]`` and reduce them (sum/mean/max/min) into ``dst_index``."""
    out_size = _static_out_size(out_size)
    rows = out_size if out_size is not None and out_size > 0 else x.shape[0]
    src, dst = _flat(src_index), _flat(dst_index)
    if src.shape[0] == 0:
        return _empty_result(x, out_size, rows)
    return _reduce(x[src], dst, rows, reduce_op)


@op(
    "send_ue_recv",
    tensors=("x", "y", "src_index", "dst_index"),
    namespaces=("paddle.geometric",),
    method=None,
    dtypes=_SEND_DTYPES,
    check=_check_send_ue_recv,
)
def send_ue_recv(
    x: jax.Array,
    y: jax.Array,
    src_index: jax.Array,
    dst_index: jax.Array,
    message_op: str = "add",
    reduce_op: str = "sum",
    out_size: int | None = None,
    name: str | None = None,
) -> jax.Array:
    """Combine ``x[src_index]`` with the edge features ``y`` (add/sub/mul/div), then reduce
    the messages into ``dst_index`` (sum/mean/max/min)."""
    out_size = _static_out_size(out_size)
    xs, ys = _padded_shapes(list(x.shape), list(y.shape))
    x, y = x.reshape(xs), y.reshape(ys)
    rows = out_size if out_size is not None and out_size > 0 else x.shape[0]
    src, dst = _flat(src_index), _flat(dst_index)
    if src.shape[0] == 0:
        feat = jnp.broadcast_shapes(x.shape[1:], y.shape[1:])
        return _empty_result(jnp.zeros((x.shape[0], *feat), x.dtype), out_size, rows)
    return _reduce(_message(x[src], y, message_op), dst, rows, reduce_op)


@op(
    "send_uv",
    tensors=("x", "y", "src_index", "dst_index"),
    namespaces=("paddle.geometric",),
    method=None,
    dtypes=_SEND_DTYPES,
    check=_check_send_uv,
)
def send_uv(
    x: jax.Array,
    y: jax.Array,
    src_index: jax.Array,
    dst_index: jax.Array,
    message_op: str = "add",
    name: str | None = None,
) -> jax.Array:
    """One message per edge: ``x[src_index]`` combined with ``y[dst_index]``
    (add/sub/mul/div)."""
    xs, ys = _padded_shapes(list(x.shape), list(y.shape))
    x, y = x.reshape(xs), y.reshape(ys)
    return _message(x[_flat(src_index)], y[_flat(dst_index)], message_op)


# -- segment pooling -------------------------------------------------------------------------
@op(
    "_segment_pool",
    tensors=("data", "segment_ids"),
    namespaces=(),
    method=None,
)
def _segment_pool(data, segment_ids, pooltype, rows):
    return _reduce(data, segment_ids, rows, pooltype)


_SEGMENT_HINT = (
    "inside a compiled function use paddle.geometric.send_u_recv(data, paddle.arange(n), "
    "segment_ids, reduce_op=..., out_size=N), whose row count N is static"
)


def _segment_rows(data: Tensor, segment_ids: Tensor, api: str) -> int:
    """Paddle's checks of ``segment_ids`` (read on the host) and the output row count."""
    if _dtype_name(segment_ids) not in _INDEX_DTYPES:
        raise ValueError(
            "(InvalidArgument) Unsupported index type, Expected int, int64, but got "
            f"{_dtype_name(segment_ids)}."
        )
    ids_shape, data_shape = _shape(segment_ids), _shape(data)
    n = int(np.prod(ids_shape)) if ids_shape else 1
    if ids_shape and n != ids_shape[0]:
        raise ValueError(
            "(InvalidArgument) Segment_ids should be 1-D tensor, or it's other dimension size "
            f"is 1. Segment_ids's shape is: {ids_shape}."
        )
    rows0 = data_shape[0] if data_shape else 0
    if n != rows0:
        raise ValueError(
            "(InvalidArgument) Segment_ids should be the same size as dimension 0 of input X "
            f"(received {n} segment ids for {rows0} rows)."
        )
    if trace_state.is_tracer(segment_ids._value):
        raise trace_state.DataDependentError(
            f"{api} has a data-dependent output shape (max(segment_ids) + 1 rows), so it "
            f"cannot run inside paddle.jit.to_static (segment_ids shape {ids_shape}): "
            f"{_SEGMENT_HINT}, or call the function with full_graph=False."
        )
    ids = np.asarray(trace_state.read(segment_ids)).reshape(-1)
    if ids.size == 0:
        return 0
    if ids[0] < 0:
        raise IndexError(
            f"(OutOfRange) The segment ids should be >= 0, but received {int(ids[0])}."
        )
    down = np.flatnonzero(ids[1:] < ids[:-1])
    if down.size:
        i = int(down[0])
        raise ValueError(
            f"(InvalidArgument) The segment ids should be sorted, but got segment_ids[{i}]:"
            f"{int(ids[i])} > segment_ids[{i + 1}]:{int(ids[i + 1])}."
        )
    return int(ids[-1]) + 1


def _segment(data: Tensor, segment_ids: Tensor, pooltype: str, api: str) -> Tensor:
    rows = _segment_rows(data, segment_ids, api)
    ids = segment_ids if len(segment_ids.shape) == 1 else segment_ids.reshape([-1])
    return _segment_pool(data, ids, pooltype=pooltype, rows=rows)


def _segment_op(pooltype: str):
    return op(
        f"segment_{pooltype}",
        tensors=("data", "segment_ids"),
        namespaces=("paddle.geometric",),
        method=None,
        composite=True,
        dtypes=_SEGMENT_DTYPES,
        kernel="segment_pool",
    )


@_segment_op("sum")
def segment_sum(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """Sum the rows of ``data`` that share a (sorted) segment id; empty segments are 0."""
    return _segment(data, segment_ids, "sum", "paddle.geometric.segment_sum")


@_segment_op("mean")
def segment_mean(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """Mean of the rows of ``data`` that share a (sorted) segment id; empty segments are 0."""
    return _segment(data, segment_ids, "mean", "paddle.geometric.segment_mean")


@_segment_op("min")
def segment_min(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """Minimum of the rows of ``data`` that share a (sorted) segment id; empty segments
    are 0."""
    return _segment(data, segment_ids, "min", "paddle.geometric.segment_min")


@_segment_op("max")
def segment_max(data: Tensor, segment_ids: Tensor, name: str | None = None) -> Tensor:
    """Maximum of the rows of ``data`` that share a (sorted) segment id; empty segments
    are 0."""
    return _segment(data, segment_ids, "max", "paddle.geometric.segment_max")
