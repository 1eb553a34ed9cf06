"""``paddle.audio.features``: spectrogram feature Layers."""

from .layers import MFCC, LogMelSpectrogram, MelSpectrogram, Spectrogram

__all__ = ["LogMelSpectrogram", "MelSpectrogram", "MFCC", "Spectrogram"]
