"""paddle.fft and paddle.signal: gradients of real <-> complex transforms (through real leaves:
as_real / as_complex carry them), norm round trips, stft / istft / frame / overlap_add round
trips and gradients, Paddle's errors, complex printing and the complex attribute ops."""

import numpy as np
from _util import backprop, expect_error, randn

import paddle

F = paddle.fft
S = paddle.signal
X = randn(3, 4)
X8 = randn(2, 8, seed=1)
X64 = randn(4, 5, seed=2, dtype="float64")
A = randn(3, 4, 2, seed=3)  # as_complex -> [3, 4] complex64
SIG = randn(2, 32, seed=4)
WIN = (np.hanning(16) + 0.05).astype("float32")
TOLERANCE = {
    "case_real_to_complex_grads": (1e-4, 1e-5),
    "case_complex_to_real_grads": (1e-4, 1e-5),
    "case_complex_to_complex_grads": (1e-4, 1e-5),
    "case_norm_round_trips": (1e-4, 1e-5),
    "case_stft": (1e-4, 1e-5),
    "case_istft": (1e-4, 1e-5),
    "case_stft_grads": (1e-4, 1e-4),
    "case_frame_overlap_add": (1e-5, 1e-5),
}


def _ar(f):
    return lambda x: paddle.as_real(f(x))


def case_real_to_complex_grads():
    out = []
    for f in [
        F.fft,
        F.ifft,
        F.rfft,
        F.ihfft,
        lambda x: F.fft(x, n=6, axis=0, norm="ortho"),
        lambda x: F.rfft(x, n=3, norm="forward"),
        lambda x: F.ihfft(x, n=7, norm="ortho"),
        F.fft2,
        F.rfft2,
        lambda x: F.ihfft2(x, s=[2, 5], norm="forward"),
        lambda x: F.fftn(x, s=[5], norm="ortho"),
        lambda x: F.rfftn(x, axes=[1, 0]),
        F.ihfftn,
    ]:
        out += backprop(_ar(f), X)
    return out + backprop(_ar(F.rfftn), X64)


def case_complex_to_real_grads():
    out = []
    for f in [
        F.irfft,
        F.hfft,
        lambda z: F.irfft(z, n=7, axis=0, norm="ortho"),
        lambda z: F.hfft(z, n=4, norm="forward"),
        F.irfft2,
        lambda z: F.hfft2(z, s=[2, 5]),
        lambda z: F.irfftn(z, s=[3, 6], axes=[1, 0], norm="ortho"),
        F.hfftn,
    ]:
        out += backprop(lambda a, f=f: f(paddle.as_complex(a)), A)
    return out


def case_complex_to_complex_grads():
    out = []
    for f in [
        F.fft,
        F.ifft,
        lambda z: F.fft(z, n=6, norm="forward"),
        lambda z: F.ifft2(z, norm="ortho"),
        lambda z: F.fftn(z, s=[2, 3]),
        lambda z: F.ifftn(z, axes=[0]),
    ]:
        out += backprop(lambda a, f=f: paddle.as_real(f(paddle.as_complex(a))), A)
    return out


def case_norm_round_trips():
    x = paddle.to_tensor(X64)
    out = []
    for norm in ["backward", "forward", "ortho"]:
        out += [
            F.ifft(F.fft(x, norm=norm), norm=norm),
            F.irfft(F.rfft(x, norm=norm), n=5, norm=norm),
            F.hfft(F.ihfft(x, norm=norm), n=5, norm=norm),
            F.ifftn(F.fftn(x, norm=norm), norm=norm),
            F.irfftn(F.rfftn(x, norm=norm), s=[4, 5], norm=norm),
            F.hfftn(F.ihfftn(x, norm=norm), s=[4, 5], norm=norm),
            F.fft(x, norm=norm),
            F.hfft2(F.fft2(x), norm=norm),
        ]
    return out


def case_frequencies_and_shifts():
    x = paddle.to_tensor(X)
    return [
        F.fftfreq(8),
        F.fftfreq(7, 0.25),
        F.fftfreq(4, dtype="float64"),
        F.fftfreq(5, paddle.to_tensor(2.0)),
        F.fftfreq(4, requires_grad=True),
        F.rfftfreq(9, 0.5),
        F.rfftfreq(4, dtype="int32"),
        F.fftshift(x),
        F.ifftshift(x),
        F.fftshift(x, axes=(1, 0)),
        F.ifftshift(F.fftshift(x)),
        F.fftshift(paddle.to_tensor(randn(2, 3, 4)), axes=[0, 2]),
    ]


