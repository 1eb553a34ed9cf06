"""``paddle.ParamAttr`` and parameter creation (``paddle.create_parameter``, and the shared path
``Layer.create_parameter`` takes)."""

from __future__ import annotations

import copy

import numpy as np

from .._core import dtype as _dt
from .._core.tensor import Parameter, _unique_name
from .._core.tensor_api import TensorApiMixin

__all__ = ["ParamAttr", "WeightNormParamAttr", "create_parameter"]

_INIT_DTYPES = ("float16", "float32", "float64", "bfloat16", "float")


class ParamAttr:
    """How a parameter is created: name, initializer, learning-rate scale, regularizer,
    trainable, model averaging and gradient clipping flags."""

    def __init__(
        self,
        name: str | None = None,
        initializer=None,
        learning_rate: float = 1.0,
        regularizer=None,
        trainable: bool = True,
        do_model_average: bool = True,
        need_clip: bool = True,
    ) -> None:
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    def _set_default_initializer(self, initializer) -> None:
        if self.initializer is None:
            self.initializer = initializer

    def _set_default_param_initializer(self) -> None:
        from ..nn.initializer import XavierUniform

        self._set_default_initializer(XavierUniform())

    def _set_default_bias_initializer(self) -> None:
        from ..nn.initializer import Constant

        self._set_default_initializer(Constant(0.0))

    def _to_kwargs(self, with_initializer: bool = False) -> dict:
        kw = {
            "name": self.name,
            "optimize_attr": {"learning_rate": self.learning_rate},
            "regularizer": self.regularizer,
            "trainable": self.trainable,
            "do_model_average": self.do_model_average,
            "need_clip": self.need_clip,
        }
        if with_initializer:
            kw["initializer"] = self.initializer
        return kw

    @staticmethod
    def _to_attr(arg):
        """Normalize what users pass as ``weight_attr``/``bias_attr`` (None, str, bool,
        Initializer, regularizer, ParamAttr, or a list of them). ``False`` stays False."""
        from ..nn.initializer import Initializer

        if arg is None:
            return ParamAttr()
        if isinstance(arg, list | tuple):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, bool):
            return ParamAttr() if arg else False
        if any(c.__name__ == "WeightDecayRegularizer" for c in type(arg).__mro__):
            return ParamAttr(regularizer=arg)
        raise TypeError(f"{type(arg)} cast to ParamAttr")


class WeightNormParamAttr(ParamAttr):
    """ParamAttr for weight-normalized parameters (``dim`` is kept; reparametrization is not
    applied by this attribute)."""

    def __init__(
        self,
        dim: int | None = None,
        name: str | None = None,
        initializer=None,
        learning_rate: float = 1.0,
        regularizer=None,
        trainable: bool = True,
        do_model_average: bool = False,
        need_clip: bool = True,
    ) -> None:
        super().__init__(
            name, initializer, learning_rate, regularizer, trainable, do_model_average, need_clip
        )
        self.dim = dim


def _check_shape(shape) -> list[int]:
    shape = list(shape)
    for i, s in enumerate(shape):
        if isinstance(s, bool) or not isinstance(s, int):
            if hasattr(s, "__index__") and not isinstance(s, float):
                shape[i] = int(s)
                continue
            raise TypeError(
                f"(InvalidType) argument (position 2) must be list of int, but got "
                f"{type(s).__name__} at pos {i}"
            )
        if s < 0:
            raise AssertionError(
                "Expected every dim's size to be larger than or equal to 0, but the size of the "
                f"{i}-th dim is {s}"
            )
    return shape


class DygraphParameterNameChecker(set):
    """The parameter names used so far (Paddle refuses to reuse one in dynamic mode);
    ``paddle.utils.unique_name.switch`` swaps it with the name generator."""


_used_names: set[str] = DygraphParameterNameChecker()


def _make_parameter(shape, dtype, attr, is_bias: bool, default_initializer, prefix: str):
    """The one path that builds a Parameter: name, flags and initial value from ``attr``."""
    from ..nn.initializer import Constant, Initializer, XavierUniform
    from ..nn.initializer._initializers import _global_bias_initializer, _global_weight_initializer

    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    shape = _check_shape(shape)
    dt = _dt.to_dtype(dtype) if dtype is not None else _dt.default_float()
    init = attr.initializer
    if init is None:
        glob = _global_bias_initializer() if is_bias else _global_weight_initializer()
        if glob is not None:
            init = glob
        elif default_initializer is not None:
            init = default_initializer
        else:
            if dt.name not in _INIT_DTYPES:
                raise TypeError(
                    "Can not create parameter with default initializer when dtype is not "
                    f"{list(_INIT_DTYPES)} type. Set default_initializer to fit the parameter "
                    "dtype!"
                )
            init = Constant(0.0) if is_bias else XavierUniform()
    if attr.name is not None:
        name = attr.name
        if name in _used_names:
            raise ValueError(
                f"parameter name [{name}] have be been used. In dygraph mode, the name of "
                "parameter can't be same.Please check the parameter attr value passed to "
                "self.create_parameter or constructor of dygraph Layers"
            )
    else:
        name = _unique_name(f"{prefix}.{'b' if is_bias else 'w'}")
    _used_names.add(name)
    value = init.initial_value(shape, dt, name) if isinstance(init, Initializer) else None
    # else a host placeholder (device_put, no compiled kernel) that ``init(p)`` overwrites
    p = Parameter(
        np.zeros(shape, dt.np) if value is None else value, name=name, trainable=attr.trainable
    )
    p.optimize_attr = {"learning_rate": attr.learning_rate}
    p.regularizer = attr.regularizer
    p.do_model_average = attr.do_model_average
    p.need_clip = attr.need_clip
    if value is None:
        init(p)
    p._version = 0
    return p


def create_parameter(
    shape,
    dtype,
    name: str | None = None,
    attr=None,
    is_bias: bool = False,
    default_initializer=None,
):
    """Create a standalone Parameter (weights default to XavierUniform, biases to zeros)."""
    attr = ParamAttr._to_attr(attr)
    if attr is not False and name is not None and attr.name is None:
        attr = copy.copy(attr)
        attr.name = name
    prefix = _unique_name("create_parameter")
    return _make_parameter(shape, dtype, attr, is_bias, default_initializer, prefix)


TensorApiMixin.create_parameter = create_parameter  # as in Paddle, also a plain function there
