"""``paddle.amp``: automatic mixed precision (``auto_cast``, ``decorate``, ``GradScaler``)."""

from __future__ import annotations

from .._core import place as _place
from . import amp_lists as amp_lists
from . import debugging as debugging
from . import grad_scaler as grad_scaler
from ._auto_cast import (
    amp_decorate as amp_decorate,
)
from ._auto_cast import (
    amp_guard as amp_guard,
)
from ._auto_cast import (
    auto_cast,
    decorate,
    get_autocast_dtype,
    is_autocast_enabled,
)
from ._auto_cast import (
    autocast as autocast,
)
from .amp_lists import black_list as black_list
from .amp_lists import white_list as white_list
from .grad_scaler import AmpScaler as AmpScaler
from .grad_scaler import GradScaler
from .grad_scaler import OptimizerState as OptimizerState

__all__ = [
    "auto_cast",
    "GradScaler",
    "decorate",
    "is_float16_supported",
    "is_bfloat16_supported",
    "is_autocast_enabled",
    "get_autocast_dtype",
    "get_autocast_cpu_dtype",
    "get_autocast_gpu_dtype",
]

get_autocast_cpu_dtype = get_autocast_dtype
get_autocast_gpu_dtype = get_autocast_dtype


def is_float16_supported(device: str | None = None) -> bool:
    """Whether Paddle supports float16 AMP on ``device`` (default: the current one): a GPU of
    compute capability 5.3 or newer; not a CPU."""
    return _supports(device, "float16")


def is_bfloat16_supported(device: str | None = None) -> bool:
    """Whether Paddle supports bfloat16 AMP on ``device``: a CPU, a TPU, or a GPU of compute
    capability 8.0 or newer."""
    return _supports(device, "bfloat16")


def _supports(device, dtype: str) -> bool:
    if device is None:
        dev = _place.current_device()
    elif isinstance(device, _place.Place):
        dev = _place.to_jax_device(device)
    else:
        dev = _place.device_from_spec(str(device).lower())
    kind = dev.platform
    if kind == "gpu":
        cc = getattr(dev, "compute_capability", None)
        major, minor = (int(x) for x in str(cc or "0.0").split(".")[:2])
        return (major, minor) >= ((5, 3) if dtype == "float16" else (8, 0))
    if kind == "tpu":
        return dtype == "bfloat16"
    return dtype == "bfloat16"  # CPU: Paddle reports bfloat16 only