def case_dtypes():
    i = paddle.to_tensor(np.arange(6).reshape(2, 3))
    x = paddle.to_tensor(X64)
    out = [F.fft(i), F.rfft2(i), F.ihfftn(i), F.fftn(i, s=[3, 4])]
    out += [F.fft(x).dtype, F.irfft(F.rfft(x)).dtype, F.hfft(x).dtype, F.ihfft(x).dtype]
    return out + [F.ifft(x), F.hfft(x), F.irfftn(x), F.ifftn(i, axes=[1])]


def case_low_level_kernels():
    x, z = paddle.to_tensor(X), paddle.to_tensor(A[..., 0] + 1j * A[..., 1])
    return [
        F.fft_c2c(z, None, -1, "backward", True, None),
        F.fft_c2c(x, 5, 0, "ortho", False, None),
        F.fft_r2c(x, None, -1, "backward", True, True, None),
        F.fft_r2c(x, 6, 1, "forward", False, False, None),
        F.fft_c2r(z, None, -1, "backward", False, None),
        F.fft_c2r(z, 5, 0, "ortho", True, None),
        F.fftn_c2c(z, [2, 2], None, "forward", True, None),
        F.fftn_r2c(x, None, [1, 0], "backward", False, True, None),
        F.fftn_c2r(z, [4, 6], [0, 1], "backward", True, None),
    ]


def case_stft():
    x, x1 = paddle.to_tensor(SIG), paddle.to_tensor(SIG[0])
    w = paddle.to_tensor(WIN)
    z = paddle.to_tensor((SIG[0] + 1j * SIG[1]).astype("complex64"))
    return [
        S.stft(x, 16),
        S.stft(x1, 16, hop_length=5, win_length=12, window=w[:12], pad_mode="constant"),
        S.stft(x, 16, 8, window=w, center=False, normalized=True),
        S.stft(x, 16, onesided=False),
        S.stft(paddle.to_tensor(SIG.astype("float64")), 8, 3),
        S.stft(paddle.to_tensor(np.arange(20)), 8),
        S.stft(z, 8, 4),
        x.stft(16, 4, window=w),
    ]


def case_istft():
    x = paddle.to_tensor(SIG)
    w = paddle.to_tensor(WIN)
    out = []
    for kw in [
        {},
        {"window": w, "hop_length": 4},
        {"window": w, "hop_length": 8, "normalized": True},
        {"center": False, "hop_length": 4},
    ]:
        spec = S.stft(x, 16, **kw)
        out += [spec, S.istft(spec, 16, **kw)]
    spec = S.stft(x, 16, window=w, onesided=False)
    out += [
        S.istft(spec, 16, window=w, onesided=False),
        S.istft(spec, 16, window=w, onesided=False, return_complex=True),
        S.istft(spec, 16, window=w, onesided=False, length=20),
        S.istft(S.stft(x[0], 16), 16, length=40),
        S.stft(x, 16).istft(16),
    ]
    z = paddle.to_tensor((SIG[0] + 1j * SIG[1]).astype("complex128"))
    return out + [S.istft(S.stft(z, 8, 2), 8, 2, onesided=False, return_complex=True)]


def case_stft_grads():
    w = WIN[:12]
    return [
        *backprop(lambda s: paddle.as_real(S.stft(s, 16, 4)), SIG),
        *backprop(lambda s, w: paddle.as_real(S.stft(s, 16, 4, 12, w)), SIG, w),
        *backprop(lambda a: S.istft(paddle.as_complex(a), 8, 2), randn(2, 5, 9, 2, seed=5)),
        *backprop(
            lambda a, w: S.istft(paddle.as_complex(a), 8, 2, window=w),
            randn(5, 9, 2, seed=6),
            WIN[4:12],
        ),
    ]


def case_frame_overlap_add():
    x = np.arange(10, dtype="float32")
    return [
        *backprop(lambda s: S.frame(s, 4, 2), X8),
        *backprop(lambda s: S.frame(s, 3, 2, axis=0), randn(9, 2, seed=7)),
        *backprop(lambda f: S.overlap_add(f, 2), randn(2, 4, 5, seed=8)),
        *backprop(lambda f: S.overlap_add(f, 3, axis=0), randn(4, 5, 2, seed=9)),
        S.frame(paddle.to_tensor(x), 5, 5),
        S.overlap_add(S.frame(paddle.to_tensor(x), 4, 2), 2),
        S.frame(paddle.to_tensor(np.arange(12).reshape(2, 6)), 3, 1),
        S.overlap_add(paddle.to_tensor(np.arange(12).reshape(4, 3)), 1, axis=0),
    ]


