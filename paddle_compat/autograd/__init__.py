"""paddle.autograd: backward, grad, PyLayer, grad-mode switches."""

from .._core.autograd import backward as _backward
from .._core.autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled
from ._py_layer import PyLayer, PyLayerContext


def backward(tensors, grad_tensors=None, retain_graph: bool = False) -> None:
    """Accumulate gradients of ``tensors`` into the leaves' ``.grad``."""
    _backward(tensors, grad_tensors, retain_graph)


__all__ = [
    "PyLayer",
    "PyLayerContext",
    "backward",
    "enable_grad",
    "grad",
    "is_grad_enabled",
    "no_grad",
    "set_grad_enabled",
]
