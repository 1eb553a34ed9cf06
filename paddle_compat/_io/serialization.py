"""``paddle.save`` / ``paddle.load``: Paddle's pickle format, byte for byte.

What Paddle 3.3.1 writes (measured with ``pickletools``):

* A *state dict* (a dict whose values are Tensors, or dicts holding no Tensor/Layer, e.g. an
  optimizer's ``LR_Scheduler`` entry) is pickled as a plain dict ``{key: ndarray or value}`` plus
  ``"StructuredToParameterName@@": {key: tensor.name}``. With protocol 2/3, arrays over 1 GiB are
  split into ``key@@.i`` slices described by ``"UnpackBigParamInfor@@"``.
* Anything else is pickled as-is, each Tensor replaced by the tuple ``(tensor.name, ndarray)``.
* Arrays are plain numpy pickles; bfloat16 travels as its uint16 bits and float8 as int8 bits
  (what Paddle's ``Tensor.numpy()`` gives), and a uint16 array loads back as a bfloat16 Tensor.

``load`` reverses this: with a name table, the listed arrays become Tensors named from it; else
every ``(str, ndarray)`` tuple becomes a named Tensor, or, when there is none, every ndarray
becomes a Tensor. ``return_numpy=True`` keeps arrays. Loading goes through a restricted
unpickler (``_unpickler.py``); writes to a path are atomic (temp file, fsync, ``os.replace``).
"""

from __future__ import annotations

import collections
import io
import math
import os
import pickle
import socket
import threading
import uuid
import warnings
from collections.abc import Iterable
from typing import Any

import jax
import ml_dtypes
import numpy as np

from . import _tensor_binary
from ._unpickler import UnsafeGlobalError, restricted_load

__all__ = ["save", "load", "async_save", "clear_async_save_task_queue", "reduce_tensor"]

_NAME_TABLE = "StructuredToParameterName@@"
_UNPACK_INFO = "UnpackBigParamInfor@@"  # sic: Paddle's key
_SAVE_CONFIGS = ("use_binary_format", "pickle_protocol", "safetensors")
_LOAD_CONFIGS = (
    "model_filename",
    "params_filename",
    "keep_name_table",
    "return_numpy",
    "safetensors",
)
_LAYER_ERROR = "paddle do not support saving `paddle.nn.Layer` object."
_MAX_SLICE_BYTES = 2**30 - 1  # protocol 2/3: arrays larger than this are split


# -- tensors <-> numpy --------------------------------------------------------------------------
def _tensor_cls():
    from .._core.tensor import Tensor

    return Tensor


def _dense_tensor_cls():
    from .._core.tensor_api import DenseTensor

    return DenseTensor


def _is_layer(obj) -> bool:
    import sys

    nn = sys.modules.get("paddle_compat.nn")
    layer = getattr(nn, "Layer", None) if nn is not None else None
    return isinstance(layer, type) and isinstance(obj, layer)


def _tensor_to_numpy(t) -> np.ndarray:
    """What Paddle's ``np.array(tensor.cpu())`` gives: bfloat16 as uint16, float8 as int8 bits."""
    from .._core import trace_state

    trace_state.check_concrete(t, "paddle.save")
    return _host_array(t._value)


def _host_array(value) -> np.ndarray:
    a = np.asarray(value)
    if a.dtype == ml_dtypes.bfloat16:
        a = a.view(np.uint16)
    elif a.dtype in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        a = a.view(np.int8)
    return np.require(a, requirements="C")  # keeps 0-d (ascontiguousarray makes it 1-d)


def _numpy_to_tensor(arr: np.ndarray, name: str | None = None):
    """``paddle.to_tensor(ndarray)`` as Paddle does it on load: dtype kept, uint16 means
    bfloat16 bits."""
    from .._core.place import current_device, put

    Tensor = _tensor_cls()
    arr = np.asarray(arr)
    if arr.dtype == np.uint16:
        arr = arr.view(ml_dtypes.bfloat16)
    t = Tensor(put(arr, current_device()), stop_gradient=True)
    if name:
        t.name = name
    return _static_form(t)


