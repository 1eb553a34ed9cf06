"""``paddle.nn.utils.transform_parameters``: parameters as one vector and back."""

from ._param_vector import parameters_to_vector, vector_to_parameters  # noqa: F401

__all__ = ["parameters_to_vector", "vector_to_parameters"]
