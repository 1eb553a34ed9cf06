"""paddle.audio: window functions, mel scale, filter banks, decibels, DCT, the feature Layers
(values, gradients, state_dict names, to_static), the WAV backend round trip in a temp dir and
the datasets on generated files (goldens from real Paddle)."""

import os
import tempfile
import warnings

import numpy as np
from _util import backprop, expect_error

import paddle

A = paddle.audio
F = paddle.audio.functional

# MFCC mixes decibel values of ~-100 through the DCT: a few small coefficients cancel
TOLERANCE = {
    "case_features": (1e-4, 2e-5),
    "case_features_to_static": (1e-4, 2e-5),
    "case_dataset_features": (1e-4, 2e-5),
}

WINDOWS = [
    "hamming", "hann", "bartlett", "nuttall", "triang", "bohman", "blackman", "cosine",
    "tukey", "taylor", ("kaiser", 6.0), ("gaussian", 1.5), ("exponential", None, 2.0),
    ("general_gaussian", 1.5, 2.0), ("tukey", 0.3), ("tukey", 1.0), ("tukey", 0.0),
]  # fmt: skip


def _wave(shape, seed=1):
    return np.random.default_rng(seed).uniform(-0.8, 0.8, shape).astype("float32")


def case_windows():
    out = {}
    for w in WINDOWS:
        for n, fftbins, dtype in (
            (7, True, "float32"),
            (8, False, "float64"),
            (1, True, "float32"),
        ):
            out[f"{w}-{n}-{fftbins}"] = F.get_window(w, n, fftbins=fftbins, dtype=dtype)
    out["default_dtype"] = F.get_window("hann", 5)
    out["empty"] = F.get_window("hann", 0)
    out["exp_center"] = F.get_window(("exponential", 3.0, 1.0), 6)
    bad = {
        "needs_param": lambda: F.get_window("kaiser", 8),
        "unknown": lambda: F.get_window("nope", 8),
        "not_str": lambda: F.get_window(3, 8),
        "negative": lambda: F.get_window("hann", -1),
        "fraction": lambda: F.get_window("hann", 2.5),
        "sym_center": lambda: F.get_window(("exponential", 3.0), 6, fftbins=False),
    }
    out.update({k: expect_error(f) for k, f in bad.items()})
    return out


def case_mel_scale():
    hz = np.array([0.0, 50.0, 999.0, 1000.0, 1001.0, 5000.0, -3.0], "float32")
    out = {
        "float_hz_to_mel": [F.hz_to_mel(v) for v in (0.0, 500.0, 1000.0, 3000.0)],
        "float_htk": [F.hz_to_mel(700.0, htk=True), F.mel_to_hz(1000.0, htk=True)],
        "float_mel_to_hz": [F.mel_to_hz(v) for v in (0.0, 10.0, 15.0, 40.0)],
        "mel_frequencies": F.mel_frequencies(12, 20.0, 8000.0),
        "mel_frequencies_htk": F.mel_frequencies(6, 0.0, 4000.0, htk=True, dtype="float64"),
        "mel_frequencies_default": F.mel_frequencies(),
        "fft_frequencies": F.fft_frequencies(16000, 30),
        "fft_frequencies_f64": F.fft_frequencies(8000, 8, dtype="float64"),
    }
    out["hz_to_mel"] = backprop(lambda x: F.hz_to_mel(x), hz[:6])
    out["hz_to_mel_negative"] = F.hz_to_mel(paddle.to_tensor(hz))
    # compiled: the mask's product keeps log's NaN at -3 Hz (no select rewrite)
    out["hz_to_mel_negative_static"] = paddle.jit.to_static(F.hz_to_mel)(paddle.to_tensor(hz))
    out["mel_to_hz_inf"] = F.mel_to_hz(
        paddle.to_tensor(np.array([-np.inf, 1.0, np.inf], "float32"))
    )
    out["hz_to_mel_htk"] = backprop(lambda x: F.hz_to_mel(x, htk=True), hz[:6])
    out["mel_to_hz"] = backprop(lambda x: F.mel_to_hz(x), hz / 100)
    out["mel_to_hz_htk"] = backprop(lambda x: F.mel_to_hz(x, htk=True), hz)
    out["f64"] = F.hz_to_mel(paddle.to_tensor(hz.astype("float64")))
    return out


def case_fbank():
    out = {}
    for norm in ("slaney", 2.0, 1, None):
        for htk in (False, True):
            out[f"{norm}-{htk}"] = F.compute_fbank_matrix(
                16000, 64, n_mels=6, f_min=20.0, htk=htk, norm=norm
            )
    out["f_max"] = F.compute_fbank_matrix(8000, 32, n_mels=4, f_max=3000.0, dtype="float64")
    out["default"] = F.compute_fbank_matrix(22050, 128)
    return out


