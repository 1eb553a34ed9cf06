"""A restricted unpickler for ``paddle.load``: only the globals Paddle's files reference, and
nothing a file can use to run code, mutate the process or allocate memory it does not carry.

Files written by ``paddle.save`` (real Paddle or this package) are pickles of dicts, lists and
tuples holding numpy arrays, numpy scalars and Python values. Unpickling them needs a handful of
globals (numpy's array reconstruction, ``numpy.dtype``, ``_codecs.encode`` for protocol 2 bytes,
a few builtin containers). Three guards apply to everything else:

* **Globals.** Any global outside the allow-list raises ``pickle.UnpicklingError`` before it is
  imported. Allowed globals are handed to the pickle as ``_Global`` wrappers that check their
  arguments; ``REDUCE`` calls nothing else, ``BUILD`` sets the state of numpy arrays and dtypes
  only (a file cannot rewrite a function's ``__defaults__``), ``NEWOBJ`` is refused, and no
  global is returned in the result.
* **Memory.** Every allowed call charges what it allocates to a budget of 4x the file's size
  plus 16 MiB, and sizes given as numbers (``bytearray(2**31)``, ``range``) are refused: an
  object's size must be backed by bytes in the file. A length field larger than what is left
  of the file is an error before anything is allocated.
* **Result.** No callable and no object-dtype array comes back; nesting is at most
  ``MAX_DEPTH`` levels. Violations raise ``ValueError`` (or ``UnsafeGlobalError``) with the
  reason; ``paddle.load`` adds the file's name.

This is the pure-Python unpickler (``pickle._Unpickler``), whose opcodes can be overridden: on
state dicts it loads as fast as the C one (the time goes into array bytes); a pickle of a
million small Python objects takes about 0.6 s instead of 0.07 s.
"""

from __future__ import annotations

import collections
import importlib
import io
import math
import os
import pickle
import struct

import numpy as np

__all__ = ["MAX_DEPTH", "UnsafeGlobalError", "restricted_loads", "restricted_load"]

MAX_DEPTH = 512  # nesting levels of containers a loaded object may have
_SLACK = 16 << 20  # bytes the budget allows beyond 4x the file's size
_UNKNOWN_SIZE_BUDGET = 256 << 20  # budget for a stream whose size cannot be known
_CONTAINERS = (list, tuple, set, frozenset, dict, str, bytes, bytearray)
_SCALARS = (int, float, complex, bool, str, bytes, type(None))
_PTR = 8  # bytes charged per element slot of a container


class UnsafeGlobalError(pickle.UnpicklingError):
    """Raised when a pickle asks for a global outside ``paddle.load``'s allow-list, or uses an
    allowed one in a way ``paddle.save`` never does."""


def _numpy_attr(module: str, name: str):
    """``numpy._core.<module>.<name>`` (numpy>=2), else ``numpy.core.<module>.<name>``."""
    for pkg in ("numpy._core", "numpy.core"):
        try:
            return getattr(importlib.import_module(f"{pkg}.{module}"), name)
        except (ImportError, AttributeError):
            continue
    raise ImportError(f"numpy has no {module}.{name}")


class _Budget:
    """Bytes the calls of one load may allocate."""

    __slots__ = ("left", "limit", "ndarray")

    def __init__(self, limit: int):
        self.limit = self.left = limit
        self.ndarray = None  # this load's ``numpy.ndarray`` global, once the pickle names it

    def charge(self, nbytes: int, what: str) -> None:
        self.left -= nbytes
        if self.left < 0:
            raise ValueError(
                f"the pickle asks {what} for more memory than it carries (over {self.limit} "
                "bytes in all: 4x the file's size plus 16 MiB); paddle.save never writes such "
                "a file"
            )


