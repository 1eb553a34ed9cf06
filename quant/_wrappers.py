"""Layers the quantization flow puts in a model from outside (``nn.Linear``/``nn.Conv2D`` are
never edited): QuantedLinear/QuantedConv2D (quanters around a float layer's weight and input),
their converted form (LinearQuanter/LinearDequanter; weights stored as int8, or as int4 packed
two per byte), ObserveWrapper and Stub/QuanterStub."""

from __future__ import annotations

import abc

import jax.numpy as jnp

from paddle_compat._core.seams import Parameter, Tensor, array_of
from paddle_compat.nn import Layer
from paddle_compat.nn import functional as F

from . import _kernels as K
from ._base import BaseQuanter

__all__ = [
    "ConvertibleQuantedLayer",
    "LinearDequanter",
    "LinearQuanter",
    "LinearQuanterDequanter",
    "ObserveWrapper",
    "QuantedConv2D",
    "QuantedLinear",
    "QuanterStub",
    "Stub",
]


def _const_param(value) -> Parameter:
    if isinstance(value, Tensor):
        arr = array_of(value)
    else:
        arr = jnp.asarray(value, jnp.float32)
    return Parameter(jnp.asarray(arr, jnp.float32), trainable=False)


class _LinearQuantBase(Layer):
    """Scales, zero points, axis and bit width shared by LinearQuanter and LinearDequanter."""

    def __init__(
        self,
        scales,
        zero_point=None,
        quant_axis: int | None = None,
        bit_length: int = 8,
        group_size: int = 128,
    ) -> None:
        super().__init__()
        self._scales = _const_param(scales)
        self._zero_point = (
            _const_param(zero_point)
            if zero_point is not None
            else _const_param(jnp.zeros(self._scales.shape, jnp.float32))
        )
        self._quant_axis = -1 if quant_axis is None else quant_axis
        self._bit_length = bit_length
        self._group_size = group_size
        self._qmin, self._qmax = K.qrange(bit_length)

    def _axis(self):
        return None if self._quant_axis in (None, -1) else int(self._quant_axis)

    @classmethod
    def from_quanter(cls, quanter: BaseQuanter):
        return cls(
            quanter.scales(),
            zero_point=quanter.zero_points(),
            quant_axis=quanter.quant_axis(),
            bit_length=quanter.bit_length(),
            group_size=getattr(quanter, "group_size", 128),
        )


class LinearQuanter(_LinearQuantBase):
    """Quantize: ``clip(round(x / scales * bnt) + zero_point, qmin, qmax)`` (values stay float),
    with scales per tensor, per channel (``quant_axis``) or per group of rows (2-D scales)."""

    def forward(self, input):  # noqa: A002 - Paddle's name
        return K.linear_quant(
            input, self._scales, self._zero_point, int(self._bit_length), self._axis()
        )


class LinearDequanter(_LinearQuantBase):
    """Dequantize: ``(q - zero_point) * scales / bnt``. ``q`` may be the int8 (or packed int4)
    weight a converted layer stores; the result has the original weight's dtype."""

    def __init__(
        self,
        scales,
        zero_point=None,
        quant_axis: int | None = None,
        bit_length: int = 8,
        group_size: int = 128,
    ) -> None:
        super().__init__(scales, zero_point, quant_axis, bit_length, group_size)
        self._out_dtype: str | None = None
        self._packed_rows: int | None = None

    def forward(self, input):  # noqa: A002 - Paddle's name
        return K.linear_dequant(
            input,
            self._scales,
            self._zero_point,
            int(self._bit_length),
            self._axis(),
            self._out_dtype,
            self._packed_rows,
        )


class LinearQuanterDequanter(Layer):
    """Quantize then dequantize (either part may be None: a converted weight keeps only the
    dequanter)."""

    def __init__(self, quanter: LinearQuanter | None, dequanter: LinearDequanter | None) -> None:
        super().__init__()
        self.add_sublayer("_quanter", quanter)
        self.add_sublayer("_dequanter", dequanter)

    def forward(self, input):  # noqa: A002 - Paddle's name
        out = input
        if self._quanter is not None:
            out = self._quanter(out)
        if self._dequanter is not None:
            out = self._dequanter(out)
        return out

    @staticmethod
    def from_quanter(quanter: BaseQuanter) -> LinearQuanterDequanter:
        return LinearQuanterDequanter(
            LinearQuanter.from_quanter(quanter), LinearDequanter.from_quanter(quanter)
        )


