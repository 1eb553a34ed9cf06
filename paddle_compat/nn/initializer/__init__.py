"""paddle.nn.initializer: Constant, Normal, Uniform, TruncatedNormal, Xavier*, Kaiming*, Assign,
Orthogonal, Dirac, Bilinear, set_global_initializer, calculate_gain."""

from ._initializers import (  # noqa: F401
    Assign,
    Bilinear,
    Constant,
    Dirac,
    Initializer,
    KaimingNormal,
    KaimingUniform,
    MSRAInitializer,
    Normal,
    NumpyArrayInitializer,
    Orthogonal,
    TruncatedNormal,
    Uniform,
    XavierInitializer,
    XavierNormal,
    XavierUniform,
    calculate_gain,
    set_global_initializer,
)

__all__ = ["Bilinear", "Constant", "KaimingUniform", "KaimingNormal", "XavierNormal",
           "XavierUniform", "Assign", "Normal", "TruncatedNormal", "Uniform", "Orthogonal",
           "Dirac", "set_global_initializer", "calculate_gain"]
