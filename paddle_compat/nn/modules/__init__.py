"""``paddle.nn.modules``: torch-style names for Layer and its containers (``Module`` is
``paddle.nn.Layer``)."""

from . import container, module  # noqa: F401
from .module import Module  # noqa: F401

__all__ = ["Module"]