class ConvertibleQuantedLayer(Layer, metaclass=abc.ABCMeta):
    """A quantized layer that ``convert`` can turn into its inference form: weights quantized
    once and stored as integers, quanters replaced by LinearQuanterDequanter."""

    def __init__(self) -> None:
        super().__init__()
        self.converted = False

    @abc.abstractmethod
    def weights_to_quanters(self) -> list[tuple[str, str]]:
        """[(weight attribute, its quanter attribute)]."""

    @abc.abstractmethod
    def activation_quanters(self) -> list[str]:
        """Attribute names of the activation quanters."""

    def _convert_quanter_to_qdq(self, quanter_name: str) -> LinearQuanterDequanter | None:
        quanter = getattr(self, quanter_name, None)
        if quanter is None:
            return None
        if isinstance(quanter, BaseQuanter):
            quanter = LinearQuanterDequanter.from_quanter(quanter)
        setattr(self, quanter_name, quanter)
        return quanter

    def _quant_weights(self, weight_name: str, qdq: LinearQuanterDequanter) -> None:
        """Store the weight as integers: int8 for <= 8 bits (int4 values packed two per byte
        along axis 0 for <= 4 bits), int16 above."""
        weight = getattr(self, weight_name)
        quanter, dequanter = qdq._quanter, qdq._dequanter
        q = array_of(quanter(weight))
        bits = quanter._bit_length
        if bits <= 4:
            arr = K.pack_int4(q)
            dequanter._packed_rows = int(weight.shape[0])
        elif bits <= 8:
            arr = q.astype(jnp.int8)
        else:
            arr = q.astype(jnp.int16)
        dequanter._out_dtype = str(array_of(weight).dtype)
        self._parameters[weight_name] = Parameter(arr, name=weight.name, trainable=False)

    def _convert(self, remain_weight: bool = False) -> None:
        for weight_name, quanter_name in self.weights_to_quanters():
            qdq = self._convert_quanter_to_qdq(quanter_name)
            if qdq is not None and not remain_weight:
                self._quant_weights(weight_name, qdq)
                qdq._quanter = None
        for name in self.activation_quanters():
            self._convert_quanter_to_qdq(name)
        self.converted = True


def _quanter_for(layer: Layer, factory):
    return factory._instance(layer) if factory is not None else None


class QuantedLinear(ConvertibleQuantedLayer):
    """``Linear`` with its input and weight passed through quanters (fake quant in QAT,
    observers in PTQ, quant/dequant after convert)."""

    def __init__(self, layer: Layer, q_config) -> None:
        super().__init__()
        self.weight = layer.weight
        self.bias = layer.bias
        self.name = getattr(layer, "name", None)
        self.weight_quanter = _quanter_for(layer, q_config.weight)
        self.activation_quanter = _quanter_for(layer, q_config.activation)

    def forward(self, input):  # noqa: A002 - Paddle's name
        if self.activation_quanter is not None:
            input = self.activation_quanter(input)  # noqa: A001
        weight = self.weight
        if self.weight_quanter is not None:
            weight = self.weight_quanter(weight)
        return F.linear(input, weight, self.bias)

    def weights_to_quanters(self) -> list[tuple[str, str]]:
        return [("weight", "weight_quanter")]

    def activation_quanters(self) -> list[str]:
        return ["activation_quanter"]


class QuantedConv2D(ConvertibleQuantedLayer):
    """``Conv2D`` with its input and weight passed through quanters."""

    def __init__(self, layer: Layer, q_config) -> None:
        super().__init__()
        for attr in (
            "_in_channels",
            "_out_channels",
            "_kernel_size",
            "_stride",
            "_padding",
            "_dilation",
            "_groups",
            "_padding_mode",
            "_data_format",
        ):
            object.__setattr__(self, attr, getattr(layer, attr))
        self.weight = layer.weight
        self.bias = layer.bias
        self.weight_quanter = _quanter_for(layer, q_config.weight)
        self.activation_quanter = _quanter_for(layer, q_config.activation)

    def forward(self, input):  # noqa: A002 - Paddle's name
        if self.activation_quanter is not None:
            input = self.activation_quanter(input)  # noqa: A001
        weight = self.weight
        if self.weight_quanter is not None:
            weight = self.weight_quanter(weight)
        padding = self._padding
        if self._padding_mode != "zeros":
            input = F.pad(
                input,
                [self._padding] * 4,
                mode=self._padding_mode,  # noqa: A001
                data_format=self._data_format,
            )
            padding = 0
        return F.conv2d(
            input,
            weight,
            self.bias,
            stride=self._stride,
            padding=padding,
            dilation=self._dilation,
            groups=self._groups,
            data_format=self._data_format,
        )

    def weights_to_quanters(self) -> list[tuple[str, str]]:
        return [("weight", "weight_quanter")]

    def activation_quanters(self) -> list[str]:
        return ["activation_quanter"]


class ObserveWrapper(Layer):
    """Runs ``observer`` on the (first) input of ``observed`` (or on its output when
    ``observe_input`` is False), then ``observed``."""

    def __init__(self, observer: BaseQuanter, observed: Layer, observe_input: bool = True) -> None:
        super().__init__()
        self._observer = observer
        self._observed = observed
        self._observe_input = observe_input

    def forward(self, *inputs, **kwargs):
        if self._observe_input:
            if inputs:
                inputs = (self._observer(inputs[0]), *inputs[1:])
            return self._observed(*inputs, **kwargs)
        return self._observer(self._observed(*inputs, **kwargs))


class Stub(Layer):
    """Identity placeholder marking a tensor to quantize: ``QAT``/``PTQ`` replace it with a
    QuanterStub using ``observer`` (or the activation quanter of its config)."""

    def __init__(self, observer=None) -> None:
        super().__init__()
        self._observer = observer

    def forward(self, input):  # noqa: A002 - Paddle's name
        return input


class QuanterStub(Layer):
    """What a Stub becomes in a quantized model: applies its quanter/observer to the input."""

    def __init__(self, layer: Stub, q_config) -> None:
        super().__init__()
        self._observer = None
        if layer._observer is not None:
            self._observer = layer._observer._instance(layer)
        elif q_config.activation is not None:
            self._observer = q_config.activation._instance(layer)

    def forward(self, input):  # noqa: A002 - Paddle's name
        return self._observer(input) if self._observer is not None else input
