"""Paddle's PIR text form of static Programs and Variables (``print(program)``): data and
parameter ops, recorded calls with their non-Tensor arguments as attributes, and the
initializer ops of a startup program."""

from __future__ import annotations

import jax

from .._core import dtype as _dt
from .._core.tensor import Tensor


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _type_str(shape, dtype) -> str:
    dims = "x".join(str(d) for d in shape)
    name = _dt.to_dtype(dtype).name
    short = {
        "float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
        "int32": "i32", "int64": "i64", "int16": "i16", "int8": "i8", "uint8": "ui8",
        "bool": "b", "complex64": "c64", "complex128": "c128",
    }.get(name, name)  # fmt: skip
    return f"tensor<{dims + 'x' if dims else ''}{short}>"


def _fmt_attr(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list | tuple):
        return "[" + ",".join(_fmt_attr(x) for x in v) + "]"
    if isinstance(v, _dt.DType):
        return v.name
    return str(v)


def _is_attr(op, k, v) -> bool:
    """Printed attributes: non-Tensor arguments, flags always, others when not default."""
    leaves = jax.tree_util.tree_leaves(v, is_leaf=_is_tensor)
    if v is None or any(isinstance(x, Tensor) for x in leaves):
        return False
    return (
        isinstance(v, bool)
        or op.od.defaults.get(k, _MISSING) is not v
        and not (k in op.od.defaults and _same(op.od.defaults[k], v))
    )


_MISSING = object()


def _same(a, b) -> bool:
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # noqa: BLE001 - arrays and other values without a plain ==
        return False


def _init_lines(name, p, init, ref, ty) -> list[str]:
    """The startup ops that fill parameter ``name`` (Paddle's PIR text)."""
    dt, pt = p.dtype.name, ty(p)
    one = _type_str([1], p._val.dtype)
    const = "place:Place(cpu),stop_gradient:[true]"
    owned = "persistable:[true],place:Place(undefined:0)"
    shape = ",".join(str(d) for d in p.shape)
    dims, lo, hi, u = ((name, k) for k in ("dims", "lo", "hi", "u"))
    if init is not None and init[0] == "uniform":
        lines = [
            f'    ({ref(dims)}) = "pd_op.full_int_array" () {{dtype:int64,{const},'
            f"value:[{shape}]}} : () -> tensor<{len(p.shape)}xi64>",
            f'    ({ref(lo)}) = "pd_op.full" () {{dtype:{dt},place:Place(cpu),shape:[1],'
            f"stop_gradient:[true],value:{init[1]:g}}} : () -> {one}",
            f'    ({ref(hi)}) = "pd_op.full" () {{dtype:{dt},place:Place(cpu),shape:[1],'
            f"stop_gradient:[true],value:{init[2]:g}}} : () -> {one}",
            f'    ({ref(u)}) = "pd_op.uniform" ({ref(dims)}, {ref(lo)}, {ref(hi)}) {{dtype:{dt},'
            f"{owned},seed:0,stop_gradient:[true]}} : (tensor<{len(p.shape)}xi64>, {one}, "
            f"{one}) -> {pt}",
        ]
    elif init is not None and init[0] == "full":
        lines = [
            f'    ({ref(u)}) = "pd_op.full" () {{dtype:{dt},{owned},shape:[{shape}],'
            f"stop_gradient:[true],value:{init[1]:g}}} : () -> {pt}"
        ]
    else:
        return [f'    () = "builtin.set_parameter" () {{parameter_name:"{name}"}} : () -> {pt}']
    lines.append(
        f'    () = "builtin.set_parameter" ({ref(u)}) {{parameter_name:"{name}"}} : ({pt}) -> '
    )
    return lines


def _format(prog) -> str:
    ids: dict[int, int] = {}
    lines = []

    count = iter(range(1 << 30))

    def ref(t, new: bool = False):
        """%n of a value; ``new``: it is (re)defined here (an in-place write: a new value)."""
        k = t if isinstance(t, tuple) else id(t)
        if new or k not in ids:
            ids[k] = next(count)
        return f"%{ids[k]}"

    def ty(t):
        return _type_str(t._val.shape, t._val.dtype)

    for name, (p, _, init, _) in prog._inits.items():  # a startup program
        lines.extend(_init_lines(name, p, init, ref, ty))
    for name in sorted(prog._params):
        p = prog._params[name]
        sg = _fmt_attr(p.stop_gradient)
        lines.append(
            f'    ({ref(p)}) = "builtin.parameter" () {{is_distributed:[false],'
            f'is_parameter:[true],need_clip:[true],parameter_name:"{name}",'
            f"persistable:[true],stop_gradient:[{sg}],trainable:[{_fmt_attr(not p.stop_gradient)}]}}"
            f" : () -> {ty(p)}"
        )
    for op in prog._ops:
        outs = op.output_vars()
        if op.kind == "data":
            v = outs[0]
            shape = ",".join(str(d) for d in v._val.shape)
            lines.append(
                f'    ({ref(v)}) = "pd_op.data" () {{dtype:{v.dtype.name},name:"{v.name}",'
                f"place:Place(undefined:0),shape:[{shape}],stop_gradient:"
                f"[{_fmt_attr(v.stop_gradient)}]}} : () -> {ty(v)}"
            )
            continue
        ins = op.inputs()
        attrs = {k: v for k, v in op.vals.items() if _is_attr(op, k, v)}
        sg = ",".join(_fmt_attr(v.stop_gradient) for v in outs)
        attrs["stop_gradient"] = [sg] if outs else []
        body = ",".join(
            f"{k}:[{sg}]" if k == "stop_gradient" else f"{k}:{_fmt_attr(v)}"
            for k, v in sorted(attrs.items())
        )
        in_refs = ", ".join(ref(t) for t in ins)
        out_refs = ", ".join(ref(v, new=True) for v in outs)
        lines.append(
            f'    ({out_refs}) = "{op.op_name}" ({in_refs}) {{{body}}} : '
            f"({', '.join(ty(t) for t in ins)}) -> {', '.join(ty(v) for v in outs)}"
        )
    return "{\n" + "\n".join(lines) + "\n}\n"
