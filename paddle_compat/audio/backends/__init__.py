"""``paddle.audio.backends``: which library reads and writes audio files."""

from . import init_backend
from .init_backend import get_current_backend, list_available_backends, set_backend

init_backend._init_set_audio_backend()

__all__ = ["get_current_backend", "list_available_backends", "set_backend"]
