"""``print(tensor)`` in Paddle's exact format, and ``paddle.set_printoptions``.

The layout rules below were measured on Paddle 3.3.1's output:

- Header ``Tensor(shape=[..], dtype=.., place=.., stop_gradient=..,`` then the data on the
  next line, indented by 7 spaces (``len("Tensor") + 1``); Parameters get a
  ``Parameter containing:`` line first. A distributed tensor adds
  ``process_mesh={shape: [..], process_ids: [..], dim_names: [..]}, placements=[..],
  GlobalDenseTensor=`` to the header and prints its global value.
- Floats: ``{:.Pf}``; integer-valued floats (and +-inf) print as ``{:.0f}.``; ``sci_mode``
  prints every float as ``{:.Pe}``. bfloat16/float8 print through float32. Complex:
  ``(re{+}imj)``, each part as ``{:.Pf}``/``{:.Pe}``, ``+`` only when ``imag >= 0`` (so
  ``(1.0+-0.0j)`` and ``(1.0nanj)``). Ints and bools: ``str``.
- One column width for all items: the widest item among the *edge* items (the first and last
  ``edgeitems`` along every dimension longer than ``2 * edgeitems``), even when the tensor is
  printed in full; items wider than that are not padded. When some edge item is negative
  (complex: compared lexicographically), non-negative items narrower than the width get one
  leading space; items are then left-justified.
- More than ``threshold`` elements: dimensions longer than ``2 * edgeitems`` show their first
  and last ``edgeitems`` entries around ``...``.
- Rows wrap after ``(linewidth - indent) // (width + 2)`` items; sub-blocks are separated
  by ``,`` plus ``ndim - 1`` newlines.
- Empty tensors print nested ``[]`` down to the first zero-length dimension.
"""

from __future__ import annotations

import math

import jax
import numpy as np

_DEFAULTS = {"precision": 8, "threshold": 1000, "edgeitems": 3, "sci_mode": False, "linewidth": 80}
_opts = dict(_DEFAULTS)

_INF = math.inf
_NINF = -math.inf
_TRACED_NOTE = "<traced value: computed when the paddle.jit.to_static program runs>"
# Above this many elements a summarized tensor is sliced on its device before the transfer.
_DEVICE_SLICE_MIN = 1 << 16


def set_printoptions(
    precision: int | None = None,
    threshold: int | None = None,
    edgeitems: int | None = None,
    sci_mode: bool | None = None,
    linewidth: int | None = None,
) -> None:
    """Set how tensors print: digits after the point, the element count above which tensors
    are summarized, items kept at each edge when summarizing, scientific notation for
    floats, and characters per line. Arguments left as None keep their current value."""
    new = {}
    for name, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ):
        if value is None:
            continue
        if not isinstance(value, int | np.integer):
            # Paddle raises RuntimeError here too (from its C++ option setter).
            raise RuntimeError(
                f"paddle.set_printoptions: {name} must be an int, but received "
                f"{type(value).__name__} ({value!r})."
            )
        new[name] = int(value)
    if sci_mode is not None:
        if not isinstance(sci_mode, bool | int | np.bool_ | np.integer):
            raise RuntimeError(
                f"paddle.set_printoptions: sci_mode must be a bool, but received "
                f"{type(sci_mode).__name__} ({sci_mode!r})."
            )
        new["sci_mode"] = bool(sci_mode)
    _opts.update(new)


def _reset_printoptions() -> None:
    """Restore Paddle's defaults (precision=8, threshold=1000, edgeitems=3, sci_mode=False,
    linewidth=80)."""
    _opts.clear()
    _opts.update(_DEFAULTS)


def _get_printoptions() -> dict:
    return dict(_opts)


# -- header --------------------------------------------------------------------------------
def _dtype_name(t) -> str:
    try:
        return str(t.dtype).replace("paddle.", "")
    except Exception:  # noqa: BLE001 - a dtype we have no name for
        return str(t._value.dtype)


def _place_str(t) -> str:
    try:
        return str(t.place)
    except Exception:  # noqa: BLE001 - a tracer or deleted buffer
        return "Place(cpu)"


def tensor_to_string(t, prefix: str = "Tensor") -> str:
    """``str(t)``/``repr(t)`` exactly as Paddle prints it."""
    from .dist_attr import is_dist, placements_of, process_mesh_of
    from .tensor import Parameter
    from .trace_state import is_tracer

    value = t._value
    traced = is_tracer(value)
    if not traced and isinstance(value, jax.Array) and value.is_deleted():
        return f"{prefix}(Not initialized)"  # e.g. a buffer donated by to_static
    if "_uninitialized" in t.__dict__ and value.size:  # Tensor(dtype, dims, ...), create_tensor
        return f"{prefix}(Not initialized)"
    indent = len(prefix) + 1
    head = (
        f"{prefix}(shape={list(value.shape)}, dtype={_dtype_name(t)}, "
        f"place={_place_str(t)}, stop_gradient={t.stop_gradient},"
    )
    if is_dist(t):
        pls = ", ".join(repr(p) for p in placements_of(t))
        head += (
            f" process_mesh={process_mesh_of(t)._brace_str()}, placements=[{pls}], "
            "GlobalDenseTensor="
        )
    head += f"\n{' ' * indent}"
    data = _TRACED_NOTE if traced else format_array(value, indent)
    text = head + data + ")"
    if isinstance(t, Parameter):
        return "Parameter containing:\n" + text
    return text


# -- data ----------------------------------------------------------------------------------
def _host(a) -> np.ndarray:
    """A numpy array of the values to print (low-precision floats widened to float32)."""
    a = np.asarray(a)
    if a.dtype.kind not in "biufc":  # ml_dtypes: bfloat16, float8_*
        a = a.astype(np.float32)
    return a


