"""paddle.nn.utils: gradient clipping, weight and spectral normalization hooks, and
parameters as one vector. Paddle's submodules (``paddle.nn.utils.weight_norm_hook``, ...)
are imported first so that, as in Paddle, the package's attribute of the same name is the
function, not the submodule."""

from . import (  # noqa: F401
    clip_grad_norm_,
    clip_grad_value_,
    dygraph_utils,
    spectral_norm_hook,
    transform_parameters,
    weight_norm_hook,
)
from ._clip_grad import clip_grad_norm_, clip_grad_value_  # noqa: F401,F811
from ._param_vector import parameters_to_vector, vector_to_parameters  # noqa: F401
from ._spectral_norm import spectral_norm  # noqa: F401
from ._weight_norm import remove_weight_norm, weight_norm  # noqa: F401

__all__ = [
    "clip_grad_norm_",
    "clip_grad_value_",
    "parameters_to_vector",
    "remove_weight_norm",
    "spectral_norm",
    "vector_to_parameters",
    "weight_norm",
]
