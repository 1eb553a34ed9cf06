"""Gradient clipping: ClipGradByValue, ClipGradByNorm, ClipGradByGlobalNorm.

Each strategy is a pure function over the list of gradient arrays (``_clip_arrays``), so the
optimizer runs it inside its one fused compiled update; calling a strategy directly on
``[(param, grad), ...]`` runs the same function eagerly (compiled once per strategy and shapes).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._core import trace_state
from .._core.tensor import Tensor

__all__ = ["ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue"]

_LOW = (jnp.float16, jnp.bfloat16)


class ClipGradBase:
    """Base class of gradient-clipping strategies (Paddle's ``GradientClipBase``)."""

    def __str__(self) -> str:
        raise NotImplementedError

    def _fused_key(self):
        """Hashable description of the strategy (part of the compiled update's cache key)."""
        return None

    def _clip_arrays(self, grads: list, need_clip: tuple[bool, ...]) -> list:
        """Clipped gradient arrays (pure jax; ``need_clip[i]`` False leaves ``grads[i]``)."""
        raise NotImplementedError

    def _inplace(self) -> bool:
        """Whether Paddle writes the clipped gradient into the grad Tensor itself."""
        return False

    def _dygraph_clip(self, params_grads):
        pairs = [(p, g) for p, g in params_grads if g is not None]
        if not pairs:
            return []
        need = tuple(getattr(p, "need_clip", True) is not False for p, _ in pairs)
        arrays = [trace_state.read(g) for _, g in pairs]
        fn = _eager_fn(self._fused_key(), self, need)
        out = fn(arrays)
        result = []
        for (p, g), a, n in zip(pairs, out, need):
            if not n:
                result.append((p, g))
            elif self._inplace() and g.ndim != 0:
                g._set_value(a)
                result.append((p, g))
            elif self._inplace() and not self.auto_skip_clip:
                # Paddle's [1]-shaped scale turns a 0-d grad into shape [1]
                result.append((p, Tensor(a.reshape((1,)))))
            else:
                result.append((p, Tensor(a)))
        return result

    def __call__(self, params_grads):
        return self._dygraph_clip(params_grads)


GradientClipBase = ClipGradBase

_EAGER: dict = {}


def _eager_fn(key, clip, need):
    k = (key, need)
    fn = _EAGER.get(k) if key is not None else None
    if fn is None:
        fn = jax.jit(lambda arrays: clip._clip_arrays(list(arrays), need))
        if key is not None:
            _EAGER[k] = fn
    return fn


class ClipGradByValue(ClipGradBase):
    """Clip every gradient element into ``[min, max]`` (``min`` defaults to ``-max``)."""

    def __init__(self, max: float, min: float | None = None) -> None:  # noqa: A002
        super().__init__()
        if min is None:
            assert max > 0.0
            min = -max  # noqa: A001
        self.max = float(max)
        self.min = float(min)

    def __str__(self) -> str:
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"

    def _fused_key(self):
        return ("value", self.min, self.max)

    def _clip_arrays(self, grads, need_clip):
        return [
            jnp.clip(g, jnp.asarray(self.min, g.dtype), jnp.asarray(self.max, g.dtype)) if n else g
            for g, n in zip(grads, need_clip)
        ]


class ClipGradByNorm(ClipGradBase):
    """Rescale each gradient whose own L2 norm exceeds ``clip_norm`` down to that norm."""

    def __init__(self, clip_norm: float) -> None:
        super().__init__()
        self.clip_norm = float(clip_norm)

    def __str__(self) -> str:
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"

    def _fused_key(self):
        return ("norm", self.clip_norm)

    def _clip_arrays(self, grads, need_clip):
        return [clip_by_norm_array(g, self.clip_norm) if n else g for g, n in zip(grads, need_clip)]


def clip_by_norm_array(x, max_norm: float):
    """``x`` scaled by ``max_norm / ||x||`` when its L2 norm exceeds ``max_norm``."""
    ct = jnp.float32 if x.dtype in _LOW else x.dtype
    xc = x.astype(ct)
    norm = jnp.sqrt(jnp.sum(xc * xc))
    m = jnp.asarray(max_norm, ct)
    scale = jnp.where(norm > m, m / norm, jnp.asarray(1, ct))
    return (xc * scale).astype(x.dtype)


class ClipGradByGlobalNorm(ClipGradBase):
    """Rescale all gradients together so that their joint L2 norm is at most ``clip_norm``."""

    def __init__(
        self, clip_norm: float, group_name: str = "default_group", auto_skip_clip: bool = False
    ) -> None:
        super().__init__()
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        assert isinstance(auto_skip_clip, bool)
        self.auto_skip_clip = auto_skip_clip

    def __str__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"

    def _fused_key(self):
        return ("global", self.clip_norm, self.auto_skip_clip)

    def _inplace(self) -> bool:
        return True

    def _clip_arrays(self, grads, need_clip):
        idx = [i for i, n in enumerate(need_clip) if n]
        if not idx:
            return list(grads)
        # Paddle sums the squared norms per dtype class (fp16/bf16, fp32, fp64), then in float64
        # if any gradient is float64, else float32.
        low, f32, f64 = [], [], []
        for i in idx:
            g = grads[i]
            sq = jnp.sum(g * g)
            (low if g.dtype in _LOW else f64 if g.dtype == jnp.float64 else f32).append(sq)
        sum_dt = jnp.float64 if f64 else jnp.float32
        parts = []
        if low:
            parts.append(jnp.stack(low).sum().astype(sum_dt))
        if f32:
            parts.append(jnp.stack(f32).sum().astype(sum_dt))
        if f64:
            parts.append(jnp.stack(f64).sum())
        total = jnp.stack(parts).sum() if len(parts) > 1 else parts[0]
        norm = jnp.sqrt(total)
        cn = jnp.asarray(self.clip_norm, sum_dt)
        scale = cn / jnp.maximum(norm, cn)
        if self.auto_skip_clip:
            scale = jnp.where(norm > cn, scale, jnp.asarray(1, sum_dt))
        out = list(grads)
        for i in idx:
            out[i] = grads[i] * scale.astype(grads[i].dtype)
        return out
