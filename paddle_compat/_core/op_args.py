"""How a Paddle-style call's arguments bind to an op's parameters: by position or keyword,
argument aliases (``input`` for ``x``), Paddle's ``name`` (dropped) and ``out=`` (written by
``write_out``), varargs, and calls in another op's form (``Overload``, returned by an op's
``prebind``); static arguments as the hashable key parts of a kernel (``hashable``)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import autograd, trace_state
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


# -- static arguments as cache-key parts ------------------------------------------------------


def hashable(v):
    """Static argument -> hashable cache-key form (lists -> tuples, Tensors -> values)."""
    if isinstance(v, Tensor):
        trace_state.check_concrete(v, "Using a Tensor as a static argument (shape/axis/...)")
        a = np.asarray(v._value)
        return hashable(a.item() if a.ndim == 0 else a.tolist())
    if isinstance(v, list | tuple):
        return tuple(hashable(x) for x in v)
    if isinstance(v, np.ndarray):
        return hashable(v.tolist())
    if isinstance(v, np.generic):
        return hashable(v.item())
    if isinstance(v, dict):
        return tuple(sorted((k, hashable(x)) for k, x in v.items()))
    if isinstance(v, slice):
        return ("__slice__", hashable(v.start), hashable(v.stop), hashable(v.step))
    if v.__class__ is float and v == 0.0 and math.copysign(1.0, v) < 0:
        return _NEGATIVE_ZERO  # -0.0 == 0.0 as a key: another kernel (paddle.full(s, -0.0))
    return v


_NEGATIVE_ZERO = ("__-0.0__",)


def unhash(v):
    """A key part from ``hashable`` -> the value the op function takes."""
    if v.__class__ is tuple and v == _NEGATIVE_ZERO:
        return -0.0
    if isinstance(v, tuple) and len(v) == 4 and v[0] == "__slice__":
        return slice(unhash(v[1]), unhash(v[2]), unhash(v[3]))
    if isinstance(v, tuple):
        return tuple(unhash(x) for x in v)
    return v
