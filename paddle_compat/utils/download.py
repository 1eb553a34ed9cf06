"""``paddle.utils.download``: files from URLs, read from the local cache only.

paddle-compat never downloads: a file is returned when a copy is already where Paddle would
have put it (``WEIGHTS_HOME`` for weights; ``root_dir`` for ``get_path_from_url``) and its md5
matches when one is given; otherwise a RuntimeError (Paddle's error when a download fails)
says where to put the file, or how to load a local one."""

from __future__ import annotations

import os


def __getattr__(name: str):
    if name == "WEIGHTS_HOME":  # shared with the model zoo (imported on first use)
        from ..vision.models._utils import WEIGHTS_HOME

        return WEIGHTS_HOME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _md5(path: str) -> str:
    from ..vision.models._utils import _md5 as md5

    return md5(path)


def is_url(path: str) -> bool:
    """True for ``http://`` and ``https://`` addresses."""
    return path.startswith("http://") or path.startswith("https://")


def get_path_from_url(
    url: str,
    root_dir: str,
    md5sum: str | None = None,
    check_exist: bool = True,
    decompress: bool = True,
    method: str = "get",
) -> str:
    """The local copy of ``url``'s file under ``root_dir`` (see the module docstring)."""
    if not is_url(url):
        raise AssertionError(f"downloading from {url} not a url")
    fname = url.split("/")[-1].split("?")[0]
    path = os.path.join(root_dir, fname)
    if os.path.exists(path) and (md5sum is None or _md5(path) == md5sum):
        return path
    why = "is missing" if not os.path.exists(path) else f"does not have md5 {md5sum}"
    raise RuntimeError(
        f"Download from {url} failed: paddle-compat does not download files, and the local "
        f"copy {path} {why}. Fetch the file yourself and place it at {path}, or load a local "
        "file directly (e.g. layer.set_state_dict(paddle.load('/path/to/file.pdparams')))."
    )


def get_weights_path_from_url(url: str, md5sum: str | None = None) -> str:
    """The local copy of ``url``'s weights in ``WEIGHTS_HOME`` (~/.cache/paddle/hapi/weights)."""
    from ..vision.models._utils import WEIGHTS_HOME

    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


__all__ = ["get_weights_path_from_url", "get_path_from_url", "is_url"]