class _Global:
    """An allowed global as the pickle sees it: calls go through ``check(budget, name,
    *args)``."""

    __slots__ = ("name", "check", "budget")

    def __init__(self, name: str, check, budget: _Budget):
        self.name, self.check, self.budget = name, check, budget

    def __call__(self, *args):  # REDUCE passes positional arguments only
        return self.check(self.budget, self.name, *args)

    def __repr__(self) -> str:
        return f"<paddle.load global {self.name}>"


def _refuse(name: str, why: str):
    raise UnsafeGlobalError(f"paddle.load refused {name}: {why}")


def _container(cls, per_item: int):
    """``cls()`` or ``cls(x)`` of a value read from the file (no sizes, ranges, iterators)."""

    def call(budget, name, *args):
        if len(args) > 1 or (args and not isinstance(args[0], _CONTAINERS)):
            shown = ", ".join(type(a).__name__ for a in args)
            _refuse(f"{name}({shown})", "only values read from the file are accepted")
        budget.charge(per_item * (len(args[0]) if args else 0), f"in {name}")
        return cls(*args)

    return call


def _scalar_builtin(cls):
    """``int('12')``, ``complex(1, 2)``, ``slice(0, 4)``...: scalars and text only."""

    def call(budget, name, *args):
        if not all(isinstance(a, _SCALARS) for a in args):
            shown = ", ".join(type(a).__name__ for a in args)
            _refuse(f"{name}({shown})", "only scalars and text read from the file are accepted")
        out = cls(*args)
        if isinstance(out, str):
            budget.charge(len(out), f"in {name}")
        return out

    return call


def _encode(budget, name, obj, encoding=None, *rest):
    """Protocol 2/3 write bytes as ``_codecs.encode(text, 'latin1')``; no other codec."""
    if rest or not isinstance(obj, str):
        _refuse(name, "only _codecs.encode(str, 'latin1') is written by paddle.save")
    if str(encoding).lower().replace("_", "-") not in ("latin1", "latin-1", "iso-8859-1"):
        _refuse(f"{name}(..., {encoding!r})", "only the latin1 codec is written by paddle.save")
    budget.charge(len(obj), f"in {name}")
    return obj.encode("latin1")


def _dtype(budget, name, obj, *flags):
    d = np.dtype(obj, *flags)
    if d.hasobject:
        _refuse(f"{name}({obj!r})", "object arrays hold Python objects, not tensor data")
    return d


def _dtype_class(cls):
    def call(budget, name, *args):
        if issubclass(cls, type(np.dtype(object))):
            _refuse(name, "object arrays hold Python objects, not tensor data")
        return cls(*args)

    return call


def _reconstruct(budget, name, subtype, shape, dtype):
    """numpy pickles an array as ``_reconstruct(ndarray, (0,), b'b')`` plus ``BUILD``; the
    data comes with the state, whose size numpy checks against the shape."""
    if budget.ndarray is None or subtype is not budget.ndarray or math.prod(shape) != 0:
        _refuse(name, "numpy writes _reconstruct(numpy.ndarray, (0,), ...) only")
    return _RECONSTRUCT(np.ndarray, shape, dtype)


def _no_call(budget, name, *args):
    _refuse(f"a call of {name}", "numpy.ndarray is only _reconstruct's first argument")


def _passthrough(fn):
    return lambda budget, name, *args: fn(*args)


def _eval_dense_tensor(budget, name, expr, scope=None, *rest):
    """Paddle pickles a ``core.DenseTensor`` as ``eval('data', {'data': ndarray})``; accept
    exactly that form and nothing else."""
    if (
        expr == "data"
        and not rest
        and isinstance(scope, dict)
        and set(scope) == {"data"}
        and isinstance(scope["data"], np.ndarray)
    ):
        return scope["data"]
    raise UnsafeGlobalError(
        "paddle.load refused a call to builtins.eval that is not the DenseTensor form "
        "eval('data', {'data': ndarray}) written by paddle.save."
    )


