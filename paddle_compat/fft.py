"""``paddle.fft``: discrete Fourier transforms (generated from the op registry)."""

from ._ops._methods import namespace as _namespace

globals().update(_namespace("paddle.fft"))

# Paddle's __all__: its low-level kernels (fft_c2c, ...) are reachable but not listed
_PUBLIC = (
    "fft",
    "ifft",
    "rfft",
    "irfft",
    "hfft",
    "ihfft",
    "fft2",
    "ifft2",
    "rfft2",
    "irfft2",
    "hfft2",
    "ihfft2",
    "fftn",
    "ifftn",
    "rfftn",
    "irfftn",
    "hfftn",
    "ihfftn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
)
__all__ = list(_PUBLIC)
