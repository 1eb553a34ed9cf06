"""``paddle.nn.attention``: ``SDPBackend`` and the ``sdpa_kernel`` backend switch."""

from . import sdpa  # noqa: F401
from .sdpa import SDPBackend, _cur_sdpa_kernel_backends, sdpa_kernel  # noqa: F401

__all__ = ["SDPBackend", "sdpa_kernel"]
