"""paddle.audio beyond the goldens (tests/cases/audio.py): windows against the paddle.* window
ops, WAV edge cases, the no-download dataset paths and the local archive of a dataset."""

from __future__ import annotations

import os
import wave
import zipfile

import numpy as np
import pytest

import paddle

A = paddle.audio


@pytest.mark.parametrize(
    "name,op",
    [("hann", paddle.hann_window), ("hamming", paddle.hamming_window),
     ("blackman", paddle.blackman_window), ("bartlett", paddle.bartlett_window)],
)  # fmt: skip
@pytest.mark.parametrize("n,periodic", [(1, True), (6, True), (7, False)])
def test_get_window_matches_window_ops(name, op, n, periodic):
    w = A.functional.get_window(name, n, fftbins=periodic, dtype="float64")
    ref = op(n, periodic=periodic, dtype="float64")
    np.testing.assert_allclose(w.numpy(), ref.numpy(), rtol=1e-12, atol=1e-12)
    assert A.functional.window.hann_window is paddle.hann_window


def _write_raw_wav(path, sampwidth, frames=b"\x00\x01" * 8, channels=1):
    with wave.open(path, "w") as w:
        w.setnchannels(channels)
        w.setsampwidth(sampwidth)
        w.setframerate(100)
        w.writeframes(frames)


@pytest.mark.parametrize("channels_first,shape", [(True, [3, 40]), (False, [40, 3])])
def test_int16_round_trip_is_exact(tmp_path, channels_first, shape):
    data = np.random.default_rng(0).integers(-32768, 32767, (40, 3)).astype("int16")
    src = data.T if channels_first else data
    path = str(tmp_path / "x.wav")
    A.save(path, paddle.to_tensor(src), 22050, channels_first=channels_first)
    out, sr = A.load(path, normalize=False, channels_first=channels_first)
    assert sr == 22050 and out.shape == shape and out.dtype == paddle.float32
    np.testing.assert_array_equal(out.numpy(), src.astype("float32"))
    norm, _ = A.load(path, channels_first=channels_first)
    np.testing.assert_array_equal(norm.numpy(), src.astype("float32") / 32768)


@pytest.mark.parametrize(
    "make,error",
    [
        (lambda p: _write_raw_wav(p, 1), NotImplementedError),  # 8-bit PCM
        (lambda p: _write_raw_wav(p, 4), NotImplementedError),  # 32-bit PCM
        (lambda p: open(p, "wb").write(b"RIFF....WAVEjunk"), NotImplementedError),
    ],
)
def test_unsupported_files(tmp_path, make, error):
    path = str(tmp_path / "bad.wav")
    make(path)
    with pytest.raises(error, match="PCM16"):
        A.load(path)


def test_info_of_other_sample_widths(tmp_path):
    path = str(tmp_path / "b8.wav")
    _write_raw_wav(path, 1, frames=bytes(range(10)))
    info = A.info(path)
    assert (info.bits_per_sample, info.num_samples, info.encoding) == (8, 10, "PCM_S")


def test_set_backend_unknown_names_the_way_out():
    with pytest.warns(UserWarning, match="paddleaudio"):
        with pytest.raises(NotImplementedError, match="list_available_backends"):
            A.backends.set_backend("soundfile")
    assert A.backends.get_current_backend() == "wave_backend"


def test_features_under_to_static_match_eager():
    layer = A.features.LogMelSpectrogram(sr=8000, n_fft=32, n_mels=6)
    x = paddle.to_tensor(np.random.default_rng(2).uniform(-1, 1, (1, 120)).astype("float32"))
    static = paddle.jit.to_static(layer)
    np.testing.assert_allclose(static(x).numpy(), layer(x).numpy(), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize(
    "module,cls",
    [(A.datasets.esc50, A.datasets.ESC50), (A.datasets.tess, A.datasets.TESS)],
)
def test_datasets_never_download(tmp_path, monkeypatch, module, cls):
    monkeypatch.setattr(module, "DATA_HOME", str(tmp_path))
    with pytest.raises(RuntimeError, match="does not download"):
        cls()


def test_dataset_unpacks_a_local_archive(tmp_path, monkeypatch):
    """A dataset zip already in DATA_HOME (md5 checked) is unpacked there, as Paddle does after
    its download."""
    monkeypatch.setattr(A.datasets.tess, "DATA_HOME", str(tmp_path))
    wav = tmp_path / "one.wav"
    A.save(str(wav), paddle.to_tensor(np.zeros((1, 20), "float32")), 8000)
    archive = tmp_path / "TESS_Toronto_emotional_speech_set.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for i, emotion in enumerate(["angry", "sad", "ps"]):
            z.write(wav, f"TESS_Toronto_emotional_speech_set/OAF/OAF_w{i}_{emotion}.wav")
    os.remove(wav)
    from paddle.dataset.common import md5file

    url = "https://bj.bcebos.com/paddleaudio/datasets/TESS_Toronto_emotional_speech_set.zip"
    ds = A.datasets.TESS(
        mode="dev", n_folds=3, split=1, archive={"url": url, "md5": md5file(archive)}
    )
    assert len(ds) == 1 and ds[0][0].shape == [20]
    assert (tmp_path / "TESS_Toronto_emotional_speech_set" / "OAF").is_dir()
