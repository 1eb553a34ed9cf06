"""``paddle.base.param_attr``: ``ParamAttr`` and ``WeightNormParamAttr``."""

from ..framework._param_attr import ParamAttr, WeightNormParamAttr  # noqa: F401

__all__ = ["ParamAttr", "WeightNormParamAttr"]
