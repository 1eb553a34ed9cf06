"""paddle.nn.clip: gradient-clipping strategies and ``clip_by_norm``."""

from __future__ import annotations

from .._core import trace_state
from .._core.tensor import Tensor
from ._clip import (  # noqa: F401
    ClipGradBase,
    ClipGradByGlobalNorm,
    ClipGradByNorm,
    ClipGradByValue,
    GradientClipBase,
    clip_by_norm_array,
)

GradientClipByValue = ClipGradByValue
GradientClipByNorm = ClipGradByNorm
GradientClipByGlobalNorm = ClipGradByGlobalNorm


def clip_by_norm(x: Tensor, max_norm: float, name: str | None = None) -> Tensor:
    """``x`` rescaled so that its L2 norm is at most ``max_norm`` (no gradient)."""
    return Tensor(clip_by_norm_array(trace_state.read(x), float(max_norm)))
