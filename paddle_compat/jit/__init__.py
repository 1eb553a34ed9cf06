"""paddle.jit: to_static (jax.jit), not_to_static, enable_to_static."""

from ..static import InputSpec
from . import dy2static, marker, transform  # noqa: F401  (transform loads quant lazily)
from ._save_load import TranslatedLayer, load, save
from ._scan_layers import scan_layers
from ._to_static import StaticFunction, enable_to_static, ignore_module, not_to_static, to_static
from .dy2static.convert import set_code_level, set_verbosity

__all__ = [
    "InputSpec",
    "StaticFunction",
    "enable_to_static",
    "ignore_module",
    "not_to_static",
    "scan_layers",
    "set_code_level",
    "set_verbosity",
    "to_static",
    "save",
    "load",
    "TranslatedLayer",
]
