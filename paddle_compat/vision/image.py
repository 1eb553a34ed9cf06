"""``paddle.vision.image_load`` and the image backend switch ('pil', 'cv2', 'tensor') that
datasets and transforms read."""

from __future__ import annotations

__all__ = ["get_image_backend", "image_load", "set_image_backend"]

_BACKENDS = ("pil", "cv2", "tensor")
_image_backend = "pil"


def _check(backend) -> None:
    if backend not in _BACKENDS:
        raise ValueError(f"Expected backend are one of ['pil', 'cv2', 'tensor'], but got {backend}")


def set_image_backend(backend: str) -> None:
    """Select how ``image_load`` and the datasets return images."""
    global _image_backend
    _check(backend)
    _image_backend = backend


def get_image_backend() -> str:
    return _image_backend


def image_load(path: str, backend: str | None = None):
    """Open an image file: a ``PIL.Image`` ('pil'), a BGR numpy array ('cv2', needs
    opencv-python); like Paddle, the 'tensor' backend returns None."""
    backend = _image_backend if backend is None else backend
    _check(backend)
    if backend == "pil":
        from PIL import Image

        return Image.open(path)
    if backend == "cv2":
        try:
            import cv2
        except ImportError:
            raise ImportError(
                "Failed importing cv2. This likely means that some paddle modules require "
                "additional dependencies that have to be manually installed (usually with "
                "`pip install opencv-python`)."
            ) from None
        return cv2.imread(path)
    return None
