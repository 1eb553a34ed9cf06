"""PTQ observers: AbsmaxObserver (per-tensor abs-max) and GroupWiseWeightObserver (abs-max per
group of input channels of a weight). Observers return their input unchanged."""

from __future__ import annotations

import jax.numpy as jnp

from paddle_compat._core.seams import Tensor, array_of, set_array

from . import _kernels as K
from ._base import BaseObserver, ObserverFactory

__all__ = [
    "AbsmaxObserver",
    "AbsmaxObserverLayer",
    "GroupWiseWeightObserver",
    "GroupWiseWeightObserverLayer",
]


class AbsmaxObserver(ObserverFactory):
    """Factory of ``AbsmaxObserverLayer``: the scale is the largest absolute value seen during
    calibration (per tensor).

    Example::

        cfg = paddle.quantization.QuantConfig(activation=AbsmaxObserver(), weight=AbsmaxObserver())
    """

    def __init__(self, quant_bits: int = 8) -> None:
        super().__init__(quant_bits=quant_bits)

    def _get_class(self):
        return AbsmaxObserverLayer


class AbsmaxObserverLayer(BaseObserver):
    """Tracks max|x| over every call; ``scales()`` is that value (0-d float32)."""

    INIT_ABS_MAX = 1e-7

    def __init__(self, layer=None, quant_bits: int = 8) -> None:
        super().__init__()
        self._quant_bits = quant_bits
        self.abs_max_val = Tensor(jnp.asarray(self.INIT_ABS_MAX, jnp.float32))
        self._scale = None
        self._zero_point = None

    def forward(self, input):  # noqa: A002 - Paddle's name
        new = K.absmax_update(self.abs_max_val, input)
        set_array(self.abs_max_val, array_of(new))
        return input

    def cal_thresholds(self) -> None:
        self._scale = Tensor(array_of(self.abs_max_val))
        self._zero_point = Tensor(jnp.zeros((), jnp.float32))

    def bit_length(self) -> int:
        return self._quant_bits

    def quant_axis(self) -> int:
        return -1

    def scales(self):
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self):
        if self._zero_point is None:
            self.cal_thresholds()
        return self._zero_point


class GroupWiseWeightObserver(ObserverFactory):
    """Factory of ``GroupWiseWeightObserverLayer``: weight scales per group of ``group_size``
    input channels (rows of a [in, out] weight), shape [in / group_size, out]. (Paddle 3.3.1's
    factory drops ``group_size`` and always uses 128; this one passes it on.)"""

    def __init__(self, quant_bits: int = 8, group_size: int = 128) -> None:
        super().__init__(quant_bits=quant_bits, group_size=group_size)

    def _get_class(self):
        return GroupWiseWeightObserverLayer


class GroupWiseWeightObserverLayer(BaseObserver):
    """Group-wise abs-max of a weight ([in, out]); keeps the observed layer as ``_layer``
    (as Paddle does, so its weight also appears under ``weight_quanter._layer``)."""

    def __init__(self, layer=None, quant_bits: int = 8, group_size: int = 128) -> None:
        super().__init__()
        self._layer = layer
        self._quant_bits = quant_bits
        self.group_size = group_size
        self._max = None
        self._scale = None
        self._zero_point = None

    def forward(self, input):  # noqa: A002 - Paddle's name
        self._max = K.group_absmax(input, int(self.group_size))
        self._scale = None
        return input

    def cal_thresholds(self) -> None:
        if self._max is None:
            raise RuntimeError(
                "GroupWiseWeightObserver: no weight observed yet; run the model "
                "on calibration data before reading scales"
            )
        self._scale = Tensor(array_of(self._max))
        self._zero_point = Tensor(jnp.zeros(self._max.shape, jnp.float32))

    def min_value(self):
        return 0.0

    def max_value(self):
        return self._max

    def bit_length(self) -> int:
        return self._quant_bits

    def quant_axis(self) -> int:
        return -1

    def scales(self):
        if self._scale is None:
            self.cal_thresholds()
        return self._scale

    def zero_points(self):
        if self._zero_point is None:
            self.cal_thresholds()
        return self._zero_point