def _static_form(t):
    """In static mode Paddle loads every array as a ``DenseTensor``."""
    from .._core import static_mode

    return _dense_tensor_cls()(t) if static_mode.is_static() else t


def reduce_tensor(t):
    """``Tensor.__reduce_ex__`` (plain ``pickle``/``copy``): Paddle's ``_rebuild_tensor`` form
    (data, dtype name, place, requires_grad); the result is a plain Tensor, as in Paddle."""
    place = str(t.place)[6:-1]  # Place(gpu:0) -> gpu:0
    return (_rebuild_tensor, (_tensor_to_numpy(t), t.dtype.name, place, not t.stop_gradient))


def _rebuild_tensor(data, dtype, device, requires_grad):
    """Inverse of ``reduce_tensor`` (also used for real Paddle's pickled Tensors)."""
    from .._core import dtype as _dt
    from .._core.place import current_device, device_from_spec, put

    Tensor = _tensor_cls()
    arr = np.asarray(data)
    target = _dt.to_dtype(dtype).np if dtype is not None else arr.dtype
    if arr.dtype == np.uint16 and target == ml_dtypes.bfloat16:
        arr = arr.view(ml_dtypes.bfloat16)
    elif arr.dtype == np.int8 and target in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        arr = arr.view(target)
    elif arr.dtype != target:
        arr = arr.astype(target)
    try:
        dev = device_from_spec(str(device)) if device else current_device()
    except ValueError:  # saved on a GPU, loaded where there is none
        dev = current_device()
    return Tensor(put(arr, dev), stop_gradient=not requires_grad)


# -- what Paddle calls a state dict ---------------------------------------------------------------
def _is_paddle_object(obj) -> bool:
    return isinstance(obj, _tensor_cls()) or _is_layer(obj)


def _contains(obj, pred) -> bool:
    if pred(obj):
        return True
    if type(obj) in (dict, collections.OrderedDict):
        return any(_contains(v, pred) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_contains(v, pred) for v in obj)
    return False


def _is_state_dict(obj) -> bool:
    if not isinstance(obj, dict):
        return False
    Tensor = _tensor_cls()
    for value in obj.values():
        if isinstance(value, dict):
            if any(_contains(v, _is_paddle_object) for v in value.values()):
                return False
        elif not isinstance(value, Tensor):
            return False
    return True


_ATOMS = (int, float, complex, bool, str, type(None))


def _check_supported(obj) -> None:
    """Paddle walks the object first and refuses iterables it does not know (bytes, ranges,
    generators, dict subclasses other than OrderedDict...); Layers are left to the pickler."""
    leaves = (str, np.ndarray, _tensor_cls(), jax.Array)
    todo = [obj]
    while todo:
        o = todo.pop()
        t = type(o)
        if t in _ATOMS:
            continue
        if t in (dict, collections.OrderedDict):
            todo.extend(o.values())
        elif t in (list, tuple, set):
            todo.extend(o)
        elif isinstance(o, Iterable) and not isinstance(o, leaves) and not _is_layer(o):
            raise NotImplementedError(
                "The iterable objects supported are tuple, list, dict, OrderedDict, string. "
                f"But received {t}."
            )


def _build_saved_state_dict(state_dict) -> dict:
    Tensor = _tensor_cls()
    saved, names = {}, {}
    for key, value in state_dict.items():
        if isinstance(value, Tensor):
            saved[key] = _tensor_to_numpy(value)
            # a fresh str per entry, as Paddle's C++ name getter gives: the pickler memoizes by
            # identity, and aliased keys (an RNN's two spellings) must be written out each time
            names[key] = value.name.encode().decode()
        else:
            saved[key] = value
    saved[_NAME_TABLE] = names
    return saved


