"""``paddle.audio.features``: Spectrogram, MelSpectrogram, LogMelSpectrogram and MFCC Layers,
built on ``paddle.signal.stft``. Their window, filter bank and DCT matrices are buffers (in
``state_dict`` under Paddle's names)."""

from __future__ import annotations

import paddle_compat as paddle

from ..._core.tensor import Tensor
from ...nn import Layer
from ..functional import compute_fbank_matrix, create_dct, power_to_db
from ..functional.window import get_window


class Spectrogram(Layer):
    """``|stft(x)| ** power`` of a [T] or [B, T] waveform: [(B,) 1 + n_fft // 2, frames]."""

    def __init__(
        self,
        n_fft: int = 512,
        hop_length: int | None = 512,
        win_length: int | None = None,
        window: str = "hann",
        power: float = 1.0,
        center: bool = True,
        pad_mode: str = "reflect",
        dtype: str = "float32",
    ) -> None:
        super().__init__()
        assert power > 0, "Power of spectrogram must be > 0."
        self.power = power
        win_length = n_fft if win_length is None else win_length
        self._stft_args = dict(
            n_fft=n_fft,
            hop_length=hop_length,
            win_length=win_length,
            center=center,
            pad_mode=pad_mode,
        )
        self.register_buffer(
            "fft_window", get_window(window, win_length, fftbins=True, dtype=dtype)
        )

    def forward(self, x: Tensor) -> Tensor:
        spectrum = paddle.signal.stft(x, window=self.fft_window, **self._stft_args)
        return paddle.pow(paddle.abs(spectrum), self.power)


class MelSpectrogram(Layer):
    """A Spectrogram projected on ``n_mels`` mel filters: [(B,) n_mels, frames]."""

    def __init__(
        self,
        sr: int = 22050,
        n_fft: int = 2048,
        hop_length: int | None = 512,
        win_length: int | None = None,
        window: str = "hann",
        power: float = 2.0,
        center: bool = True,
        pad_mode: str = "reflect",
        n_mels: int = 64,
        f_min: float = 50.0,
        f_max: float | None = None,
        htk: bool = False,
        norm="slaney",
        dtype: str = "float32",
    ) -> None:
        super().__init__()
        self._spectrogram = Spectrogram(
            n_fft=n_fft,
            hop_length=hop_length,
            win_length=win_length,
            window=window,
            power=power,
            center=center,
            pad_mode=pad_mode,
            dtype=dtype,
        )
        self.n_mels = n_mels
        self.f_min = f_min
        self.f_max = f_max
        self.htk = htk
        self.norm = norm
        fbank = compute_fbank_matrix(
            sr=sr,
            n_fft=n_fft,
            n_mels=n_mels,
            f_min=f_min,
            f_max=sr // 2 if f_max is None else f_max,
            htk=htk,
            norm=norm,
            dtype=dtype,
        )
        self.register_buffer("fbank_matrix", fbank)

    def forward(self, x: Tensor) -> Tensor:
        return paddle.matmul(self.fbank_matrix, self._spectrogram(x))


class LogMelSpectrogram(Layer):
    """A MelSpectrogram in decibels (``power_to_db`` with ``ref_value``, ``amin``, ``top_db``)."""

    def __init__(
        self,
        sr: int = 22050,
        n_fft: int = 512,
        hop_length: int | None = None,
        win_length: int | None = None,
        window: str = "hann",
        power: float = 2.0,
        center: bool = True,
        pad_mode: str = "reflect",
        n_mels: int = 64,
        f_min: float = 50.0,
        f_max: float | None = None,
        htk: bool = False,
        norm="slaney",
        ref_value: float = 1.0,
        amin: float = 1e-10,
        top_db: float | None = None,
        dtype: str = "float32",
    ) -> None:
        super().__init__()
        self._melspectrogram = MelSpectrogram(
            sr=sr,
            n_fft=n_fft,
            hop_length=hop_length,
            win_length=win_length,
            window=window,
            power=power,
            center=center,
            pad_mode=pad_mode,
            n_mels=n_mels,
            f_min=f_min,
            f_max=f_max,
            htk=htk,
            norm=norm,
            dtype=dtype,
        )
        self.ref_value = ref_value
        self.amin = amin
        self.top_db = top_db

    def forward(self, x: Tensor) -> Tensor:
        mel = self._melspectrogram(x)
        return power_to_db(mel, ref_value=self.ref_value, amin=self.amin, top_db=self.top_db)


class MFCC(Layer):
    """Mel-frequency cepstral coefficients of a [B, T] waveform: [B, n_mfcc, frames]."""

    def __init__(
        self,
        sr: int = 22050,
        n_mfcc: int = 40,
        n_fft: int = 512,
        hop_length: int | None = None,
        win_length: int | None = None,
        window: str = "hann",
        power: float = 2.0,
        center: bool = True,
        pad_mode: str = "reflect",
        n_mels: int = 64,
        f_min: float = 50.0,
        f_max: float | None = None,
        htk: bool = False,
        norm="slaney",
        ref_value: float = 1.0,
        amin: float = 1e-10,
        top_db: float | None = None,
        dtype: str = "float32",
    ) -> None:
        super().__init__()
        assert n_mfcc <= n_mels, f"n_mfcc cannot be larger than n_mels: {n_mfcc} vs {n_mels}"
        self._log_melspectrogram = LogMelSpectrogram(
            sr=sr,
            n_fft=n_fft,
            hop_length=hop_length,
            win_length=win_length,
            window=window,
            power=power,
            center=center,
            pad_mode=pad_mode,
            n_mels=n_mels,
            f_min=f_min,
            f_max=f_max,
            htk=htk,
            norm=norm,
            ref_value=ref_value,
            amin=amin,
            top_db=top_db,
            dtype=dtype,
        )
        self.register_buffer("dct_matrix", create_dct(n_mfcc=n_mfcc, n_mels=n_mels, dtype=dtype))

    def forward(self, x: Tensor) -> Tensor:
        log_mel = self._log_melspectrogram(x)  # [B, n_mels, frames]
        return paddle.matmul(log_mel.transpose((0, 2, 1)), self.dct_matrix).transpose((0, 2, 1))


__all__ = ["LogMelSpectrogram", "MelSpectrogram", "MFCC", "Spectrogram"]
