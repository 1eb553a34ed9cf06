"""paddle.framework: save/load, ParamAttr, create_parameter and framework helpers."""

from .._io.serialization import load, save  # noqa: F401
from ._param_attr import ParamAttr, WeightNormParamAttr, create_parameter  # noqa: F401
