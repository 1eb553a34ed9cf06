"""``paddle.audio.backends.backend``: ``AudioInfo`` and the current backend's ``load`` /
``info`` / ``save`` (bound to the wave backend when ``paddle.audio.backends`` is imported, and
rebound by ``set_backend``)."""

from __future__ import annotations


class AudioInfo:
    """What ``paddle.audio.info`` returns about an audio file."""

    sample_rate: int
    num_samples: int
    num_channels: int
    bits_per_sample: int
    encoding: str

    def __init__(
        self,
        sample_rate: int,
        num_samples: int,
        num_channels: int,
        bits_per_sample: int,
        encoding: str,
    ) -> None:
        self.sample_rate = sample_rate
        self.num_samples = num_samples
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding


def _unset(*args, **kwargs):
    raise NotImplementedError("please set audio backend")


info = load = save = _unset
