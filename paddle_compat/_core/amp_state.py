"""The auto-mixed-precision state the op registry consults (``paddle.amp.auto_cast`` sets it).

Paddle decides one destination dtype per op call from the op's AMP list and its inputs, then
casts the op's floating inputs (float32/float16/bfloat16, never float64) to it:

- white list: the AMP dtype (float16 or bfloat16);
- black list: float32;
- neither ("promote"): float32 if any input is float32, else the AMP dtype (level OD: float32);
- O2 with ``use_promote=False``: the AMP dtype unless black listed;
- an op whose kernel has no such dtype (``op(dtypes=...)`` without it) stays in float32.

``batch_norm``/``layer_norm`` look at and cast only ``x`` (their scale and bias stay float32);
a convolution's bias is added after it by an ``add`` of its own, as Paddle does.
The lists name ops as Paddle's AMP does (its legacy "fluid" names: ``elementwise_add``,
``reduce_sum``, ``matmul_v2``); each op's default list comes from its ``op(amp=...)``.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass

import jax.numpy as jnp

# Paddle's AMP names an op by its legacy (fluid) kernel name where that differs from the
# public one; custom white/black lists use these names.
FLUID_NAMES: dict[str, tuple[str, ...]] = {
    "add": ("elementwise_add",),
    "subtract": ("elementwise_sub",),
    "multiply": ("elementwise_mul",),
    "_mul_scalar": ("scale",),  # a float or complex Tensor times a Python number
    "neg": ("scale",),  # Paddle runs scale(x, -1)
    "divide": ("elementwise_div",),
    "maximum": ("elementwise_max",),
    "minimum": ("elementwise_min",),
    "floor_divide": ("elementwise_floordiv",),
    "remainder": ("elementwise_mod",),
    "fmax": ("elementwise_fmax",),
    "fmin": ("elementwise_fmin",),
    "heaviside": ("elementwise_heaviside",),
    "sum": ("reduce_sum",),
    "mean": ("reduce_mean",),
    "prod": ("reduce_prod",),
    "max": ("reduce_max",),
    "min": ("reduce_min",),
    "amax": ("reduce_amax",),
    "amin": ("reduce_amin",),
    "all": ("reduce_all",),
    "any": ("reduce_any",),
    "matmul": ("matmul_v2",),
    "mm": ("matmul_v2",),
    "linear": ("linear_v2",),
    "conv1d": ("conv2d",),
    "cross_entropy": ("softmax_with_cross_entropy",),
    "embedding": ("lookup_table_v2",),
    "interpolate": tuple(
        f"{m}_interp_v2" for m in ("linear", "nearest", "bilinear", "bicubic", "trilinear")
    ),
    "binary_cross_entropy_with_logits": ("sigmoid_cross_entropy_with_logits",),
    "smooth_l1_loss": ("huber_loss",),
    "tanhshrink": ("tanh_shrink",),
    "vector_norm": ("p_norm",),  # not in Paddle's lists (its black list says "pnorm")
    "norm": ("p_norm",),
    "matrix_norm": ("frobenius_norm",),
    "reshape": ("reshape2",),
    "transpose": ("transpose2",),
    "flatten": ("flatten_contiguous_range",),
    "expand": ("expand_v2",),
    "squeeze": ("squeeze2",),
    "unsqueeze": ("unsqueeze2",),
    "hardswish": ("hard_swish",),
    "hardsigmoid": ("hard_sigmoid",),
    "full_like": ("fill_any_like",),
}
FLUID_NAMES["upsample"] = FLUID_NAMES["interpolate"]

# ops that decide from, and cast, only their first input ``x``
X_ONLY = frozenset({"batch_norm", "layer_norm", "sync_batch_norm"})
# convolutions whose bias Paddle adds with a separate ``add`` op (which promotes: a float32
# bias makes the output float32 at O1)
BIAS_ADDED_AFTER = frozenset(f"conv{d}d{t}" for d in (1, 2, 3) for t in ("", "_transpose"))
LEVELS = ("O0", "OD", "O1", "O2")
_FLOAT32 = jnp.dtype(jnp.float32)
_CASTABLE = frozenset(jnp.dtype(d) for d in (jnp.float32, jnp.float16, jnp.bfloat16))


def amp_names(op_name: str) -> tuple[str, ...]:
    """The names Paddle's AMP lists use for the op ``op_name``."""
    return FLUID_NAMES.get(op_name, (op_name,))


@dataclass(frozen=True)
class AmpState:
    """One ``auto_cast`` block: level, AMP dtype, and the white/black lists as sets of the
    registry's op names."""

    level: str  # "OD", "O1" or "O2" (O0 is no state at all)
    dtype: jnp.dtype  # float16 or bfloat16
    white: frozenset
    black: frozenset
    use_promote: bool

    def dest(self, od, dtypes) -> jnp.dtype:
        """The dtype op ``od`` runs in, given the dtypes of the inputs it considers."""
        name = od.name
        if self.level == "O2" and not self.use_promote:
            dst = _FLOAT32 if name in self.black else self.dtype
        elif name in self.white:
            dst = self.dtype
        elif name in self.black or self.level == "OD":
            dst = _FLOAT32
        else:
            dst = _FLOAT32 if any(d == _FLOAT32 for d in dtypes) else self.dtype
        if dst != _FLOAT32 and od.dtypes is not None and self.dtype.name not in od.dtypes:
            dst = _FLOAT32  # no low-precision kernel: Paddle's "unsupported" list
        return dst

    def key(self) -> tuple:
        return (self.level, self.dtype.name, self.white, self.black, self.use_promote)


def needs_cast(dtype, dst) -> bool:
    """Paddle casts only float32/float16/bfloat16 inputs that differ from the destination."""
    return dtype != dst and dtype in _CASTABLE


class _Local(threading.local):
    state: AmpState | None = None


_local = _Local()


def current() -> AmpState | None:
    """The active AMP state of this thread, or None outside ``auto_cast``."""
    return _local.state


def set_current(state: AmpState | None) -> AmpState | None:
    """Install ``state`` (None: AMP off); returns the previous one."""
    old = _local.state
    _local.state = state
    return old


@contextlib.contextmanager
def using(state: AmpState | None):
    """Run a block under ``state``, then restore the previous one (a node re-run at backward
    time, maybe outside ``auto_cast``, replays the casts of its forward)."""
    prev = set_current(state)
    try:
        yield
    finally:
        set_current(prev)


def cache_key():
    """The active AMP state as a hashable key for compiled-function caches (None: off)."""
    s = _local.state
    return None if s is None else s.key()
