"""``paddle.dataset.common``: Paddle's dataset cache (``DATA_HOME``) and helpers of the legacy
readers. paddle-compat never downloads: ``download`` returns the cached copy of a file when its
md5 matches and otherwise raises a RuntimeError that says where to put the file."""

from __future__ import annotations

import glob
import hashlib
import os
import pickle
import re
import tempfile

__all__ = []

HOME = os.path.expanduser("~")
if not os.access(HOME, os.W_OK):  # as Paddle: a read-only home keeps its cache in tmp
    HOME = tempfile.gettempdir()

DATA_HOME = os.path.join(HOME, ".cache", "paddle", "dataset")

_MODULE_NAME = re.compile(r"^[a-zA-Z0-9_/\-]+$")
_SAVE_NAME = re.compile(r"^(?:(?!\.\.)[a-zA-Z0-9_/\.-])+$")


def must_mkdirs(path) -> None:
    """Create Paddle's dataset cache directory (no error when it exists)."""
    os.makedirs(DATA_HOME, exist_ok=True)


def md5file(fname) -> str:
    """The md5 hex digest of a file."""
    digest = hashlib.md5()
    with open(fname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _checked(pattern: re.Pattern, value: str, what: str) -> str:
    if not pattern.match(value):
        raise AttributeError(f"download: {what} {value!r} contains characters Paddle refuses")
    return value


def download(url, module_name, md5sum, save_name=None) -> str:
    """The cached copy of ``url``: ``DATA_HOME/<module_name>/<file name>`` (``save_name``
    when given) when its md5 is ``md5sum``; else a RuntimeError (nothing is downloaded)."""
    module_name = _checked(_MODULE_NAME, module_name, "module_name")
    if isinstance(save_name, str):
        save_name = _checked(_SAVE_NAME, save_name, "save_name")
    name = url.split("/")[-1] if save_name is None else save_name
    filename = os.path.join(DATA_HOME, module_name, name)
    if os.path.exists(filename):
        actual = md5file(filename)
        if actual == md5sum:
            return filename
        why = f"has md5 {actual}, not {md5sum}"
    else:
        why = "is missing"
    raise RuntimeError(
        f"Cannot download {url}: paddle-compat does not download datasets, and the cached "
        f"copy {filename} {why}. Fetch the file yourself and place it there "
        "(paddle.dataset.common.DATA_HOME is Paddle's dataset cache)."
    )


def fetch_all() -> None:
    """Check that every legacy dataset's files are in the cache (``fetch()`` of each module)."""
    import importlib

    from . import __all_modules__

    for name in __all_modules__:
        module = importlib.import_module(f"{__package__}.{name}")
        if hasattr(module, "fetch"):
            module.fetch()


def split(reader, line_count, suffix="%05d.pickle", dumper=pickle.dump) -> None:
    """Write the samples of ``reader`` to files of about ``line_count`` samples each, named by
    ``suffix % index``, with ``dumper``."""
    if not callable(dumper):
        raise TypeError("dumper should be callable.")
    lines, index = [], 0
    for i, d in enumerate(reader()):
        lines.append(d)
        if i >= line_count and i % line_count == 0:
            with open(suffix % index, "w") as f:
                dumper(lines, f)
            lines, index = [], index + 1
    if lines:
        with open(suffix % index, "w") as f:
            dumper(lines, f)


def cluster_files_reader(files_pattern, trainer_count, trainer_id, loader=pickle.load):
    """A reader of the samples in this trainer's share (every ``trainer_count``-th, from
    ``trainer_id``) of the sorted files matching ``files_pattern``."""

    def reader():
        if not callable(loader):
            raise TypeError("loader should be callable.")
        mine = [
            fn
            for idx, fn in enumerate(sorted(glob.glob(files_pattern)))
            if idx % trainer_count == trainer_id
        ]
        for fn in mine:
            print(f"append file: {fn}")
        for fn in mine:
            with open(fn) as f:
                yield from loader(f)

    return reader


def _check_exists_and_download(path, url, md5, module_name, download=True):
    if path and os.path.exists(path):
        return path
    if download:
        return globals()["download"](url, module_name, md5)
    raise ValueError(f"{path} not exists and auto download disabled")
