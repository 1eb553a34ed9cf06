"""paddle.framework: save/load and framework helpers."""

from .._io.serialization import load, save  # noqa: F401
