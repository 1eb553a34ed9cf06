"""paddle.nn.functional fractional max pooling (Graham 2015): fractional_max_pool2d/3d.

The pooling regions follow Paddle 3.3.1's kernel (``phi/kernels/funcs/pooling.h``), not the
formula in its docstring: in float32, ``alpha = (n - k) / (o - (k > 0))``; without a kernel
size ``u`` is scaled by ``min((n // o + 2) / alpha - 1, (n + 1 - n // o) / alpha - (o - 1))``;
``start = int((i + u) * alpha) - int(u * alpha)``, ``end = start + k`` with a kernel size, else
``int((i + 1 + u) * alpha) - int(u * alpha)``, clipped to [0, n]. An empty region gives
-FLT_MAX and mask -1. Regions are static, so the window table is a numpy constant."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import jax.numpy as jnp
import numpy as np

from ..._core import random as _random
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._pooling import _COMPOSITE, _gather_max, _window_table

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_AXES = {2: ("height", "width"), 3: ("depth", "height", "width")}
_F32 = np.float32


def _bounds(n: int, o: int, k: int, u: float) -> list[tuple[int, int]]:
    """(start, end) of each of the ``o`` regions along an axis of size ``n`` (Paddle's float32
    arithmetic, C++ truncation)."""
    if k > 0 and o == 1:  # alpha is inf: Paddle's int(inf) - int(inf) is 0 on x86
        return [(0, min(k, n))]
    u = _F32(u)
    alpha = _F32(n - k) / _F32(o - (1 if k > 0 else 0))
    if k <= 0:
        base = n // o
        m1 = _F32(base + 2) / alpha - _F32(1)
        m2 = _F32(n + 1 - base) / alpha - _F32(o - 1)
        u = _F32(u * min(m1, m2))
    off = int(_F32(u * alpha))
    out = []
    for i in range(o):
        s = int(_F32((_F32(i) + u) * alpha)) - off
        e = s + k if k > 0 else int(_F32((_F32(i + 1) + u) * alpha)) - off
        out.append((max(s, 0), min(e, n)))
    return out


def _fractional(x, output_size, kernel_size, u, return_mask):
    spatial = x.shape[2:]
    bins = [_bounds(n, o, k, u) for n, o, k in zip(spatial, output_size, kernel_size)]
    windows = [
        [range(*b[i]) for b, i in zip(bins, pos)]
        for pos in itertools.product(*[range(o) for o in output_size])
    ]
    val, mask = _gather_max(x, _window_table(spatial, windows), output_size)
    empty = np.array([any(len(r) == 0 for r in w) for w in windows]).reshape(output_size)
    if empty.any():  # Paddle starts at -FLT_MAX with index -1
        val = jnp.where(empty, jnp.asarray(-np.finfo(np.float32).max, x.dtype), val)
        mask = jnp.where(empty, -1, mask)
    return (val, mask) if return_mask else val


@op(
    "_nn_fractional_max_pool2d",
    namespaces=(),
    method=None,
    dtypes=_FLOATS,
    kernel="fractional_max_pool2d",
)
def _fmp2d_op(x, output_size, kernel_size, u, return_mask):
    return _fractional(x, output_size, kernel_size, u, return_mask)


@op(
    "_nn_fractional_max_pool3d",
    namespaces=(),
    method=None,
    dtypes=_FLOATS,
    kernel="fractional_max_pool3d",
)
def _fmp3d_op(x, output_size, kernel_size, u, return_mask):
    return _fractional(x, output_size, kernel_size, u, return_mask)


def _draw_u() -> float:
    """Paddle's draw: ``std::uniform_real_distribution<float>(0, 1)`` on the global CPU engine
    (so ``paddle.seed`` fixes it as in Paddle). Under to_static the draw happens once, when
    the function is traced."""
    eng = _random.host_engine()
    if eng is None:
        eng = _random.default_generator.engine
    return float(eng.canonical(1, np.float32)[0])


def _prepare(x, output_size, kernel_size, random_u, nsp):
    nd = nsp + 2
    if len(x.shape) != nd:
        raise ValueError(
            f"Excepted Input X is {nd}-D tensor, but received {len(x.shape)}-D "
            "<class 'paddle.Tensor'>"
        )
    if random_u is not None and (random_u <= 0 or random_u >= 1):
        raise ValueError("The param `random_u` should be a `float` in (0, 1).")
    if kernel_size is None:
        ks = (0,) * nsp
    elif isinstance(kernel_size, int):
        ks = (kernel_size,) * nsp
    else:
        ks = tuple(int(v) for v in kernel_size)
        if len(ks) != nsp:
            raise ValueError(f"The kernel_size's length must be {nsp}. Received: {list(ks)}")
    spatial = x.shape[2:]
    if isinstance(output_size, int):
        os_ = [output_size] * nsp
    else:
        os_ = list(output_size)
        if len(os_) < nsp:  # Paddle indexes output_size[1] (and [2])
            raise IndexError("(OutOfRange) list index out of range")
        for i in range(nsp):
            if os_[i] is None:
                os_[i] = spatial[i]
        if len(os_) != nsp:
            raise ValueError(
                f"(InvalidArgument) The input size {nd} minus the output size {len(os_)} "
                "should equal to 2."
            )
    os_ = tuple(int(v) for v in os_)
    if any(v <= 0 for v in os_):  # Paddle 3.3.1 dies of SIGFPE here
        raise ValueError(f"(InvalidArgument) output_size should be positive, got {list(os_)}")
    for name, n, o, k in zip(_AXES[nsp], spatial, os_, ks):
        if n < o - 1 + k:
            raise ValueError(
                f"(InvalidArgument) input_{name} [{n}] is less than valid output_{name} "
                f"[{o - 1 + k}]"
            )
    # Paddle draws in the kernel, after its checks
    return os_, ks, _draw_u() if random_u is None else float(random_u)


@op("fractional_max_pool2d", **_COMPOSITE)
def fractional_max_pool2d(
    x: Tensor,
    output_size: int | Sequence[int | None],
    kernel_size: int | Sequence[int] | None = None,
    random_u: float | None = None,
    return_mask: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """Fractional max pooling over H, W of an [N, C, H, W] input (mask: flat index into H*W,
    int32). ``random_u=None`` draws u from the global generator as Paddle does."""
    os_, ks, u = _prepare(x, output_size, kernel_size, random_u, 2)
    return _fmp2d_op(x, os_, ks, u, bool(return_mask))


@op("fractional_max_pool3d", **_COMPOSITE)
def fractional_max_pool3d(
    x: Tensor,
    output_size: int | Sequence[int | None],
    kernel_size: int | Sequence[int] | None = None,
    random_u: float | None = None,
    return_mask: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """Fractional max pooling over D, H, W of an [N, C, D, H, W] input."""
    os_, ks, u = _prepare(x, output_size, kernel_size, random_u, 3)
    return _fmp3d_op(x, os_, ks, u, bool(return_mask))
