"""``paddle.audio``: WAV input/output, audio features (spectrograms, MFCC), their functional
building blocks and audio classification datasets."""

from . import backends, datasets, features, functional
from .backends.backend import info, load, save

__all__ = ["functional", "features", "datasets", "backends", "load", "info", "save"]
