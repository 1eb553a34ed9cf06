"""Paddle 2.x's ``.pdmodel``: a ``ProgramDesc`` protobuf (Paddle's ``framework.proto``), read
with a small wire-format reader (no protobuf dependency; nothing in the file is executed).

Only the fields an inference program needs are decoded: blocks -> vars (name, persistable,
dtype, dims) and ops (type, named input/output slots, attributes). Unknown fields are skipped
by wire type, as protobuf readers do. Every length is checked against the bytes left.
"""

from __future__ import annotations

import struct

from .program import Block, Op, Program, ProgramError, Var

_MAX_DEPTH = 8
_LOD_TENSOR_ARRAY = 13  # VarType.Type of a tensor array (a list appended in a loop)

# OpDesc.Attr value fields by number -> (kind, decoder). Repeated ones may come packed.
_ATTR_FIELDS = {
    3: ("i", "int32"),
    4: ("f", "float"),
    5: ("s", "string"),
    6: ("ints", "int32"),
    7: ("floats", "float"),
    8: ("strings", "string"),
    10: ("b", "bool"),
    11: ("bools", "bool"),
    12: ("block_idx", "int32"),
    13: ("l", "int64"),
    14: ("blocks_idx", "int32"),
    15: ("longs", "int64"),
    16: ("float64s", "double"),
    17: ("var_name", "string"),
    18: ("vars_name", "string"),
    19: ("float64", "double"),
    20: ("scalar", "scalar"),
    21: ("scalars", "scalar"),
}
_REPEATED = {6, 7, 8, 11, 14, 15, 16, 18, 21}
# AttrType enum -> the field holding the value
_FIELD_OF_TYPE = {
    0: 3,
    1: 4,
    2: 5,
    3: 6,
    4: 7,
    5: 8,
    6: 10,
    7: 11,
    8: 12,
    9: 13,
    10: 14,
    11: 15,
    12: 16,
    13: 17,
    14: 18,
    15: 19,
    16: 20,
    17: 21,
}


class _Reader:
    """Protobuf wire format over a bytes slice: (field, wire type, value) triples."""

    def __init__(self, buf: bytes, what: str):
        self.buf, self.pos, self.what = buf, 0, what

    def _fail(self, why: str):
        raise ProgramError(f"malformed {self.what}: {why} at byte {self.pos}")

    def varint(self) -> int:
        result = shift = 0
        buf = self.buf
        while True:
            if self.pos >= len(buf):
                self._fail("truncated varint")
            b = buf[self.pos]
            self.pos += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result
            if shift > 63:
                self._fail("varint longer than 10 bytes")

    def fields(self):
        while self.pos < len(self.buf):
            key = self.varint()
            field, wire = key >> 3, key & 7
            if wire == 0:
                yield field, wire, self.varint()
            elif wire == 1:
                yield field, wire, self._take(8)
            elif wire == 2:
                yield field, wire, self._take(self.varint())
            elif wire == 5:
                yield field, wire, self._take(4)
            else:
                self._fail(f"unsupported wire type {wire} (field {field})")

    def _take(self, n: int) -> bytes:
        if n > len(self.buf) - self.pos:
            self._fail(f"a length of {n} bytes runs past the end ({len(self.buf)} bytes)")
        out = self.buf[self.pos : self.pos + n]
        self.pos += n
        return out


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1 if bits == 32 else (1 << 64) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def _scalars(kind: str, wire: int, v) -> list:
    """One wire value of a scalar field as a list (packed repeated fields hold several)."""
    if kind == "string":
        try:
            return [bytes(v).decode()]
        except UnicodeDecodeError:
            raise ProgramError("malformed .pdmodel: a string attribute is not UTF-8") from None
    if kind == "scalar":
        return [_scalar(v)]
    if wire == 2:  # packed
        r, out = _Reader(v, ".pdmodel packed field"), []
        if kind == "float":
            if len(v) % 4:
                raise ProgramError("malformed .pdmodel: packed floats not a multiple of 4")
            return list(struct.unpack(f"<{len(v) // 4}f", v))
        if kind == "double":
            if len(v) % 8:
                raise ProgramError("malformed .pdmodel: packed doubles not a multiple of 8")
            return list(struct.unpack(f"<{len(v) // 8}d", v))
        while r.pos < len(v):
            out.append(_int_kind(kind, r.varint()))
        return out
    if kind == "float":
        return [struct.unpack("<f", v)[0]] if wire == 5 else _bad(kind, wire)
    if kind == "double":
        return [struct.unpack("<d", v)[0]] if wire == 1 else _bad(kind, wire)
    return [_int_kind(kind, v)] if wire == 0 else _bad(kind, wire)


def _bad(kind, wire):
    raise ProgramError(f"malformed .pdmodel: a {kind} attribute with wire type {wire}")


def _int_kind(kind: str, v: int):
    if kind == "bool":
        return bool(v)
    return _signed(v, 32 if kind == "int32" else 64)


def _scalar(buf: bytes):
    """``Scalar {type, b, i, r, c}`` -> Python bool/int/float/complex."""
    out = {}
    for f, w, v in _Reader(buf, ".pdmodel Scalar").fields():
        if f in (1, 2, 3) and w == 0:
            out[f] = v
        elif f == 4 and w == 1:
            out[4] = struct.unpack("<d", v)[0]
        elif f == 5 and w == 2:
            parts = {g: struct.unpack("<d", x)[0] for g, ww, x in _Reader(v, "Complex").fields()}
            out[5] = complex(parts.get(1, 0.0), parts.get(2, 0.0))
    kind = out.get(1, 0)
    if kind == 1:
        return bool(out.get(2, 0))
    if kind == 2:
        return _signed(out.get(3, 0), 64)
    if kind == 4:
        return out.get(5, 0j)
    return out.get(4, 0.0)


