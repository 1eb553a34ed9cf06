"""paddle.autograd.saved_tensors_hooks."""

from __future__ import annotations

from .._core import autograd as _ag


class saved_tensors_hooks:  # noqa: N801 - Paddle's name
    """Within the ``with`` block, every Tensor saved for backward goes through
    ``pack_hook(tensor)`` when it is saved, and ``unpack_hook(packed)`` (which must return a
    Tensor) when the backward needs it, once per use (each ``backward`` with
    ``retain_graph=True``, each ``ctx.saved_tensor()``). Saved are the Tensor inputs of each
    op that records a backward node, and what a PyLayer passes to ``save_for_backward``."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        _ag._SAVED_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        _ag._SAVED_HOOKS.pop()
        return False
