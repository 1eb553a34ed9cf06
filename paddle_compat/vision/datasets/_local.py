"""Where a dataset's file comes from: the path given, else Paddle's download cache; never the
network (paddle-compat does not download)."""

from __future__ import annotations

import hashlib
import os

DATA_HOME = os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")


def _md5(path: str) -> str:
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def local_file(path, url: str, md5: str, module: str, download: bool, what: str) -> str:
    """``path`` when given (opening it reports a missing file, as in Paddle); else (Paddle's
    AssertionError when ``download`` is off) the copy of
    ``url`` in Paddle's cache (``~/.cache/paddle/dataset/<module>/``) if its md5 matches; else
    a RuntimeError naming the file to fetch."""
    if path:
        return path
    assert download, f"{what} is not set and downloading automatically is disabled"
    cached = os.path.join(DATA_HOME, module, url.split("/")[-1])
    if os.path.exists(cached) and _md5(cached) == md5:
        return cached
    raise RuntimeError(
        f"{what} is not set and paddle-compat does not download datasets. Download {url} "
        f"(md5 {md5}) and pass its path, or place it at {cached} (where Paddle caches it)."
    )


def image_backend(backend):
    """The dataset's image backend (default: ``paddle.vision.get_image_backend()``)."""
    from ..image import get_image_backend

    backend = get_image_backend() if backend is None else backend
    if backend not in ("pil", "cv2"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    return backend


def default_dtype() -> str:
    from ..._core import dtype as _dt

    return _dt.default_float().name
