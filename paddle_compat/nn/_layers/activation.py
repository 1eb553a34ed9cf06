"""Activation layers: thin Layer wrappers over paddle.nn.functional activations."""

from __future__ import annotations

from .. import functional as F
from .._layer import Layer
from ..initializer import Constant
from ._base import default_dtype_name, name_suffix

__all__ = [
    "ReLU",
    "ReLU6",
    "GELU",
    "Softmax",
    "LogSoftmax",
    "Sigmoid",
    "Tanh",
    "LeakyReLU",
    "ELU",
    "SELU",
    "CELU",
    "Silu",
    "SiLU",
    "Swish",
    "Hardswish",
    "Hardsigmoid",
    "Hardtanh",
    "Hardshrink",
    "Softshrink",
    "Mish",
    "PReLU",
    "Softplus",
    "Softsign",
    "Tanhshrink",
    "LogSigmoid",
    "ThresholdedReLU",
    "Maxout",
    "RReLU",
    "GLU",
    "Softmax2D",
]


class _Act(Layer):
    """An activation layer: ``forward(x)`` is ``_fn(x, *args)`` for the constructor arguments
    named in ``_args`` (held as ``self._<arg>`` and printed by ``extra_repr`` with the name)."""

    _fn = None
    _args: tuple[str, ...] = ()

    def __init__(self, name: str | None = None, **args) -> None:
        super().__init__()
        for k, v in args.items():
            setattr(self, "_" + k, v)
        self._name = name

    def forward(self, x):
        return type(self)._fn(x, *[getattr(self, "_" + a) for a in self._args])

    def extra_repr(self) -> str:
        parts = [f"{a}={getattr(self, '_' + a)}" for a in self._args]
        if self._name:
            parts.append(f"name={self._name}")
        return ", ".join(parts)


class _Simple(_Act):
    """An activation without arguments: forward is ``_fn(x)``."""

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name)


def _simple(cls_name: str, fn, doc: str):
    cls = type(cls_name, (_Simple,), {"_fn": staticmethod(fn), "__doc__": doc})
    cls.__module__ = __name__
    return cls


ReLU = _simple("ReLU", F.relu, "max(x, 0).")
ReLU6 = _simple("ReLU6", F.relu6, "min(max(x, 0), 6).")
Sigmoid = _simple("Sigmoid", F.sigmoid, "1 / (1 + exp(-x)).")
Tanh = _simple("Tanh", F.tanh, "Hyperbolic tangent.")
Swish = _simple("Swish", F.swish, "x * sigmoid(x).")
Hardswish = _simple("Hardswish", F.hardswish, "x * relu6(x + 3) / 6.")
Hardsigmoid = _simple("Hardsigmoid", F.hardsigmoid, "clip(x / 6 + 0.5, 0, 1).")
Mish = _simple("Mish", F.mish, "x * tanh(softplus(x)).")
Softsign = _simple("Softsign", F.softsign, "x / (1 + |x|).")
Tanhshrink = _simple("Tanhshrink", F.tanhshrink, "x - tanh(x).")
LogSigmoid = _simple("LogSigmoid", F.log_sigmoid, "log(sigmoid(x)).")


class Softmax2D(_Simple):
    """Softmax over the channel axis of a [C, H, W] or [N, C, H, W] input."""

    def forward(self, x):
        if len(x.shape) not in (3, 4):
            raise ValueError(
                f"Softmax2D requires a 3D or 4D tensor as input. Received: {len(x.shape)}D."
            )
        return F.softmax(x, axis=-3)


class GELU(_Act):
    """Gaussian error linear unit (``approximate``: the tanh formula)."""

    _fn, _args = staticmethod(F.gelu), ("approximate",)

    def __init__(self, approximate: bool | str = False, name: str | None = None) -> None:
        super().__init__(name, approximate=approximate)


class _AxisAct(_Act):
    _args = ("axis",)

    def __init__(self, axis: int = -1, name: str | None = None) -> None:
        super().__init__(name, axis=axis)


class Softmax(_AxisAct):
    """Softmax along ``axis``."""

    _fn = staticmethod(F.softmax)


class LogSoftmax(_AxisAct):
    """log(softmax(x)) along ``axis``."""

    _fn = staticmethod(F.log_softmax)


class GLU(_AxisAct):
    """Gated linear unit: a * sigmoid(b) for the two halves of x along ``axis``."""

    _fn = staticmethod(F.glu)


