"""The shared QAT/PTQ machinery: rewrite a model's layer tree from outside (quantized wrappers,
activation observers) and convert it to its inference form."""

from __future__ import annotations

import abc
import copy

from paddle_compat.nn import Layer

from ._base import BaseQuanter
from ._config import QuantConfig
from ._wrappers import ConvertibleQuantedLayer, LinearQuanterDequanter, ObserveWrapper, QuanterStub

__all__ = ["Quantization"]


class Quantization(metaclass=abc.ABCMeta):
    """Base of QAT and PTQ: holds a copy of the QuantConfig."""

    def __init__(self, config: QuantConfig) -> None:
        if not isinstance(config, QuantConfig):
            raise TypeError(
                f"config must be a paddle.quantization.QuantConfig, got {type(config).__name__}"
            )
        self._config = copy.deepcopy(config)

    @abc.abstractmethod
    def quantize(self, model: Layer, inplace: bool = False) -> Layer:
        pass

    def _prepare(self, model: Layer, inplace: bool) -> Layer:
        _model = model if inplace else copy.deepcopy(model)
        self._config._specify(_model)
        self._convert_to_quant_layers(_model, self._config)
        self._insert_activation_observers(_model, self._config)
        return _model

    def convert(self, model: Layer, inplace: bool = False, remain_weight: bool = False) -> Layer:
        """The inference form of a quantized model: weights quantized once and stored as
        integers (int8; int4 packed two per byte for <= 4 bits) with their scales, quanters and
        observers replaced by quant/dequant layers. ``remain_weight`` keeps float weights and
        quantizes them on the fly."""
        _model = model if inplace else copy.deepcopy(model)
        for _, child in list(_model.named_sublayers(include_self=True)):
            if isinstance(child, ConvertibleQuantedLayer):
                if child.converted:
                    continue
                wq = getattr(child, "weight_quanter", None)
                if wq is not None and isinstance(wq, BaseQuanter) and wq.scales() is None:
                    continue
                child._convert(remain_weight=remain_weight)
            elif isinstance(child, ObserveWrapper | QuanterStub):
                obs = child._observer
                if isinstance(obs, BaseQuanter):
                    child._observer = LinearQuanterDequanter.from_quanter(obs)
        return _model

    def _convert_to_quant_layers(self, model: Layer, config: QuantConfig) -> None:
        for name, child in list(model.named_children()):
            if config._is_quantifiable(child):
                model._sub_layers[name] = config._get_qat_layer(child)
            else:
                self._convert_to_quant_layers(child, config)

    def _insert_activation_observers(self, model: Layer, config: QuantConfig) -> None:
        for name, child in list(model.named_children()):
            if config._need_observe(child):
                model._sub_layers[name] = config._get_observe_wrapper(child)
            elif not config._is_leaf(child):
                self._insert_activation_observers(child, config)

    def _details(self) -> str:
        return self._config.details()
