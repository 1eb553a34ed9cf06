"""``paddle.audio``'s default backend: 16-bit PCM WAV files through Python's ``wave`` module."""

from __future__ import annotations

import wave

import numpy as np

import paddle_compat as paddle

from ..._core.tensor import Tensor
from .backend import AudioInfo


def _unsupported() -> NotImplementedError:
    return NotImplementedError(
        "only PCM16 WAV supported. \n"
        "if want support more other audio types, please manually installed (usually with "
        "`pip install paddleaudio`). \n and use paddle.audio.backends.set_backend('soundfile') "
        "to set audio backend"
    )


def _open(filepath):
    """The open ``wave`` reader and the file object to close (a path is opened here; a file
    object is used, and closed at the end, as Paddle does)."""
    file_obj = filepath if hasattr(filepath, "read") else open(filepath, "rb")
    try:
        return wave.open(file_obj), file_obj
    except wave.Error:
        file_obj.close()
        raise _unsupported() from None


def info(filepath) -> AudioInfo:
    """Sample rate, frame count, channels, bits per sample and encoding of a WAV file."""
    reader, file_obj = _open(filepath)
    try:
        return AudioInfo(
            reader.getframerate(),
            reader.getnframes(),
            reader.getnchannels(),
            reader.getsampwidth() * 8,
            "PCM_S",
        )
    finally:
        file_obj.close()


def load(
    filepath,
    frame_offset: int = 0,
    num_frames: int = -1,
    normalize: bool = True,
    channels_first: bool = True,
) -> tuple[Tensor, int]:
    """A 16-bit PCM WAV file as a float32 Tensor ([channels, time] when ``channels_first``)
    scaled to [-1, 1) when ``normalize`` (raw sample values otherwise), and its sample rate.

    As in Paddle, ``frame_offset`` applies only together with ``num_frames != -1``."""
    reader, file_obj = _open(filepath)
    try:
        if reader.getsampwidth() != 2:
            raise _unsupported()
        channels, rate, frames = reader.getnchannels(), reader.getframerate(), reader.getnframes()
        raw = reader.readframes(frames)
    finally:
        file_obj.close()
    samples = np.frombuffer(raw, dtype="<i2").astype(np.float32)
    if normalize:
        samples = samples / np.float32(2**15)
    waveform = samples.reshape(frames, channels)
    if num_frames != -1:
        waveform = waveform[frame_offset : frame_offset + num_frames, :]
    waveform = np.ascontiguousarray(waveform.T if channels_first else waveform)
    return paddle.to_tensor(waveform), rate


def save(
    filepath: str,
    src: Tensor,
    sample_rate: int,
    channels_first: bool = True,
    encoding: str | None = None,
    bits_per_sample: int | None = 16,
) -> None:
    """Write a 2-D waveform ([channels, time] when ``channels_first``) as a 16-bit PCM WAV file;
    float32 samples in [-1, 1) are scaled to int16, other dtypes are written as they are."""
    assert src.ndim == 2, "Expected 2D tensor"
    samples = src.numpy()
    if channels_first:
        samples = samples.T
    if bits_per_sample not in (None, 16):
        raise ValueError("Invalid bits_per_sample, only support 16 bit")
    if bits_per_sample is None:
        raise TypeError("bits_per_sample=None: the wave backend writes 16-bit samples only")
    if src.dtype == paddle.float32:
        samples = (samples * (2**15)).astype("<h")
    with wave.open(filepath, "w") as writer:
        writer.setnchannels(samples.shape[1])
        writer.setsampwidth(bits_per_sample // 8)
        writer.setframerate(sample_rate)
        writer.writeframes(np.ascontiguousarray(samples).tobytes())
