"""paddle.nn: Layer, layers, losses, initializers, functional."""

from . import functional, initializer  # noqa: F401
from ._layer import Layer, ParamAttr  # noqa: F401
from ._layers import *  # noqa: F401,F403
