"""paddle.fft and paddle.signal: transforms, norms, s/axes, dtypes (float64, integer and complex
inputs) and bad arguments. Gradients here cover real outputs (irfft/hfft of real inputs, frame,
overlap_add, istft); complex outputs' gradients are in tests/cases/fft_signal.py."""

from __future__ import annotations

import numpy as np

from . import Row, empty, ints, rand

X = rand(2, 5)  # float32
X64 = rand(3, 4, dtype="float64", seed=1)
C = rand(2, 5, dtype="complex64", seed=2)
C128 = rand(3, 4, dtype="complex128", seed=3)
X3 = rand(2, 3, 4, seed=4)
C3 = rand(2, 3, 4, dtype="complex64", seed=5)
I = ints(2, 4)
T4 = (1e-4, 1e-5)
SIG = rand(2, 16, seed=6)
WIN = np.hanning(8).astype("float32") + 0.1


def F(op, *args, **kw):
    kw.setdefault("tol", T4)
    return Row(op, *args, api=f"fft.{op}", **kw)


def S(op, *args, **kw):
    kw.setdefault("tol", T4)
    return Row(op, *args, api=f"signal.{op}", **kw)


_BAD_1D = (
    ((X,), {"norm": "bad"}),
    ((X,), {"n": 0}),
    ((X,), {"n": -1}),
    ((X,), {"axis": 2}),
    ((X,), {"axis": 1.0}),
    ((np.array(1.0, "float32"),), {}),
    ((X,), {"n": True}),
    ((X,), {"axis": False}),
)
_BAD_2D = (
    ((X,), {"norm": "bad"}),
    ((X,), {"s": [0, 2]}),
    ((X,), {"s": [2]}),
    ((X,), {"axes": [0, 2]}),
    ((X,), {"axes": 0}),
    ((rand(4),), {}),
)
_BAD_ND = (
    ((X,), {"norm": "ortho2"}),
    ((X,), {"s": [2, 2, 2]}),
    ((X,), {"s": 3}),
    ((X,), {"axes": [0, 2]}),
    ((X,), {"axes": 0}),
    ((X,), {"s": [2, 2], "axes": [0]}),
)
_HALF = ((rand(4, dtype="float16"),), {})  # no float16 kernel: RuntimeError

ROWS: list[Row] = []
for _k in ("fft", "ifft"):
    ROWS += [
        F(_k, (C,), bad=_BAD_1D + (_HALF, ((np.ones(3, bool),), {}))),
        F(_k, (X,), tag="real"),
        F(_k, (X64,), {"n": 6, "axis": 0, "norm": "ortho"}, tag="f64-n-ortho"),
        F(_k, (C128,), {"n": 3, "norm": "forward"}, tag="c128-crop-forward"),
        F(_k, (I,), tag="int64"),
        F(_k, (X,), {"dim": 0}, tag="dim"),
    ]
for _k in ("rfft", "ihfft"):
    ROWS += [
        F(_k, (X,), bad=_BAD_1D + (_HALF, ((C,), {}))),
        F(_k, (X64,), {"n": 7, "axis": 0, "norm": "ortho"}, tag="f64-n-ortho"),
        F(_k, (X,), {"norm": "forward"}, tag="forward"),
        F(_k, (I,), tag="int64"),
    ]
for _k in ("irfft", "hfft"):
    ROWS += [
        F(_k, (C,), bad=_BAD_1D + (((I,), {}), ((np.zeros((2, 0), "complex64"),), {}))),
        F(_k, (C128,), {"n": 5, "axis": 0, "norm": "ortho"}, tag="c128-n-ortho"),
        F(_k, (C,), {"n": 3, "norm": "forward"}, tag="crop-forward"),
        F(_k, (X,), tag="real"),
    ]
for _k in ("fft2", "ifft2", "fftn", "ifftn"):
    nd = _k.endswith("n")
    ROWS += [
        F(_k, (C3,), bad=_BAD_ND if nd else _BAD_2D),
        F(_k, (X3,), {"s": [4, 2], "axes": [2, 0], "norm": "ortho"}, tag="s-axes"),
        F(_k, (X64,), {"norm": "forward"}, tag="f64-forward"),
        F(_k, (I,), tag="int64"),
    ]
for _k in ("rfft2", "ihfft2", "rfftn", "ihfftn"):
    nd = _k.endswith("n")
    ROWS += [
        F(_k, (X3,), bad=(_BAD_ND if nd else _BAD_2D) + (((C,), {}),)),
        F(_k, (X3,), {"s": [3, 5], "axes": [2, 0], "norm": "ortho"}, tag="s-axes"),
        F(_k, (X64,), {"norm": "forward"}, tag="f64-forward"),
        F(_k, (I,), tag="int64"),
    ]
for _k in ("irfft2", "hfft2", "irfftn", "hfftn"):
    nd = _k.endswith("n")
    ROWS += [
        F(_k, (C3,), bad=(_BAD_ND if nd else _BAD_2D) + (((I,), {}),)),
        F(_k, (C3,), {"s": [3, 5], "axes": [2, 0], "norm": "ortho"}, tag="s-axes"),
        F(_k, (C128,), {"norm": "forward"}, tag="c128-forward"),
        F(_k, (X3,), {"axes": (0, 1)}, tag="real"),
    ]
