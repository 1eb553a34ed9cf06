"""``paddle.nn.modules.container``: ``ModuleList``/``ModuleDict`` are ``LayerList``/``LayerDict``."""

from .._layers.container import LayerDict, LayerList

ModuleList = LayerList
ModuleDict = LayerDict

__all__ = ["LayerDict", "LayerList", "ModuleDict", "ModuleList"]