def _attr(buf: bytes) -> tuple[str, object]:
    name, atype, vals = None, None, {}
    for f, w, v in _Reader(buf, ".pdmodel OpDesc.Attr").fields():
        if f == 1 and w == 2:
            name = bytes(v).decode(errors="replace")
        elif f == 2 and w == 0:
            atype = v
        elif f in _ATTR_FIELDS:
            vals.setdefault(f, []).extend(_scalars(_ATTR_FIELDS[f][1], w, v))
    if name is None or atype not in _FIELD_OF_TYPE:
        raise ProgramError(f"malformed .pdmodel: attribute {name!r} of unknown type {atype}")
    field = _FIELD_OF_TYPE[atype]
    got = vals.get(field, [])
    if field in _REPEATED:
        return name, got
    if not got:
        return name, None
    return name, got[-1]


def _slots(buf: bytes) -> tuple[str, list[str]]:
    param, args = "", []
    for f, w, v in _Reader(buf, ".pdmodel OpDesc.Var").fields():
        if f == 1 and w == 2:
            param = bytes(v).decode(errors="replace")
        elif f == 2 and w == 2:
            args.append(bytes(v).decode(errors="replace"))
    return param, args


def _op(buf: bytes) -> dict:
    op = {"type": None, "inputs": {}, "outputs": {}, "attrs": {}}
    for f, w, v in _Reader(buf, ".pdmodel OpDesc").fields():
        if f == 3 and w == 2:
            op["type"] = bytes(v).decode(errors="replace")
        elif f in (1, 2) and w == 2:
            k, args = _slots(v)
            op["inputs" if f == 1 else "outputs"][k] = args
        elif f == 4 and w == 2:
            k, val = _attr(v)
            op["attrs"][k] = val
    if not op["type"]:
        raise ProgramError("malformed .pdmodel: an op without a type")
    return op


def _tensor_desc(buf: bytes) -> tuple[int | None, list[int]]:
    dtype, dims = None, []
    for f, w, v in _Reader(buf, ".pdmodel TensorDesc").fields():
        if f == 1 and w == 0:
            dtype = v
        elif f == 2:
            dims.extend(_scalars("int64", w, v))
    return dtype, dims


def _var(buf: bytes) -> Var:
    name, persistable, vtype, dtype, dims = None, False, None, None, []
    for f, w, v in _Reader(buf, ".pdmodel VarDesc").fields():
        if f == 1 and w == 2:
            name = bytes(v).decode(errors="replace")
        elif f == 3 and w == 0:
            persistable = bool(v)
        elif f == 2 and w == 2:
            for g, ww, x in _Reader(v, ".pdmodel VarType").fields():
                if g == 1 and ww == 0:
                    vtype = x
                elif g == 3 and ww == 2:  # DenseTensorDesc {tensor, lod_level}
                    for h, hw, y in _Reader(x, ".pdmodel DenseTensorDesc").fields():
                        if h == 1 and hw == 2:
                            dtype, dims = _tensor_desc(y)
    if name is None:
        raise ProgramError("malformed .pdmodel: a variable without a name")
    return Var(name, dims, dtype, persistable, vtype)


def parse(buf: bytes) -> Program:
    """The program: the main block's vars and ops, in order; an op with a ``sub_block``
    attribute (``while``, ``conditional_block``) holds that block's ops (``Op.blocks``)."""
    blocks = []
    for f, w, v in _Reader(buf, ".pdmodel ProgramDesc").fields():
        if f == 1 and w == 2:
            blocks.append(v)
    if not blocks:
        raise ProgramError("malformed .pdmodel: the program has no block")
    vars_, raw = {}, []
    arrays = set()  # LOD_TENSOR_ARRAY variables of every block
    for k, block in enumerate(blocks):
        ops = []
        for f, w, v in _Reader(block, ".pdmodel BlockDesc").fields():
            if f == 3 and w == 2:
                var = _var(v)
                if k == 0:
                    vars_[var.name] = var
                if var.vtype == _LOD_TENSOR_ARRAY:
                    arrays.add(var.name)
            elif f == 4 and w == 2:
                ops.append(_op(v))
        raw.append(ops)
    used = set()

    def nest(ops: list[dict]) -> list[Op]:
        out = []
        for o in ops:
            sub = []
            if "sub_block" in o["attrs"]:
                k = o["attrs"]["sub_block"]
                if not isinstance(k, int) or not 0 < k < len(raw) or k in used:
                    raise ProgramError(
                        f"malformed .pdmodel: {o['type']}'s sub_block {k!r} is not an unused "
                        f"block of the program's {len(raw)}"
                    )
                used.add(k)
                sub = [Block([], nest(raw[k]), [])]
            out.append(Op(o["type"], o["inputs"], o["outputs"], o["attrs"], sub))
        return out

    main = [o for o in raw[0] if o["type"] in ("feed", "fetch")]
    program = Program.from_legacy(vars_, main)
    try:
        program.ops = nest([o for o in raw[0] if o["type"] not in ("feed", "fetch")])
    except RecursionError:
        raise ProgramError("malformed .pdmodel: its blocks nest too deeply") from None
    program.arrays = sorted(arrays)
    return program
