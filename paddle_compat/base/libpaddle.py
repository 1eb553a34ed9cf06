"""``paddle.base.libpaddle``: Paddle's compiled core module; here the same names as
``paddle.base.core`` (``DataType``, ``VarDesc``, ``DenseTensor``, places...)."""

from .core import *  # noqa: F403
from .core import DataType, DenseTensor, VarDesc  # noqa: F401
