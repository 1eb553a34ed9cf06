"""``parameters_to_vector`` / ``vector_to_parameters``: all parameters as one flat vector."""

from __future__ import annotations

from ..._core.autograd import no_grad
from ..._core.registry import call_op
from ..._core.tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters, name: str | None = None) -> Tensor:
    """The parameters flattened and concatenated in order. As in Paddle 3.3.1 the vector is
    not connected to the parameters: it requires grad (``stop_gradient=False``) but a
    backward through it leaves the parameters' ``grad`` None."""
    if isinstance(parameters, Tensor):
        raise ValueError(
            "(InvalidArgument) concat(): argument 'x' (position 0) must be list of Tensors, "
            f"but got {type(parameters).__name__}"
        )
    with no_grad():
        out = call_op("concat", [call_op("reshape", p, [-1]) for p in parameters], 0)
    out.stop_gradient = False
    return out


def vector_to_parameters(vec: Tensor, parameters, name: str | None = None) -> None:
    """Copy consecutive slices of ``vec`` into the parameters (in place, keeping each one's
    shape); ``vec`` may be longer than the parameters need."""
    params = list(parameters)
    sizes = []
    for p in params:
        n = 1
        for s in p.shape:
            n *= s
        sizes.append(n)
    if sum(sizes) > vec.shape[0]:
        raise ValueError(
            "The total_elements of vec should be equal to or larger than the number of "
            "elements in parameters."
        )
    start = 0
    with no_grad():
        for p, n in zip(params, sizes):
            p.set_value(call_op("reshape", vec[start : start + n], p.shape))
            start += n
