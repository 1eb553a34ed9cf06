"""Paddle 3.x's PIR program file (``<prefix>.json``, ``paddle.jit.save`` with PIR on).

Layout measured on Paddle 3.3.1: ``{"base_code": {"magic": "pir", "version": N},
"program": {"regions": [{"blocks": [{"args": [], "ops": [...]}]}]}}``. An op is
``{"#": "<dialect>.<name>", "A": [{"N": name, "AT": attr}], "I": [{"%": id}], "O": [{"%": id,
"TT": type}]}`` with dialect 0 = ``builtin`` and 1 = ``pd_op``; ``"#": "p"`` is a
``builtin.parameter`` (``A = [.., .., .., name]``, ``OA[0]``: persistable). Input ``%0`` is an
absent optional input. Attributes are ``{"#": "0.a_i32", "D": value}`` (arrays nest); types
``{"#": "0.t_dtensor", "D": [dtype, shape, layout, lod, offset]}`` or ``0.t_vec``.
"""

from __future__ import annotations

import json

import numpy as np

from .program import Block, Op, Program, ProgramError, Var

_DIALECTS = {"0": "builtin", "1": "pd_op", "2": "cf", "3": "pd_op_custom"}
_DTYPES = {
    "t_f32": "float32",
    "t_f64": "float64",
    "t_f16": "float16",
    "t_bf16": "bfloat16",
    "t_i64": "int64",
    "t_i32": "int32",
    "t_i16": "int16",
    "t_i8": "int8",
    "t_ui8": "uint8",
    "t_bool": "bool",
    "t_c64": "complex64",
    "t_c128": "complex128",
}
SUPPORTED_VERSIONS = range(1, 8)


def _name(tag: str) -> str:
    d, _, rest = tag.partition(".")
    if not rest:
        raise ProgramError(f"malformed PIR program: op tag {tag!r}")
    return f"{_DIALECTS.get(d, 'dialect' + d)}.{rest}"


def _attr(a):
    """A serialized attribute -> Python value."""
    if isinstance(a, dict) and "#" in a:
        kind, d = a["#"], a.get("D")
        if kind.endswith("a_array"):
            return [_attr(x) for x in d or []]
        if kind.endswith(("a_f32", "a_f64")) and isinstance(d, str):
            return float(d)  # "inf", "nan"
        return _attr(d) if isinstance(d, dict | list) else d
    if isinstance(a, list):
        return [_attr(x) for x in a]
    return a


def _type(t) -> tuple[list[int], np.dtype] | list:
    """A value type -> (shape, dtype), or a list of them for ``t_vec``."""
    if not isinstance(t, dict):
        raise ProgramError("malformed PIR program: a value without a type")
    kind, d = t.get("#", ""), t.get("D")
    if kind.endswith("t_vec"):
        return [_type(x) for x in d or []]
    if kind.endswith("t_dtensor") and isinstance(d, list) and len(d) >= 2:
        tag = d[0].get("#", "") if isinstance(d[0], dict) else ""
        dt = _DTYPES.get(tag.partition(".")[2])
        if dt is None:
            raise ProgramError(f"malformed PIR program: unsupported dtype {tag!r}")
        if not isinstance(d[1], list) or not all(isinstance(x, int) for x in d[1]):
            raise ProgramError("malformed PIR program: a tensor type with a bad shape")
        return [int(x) for x in d[1]], np.dtype(dt) if dt != "bfloat16" else _bf16()
    raise ProgramError(f"malformed PIR program: unsupported value type {kind!r}")


def _bf16():
    import ml_dtypes

    return np.dtype(ml_dtypes.bfloat16)


def _ids(items) -> list:
    if not isinstance(items, list):
        raise ProgramError("malformed PIR program: op inputs/outputs are not a list")
    out = []
    for x in items:
        if not isinstance(x, dict) or not isinstance(x.get("%"), int):
            raise ProgramError("malformed PIR program: a value reference without a number")
        out.append(x["%"] or None)
    return out


def is_pir(raw: bytes) -> bool:
    head = raw[:4096]
    return b'"base_code"' in head and b'"pir"' in head


def parse(raw: bytes) -> Program:
    try:
        doc = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise ProgramError(f"the PIR program is not valid JSON ({e})") from None
    except RecursionError:
        raise ProgramError("the PIR program nests too deeply to be a program") from None
    try:
        return _parse(doc)
    except RecursionError:
        raise ProgramError("the PIR program nests too deeply to be a program") from None


