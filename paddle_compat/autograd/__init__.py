"""paddle.autograd: backward, grad, PyLayer, jacobian/hessian, saved-tensor hooks, grad modes."""

from .._core.autograd import backward as _backward
from .._core.autograd import (  # noqa: F401 - also in Paddle's namespace, not in __all__
    enable_grad,
    grad,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from .._core.tensor import Tensor
from ._hooks import saved_tensors_hooks
from ._jacobian import Hessian, Jacobian, hessian, jacobian  # noqa: F401
from ._py_layer import PyLayer, PyLayerContext

Function = PyLayer  # Paddle's alias


def backward(
    tensors, grad_tensors=None, retain_graph: bool = False, *, dump_backward_graph_path=None
):
    """Accumulate gradients of ``tensors`` (seeded with ``grad_tensors``, ones where None)
    into the leaves' ``.grad``. ``dump_backward_graph_path`` (a debugging dump of Paddle's
    C++ graph) is accepted and ignored."""
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    elif not (isinstance(tensors, list | tuple) and all(isinstance(t, Tensor) for t in tensors)):
        raise AssertionError("tensors must be Tensor or list of Tensor")
    if len({id(t) for t in tensors}) != len(tensors):
        raise AssertionError(
            "The argument 'tensors' of paddle.autograd.backward contains duplicate "
            "paddle.Tensor object."
        )
    if grad_tensors is not None:
        if not isinstance(grad_tensors, list | tuple):
            grad_tensors = [grad_tensors]
        if len(grad_tensors) != len(tensors):
            raise AssertionError("The length of grad_tensors must be equal to tensors")
    _backward(tensors, grad_tensors, retain_graph)


__all__ = [
    "jacobian",
    "hessian",
    "backward",
    "PyLayer",
    "Function",
    "PyLayerContext",
    "saved_tensors_hooks",
]