def _rebuild_tensor(budget, name, data, dtype=None, *rest):
    from .._core import dtype as _dt
    from .serialization import _rebuild_tensor as rebuild

    if not isinstance(data, np.ndarray):
        _refuse(name, "its data must be a numpy array")
    itemsize = _dt.to_dtype(dtype).np.itemsize if dtype is not None else data.itemsize
    budget.charge(data.size * itemsize, f"in {name}")
    return rebuild(data, dtype, *rest)


_RECONSTRUCT = _numpy_attr("multiarray", "_reconstruct")
_CORE = ("numpy._core.multiarray", "numpy.core.multiarray")
_NUMERIC = ("numpy._core.numeric", "numpy.core.numeric")

# (module, name) -> check(budget, name, *args). Built once at import; nothing outside is imported.
_ALLOWED: dict[tuple[str, str], object] = {}
for _m in _CORE:
    _ALLOWED[(_m, "_reconstruct")] = _reconstruct
    _ALLOWED[(_m, "scalar")] = _passthrough(_numpy_attr("multiarray", "scalar"))
for _m in _NUMERIC:
    _ALLOWED[(_m, "_frombuffer")] = _passthrough(_numpy_attr("numeric", "_frombuffer"))
_ALLOWED[("numpy", "ndarray")] = _no_call
_ALLOWED[("numpy", "dtype")] = _dtype
_ALLOWED[("_codecs", "encode")] = _encode
_ALLOWED[("collections", "OrderedDict")] = _container(collections.OrderedDict, _PTR)
for _mod in ("builtins", "__builtin__"):
    for _cls in (tuple, list, dict, set, frozenset, bytearray, bytes):
        _ALLOWED[(_mod, _cls.__name__)] = _container(
            _cls, 1 if _cls in (bytes, bytearray) else _PTR
        )
    for _cls in (complex, slice, bool, int, float, str):
        _ALLOWED[(_mod, _cls.__name__)] = _scalar_builtin(_cls)
    _ALLOWED[(_mod, "eval")] = _eval_dense_tensor
# A Tensor pickled with plain ``pickle`` (Tensor.__reduce_ex__): real Paddle's and ours.
_ALLOWED[("paddle.base.dygraph.math_op_patch", "_rebuild_tensor")] = _rebuild_tensor
_ALLOWED[("paddle_compat._io.serialization", "_rebuild_tensor")] = _rebuild_tensor


def _numpy_dtype_class(module: str, name: str):
    """numpy>=2 may pickle dtypes through ``numpy.dtypes.Float32DType`` and friends."""
    if module == "numpy.dtypes" and name.endswith("DType"):
        dtypes = getattr(np, "dtypes", None)
        cls = getattr(dtypes, name, None) if dtypes is not None else None
        if isinstance(cls, type) and issubclass(cls, np.dtype):
            return _dtype_class(cls)
    return None


class _BoundedReader:
    """A file as the unpickler sees it: a read longer than what is left of the file is an
    error before anything is allocated."""

    def __init__(self, f, left: int):
        self._f, self._left = f, left

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = self._left
        elif n > self._left and n > 1:  # (one byte past the end is the end: EOFError)
            raise ValueError(
                f"the pickle claims {n} bytes for one object, but the file has {self._left} "
                "bytes left"
            )
        data = self._f.read(n)
        self._left -= len(data)
        return data

    def readinto(self, b) -> int:
        data = self.read(len(b))
        b[: len(data)] = data
        return len(data)

    def readline(self, size: int = -1) -> bytes:
        size = self._left if size is None or size < 0 else min(size, self._left)
        data = self._f.readline(size)
        self._left -= len(data)
        return data


_BUILD_OK = (np.ndarray, np.dtype)  # numpy checks their state (data size against shape)