def _split_big_arrays(saved: dict, protocol: int) -> dict:
    """Protocols 2/3 cannot pickle objects over 4 GiB: Paddle splits arrays over 2**30 - 1
    bytes into flat slices ``key@@.i`` listed under ``UnpackBigParamInfor@@``."""
    if not 1 < protocol < 4:
        return saved
    info = {}
    for key, value in list(saved.items()):
        if not isinstance(value, np.ndarray):
            continue
        max_elems = int(_MAX_SLICE_BYTES / value.dtype.itemsize)
        n = int(np.prod(value.shape))
        if n <= max_elems:
            continue
        flat = value.flatten()
        parts = [f"{key}@@.{i}" for i in range(int(math.ceil(n * 1.0 / max_elems)))]
        info[key] = {"OriginShape": value.shape, "slices": parts}
        del saved[key]
        for i, part in enumerate(parts):
            saved[part] = flat[i * max_elems : (i + 1) * max_elems]
    if info:
        saved[_UNPACK_INFO] = info
    return saved


def _join_big_arrays(obj):
    if isinstance(obj, dict) and _UNPACK_INFO in obj:
        info = obj.pop(_UNPACK_INFO)
        for key, value in info.items():
            obj[key] = np.concatenate([obj.pop(p) for p in value["slices"]]).reshape(
                value["OriginShape"]
            )
    return obj


# -- pickling ------------------------------------------------------------------------------------
class _Pickler(pickle.Pickler):
    """Tensors become ``(name, ndarray)`` tuples (Paddle's dispatch-table reduction); raw JAX
    arrays become numpy arrays; Layers are refused."""

    def reducer_override(self, obj):
        if isinstance(obj, _tensor_cls()):
            name = obj.name if isinstance(obj.name, str) else ""  # Paddle's names are str
            return (tuple, ((name, _tensor_to_numpy(obj)),))
        if isinstance(obj, jax.Array):
            return _host_array(obj).__reduce_ex__(self._proto)
        if isinstance(obj, _dense_tensor_cls()):  # Paddle's form, read back by paddle.load
            return (eval, ("data", {"data": _tensor_to_numpy(obj._t)}))
        if _is_layer(obj):
            raise ValueError(_LAYER_ERROR)
        return NotImplemented


def _dump(obj, f, protocol: int) -> None:
    p = _Pickler(f, protocol)
    p._proto = protocol
    p.dump(obj)


def _check_protocol(protocol) -> None:
    if not isinstance(protocol, int):
        raise ValueError(f"The 'protocol' MUST be `int`, but received {type(protocol)}")
    if protocol < 2 or protocol > 4:
        raise ValueError(f"Expected 1<'protocol'<5, but received protocol={protocol}")


def _normalize_path(path, action: str):
    if isinstance(path, io.BytesIO):
        return path
    if isinstance(path, os.PathLike):  # an extension: Paddle takes only str
        path = os.fspath(path)
    if isinstance(path, str):
        return path
    raise ValueError(f"only supports {action} objects to file and `BytesIO`, but got {type(path)}")


_HOST = socket.gethostname().replace(os.sep, "_")
_writing: set[str] = set()  # temp files this process is writing now
_writing_lock = threading.Lock()


def _temp_path(path: str) -> str:
    """``.<name>.<host>.<pid>.<random>.tmp`` beside ``path``: who wrote a temp file is in its
    name, so a later save can tell a dead writer's leftover from a save in progress."""
    dirname, base = os.path.split(path)
    return os.path.join(dirname, f".{base}.{_HOST}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")


