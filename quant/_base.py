"""Quanter/observer base classes and factories (paddle.quantization.BaseQuanter, BaseObserver,
QuanterFactory, ObserverFactory, quanter)."""

from __future__ import annotations

import abc
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

from paddle_compat.nn import Layer

__all__ = [
    "BaseObserver",
    "BaseQuanter",
    "ClassWithArguments",
    "ObserverFactory",
    "QuanterFactory",
    "quanter",
]


class BaseQuanter(Layer, metaclass=abc.ABCMeta):
    """A layer that quantizes (or fake-quantizes) a tensor; subclasses give ``forward``,
    ``scales``, ``zero_points``, ``quant_axis`` and ``bit_length``."""

    def __init__(self) -> None:
        super().__init__()

    @abc.abstractmethod
    def forward(self, input):  # noqa: A002 - Paddle's name
        pass

    @abc.abstractmethod
    def scales(self):
        """The scales used to quantize (a Tensor, or None before calibration)."""

    @abc.abstractmethod
    def zero_points(self):
        """The zero points (a Tensor, or None for symmetric quantization)."""

    @abc.abstractmethod
    def quant_axis(self) -> int:
        """The channel axis of per-channel quantization, -1 for per-tensor."""

    @abc.abstractmethod
    def bit_length(self) -> int:
        """The number of bits of the quantized integers."""


class BaseObserver(BaseQuanter, metaclass=abc.ABCMeta):
    """A quanter that only watches values during calibration (PTQ) and computes thresholds."""

    @abc.abstractmethod
    def cal_thresholds(self) -> None:
        """Compute the scales (and zero points) from what was observed."""


class ClassWithArguments(metaclass=abc.ABCMeta):
    """Holds the constructor arguments of a quanter/observer layer class for later use."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self) -> tuple:
        return self._args

    @property
    def kwargs(self) -> dict:
        return self._kwargs

    @abc.abstractmethod
    def _get_class(self) -> type:
        pass

    def __str__(self) -> str:
        parts = [str(a) for a in self._args]
        parts += [f"{k}={v}" for k, v in self._kwargs.items()]
        return f"{type(self).__name__}({','.join(parts)})"

    __repr__ = __str__


class QuanterFactory(ClassWithArguments):
    """Describes a quanter (its class and arguments); the QAT/PTQ flow calls ``_instance(layer)``
    once per quantized tensor to build the quanter layer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.partial_class = None

    def _instance(self, layer: Layer) -> BaseQuanter:
        if self.partial_class is None:
            self.partial_class = partial(self._get_class(), *self.args, **self.kwargs)
        return self.partial_class(layer)


ObserverFactory = QuanterFactory


def quanter(class_name: str) -> Callable[[type[BaseQuanter]], type[BaseQuanter]]:
    """Class decorator: define a factory class named ``class_name`` for the decorated quanter
    layer (in the decorated class's module), so users configure it as ``class_name(**args)``."""

    def wrapper(target_class: type[BaseQuanter]) -> type[BaseQuanter]:
        factory = type(
            class_name,
            (QuanterFactory,),
            {"_get_class": lambda self: target_class, "__module__": target_class.__module__},
        )
        module = sys.modules.get(target_class.__module__)
        if module is not None:
            setattr(module, class_name, factory)
        return target_class

    return wrapper