ROWS += [
    F("fft", (empty(2, 0),), tag="empty-axis"),
    F("ifft", (np.zeros((0, 3), "complex64"),), tag="empty-batch"),
    F("rfft", (empty(2, 0),), tag="empty-axis"),
    F("rfft2", (empty(3, 0),), tag="empty"),
    F("fftn", (C3,), {"s": [3]}, tag="s-last"),
    F("rfftn", (X3,), {"axes": [1]}, tag="one-axis"),
    F("irfftn", (C3,), {"s": [2, 6]}, tag="s-only"),
    F("fft_c2c", (C, None, -1, "backward", True, None)),
    F("fft_c2c", (X, 3, 0, "ortho", False, None), tag="real-inverse"),
    F("fft_r2c", (X, None, -1, "backward", True, True, None)),
    F("fft_r2c", (X, 6, -1, "forward", False, False, None), tag="inverse-twosided"),
    F("fft_c2r", (C, None, -1, "backward", False, None)),
    F("fft_c2r", (C, 4, -1, "ortho", True, None), tag="forward-n"),
    F("fftn_c2c", (C3, None, None, "backward", True, None)),
    F("fftn_r2c", (X3, [3, 4], [0, 2], "backward", True, True, None)),
    F("fftn_c2r", (C3, None, [1, 2], "forward", False, None)),
    F("fftfreq", (5,), bad=(((0,), {}), ((4, 0.0), {}), ((4,), {"dtype": "complex64"}))),
    F("fftfreq", (6, 0.5), {"dtype": "float64"}, tag="f64"),
    F("fftfreq", (4,), {"dtype": "int64"}, tag="int-dtype"),
    F("fftfreq", (-3,), tag="negative"),
    F("rfftfreq", (5,), bad=(((0,), {}),)),
    F("rfftfreq", (6, 0.1), {"dtype": "float64"}, tag="f64"),
    F("fftshift", (X,)),
    F("fftshift", (X3,), {"axes": (2, 0)}, tag="axes"),
    F("ifftshift", (X,)),
    F("ifftshift", (X3,), {"axes": (1, 2)}, tag="axes"),
    # paddle.signal
    S(
        "frame",
        (SIG, 4, 2),
        bad=(
            ((SIG, 4, 2), {"axis": 1}),
            ((SIG, 17, 2), {}),
            ((SIG, 4, 0), {}),
            ((SIG, 0, 2), {}),
            ((np.array(1.0, "float32"), 1, 1), {}),
        ),
    ),
    S("frame", (rand(16, 3, seed=7), 5, 3), {"axis": 0}, tag="axis0"),
    S("frame", (ints(8), 4, 4), tag="int64"),
    S(
        "overlap_add",
        (rand(2, 4, 5, seed=8), 2),
        bad=(((rand(4, 5), 2), {"axis": 1}), ((rand(4, 5), 0), {}), ((rand(4), 2), {})),
    ),
    S("overlap_add", (rand(5, 4, 3, seed=9), 3), {"axis": 0}, tag="axis0"),
    S("overlap_add", (ints(4, 3), 2), tag="int64"),
    S(
        "stft",
        (SIG, 8),
        bad=(
            ((rand(2, 2, 16), 8), {}),
            ((SIG, 8), {"win_length": 9}),
            ((SIG, 8), {"window": np.ones(5, "float32")}),
            ((SIG, 8), {"hop_length": 0}),
            ((SIG, 32), {"center": False}),
            ((SIG, 8), {"pad_mode": "zeros"}),
            ((C, 4), {"onesided": True}),
            ((SIG, 8), {"window": np.ones(8, "int64")}),
            ((ints(16), 8), {"window": WIN}),
        ),
    ),
    S("stft", (SIG[0], 8, 2, 6, WIN[:6]), {"pad_mode": "constant"}, tag="1d-window"),
    S("stft", (SIG.astype("float64"), 8), {"center": False, "normalized": True}, tag="f64"),
    S("stft", (SIG, 8), {"onesided": False}, tag="twosided"),
    S("stft", (C, 4, 1), tag="complex"),
    S("stft", (ints(16), 8), {"window": np.ones(8, "int64")}, tag="int-window"),
]
_SPEC = np.fft.rfft(SIG.reshape(2, 4, 4).transpose(0, 2, 1), axis=1).astype("complex64")
_SPEC8 = np.fft.rfft(np.stack([SIG[:, i : i + 8] for i in range(0, 9, 2)], -1), axis=1)
ROWS += [
    S(
        "istft",
        (_SPEC8.astype("complex64"), 8, 2),
        {"window": WIN},
        bad=(
            ((_SPEC8, 8), {"onesided": False}),
            ((_SPEC8, 8), {"hop_length": 9}),
            ((_SPEC8, 10), {}),
            ((_SPEC8, 8), {"return_complex": True}),
            ((_SPEC8[None, None], 8), {}),
        ),
    ),
    S("istft", (_SPEC8[0], 8, 2), {"center": False, "length": 12}, tag="2d-length"),
    S("istft", (_SPEC, 4, 4), {"normalized": True}, tag="normalized"),
]