def _remove_stale_temps(path: str) -> None:
    """Delete the temp files of ``path`` left by killed saves of this host: their process is
    gone (or it is this process, and it is not writing them)."""
    dirname, base = os.path.split(path)
    prefix = f".{base}."
    try:
        names = [n for n in os.listdir(dirname or ".") if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        fields = name[len(prefix) :].rsplit(".", 3)  # host, pid, random, "tmp"
        if len(fields) != 4 or fields[3] != "tmp" or fields[0] != _HOST:
            continue
        if not fields[1].isdigit():
            continue
        full, pid = os.path.join(dirname, name), int(fields[1])
        if pid == os.getpid():
            with _writing_lock:
                if full in _writing:
                    continue
        elif _alive(pid):
            continue
        try:
            os.unlink(full)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _write(path, write_fn) -> None:
    """Run ``write_fn(file)``; for a path, atomically: a temp file in the same directory,
    flushed and fsynced, then ``os.replace`` (a failed write leaves any old file intact). Temp
    files that killed saves of the same path left behind are removed first."""
    if isinstance(path, io.BytesIO):
        write_fn(path)
        path.flush()
        return
    _remove_stale_temps(path)
    dirname = os.path.dirname(path)
    tmp = _temp_path(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    with _writing_lock:
        _writing.add(tmp)
    try:
        with os.fdopen(fd, "wb") as f:
            write_fn(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        with _writing_lock:
            _writing.discard(tmp)
    try:  # make the rename itself durable
        dfd = os.open(dirname or ".", os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def save(obj: Any, path, protocol: int = 4, **configs) -> None:
    """Save a state dict, Tensor or nested structure of Tensors (``paddle.save``) in Paddle's
    pickle format; ``path`` is a file path (parent directories are created) or a ``BytesIO``.

    Configs: ``use_binary_format`` (a single Tensor in Paddle's binary tensor format),
    ``pickle_protocol`` (deprecated alias of ``protocol``), ``safetensors``.
    """
    path = _normalize_path(path, "saving")
    if isinstance(path, str):
        if os.path.basename(path) == "":
            raise ValueError(
                "The input path MUST be format of dirname/filename [dirname\\filename in "
                "Windows system], but received filename is empty string."
            )
        dirname = os.path.dirname(path)
        if dirname and not os.path.exists(dirname):
            os.makedirs(dirname, exist_ok=True)
    for key in configs:
        if key not in _SAVE_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.save` is not supported.")
    use_binary = configs.get("use_binary_format", False)
    if not isinstance(use_binary, bool):
        raise TypeError(
            f"Type of `use_binary_format` should be bool, but received {type(use_binary)}."
        )
    if use_binary:
        if not isinstance(obj, _tensor_cls()):
            raise NotImplementedError(
                "When use_binary_format = True, `paddle.save`  expected Tensor, but received "
                f"{type(obj)}."
            )
        data = _tensor_binary.dense_tensor_to_bytes(np.asarray(obj._value))
        _write(path, lambda f: f.write(data))
        return
    if configs.get("pickle_protocol") is not None:
        protocol = configs["pickle_protocol"]
        warnings.warn(
            "'pickle_protocol' is a deprecated argument. Please use 'protocol' instead.",
            stacklevel=2,
        )
    if _is_state_dict(obj):
        if configs.get("safetensors", False):
            from . import _safetensors

            if len(obj) == 0:
                warnings.warn("The input state dict is empty, no need to save.", stacklevel=2)
            _safetensors.save_state_dict(obj, path, _write)
            return
        if len(obj) == 0:
            warnings.warn("The input state dict is empty, no need to save.", stacklevel=2)
        _check_protocol(protocol)
        saved = _split_big_arrays(_build_saved_state_dict(obj), protocol)
        _write(path, lambda f: _dump(saved, f, protocol))
        return
    _check_protocol(protocol)
    _check_supported(obj)
    if _is_layer(obj):
        raise ValueError(_LAYER_ERROR)
    _write(path, lambda f: _dump(obj, f, protocol))


# -- async save ----------------------------------------------------------------------------------
_async_tasks: list[threading.Thread] = []


def clear_async_save_task_queue() -> None:
    """Wait until every ``async_save`` started so far has finished."""
    while _async_tasks:
        _async_tasks.pop(0).join()


def async_save(obj: Any, path, protocol: int = 4, sync_other_task: bool = False, **configs) -> None:
    """``paddle.save`` in a background thread; tensors are copied to host memory first so
    later in-place updates do not leak into the file."""
    if sync_other_task:
        clear_async_save_task_queue()
    obj = _snapshot(obj)
    t = threading.Thread(target=save, args=(obj, path, protocol), kwargs=configs, daemon=True)
    t.start()
    _async_tasks.append(t)


def _snapshot(obj):
    Tensor = _tensor_cls()
    if isinstance(obj, Tensor):
        t = Tensor(np.array(obj._value), stop_gradient=obj.stop_gradient)
        t.name = obj.name
        return t
    if type(obj) in (dict, collections.OrderedDict):
        return type(obj)((k, _snapshot(v)) for k, v in obj.items())
    if type(obj) in (list, tuple):
        return type(obj)(_snapshot(v) for v in obj)
    return obj


# -- loading -------------------------------------------------------------------------------------
class EmptyFileError(ValueError, EOFError):
    """``paddle.load`` of an empty file: a ValueError naming the file, and the EOFError real
    Paddle raises."""


def _is_name_tuple(obj) -> bool:
    return (
        type(obj) is tuple
        and len(obj) == 2
        and isinstance(obj[0], str)
        and isinstance(obj[1], np.ndarray)
    )


def _convert(obj, pred, fn):
    """Paddle's ``_parse_every_object``: rebuild dicts/lists/tuples/sets, converting matches."""
    if pred(obj):
        return fn(obj)
    t = type(obj)
    if t in (dict, collections.OrderedDict):
        for k in list(obj.keys()):
            obj[k] = _convert(obj[k], pred, fn)
        return obj
    if t is list:
        for i in range(len(obj)):
            obj[i] = _convert(obj[i], pred, fn)
        return obj
    if t is tuple:
        return tuple(_convert(v, pred, fn) for v in obj)
    if t is set:
        return {_convert(v, pred, fn) for v in obj}
    if isinstance(obj, Iterable) and not isinstance(obj, str | np.ndarray | _tensor_cls()):
        raise NotImplementedError(
            "The iterable objects supported are tuple, list, dict, OrderedDict, string. "
            f"But received {type(obj)}."
        )
    return obj


def _parse_load_result(obj, return_numpy: bool):
    if _contains(obj, _is_name_tuple):
        fn = (lambda o: o[1]) if return_numpy else (lambda o: _numpy_to_tensor(o[1], o[0]))
        return _convert(obj, _is_name_tuple, fn)
    fn = (lambda o: o) if return_numpy else _numpy_to_tensor
    return _convert(obj, lambda o: isinstance(o, np.ndarray), fn)


def _from_unpickled(result, return_numpy: bool, keep_name_table: bool):
    if isinstance(result, dict):
        result = _join_big_arrays(result)
        if _NAME_TABLE in result:
            for key, name in result[_NAME_TABLE].items():
                if isinstance(result.get(key), np.ndarray) and not return_numpy:
                    result[key] = _numpy_to_tensor(result[key], name)
            if not keep_name_table:
                del result[_NAME_TABLE]
            return result
    return _parse_load_result(result, return_numpy)


def _load_binary(path, return_numpy: bool):
    """Fallback for files that are not pickles: Paddle's binary DenseTensor stream."""
    if isinstance(path, io.BytesIO):
        arr, _ = _tensor_binary.read_dense_tensor(path)
    else:
        with open(path, "rb") as f:
            arr, _ = _tensor_binary.read_dense_tensor(f)
            if f.read(1):
                raise ValueError("trailing bytes after the tensor")
    if return_numpy:
        return _host_array(arr) if arr.dtype == ml_dtypes.bfloat16 else arr
    from .._core.place import current_device, put

    return _static_form(_tensor_cls()(put(arr, current_device()), stop_gradient=True))


def load(path, **configs) -> Any:
    """Load what ``paddle.save`` wrote (by real Paddle or by this package) from a file path or
    ``BytesIO``. ``return_numpy=True`` gives numpy arrays instead of Tensors;
    ``keep_name_table=True`` keeps the ``StructuredToParameterName@@`` entry.

    Only the globals Paddle's format needs are unpickled; any other global raises
    ``pickle.UnpicklingError``. Directories and ``paddle.jit.save`` prefixes are for
    ``paddle.jit.load``.
    """
    path = _normalize_path(path, "loading")
    for key in configs:
        if key not in _LOAD_CONFIGS:
            raise ValueError(f"The additional config ({key}) of `paddle.load` is not supported.")
    return_numpy = bool(configs.get("return_numpy", False))
    keep_name_table = bool(configs.get("keep_name_table", False))
    if isinstance(path, str) and not os.path.isfile(path):
        if os.path.isdir(path):
            raise ValueError(
                f"`paddle.load` can not parse the file:{path}. It is a directory: paddle.load "
                "reads one file written by paddle.save (use paddle.jit.load for a saved model)."
            )
        hint = ""
        if any(os.path.exists(path + ext) for ext in (".pdiparams", ".pdmodel", ".json")):
            hint = " (it looks like a paddle.jit.save prefix: load the model with paddle.jit.load)"
        raise ValueError(f"The ``path`` ({path}) to load model not exists.{hint}")
    if configs.get("safetensors", False):
        from . import _safetensors

        return _safetensors.load_state_dict(path, return_numpy)
    start = path.tell() if isinstance(path, io.BytesIO) else 0
    try:
        result = _unpickle(path)
    except UnsafeGlobalError as e:
        raise UnsafeGlobalError(f"{_shown(path)}: {e}") from None
    except (pickle.UnpicklingError, ValueError, EOFError) as e:
        if isinstance(path, io.BytesIO):
            path.seek(start)
        if not isinstance(e, EOFError) and _looks_like_pickle(path, start):
            raise ValueError(f"`paddle.load` can not parse the file:{_shown(path)}: {e}") from None
        try:
            return _load_binary(path, return_numpy)
        except (ValueError, TypeError) as binary_error:
            if isinstance(path, io.BytesIO):
                path.seek(start)
            if _head(path, start, 4) == b"\0\0\0\0":  # a binary tensor's version field
                raise ValueError(
                    f"`paddle.load` can not parse the file:{_shown(path)}: {binary_error}"
                ) from None
            if _is_empty(path, start):
                raise EmptyFileError(
                    f"`paddle.load` can not parse the file:{_shown(path)}: it is empty"
                ) from None
            raise ValueError(f"`paddle.load` can not parse the file:{_shown(path)}.") from None
    except BaseException:
        if isinstance(path, io.BytesIO):
            path.seek(start)
        raise
    return _from_unpickled(result, return_numpy, keep_name_table)


def _unpickle(path):
    if isinstance(path, io.BytesIO):
        return restricted_load(path)
    with open(path, "rb") as f:
        return restricted_load(f)


def _shown(path) -> str:
    return path if isinstance(path, str) else "<BytesIO>"


def _head(path, start: int, n: int) -> bytes:
    if isinstance(path, io.BytesIO):
        return bytes(path.getbuffer()[start : start + n])
    with open(path, "rb") as f:
        return f.read(n)


def _looks_like_pickle(path, start: int) -> bool:
    """Protocol 2+ pickles (what paddle.save writes) open with PROTO (0x80, 2..5)."""
    head = _head(path, start, 2)
    return len(head) == 2 and head[0] == 0x80 and 2 <= head[1] <= 5


def _is_empty(path, start: int) -> bool:
    return not _head(path, start, 1)
