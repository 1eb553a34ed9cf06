"""Choosing ``paddle.audio``'s backend: the built-in wave backend, or paddleaudio's when that
package (>= 1.0.2) is installed."""

from __future__ import annotations

import sys
import warnings

from . import backend, wave_backend

_FUNCS = ("save", "load", "info")


def _paddleaudio_ok(version: str) -> bool:
    major, minor, patch = (int(v) for v in version.split(".")[:3])
    return major >= 1 and not (major == 1 and minor == 0 and patch <= 1)


def list_available_backends() -> list[str]:
    """The usable backend names: paddleaudio's (when installed) and ``'wave_backend'``."""
    names: list[str] = []
    try:
        import paddleaudio
    except ImportError:
        warnings.warn(
            "Failed importing paddleaudio. \n"
            "only wave_backend(only can deal with PCM16 WAV) supported.\n"
            "if want soundfile_backend(more audio type supported),\n"
            "please manually installed (usually with `pip install paddleaudio >= 1.0.2`). ",
            stacklevel=2,
        )
    else:
        if not _paddleaudio_ok(paddleaudio.__version__):
            raise ImportError(
                f"the version of paddleaudio installed is {paddleaudio.__version__},\n"
                "please ensure the paddleaudio >= 1.0.2."
            )
        names = list(paddleaudio.backends.list_audio_backends())
    names.append("wave_backend")
    return names


def get_current_backend() -> str:
    """The name of the backend that ``paddle.audio.load`` uses now."""
    import paddle_compat.audio as audio

    if "paddleaudio" in sys.modules:
        paddleaudio = sys.modules["paddleaudio"]
        if audio.load == paddleaudio.load:
            return paddleaudio.backends.get_audio_backend()
    return "wave_backend"


def _bind(module) -> None:
    import paddle_compat.audio as audio

    for name in _FUNCS:
        setattr(backend, name, getattr(module, name))
        setattr(audio, name, getattr(module, name))


def set_backend(backend_name: str) -> None:
    """Make ``paddle.audio.load/info/save`` use ``backend_name`` (one of
    ``list_available_backends()``)."""
    if backend_name not in list_available_backends():
        raise NotImplementedError(
            f"audio backend {backend_name!r} is not available; the available ones are "
            "listed by paddle.audio.backends.list_available_backends()"
        )
    if backend_name == "wave_backend":
        _bind(wave_backend)
        return
    import paddleaudio

    paddleaudio.backends.set_audio_backend(backend_name)
    _bind(paddleaudio)


def _init_set_audio_backend() -> None:
    for name in _FUNCS:
        setattr(backend, name, getattr(wave_backend, name))