class _RestrictedUnpickler(pickle._Unpickler):  # noqa: SLF001 - its opcodes can be overridden
    dispatch = dict(pickle._Unpickler.dispatch)  # noqa: SLF001

    def __init__(self, f, budget: _Budget, **kwargs):
        super().__init__(f, **kwargs)
        self.budget = budget
        self._globals: dict = {}

    def find_class(self, module: str, name: str):
        key = (module, name)
        hit = self._globals.get(key)
        if hit is not None:
            return hit
        check = _ALLOWED.get(key) or _numpy_dtype_class(module, name)
        if check is None:
            raise UnsafeGlobalError(
                f"paddle.load refused to load the global '{module}.{name}': files written by "
                "paddle.save only reference numpy arrays, numpy dtypes/scalars and builtin "
                "containers, and unpickling other globals can run arbitrary code. If you trust "
                "this file, read it with pickle.load yourself."
            )
        g = self._globals[key] = _Global(f"{module}.{name}", check, self.budget)
        if check is _no_call:
            self.budget.ndarray = g
        return g

    def load_reduce(self):
        args, func = self.stack.pop(), self.stack[-1]
        if not isinstance(func, _Global):
            _refuse(f"a call of a {type(func).__name__}", "only allowed globals are called")
        self.stack[-1] = func(*args)

    def load_build(self):
        inst = self.stack[-2]
        if type(inst) is not np.ndarray and not isinstance(inst, np.dtype):
            state = self.stack[-1]
            if not (isinstance(inst, collections.OrderedDict) and not state):
                _refuse(
                    f"setting the state of a {type(inst).__name__}",
                    "paddle.save writes state for numpy arrays and dtypes only",
                )
        super().load_build()

    def load_newobj(self):
        _refuse("NEWOBJ", "paddle.save writes no class instances")

    def load_bytearray8(self):
        (n,) = struct.unpack("<Q", self.read(8))
        self.append(bytearray(self.read(n)))

    dispatch[pickle.REDUCE[0]] = load_reduce
    dispatch[pickle.BUILD[0]] = load_build
    dispatch[pickle.NEWOBJ[0]] = load_newobj
    dispatch[pickle.NEWOBJ_EX[0]] = load_newobj
    dispatch[pickle.BYTEARRAY8[0]] = load_bytearray8


def _check_result(obj) -> None:
    """No callable, no object array, at most ``MAX_DEPTH`` nesting levels (iteratively)."""
    stack, seen = [(obj, 0)], set()
    while stack:
        o, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(
                f"the object nests containers more than {MAX_DEPTH} levels deep; paddle.save "
                "never writes such a file"
            )
        if isinstance(o, str | bytes | bytearray | int | float | complex | type(None)):
            continue
        if isinstance(o, np.ndarray):
            if o.dtype.hasobject:
                raise UnsafeGlobalError("paddle.load refused an object array")
            continue
        if callable(o):
            raise UnsafeGlobalError(
                f"paddle.load refused a file whose content is a callable ({o!r}): paddle.save "
                "writes data only"
            )
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, dict):
            items = [*o.keys(), *o.values()]
        elif isinstance(o, list | tuple | set | frozenset):
            items = list(o)
        else:
            items = []
        items += list(getattr(o, "__dict__", {}).values())
        stack.extend((x, depth + 1) for x in items)


def _size_left(f) -> int | None:
    try:
        pos = f.tell()
        end = f.seek(0, os.SEEK_END)
        f.seek(pos)
        return end - pos
    except (AttributeError, OSError, ValueError):
        return None


def restricted_load(f, encoding: str = "latin1"):
    """``pickle.load`` with the guards above (``encoding='latin1'`` like Paddle, for Python-2
    era files)."""
    left = _size_left(f)
    budget = _Budget(4 * left + _SLACK if left is not None else _UNKNOWN_SIZE_BUDGET)
    src = _BoundedReader(f, left) if left is not None else f
    try:
        result = _RestrictedUnpickler(src, budget, encoding=encoding).load()
    except (AttributeError, TypeError, IndexError, KeyError, struct.error) as e:
        raise ValueError(f"not a pickle written by paddle.save ({type(e).__name__}: {e})") from None
    _check_result(result)
    return result


def restricted_loads(data: bytes, encoding: str = "latin1"):
    return restricted_load(io.BytesIO(data), encoding=encoding)
