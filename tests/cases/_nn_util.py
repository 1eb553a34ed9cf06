"""Shared by the nn.functional case programs: ``run`` is ``_util.backprop`` (numpy inputs as
Tensors, float ones requiring grad; backward of the op table's weighted loss) returning the
outputs and every input gradient; ``_register`` turns a table
``name -> (fn, inputs...)`` into ``case_<name>`` functions in ``namespace`` (the caller's globals)."""

from _util import backprop

import paddle


def T(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


def run(fn, *arrays, grad=True):
    """``_util.backprop`` (the op table's cotangent weights) as ``{"out": [...], "grads": [...]}``."""
    res = backprop(fn, *arrays, grad=grad)
    out = res[0] if isinstance(res[0], list) else [res[0]]
    return {"out": out, "grads": res[1]} if grad else {"out": out}


def register(table, namespace: dict, prefix="", grad=True):
    for name, (fn, *arrays) in table.items():

        def case(fn=fn, arrays=arrays):
            return run(fn, *arrays, grad=grad)

        namespace[f"case_{prefix}{name}"] = case