def case_power_to_db_and_dct():
    spect = np.abs(np.random.default_rng(0).standard_normal((2, 4, 5))).astype("float32") ** 3
    out = {
        "db": backprop(lambda s: F.power_to_db(s), spect),
        "db_ref": backprop(
            lambda s: F.power_to_db(s, ref_value=2.0, amin=1e-3, top_db=10.0), spect
        ),
        "db_no_top": F.power_to_db(paddle.to_tensor(spect), top_db=None),
        "db_f64": F.power_to_db(paddle.to_tensor(spect.astype("float64"))),
        "dct": F.create_dct(5, 8),
        "dct_none": F.create_dct(3, 6, norm=None, dtype="float64"),
    }
    s = paddle.to_tensor(spect)
    bad = {
        "amin": lambda: F.power_to_db(s, amin=0.0),
        "ref": lambda: F.power_to_db(s, ref_value=-1.0),
        "top_db": lambda: F.power_to_db(s, top_db=-1.0),
        "dct_norm": lambda: F.create_dct(3, 6, norm="l2"),
    }
    out.update({k: expect_error(f) for k, f in bad.items()})
    return out


def _features(wave):
    return {
        "spectrogram": A.features.Spectrogram(n_fft=32, hop_length=8),
        "spectrogram_p2": A.features.Spectrogram(n_fft=32, win_length=24, power=2.0, window="hamming", center=False),
        "mel": A.features.MelSpectrogram(sr=8000, n_fft=32, hop_length=8, n_mels=6),
        "mel_htk": A.features.MelSpectrogram(sr=8000, n_fft=32, hop_length=8, n_mels=5, htk=True, norm=None, f_max=3000.0),
        "logmel": A.features.LogMelSpectrogram(sr=8000, n_fft=32, n_mels=6, top_db=60.0),
        "mfcc": A.features.MFCC(sr=8000, n_mfcc=4, n_fft=32, n_mels=6),
        "mfcc_f64": A.features.MFCC(sr=8000, n_mfcc=3, n_fft=16, n_mels=4, dtype="float64"),
    }  # fmt: skip


def case_features():
    wave = _wave((2, 200))
    out = {}
    for name, layer in _features(wave).items():
        x = wave.astype("float64") if name.endswith("f64") else wave
        out[name] = backprop(layer, x)
        out[f"{name}_keys"] = list(layer.state_dict().keys())
    out["spectrogram_1d"] = A.features.Spectrogram(n_fft=32, hop_length=8)(
        paddle.to_tensor(wave[0])
    )
    out["logmel_1d"] = A.features.LogMelSpectrogram(sr=8000, n_fft=32, n_mels=6)(
        paddle.to_tensor(wave[0])
    )
    out["mfcc_1d"] = expect_error(
        lambda: A.features.MFCC(sr=8000, n_fft=32, n_mels=6)(paddle.to_tensor(wave[0]))
    )
    out["mfcc_too_many"] = expect_error(lambda: A.features.MFCC(n_mfcc=8, n_mels=4))
    out["power_0"] = expect_error(lambda: A.features.Spectrogram(power=0.0))
    out["buffers"] = [A.features.MFCC(sr=8000, n_mfcc=3, n_fft=16, n_mels=4).dct_matrix]
    return out


def case_features_to_static():
    wave = paddle.to_tensor(_wave((2, 160), seed=3))
    mfcc = A.features.MFCC(sr=8000, n_mfcc=4, n_fft=32, n_mels=6)
    mel = A.features.MelSpectrogram(sr=8000, n_fft=32, hop_length=8, n_mels=6)
    return [mfcc(wave), paddle.jit.to_static(mfcc)(wave), paddle.jit.to_static(mel)(wave)]


def case_wav_roundtrip():
    out = {}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "a.wav")
        wave = paddle.to_tensor(_wave((2, 50), seed=0))
        A.save(path, wave, 8000)
        info = A.info(path)
        out["info"] = [
            info.sample_rate,
            info.num_samples,
            info.num_channels,
            info.bits_per_sample,
            info.encoding,
        ]
        out["load"] = list(A.load(path))
        out["raw_slice"] = list(
            A.load(path, frame_offset=5, num_frames=3, normalize=False, channels_first=False)
        )
        out["offset_alone_ignored"] = A.load(path, frame_offset=5)[0].shape
        with open(path, "rb") as f:
            out["file_object"] = A.load(f, frame_offset=45, num_frames=100)[0]
        ints = paddle.to_tensor((np.arange(12).reshape(6, 2) * 1000 - 4000).astype("int16"))
        A.save(path, ints, 100, channels_first=False)
        out["int16"] = list(A.load(path, normalize=False))
        out["int16_info"] = vars(A.info(path))
        with open(path, "rb") as f:
            out["info_file_object"] = vars(A.info(f))
        text = os.path.join(d, "t.txt")
        with open(text, "w") as f:
            f.write("not a wave file at all")
        bad = {
            "save_1d": lambda: A.save(path, wave[0], 8000),
            "save_8bit": lambda: A.save(path, wave, 8000, bits_per_sample=8),
            "load_text": lambda: A.load(text),
            "info_text": lambda: A.info(text),
            "load_missing": lambda: A.load(os.path.join(d, "missing.wav")),
        }
        out.update({k: expect_error(f) for k, f in bad.items()})
    return out


