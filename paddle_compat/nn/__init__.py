"""paddle.nn: Layer, layers, losses, initializers, gradient clipping, functional."""

from . import clip, decode, functional, initializer, layer, utils  # noqa: F401
from ._clip import *  # noqa: F401,F403
from ._layer import *  # noqa: F401,F403
from ._layers import *  # noqa: F401,F403


def __getattr__(name):
    if name == "quant":  # paddle.nn.quant loads the quant package on first use
        import importlib

        return importlib.import_module(f"{__name__}.quant")
    raise AttributeError(f"module 'paddle.nn' has no attribute '{name}'")
