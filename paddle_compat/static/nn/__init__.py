"""paddle.static.nn: layers as functions for static Programs."""

from .common import batch_norm, conv2d, embedding, fc, layer_norm

__all__ = ["batch_norm", "conv2d", "embedding", "fc", "layer_norm"]