def case_errors():
    x = paddle.to_tensor(X)
    x1 = paddle.to_tensor(SIG[0])
    spec = S.stft(paddle.to_tensor(SIG), 16)
    zero_win = paddle.to_tensor(np.hanning(16).astype("float32"))
    calls = [
        lambda: F.fft(x, norm="bad"),
        lambda: F.fft(x, n=0),
        lambda: F.rfft(x, n=2.5),
        lambda: F.ifft(x, axis=2),
        lambda: F.fft(paddle.to_tensor(1.0)),
        lambda: F.rfft(F.fft(x)),
        lambda: F.irfft(paddle.to_tensor(np.arange(4))),
        lambda: F.fft(paddle.to_tensor(X.astype("float16"))),
        lambda: F.fft(paddle.to_tensor(np.ones(3, bool))),
        lambda: F.fft2(x[0]),
        lambda: F.fft2(x, s=[2]),
        lambda: F.rfft2(x, axes=[0, 2]),
        lambda: F.fftn(x, s=[1, 2, 3]),
        lambda: F.fftn(x, s=[2, 2], axes=[0]),
        lambda: F.ihfftn(x, s=[0, 2]),
        lambda: F.fftfreq(0),
        lambda: F.rfftfreq(4, 0.0),
        lambda: S.stft(x1, 64),
        lambda: S.stft(x1, 16, win_length=20),
        lambda: S.stft(x1, 16, pad_mode="circular"),
        lambda: S.stft(x1, 16, window=zero_win[:8]),
        lambda: S.istft(spec, 15),
        lambda: S.istft(spec, 16, hop_length=17),
        lambda: S.istft(spec, 16, window=zero_win, center=False),
        lambda: S.frame(x1, 4, 2, axis=1),
        lambda: S.frame(x1, 40, 2),
        lambda: S.overlap_add(x1, 2),
        lambda: S.overlap_add(x, 2, axis=1),
    ]
    return [expect_error(c) for c in calls]


def case_complex_print():
    z = (np.arange(6).reshape(2, 3) - 2.5) * (1 - 0.5j)
    return [
        str(paddle.to_tensor(z.astype("complex64"))),
        str(paddle.to_tensor(z.astype("complex128"))),
        str(paddle.to_tensor(np.complex64(1.5 - 2j))),
        str(paddle.to_tensor(np.zeros((0, 3), "complex64"))),
        str(paddle.to_tensor(np.array([1e-8 + 1e5j, 2, -0.0 - 3j], "complex64"))),
        str(paddle.to_tensor(np.array([np.nan + 1j, np.inf - np.inf * 1j], "complex128"))),
        str(paddle.to_tensor((np.arange(1200) * (1 + 1j)).reshape(2, 600).astype("complex64"))),
        str(F.fft(paddle.to_tensor(np.arange(5, dtype="float32")))),
        str(F.rfft(paddle.to_tensor(X64))),
        repr(F.ihfft(paddle.to_tensor([10.0, -5.0, 0.0, -1.0, 0.0, -5.0]))),
    ]


def case_complex_attribute_ops():
    """real, imag, conj, angle, abs, as_real, as_complex, complex on complex values; gradients
    flow to real leaves (as_complex / complex build the complex Tensor)."""

    def all_ops(a):
        z = paddle.as_complex(a)
        return [
            paddle.real(z),
            paddle.imag(z),
            paddle.as_real(paddle.conj(z)),
            paddle.angle(z),
            paddle.abs(z),
            paddle.as_real(z * z),
            z.real(),
            z.imag(),
        ]

    r, i = randn(3, seed=10), randn(3, seed=11)
    return [
        *backprop(all_ops, A),
        *backprop(lambda r, i: paddle.as_real(paddle.complex(r, i) ** 2), r, i),
        *backprop(lambda r, i: paddle.abs(paddle.complex(r, i)), r, i),
        paddle.conj(paddle.to_tensor(X)),
        paddle.angle(paddle.to_tensor(X)),
        paddle.complex(paddle.to_tensor(X64), paddle.to_tensor(X64)).dtype,
    ]
