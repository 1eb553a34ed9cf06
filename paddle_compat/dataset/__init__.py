"""``paddle.dataset``: Paddle's legacy dataset readers (superseded by ``paddle.vision.datasets``
and ``paddle.text.datasets``), reading files from Paddle's cache (``common.DATA_HOME``)."""

from . import common  # noqa: F401

__all__ = []