class LeakyReLU(_Act):
    """x for x > 0, negative_slope * x otherwise."""

    _fn, _args = staticmethod(F.leaky_relu), ("negative_slope",)

    def __init__(self, negative_slope: float = 0.01, name: str | None = None) -> None:
        super().__init__(name, negative_slope=negative_slope)


class ELU(_Act):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    _fn, _args = staticmethod(F.elu), ("alpha",)

    def __init__(self, alpha: float = 1.0, name: str | None = None) -> None:
        super().__init__(name, alpha=alpha)


class CELU(ELU):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1))."""

    _fn = staticmethod(F.celu)


class SELU(_Act):
    """scale * (x if x > 0 else alpha * (exp(x) - 1))."""

    _fn, _args = staticmethod(F.selu), ("scale", "alpha")

    def __init__(
        self,
        scale: float = 1.0507009873554805,
        alpha: float = 1.6732632423543772,
        name: str | None = None,
    ) -> None:
        super().__init__(name, scale=scale, alpha=alpha)

    def extra_repr(self) -> str:
        name = f", name={self._name}" if self._name else ""
        return f"scale={self._scale:.16f}, alpha={self._alpha:.16f}{name}"


class Silu(_Act):
    """x * sigmoid(x) (``SiLU`` is the same class)."""

    _fn, _args = staticmethod(F.silu), ("inplace",)

    def __init__(self, inplace: bool = False, name: str | None = None) -> None:
        super().__init__(name, inplace=inplace)


SiLU = Silu


class Hardtanh(_Act):
    """Clip x to [min, max]."""

    _fn, _args = staticmethod(F.hardtanh), ("min", "max")

    def __init__(
        self,
        min: float = -1.0,
        max: float = 1.0,  # noqa: A002 - Paddle's names
        name: str | None = None,
    ) -> None:
        super().__init__(name, min=min, max=max)


class _Threshold(_Act):
    _args = ("threshold",)

    def __init__(self, threshold: float = 0.5, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold)


class Hardshrink(_Threshold):
    """x where |x| > threshold, else 0."""

    _fn = staticmethod(F.hardshrink)


class Softshrink(_Threshold):
    """Shrink x towards 0 by threshold."""

    _fn = staticmethod(F.softshrink)


class ThresholdedReLU(_Act):
    """x where x > threshold, else value."""

    _fn, _args = staticmethod(F.thresholded_relu), ("threshold", "value")

    def __init__(self, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> None:
        super().__init__(name, threshold=threshold, value=value)


class Softplus(_Act):
    """log(1 + exp(beta * x)) / beta (x above the threshold)."""

    _fn, _args = staticmethod(F.softplus), ("beta", "threshold")

    def __init__(self, beta: float = 1, threshold: float = 20, name: str | None = None) -> None:
        super().__init__(name, beta=beta, threshold=threshold)


class Maxout(_Act):
    """Max over ``groups`` consecutive channels along ``axis``."""

    _fn, _args = staticmethod(F.maxout), ("groups", "axis")

    def __init__(self, groups: int, axis: int = 1, name: str | None = None) -> None:
        super().__init__(name, groups=groups, axis=axis)


class RReLU(Layer):
    """Randomized leaky relu: random slopes in training, their mean in eval."""

    def __init__(
        self, lower: float = 1.0 / 8.0, upper: float = 1.0 / 3.0, name: str | None = None
    ) -> None:
        super().__init__()
        self._lower, self._upper, self._name = lower, upper, name

    def forward(self, x):
        return F.rrelu(x, self._lower, self._upper, training=self.training)

    def extra_repr(self) -> str:
        return (
            f"lower={self._lower}, upper={self._upper}, training={self.training}, "
            f"dtype={self._dtype}" + name_suffix(self._name)
        )


class PReLU(Layer):
    """x for x > 0, weight * x otherwise; one learnable slope or one per channel."""

    def __init__(
        self,
        num_parameters: int = 1,
        init: float = 0.25,
        weight_attr=None,
        data_format: str = "NCHW",
        name: str | None = None,
    ) -> None:
        super().__init__(dtype=default_dtype_name())
        self._weight_attr = weight_attr
        self._num_parameters, self._init = num_parameters, init
        self._data_format, self._name = data_format, name
        self._weight = self.create_parameter(
            [num_parameters],
            attr=weight_attr,
            dtype=self._dtype,
            is_bias=False,
            default_initializer=Constant(init),
        )

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self) -> str:
        return (
            f"num_parameters={self._num_parameters}, data_format={self._data_format}, "
            f"init={self._init}, dtype={self._dtype}" + name_suffix(self._name)
        )
