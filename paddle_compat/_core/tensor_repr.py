"""``print(tensor)`` in Paddle's exact format (placeholder, replaced by the full formatter)."""

import numpy as np


def tensor_to_string(t) -> str:
    from .trace_state import is_tracer

    head = (f"Tensor(shape={list(t.shape)}, dtype={t.dtype.name}, place={t.place}, "
            f"stop_gradient={t.stop_gradient}")
    if is_tracer(t._value):
        return head + ", <traced>)"
    return head + ",\n       " + np.array2string(np.asarray(t._value), separator=", ") + ")"


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None):
    """Set how tensors print (being written)."""
