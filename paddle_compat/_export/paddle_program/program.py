"""The program read from either of Paddle's formats, in one form for the replay.

``Program``: ``format`` ("pir" or "legacy"), ``ops`` (``Op``: Paddle's op name as the table
spells it, inputs, outputs, attributes), ``params`` (persistable parameters in ``.pdiparams``
order: sorted by name, as Paddle writes them), ``consts`` (non-persistable parameters: empty
arrays, e.g. an RNN's dropout state), ``inputs``/``outputs`` (``Var``: name, key of the value,
shape with -1 for dynamic dims, dtype). PIR values are keyed by their ``%`` number, legacy ones
by variable name. PIR op inputs are a list of keys (None: an absent optional input); legacy
ones a dict slot -> list of names. A PIR control-flow op (``pd_op.if``, ``pd_op.while``) holds
its sub-blocks (``Block``: argument keys, ops, and the keys its ``cf.yield`` hands back).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..._core import trace_state
from ..._io._tensor_binary import DTYPE_OF_VAR_TYPE


class ProgramError(RuntimeError):
    """A Paddle program file that cannot be read or run (Paddle's loaders raise RuntimeError)."""


class DataDependentStep(ProgramError, trace_state.DataDependentError):
    """A step that needs, while the program is being compiled, a value computed from tensor
    data (a size, a tensor array's length): ``to_static`` (``full_graph=False``) and the
    Predictor then run the program's control flow on the host (to_static op by op, the
    Predictor in compiled segments), as they do for other data-dependent code."""


@dataclass
class Var:
    name: str
    shape: list[int]
    dtype: object  # numpy dtype (PIR) or VarType number (legacy, until resolved)
    persistable: bool = False
    vtype: int | None = None  # legacy VarType.Type (7: dense tensor, 9: feed, 10: fetch)
    key: object = None

    def np_dtype(self) -> np.dtype:
        if isinstance(self.dtype, np.dtype):
            return self.dtype
        if self.dtype not in DTYPE_OF_VAR_TYPE:
            raise ProgramError(f"variable {self.name!r} has an unsupported dtype {self.dtype}")
        return DTYPE_OF_VAR_TYPE[self.dtype]


@dataclass
class Op:
    type: str
    inputs: object
    outputs: object
    attrs: dict = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Block:
    """A sub-block of a control-flow op: its arguments (a ``while`` body's loop variables),
    its ops, and the values its closing ``cf.yield`` hands back to the op."""

    args: list
    ops: list[Op]
    yields: list


@dataclass
class Program:
    format: str
    ops: list[Op]
    params: list[Var]
    consts: list[Var]
    inputs: list[Var]
    outputs: list[Var]
    arrays: list[str] = field(default_factory=list)  # legacy tensor-array variables

    @classmethod
    def from_legacy(cls, vars_: dict, raw_ops: list[dict]) -> Program:
        feeds, fetches, ops = [], [], []
        for o in raw_ops:
            if o["type"] == "feed":
                name = (o["outputs"].get("Out") or [None])[0]
                if name not in vars_:
                    raise ProgramError(f"the feed op writes an undeclared variable {name!r}")
                feeds.append((o["attrs"].get("col") or 0, vars_[name]))
            elif o["type"] == "fetch":
                name = (o["inputs"].get("X") or [None])[0]
                if name not in vars_:
                    raise ProgramError(f"the fetch op reads an undeclared variable {name!r}")
                fetches.append((o["attrs"].get("col") or 0, vars_[name]))
            else:
                ops.append(Op(o["type"], o["inputs"], o["outputs"], o["attrs"]))
        persist = [v for v in vars_.values() if v.persistable and v.vtype not in (9, 10)]
        params = sorted(persist, key=lambda v: v.name)
        for v in vars_.values():
            v.key = v.name
        ins = [v for _, v in sorted(feeds, key=lambda t: t[0])]
        outs = [v for _, v in sorted(fetches, key=lambda t: t[0])]
        for v in (*params, *ins, *outs):
            v.dtype = v.np_dtype()
        return cls("legacy", ops, params, [], ins, outs)

    def op_types(self) -> list[str]:
        """Every op type of the program, sub-blocks included, in first-use order."""
        seen: dict[str, None] = {}

        def walk(ops):
            for o in ops:
                seen[o.type] = None
                for b in o.blocks:
                    walk(b.ops)

        walk(self.ops)
        return list(seen)