def case_backends():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        names = A.backends.list_available_backends()
        A.backends.set_backend("wave_backend")
        err = expect_error(lambda: A.backends.set_backend("soundfile"))
    return {
        "names": names,
        "current": A.backends.get_current_backend(),
        "bound": [A.load is A.backends.backend.load, A.save is A.backends.backend.save],
        "unknown": err,
        "audio_all": sorted(A.__all__),
        "features_all": sorted(A.features.__all__),
        "functional_all": sorted(F.__all__),
        "datasets": sorted(n for n in dir(A.datasets) if not n.startswith("_") and n[0].isupper()),
    }


def _write_wav(path, seed, n=400, sr=8000):
    A.save(path, paddle.to_tensor(_wave((1, n), seed=seed)), sr)


def _make_esc50(root):
    base = os.path.join(root, "ESC-50-master")
    os.makedirs(os.path.join(base, "audio"))
    os.makedirs(os.path.join(base, "meta"))
    rows = ["filename,fold,target,category,esc10,src_file,take"]
    for i in range(10):
        name = f"{i % 5 + 1}-{100 + i}-A-{i}.wav"
        rows.append(f"{name},{i % 5 + 1},{i * 3},cat{i},False,{100 + i},A")
        _write_wav(os.path.join(base, "audio", name), seed=i)
    with open(os.path.join(base, "meta", "esc50.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


def case_esc50():
    esc50 = A.datasets.esc50
    saved = esc50.DATA_HOME
    out = {}
    with tempfile.TemporaryDirectory() as d:
        esc50.DATA_HOME = d
        try:
            _make_esc50(d)
            train, dev = (
                A.datasets.ESC50(mode="train", split=2),
                A.datasets.ESC50(mode="dev", split=2),
            )
            out["sizes"] = [len(train), len(dev), len(A.datasets.ESC50("test", split=5))]
            out["labels"] = [train.labels, dev.labels]
            out["files"] = [os.path.basename(f) for f in dev.files]
            out["raw"] = list(dev[0])
            out["bad_split"] = expect_error(lambda: A.datasets.ESC50(split=6))
            out["bad_feat"] = expect_error(lambda: A.datasets.ESC50(feat_type="nope"))
            out["labels_known"] = [
                len(A.datasets.ESC50.label_list),
                A.datasets.ESC50.label_list[:3],
            ]
        finally:
            esc50.DATA_HOME = saved
    return out


def case_dataset_features():
    esc50 = A.datasets.esc50
    saved = esc50.DATA_HOME
    out = {}
    with tempfile.TemporaryDirectory() as d:
        esc50.DATA_HOME = d
        try:
            _make_esc50(d)
            kw = dict(mode="dev", split=1, n_fft=64)
            out["mel"] = list(
                A.datasets.ESC50(feat_type="melspectrogram", n_mels=8, hop_length=32, **kw)[1]
            )
            out["mfcc"] = list(A.datasets.ESC50(feat_type="mfcc", n_mels=8, n_mfcc=4, **kw)[0])
            out["spect"] = list(A.datasets.ESC50(feat_type="spectrogram", hop_length=32, **kw)[0])
            out["logmel"] = list(A.datasets.ESC50(feat_type="logmelspectrogram", n_mels=8, **kw)[0])
        finally:
            esc50.DATA_HOME = saved
    return out


def case_tess():
    tess = A.datasets.tess
    saved = tess.DATA_HOME
    out = {}
    with tempfile.TemporaryDirectory() as d:
        tess.DATA_HOME = d
        try:
            root = os.path.join(d, "TESS_Toronto_emotional_speech_set", "OAF_x")
            os.makedirs(root)
            emotions = ["angry", "disgust", "fear", "happy", "neutral", "ps", "sad"]
            for i in range(7):
                _write_wav(os.path.join(root, f"OAF_w{i}_{emotions[i]}.wav"), seed=i, n=100)
            train, dev = (
                A.datasets.TESS(n_folds=3, split=2),
                A.datasets.TESS("dev", n_folds=3, split=2),
            )
            out["sizes"] = [len(train), len(dev)]
            out["label_sets"] = [sorted(train.labels), sorted(dev.labels)]
            out["bad_folds"] = expect_error(lambda: A.datasets.TESS(n_folds=0))
            out["bad_split"] = expect_error(lambda: A.datasets.TESS(n_folds=2, split=3))
            out["item"] = list(dev[0])[0].shape
        finally:
            tess.DATA_HOME = saved
    return out
