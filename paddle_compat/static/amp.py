"""``paddle.static.amp``: of Paddle's static-graph AMP API only ``fp16_guard``, which model code
(PaddleClas's ResNet) calls in dynamic mode too. Legacy static mode is not provided, so the
rest of the module (``decorate``, ``CustomOpLists``, ``bf16``, ...) is absent: use
``paddle.amp``."""

from __future__ import annotations

import contextlib

__all__ = ["fp16_guard"]


@contextlib.contextmanager
def fp16_guard():
    """Marks the ops a static-mode AMP program may cast to float16; in dynamic mode it does
    nothing (as in Paddle: the dtypes inside are unchanged)."""
    yield