def _parse(doc) -> Program:
    try:
        base = doc["base_code"]
        if base.get("magic") != "pir":
            raise ProgramError("not a PIR program (base_code.magic is not 'pir')")
        if base.get("version") not in SUPPORTED_VERSIONS:
            raise ProgramError(f"unsupported PIR program version {base.get('version')}")
        regions = doc["program"]["regions"]
        blocks = regions[0]["blocks"]
        raw_ops = blocks[0]["ops"]
    except (KeyError, IndexError, TypeError, AttributeError):
        raise ProgramError("malformed PIR program: no program.regions[0].blocks[0].ops") from None
    if len(regions) != 1 or len(blocks) != 1:
        raise ProgramError("the PIR program has several top-level blocks; only one is supported")
    top = _Top()
    ops, yields = _ops(raw_ops, top)
    if yields is not None:
        raise ProgramError("malformed PIR program: cf.yield outside a control-flow block")
    top.params.sort(key=lambda v: v.name)
    outs = [v for _, v in sorted(top.outs, key=lambda t: t[0])]
    return Program("pir", ops, top.params, top.consts, top.ins, outs)


class _Top:
    """What only the top-level block holds: parameters, feeds and fetches."""

    def __init__(self):
        self.params, self.consts, self.ins, self.outs = [], [], [], []


def _ops(raw_ops, top: _Top | None) -> tuple[list[Op], list | None]:
    """A block's ops (``top``: the program's own block, else a sub-block) and the value keys
    of its closing ``cf.yield`` (None when it has none)."""
    if not isinstance(raw_ops, list):
        raise ProgramError("malformed PIR program: a block's ops are not a list")
    ops, yields = [], None
    for o in raw_ops:
        if not isinstance(o, dict) or not isinstance(o.get("#"), str):
            raise ProgramError("malformed PIR program: an op without a name")
        if yields is not None:
            raise ProgramError("malformed PIR program: ops after a block's cf.yield")
        if o["#"] == "p":
            if top is None:
                raise ProgramError("malformed PIR program: a parameter inside a sub-block")
            a, oa, res = o.get("A"), o.get("OA"), o.get("O")
            if not (isinstance(a, list) and a and isinstance(res, dict)):
                raise ProgramError("malformed PIR program: a parameter without name or value")
            shape, dt = _type(res.get("TT"))
            v = Var(str(a[-1]), shape, dt, bool(oa and oa[0]), key=_ids([res])[0])
            (top.params if v.persistable else top.consts).append(v)
            continue
        name = _name(o["#"])
        attrs = {}
        for item in o.get("A") or []:
            if not isinstance(item, dict) or "N" not in item:
                raise ProgramError(f"malformed PIR program: a bad attribute of {name}")
            if item["N"] != "struct_name":
                attrs[item["N"]] = _attr(item.get("AT"))
        inputs = _ids(o.get("I", []))
        if name == "cf.yield":
            yields = inputs
            continue
        results = o.get("O", [])
        outputs = _ids(results)
        if name in ("pd_op.data", "pd_op.fetch"):
            if top is None:
                raise ProgramError(f"malformed PIR program: {name} inside a sub-block")
            shape, dt = _type(results[0].get("TT"))
            if name == "pd_op.data":
                top.ins.append(Var(str(attrs.get("name")), shape, dt, key=outputs[0]))
            else:
                v = Var(str(attrs.get("name")), shape, dt, key=inputs[0])
                top.outs.append((attrs.get("col", len(top.outs)), v))
            continue
        ops.append(Op(name, inputs, outputs, attrs, _blocks(o, name)))
    return ops, yields


def _blocks(o: dict, name: str) -> list[Block]:
    """The sub-blocks of a control-flow op, one per region."""
    regions = o.get("regions") or []
    if not isinstance(regions, list):
        raise ProgramError(f"malformed PIR program: {name}'s regions are not a list")
    out = []
    for r in regions:
        blocks = r.get("blocks") if isinstance(r, dict) else None
        if not isinstance(blocks, list) or len(blocks) != 1 or not isinstance(blocks[0], dict):
            raise ProgramError(f"malformed PIR program: a region of {name} without one block")
        b = blocks[0]
        args = b.get("args") or []
        if not isinstance(args, list) or not all(
            isinstance(x, dict) and isinstance(x.get("#"), int) for x in args
        ):
            raise ProgramError(f"malformed PIR program: bad block arguments in {name}")
        ops, yields = _ops(b.get("ops"), None)
        out.append(Block([x["#"] for x in args], ops, yields or []))
    return out
