"""paddle.nn: Layer, layers, losses, initializers, gradient clipping, functional."""

from . import (  # noqa: F401
    attention,
    clip,
    decode,
    functional,
    init,
    initializer,
    layer,
    modules,
    parameter,
    utils,
)
from ._clip import *  # noqa: F401,F403
from ._layer import *  # noqa: F401,F403
from ._layers import *  # noqa: F401,F403
from .layer import loss  # noqa: F401  (Paddle's paddle.nn.loss is paddle.nn.layer.loss)
from .modules import Module  # noqa: F401
from .modules.container import ModuleDict, ModuleList  # noqa: F401
from .parameter import Parameter  # noqa: F401
from .utils import spectral_norm  # noqa: F401  (the function, as in Paddle)


def __getattr__(name):
    if name == "quant":  # paddle.nn.quant loads the quant package on first use
        import importlib

        return importlib.import_module(f"{__name__}.quant")
    raise AttributeError(f"module 'paddle.nn' has no attribute '{name}'")
