"""How a Paddle-style call's arguments bind to an op's parameters: by position or keyword,
argument aliases (``input`` for ``x``), Paddle's ``name`` (dropped) and ``out=`` (written by
``write_out``), varargs, and calls in another op's form (``Overload``, returned by an op's
``prebind``)."""

from __future__ import annotations

from typing import NamedTuple

from . import autograd
from .tensor import Tensor


class Overload(NamedTuple):
    """What an op's ``prebind`` returns when a call has another op's form (Paddle's
    overloaded APIs): ``call_op`` runs ``op`` on ``args``/``kwargs`` instead (``out`` in
    ``kwargs`` takes the result)."""

    op: str
    args: tuple
    kwargs: dict


def bind_args(od, args, kwargs) -> tuple[dict, object]:
    """(the function's arguments, the ``out`` Tensor or None) of a call; ``name`` is dropped
    (every op accepts it as a keyword, as nearly all of Paddle's do)."""
    if od.varargs is not None:
        n = od.n_positional
        args, rest = args[:n], args[n:]
        if rest:
            kwargs = {**kwargs, od.varargs: tuple(rest)}
    if len(args) > len(od.positional):
        raise TypeError(
            f"{od.name}() takes {len(od.positional)} positional arguments but {len(args)} "
            "were given"
        )
    vals = dict(od.defaults)
    out = None
    for k, v in zip(od.positional, args):
        if k in od.reserved:
            out = v if k == "out" else out
        else:
            vals[k] = v
    for k, v in kwargs.items():
        if k not in od.defaults and k not in od.required:
            if k == "out" and "out" in od.reserved:
                out = v
                continue
            k2 = od.aliases.get(k)
            if k2 is None or k2 not in vals and k2 not in od.required:
                if k == "name":
                    continue
                raise TypeError(f"{od.name}() got an unexpected keyword argument '{k}'")
            k = k2
        vals[k] = v
    if len(vals) < len(od.params):
        missing = [p for p in od.required if p not in vals]
        raise TypeError(f"{od.name}() missing required argument(s): {', '.join(missing)}")
    return vals, out


def write_out(od, result, out):
    """Paddle's ``out=``: each ``out`` Tensor takes its result's value, dtype, shape and
    autograd history (as an in-place op would); the result is returned."""
    results = result if isinstance(result, tuple | list) else (result,)
    outs = out if isinstance(out, tuple | list) else (out,)
    if len(outs) != len(results) or not all(isinstance(t, Tensor) for t in outs):
        raise TypeError(
            f"{od.name}(): out must be a Tensor{'' if len(results) == 1 else ' tuple'} for its "
            f"{len(results)} result(s), but received {type(out).__name__}"
        )
    for t, r in zip(outs, results):
        autograd.rebind_inplace(t, r)
        t.stop_gradient = r.stop_gradient
    return result