def _item_formatter(kind: str):
    """A function value -> its unpadded text, for numpy dtype kind ``kind``."""
    p = _opts["precision"]
    if kind == "f":
        if _opts["sci_mode"]:
            spec = f".{p}e"
            return lambda v: format(v, spec)
        spec = f".{p}f"

        def fmt_float(v):
            if v.is_integer() or v == _INF or v == _NINF:
                return format(v, ".0f") + "."
            return format(v, spec)

        return fmt_float
    if kind == "c":
        spec = f".{p}e" if _opts["sci_mode"] else f".{p}f"

        def fmt_complex(v):
            im = v.imag
            return "(" + format(v.real, spec) + ("+" if im >= 0 else "") + format(im, spec) + "j)"

        return fmt_complex
    return str


def _is_negative(v) -> bool:
    if isinstance(v, complex):
        return v.real < 0 or (v.real == 0 and v.imag < 0)
    return v < 0


def _width_and_sign(values: list, strs: list) -> tuple[int, bool]:
    width = max(map(len, strs), default=0)
    signed = any(_is_negative(v) for v in values)
    return width, signed


def _pad(values: list, strs: list, width: int, signed: bool) -> list:
    out = []
    for v, s in zip(values, strs, strict=True):
        n = len(s)
        if n >= width:
            out.append(s)
        elif signed and not _is_negative(v):
            out.append(" " + s.ljust(width - 1))
        else:
            out.append(s.ljust(width))
    return out


def format_array(value, indent: int = 7) -> str:
    """The data part of Paddle's tensor text for an array (jax or numpy)."""
    shape = tuple(value.shape)
    ndim = len(shape)
    if ndim and 0 in shape:
        return _format_empty(shape, indent)
    e = _opts["edgeitems"]
    size = math.prod(shape) if ndim else 0
    summary = size > _opts["threshold"]
    long_dims = [n > 2 * e for n in shape]

    if not any(long_dims):
        a = _host(value)
        fmt = _item_formatter(a.dtype.kind)
        values = a.ravel().tolist() if ndim else [a.item()]
        strs = [fmt(v) for v in values]
        width, signed = _width_and_sign(values, strs)
        items = _pad(values, strs, width, signed)
        if not ndim:
            return items[0]
        return _layout(items, shape, [False] * ndim, e, indent, width)

    # Column width and sign come from the edge items only (Paddle's rule), even when the
    # tensor prints in full.
    if summary:
        print_idx = [
            _edge_index(n, e, True) if long else None
            for n, long in zip(shape, long_dims, strict=True)
        ]
        src = value if size >= _DEVICE_SLICE_MIN else _host(value)
        # With edgeitems > 0 these are exactly the edge items; with 0 only "..." prints.
        printed = edge = _host(_take(src, print_idx))
        trunc = long_dims
    else:
        printed = _host(value)
        edge = _take(
            printed,
            [
                _edge_index(n, e, False) if long else None
                for n, long in zip(shape, long_dims, strict=True)
            ],
        )
        trunc = [False] * ndim

    fmt = _item_formatter(printed.dtype.kind)
    values = printed.ravel().tolist()
    strs = [fmt(v) for v in values]
    if edge is printed:
        width, signed = _width_and_sign(values, strs)
    else:
        edge_vals = edge.ravel().tolist()
        width, signed = _width_and_sign(edge_vals, [fmt(v) for v in edge_vals])
    items = _pad(values, strs, width, signed)
    return _layout(items, printed.shape, trunc, e, indent, width)


def _edge_index(n: int, e: int, printing: bool) -> np.ndarray:
    # Paddle's width pass keeps r[:e] + r[-e:] (all of r when e == 0); its print pass keeps
    # the last e entries (none when e == 0).
    r = range(n)  # sliced lazily: n may be huge
    tail = r[n - e :] if printing else r[-e:]
    return np.asarray([*r[:e], *tail], dtype=np.int64)


def _take(a, idx: list):
    for axis, ix in enumerate(idx):
        if ix is not None:
            a = a[(slice(None),) * axis + (ix,)]
    return a


def _layout(items: list, shape: tuple, trunc: list, e: int, indent: int, width: int) -> str:
    """Nest the padded item strings into Paddle's bracketed layout."""
    linewidth = _opts["linewidth"]
    ndim = len(shape)
    strides = [1] * ndim
    for d in range(ndim - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]

    def block(offset: int, d: int, ind: int) -> str:
        n = shape[d]
        if d == ndim - 1:
            row = items[offset : offset + n]
            if trunc[d]:
                row = row[:e] + ["..."] + row[e:]
            per_line = max(1, (linewidth - ind) // (width + 2))
            if len(row) <= per_line:
                return "[" + ", ".join(row) + "]"
            lines = [", ".join(row[i : i + per_line]) for i in range(0, len(row), per_line)]
            return "[" + (",\n" + " " * (ind + 1)).join(lines) + "]"
        st = strides[d]
        subs = [block(offset + i * st, d + 1, ind + 1) for i in range(n)]
        if trunc[d]:
            subs = subs[:e] + ["..."] + subs[e:]
        return "[" + ("," + "\n" * (ndim - d - 1) + " " * (ind + 1)).join(subs) + "]"

    return block(0, 0, indent)


def _format_empty(shape: tuple, indent: int) -> str:
    if shape[0] == 0 or len(shape) == 1:
        return "[]"
    sub = _format_empty(shape[1:], indent + 1)
    return "[" + ("," + "\n" * (len(shape) - 1) + " " * (indent + 1)).join([sub] * shape[0]) + "]"
