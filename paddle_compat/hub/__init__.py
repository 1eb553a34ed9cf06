"""``paddle.hub``: list, document and build the models a repository's ``hubconf.py`` exports,
and load checkpoints by URL.

paddle-compat never downloads: ``source='local'`` reads a local directory; ``'github'`` and
``'gitee'`` use a repository already in Paddle's hub cache (``~/.cache/paddle/hub/
<owner>_<repo>_<branch>``) and otherwise raise a RuntimeError; ``load_state_dict_from_url``
loads the file already in its cache directory."""

from __future__ import annotations

import builtins
import contextlib
import os
import sys
import warnings
import zipfile
from urllib.parse import urlparse

__all__ = ["list", "help", "load", "load_state_dict_from_url"]

VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
HUB_DIR = os.path.expanduser(os.path.join("~", ".cache", "paddle", "hub"))
_SOURCES = ("github", "gitee", "local")
_MAP_LOCATIONS = ("cpu", "gpu", "xpu", "npu", "numpy", "np")


def _check_source(source) -> None:
    if source not in _SOURCES:
        raise ValueError(
            f'Unknown source: "{source}". Allowed values: "github" | "gitee" | "local".'
        )


def _parse_repo_info(repo: str, source: str) -> tuple[str, str, str]:
    branch = "main" if source == "github" else "master"
    repo_info = repo
    if ":" in repo:
        repo_info, branch = repo.split(":")
    owner, name = repo_info.split("/")
    return owner, name, branch


def _cached_repo(repo: str, force_reload: bool, source: str) -> str:
    """The cached copy of a GitHub/Gitee repository (where Paddle unpacks it)."""
    owner, name, branch = _parse_repo_info(repo, source)
    repo_dir = os.path.join(HUB_DIR, "_".join([owner, name, branch.replace("/", "_")]))
    if not force_reload and os.path.exists(repo_dir):
        sys.stderr.write(f"Using cache found in {repo_dir}\n")
        return repo_dir
    why = "force_reload=True asks for a fresh download" if force_reload else "it is not cached"
    raise RuntimeError(
        f"Cannot fetch {repo!r} from {source}: {why}, and paddle-compat does not download. "
        f"Clone the repository yourself and pass its directory with source='local', or "
        f"unpack it at {repo_dir}."
    )


def _repo_dir(repo_dir: str, source: str, force_reload: bool) -> str:
    _check_source(source)
    if source in ("github", "gitee"):
        return _cached_repo(repo_dir, force_reload, source)
    return repo_dir


def _import_hubconf(repo_dir: str):
    """Import ``repo_dir/hubconf.py`` as a fresh module (not left in ``sys.modules``)."""
    name = MODULE_HUBCONF.split(".")[0]
    sys.path.insert(0, repo_dir)
    try:
        module = __import__(name)
        sys.modules.pop(name)
    except ImportError:
        raise RuntimeError(
            "Please make sure config exists or repo error messages above fixed when importing"
        ) from None
    finally:
        sys.path.remove(repo_dir)
    return module


def _entry(module, name):
    if not isinstance(name, str):
        raise ValueError("Invalid input: model should be a str of function name")
    func = getattr(module, name, None)
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {name} in hubconf")
    return func


def _check_dependencies(module) -> None:
    missing = []
    for pkg in getattr(module, VAR_DEPENDENCY, None) or []:
        try:
            __import__(pkg)
        except ImportError:
            missing.append(pkg)
    if missing:
        raise RuntimeError("Missing dependencies: {}".format(", ".join(missing)))


def list(repo_dir: str, source: str = "github", force_reload: bool = False) -> builtins.list[str]:
    """The public callables (entry points) of the repository's ``hubconf.py``."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload))
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(repo_dir: str, model, source: str = "github", force_reload: bool = False) -> str:
    """The docstring of entry point ``model``."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload))
    return _entry(module, model).__doc__


def load(repo_dir: str, model: str, source: str = "github", force_reload: bool = False, **kwargs):
    """Call entry point ``model`` with ``kwargs`` (after checking the hubconf's
    ``dependencies`` import) and return what it builds."""
    module = _import_hubconf(_repo_dir(repo_dir, source, force_reload))
    _check_dependencies(module)
    return _entry(module, model)(**kwargs)


def _get_paddle_home() -> str:
    default = os.path.join(os.getenv("XDG_CACHE_HOME", "~/.cache"), "paddle")
    return os.path.expanduser(os.getenv("PADDLE_HOME", default))


def get_dir() -> str:
    """Paddle's hub directory: ``$PADDLE_HOME/hub`` (``~/.cache/paddle/hub`` by default)."""
    if os.getenv("PADDLE_HUB"):
        warnings.warn("PADDLE_HUB is deprecated, please use env PADDLE_HOME instead", stacklevel=2)
    return os.path.join(_get_paddle_home(), "hub")


@contextlib.contextmanager
def device_guard(device="cpu", dev_id=0):
    """Run the block with ``device`` as the current device, then restore the previous one."""
    import paddle_compat as paddle

    previous = paddle.device.get_device()
    if device == "cpu":
        paddle.set_device(device)
    elif device in ("gpu", "xpu", "npu"):
        paddle.set_device(f"{device}:{dev_id}")
    try:
        yield
    finally:
        paddle.set_device(previous)


def _load_file(path: str, map_location):
    import paddle_compat as paddle

    if not map_location:
        return paddle.load(path)
    if map_location in ("numpy", "np"):
        return paddle.load(path, return_numpy=True)
    with device_guard(map_location):
        return paddle.load(path)


def _is_legacy_zip_format(filename: str) -> bool:
    if zipfile.is_zipfile(filename):
        members = zipfile.ZipFile(filename).infolist()
        return len(members) == 1 and not members[0].is_dir()
    return False


def _legacy_zip_load(filename: str, model_dir: str, map_location=None):
    with zipfile.ZipFile(filename) as f:
        members = f.infolist()
        if len(members) != 1:
            raise RuntimeError("Only one file(not dir) is allowed in the zipfile")
        f.extractall(model_dir)
        extracted = os.path.join(model_dir, members[0].filename)
    return _load_file(extracted, map_location)


def load_state_dict_from_url(
    url: str,
    model_dir: str | None = None,
    check_hash: bool = False,
    file_name: str | None = None,
    map_location=None,
):
    """``paddle.load`` of the file named by ``url`` (or ``file_name``) in ``model_dir``
    (``get_dir()/checkpoints`` by default); a zip holding one file is unpacked first.
    The file must already be there: paddle-compat does not download (RuntimeError)."""
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        raise RuntimeError(
            f"Cannot download {url}: paddle-compat does not download files, and {cached_file} "
            "does not exist. Fetch the file yourself and place it there, or load a local file "
            "with paddle.load."
        )
    if map_location:
        assert map_location in _MAP_LOCATIONS
    if _is_legacy_zip_format(cached_file):
        return _legacy_zip_load(cached_file, model_dir, map_location)
    return _load_file(cached_file, map_location)
