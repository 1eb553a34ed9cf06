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

from .program import Op, Program, ProgramError, Var

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
        raise ProgramError("the PIR program has several blocks; only one block is supported")
    params, consts, ins, outs, ops = [], [], [], [], []
    for o in raw_ops:
        if not isinstance(o, dict) or not isinstance(o.get("#"), str):
            raise ProgramError("malformed PIR program: an op without a name")
        if o["#"] == "p":
            a, oa, res = o.get("A"), o.get("OA"), o.get("O")
            if not (isinstance(a, list) and a and isinstance(res, dict)):
                raise ProgramError("malformed PIR program: a parameter without name or value")
            shape, dt = _type(res.get("TT"))
            v = Var(str(a[-1]), shape, dt, bool(oa and oa[0]), key=_ids([res])[0])
            (params if v.persistable else consts).append(v)
            continue
        if "regions" in o and o["regions"]:
            raise ProgramError(f"op {_name(o['#'])} has sub-blocks (control flow): unsupported")
        name = _name(o["#"])
        attrs = {}
        for item in o.get("A") or []:
            if not isinstance(item, dict) or "N" not in item:
                raise ProgramError(f"malformed PIR program: a bad attribute of {name}")
            if item["N"] != "struct_name":
                attrs[item["N"]] = _attr(item.get("AT"))
        inputs = _ids(o.get("I", []))
        results = o.get("O", [])
        outputs = _ids(results)
        if name == "pd_op.data":
            shape, dt = _type(results[0].get("TT"))
            ins.append(Var(str(attrs.get("name")), shape, dt, key=outputs[0]))
            continue
        if name == "pd_op.fetch":
            shape, dt = _type(results[0].get("TT"))
            outs.append(
                (attrs.get("col", len(outs)), Var(str(attrs.get("name")), shape, dt, key=inputs[0]))
            )
            continue
        ops.append(Op(name, inputs, outputs, attrs))
    params.sort(key=lambda v: v.name)
    return Program(
        "pir", ops, params, consts, ins, [v for _, v in sorted(outs, key=lambda t: t[0])]
    )
