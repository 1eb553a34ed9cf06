"""``paddle.hapi``: the high-level API (``paddle.Model``, callbacks, ``summary``, ``flops``)."""

from __future__ import annotations

from . import callbacks as callbacks
from .model import Model

__all__ = ["Model", "flops", "summary"]


def __getattr__(name):
    if name == "summary":
        from .model_summary import summary

        return summary
    if name == "flops":
        from .dynamic_flops import flops

        return flops
    raise AttributeError(f"module 'paddle.hapi' has no attribute '{name}'")
