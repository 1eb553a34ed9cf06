"""QAT quanters: FakeQuanterWithAbsMaxObserver (moving-average abs-max scale, fake
quant-dequant forward, straight-through gradient)."""

from __future__ import annotations

from paddle_compat import framework
from paddle_compat._core.seams import Tensor, array_of, is_grad_enabled, set_array
from paddle_compat.nn import initializer

from . import _kernels as K
from ._base import BaseQuanter, QuanterFactory

__all__ = ["FakeQuanterWithAbsMaxObserver", "FakeQuanterWithAbsMaxObserverLayer"]


class FakeQuanterWithAbsMaxObserver(QuanterFactory):
    """Factory of ``FakeQuanterWithAbsMaxObserverLayer``: simulated (fake) quantization whose
    scale is the moving average of the abs-max of the values seen in training.

    Example::

        q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)
        qat = paddle.quantization.QAT(paddle.quantization.QuantConfig(activation=q, weight=q))
    """

    def __init__(
        self,
        moving_rate: float = 0.9,
        bit_length: int = 8,
        dtype: str = "float32",
        name: str | None = None,
    ) -> None:
        super().__init__(name=name, moving_rate=moving_rate, bit_length=bit_length, dtype=dtype)

    def _get_class(self):
        return FakeQuanterWithAbsMaxObserverLayer


class FakeQuanterWithAbsMaxObserverLayer(BaseQuanter):
    """Fake quant-dequant of its input. In training the scale follows
    ``state = r * state + 1; accum = r * accum + max|x|; scale = accum / state``; in eval the
    stored scale is used. The parameters ``_scale``, ``_state``, ``_accum`` (shape [1]) are
    non-trainable."""

    def __init__(
        self,
        layer=None,
        name: str | None = None,
        moving_rate: float = 0.9,
        bit_length: int = 8,
        dtype: str = "float32",
    ) -> None:
        super().__init__()
        self._moving_rate = moving_rate
        self._bit_length = bit_length
        self._scale = self._param(0.001, dtype)
        self._state = self._param(1.0, dtype)
        self._accum = self._param(1.0, dtype)

    def _param(self, value: float, dtype: str):
        attr = framework.ParamAttr(initializer=initializer.Constant(value), trainable=False)
        return self.create_parameter(shape=[1], attr=attr, dtype=dtype)

    def forward(self, input):  # noqa: A002 - Paddle's name
        if self.training:
            scale, state, accum = K.ma_absmax_update(
                input, self._state, self._accum, float(self._moving_rate)
            )
            for t, v in ((self._scale, scale), (self._state, state), (self._accum, accum)):
                set_array(t, array_of(v))
                if not input.stop_gradient and is_grad_enabled():
                    t.stop_gradient = False  # as Paddle marks its in-place outputs
        # the scale enters as a constant: it never gets a gradient (Paddle's grad is None)
        scale = Tensor(array_of(self._scale))
        return K.fake_qdq(input, scale, int(self._bit_length))

    def bit_length(self) -> int:
        return self._bit_length

    def quant_axis(self) -> int:
        return -1

    def scales(self):
        return self._scale

    def zero_points(self):
        return None
