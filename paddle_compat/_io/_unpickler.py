"""A restricted unpickler for ``paddle.load``: only the globals Paddle's files reference.

Files written by ``paddle.save`` (real Paddle or this package) are pickles of dicts, lists and
tuples holding numpy arrays, numpy scalars and Python values. Unpickling them needs a handful of
globals (numpy's array reconstruction, ``numpy.dtype``, ``_codecs.encode`` for protocol 2 bytes,
a few builtin containers). Anything else could run arbitrary code while loading, so it is refused
with ``pickle.UnpicklingError`` before it is imported.
"""

from __future__ import annotations

import builtins
import collections
import importlib
import io
import pickle

import numpy as np

__all__ = ["UnsafeGlobalError", "restricted_loads", "restricted_load"]


class UnsafeGlobalError(pickle.UnpicklingError):
    """Raised when a pickle asks for a global outside ``paddle.load``'s allow-list."""


def _numpy_attr(module: str, name: str):
    """``numpy._core.<module>.<name>`` (numpy>=2), else ``numpy.core.<module>.<name>``."""
    for pkg in ("numpy._core", "numpy.core"):
        try:
            return getattr(importlib.import_module(f"{pkg}.{module}"), name)
        except (ImportError, AttributeError):
            continue
    raise ImportError(f"numpy has no {module}.{name}")


def _eval_dense_tensor(expr, scope=None, *rest):
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


def _rebuild_tensor_lazy(*args):
    from .serialization import _rebuild_tensor

    return _rebuild_tensor(*args)


_CORE = ("numpy._core.multiarray", "numpy.core.multiarray")
_NUMERIC = ("numpy._core.numeric", "numpy.core.numeric")

# (module, name) -> the object to use. Built once at import; nothing outside is imported.
_ALLOWED: dict[tuple[str, str], object] = {}
for _m in _CORE:
    _ALLOWED[(_m, "_reconstruct")] = _numpy_attr("multiarray", "_reconstruct")
    _ALLOWED[(_m, "scalar")] = _numpy_attr("multiarray", "scalar")
for _m in _NUMERIC:
    _ALLOWED[(_m, "_frombuffer")] = _numpy_attr("numeric", "_frombuffer")
_ALLOWED[("numpy", "ndarray")] = np.ndarray
_ALLOWED[("numpy", "dtype")] = np.dtype
_ALLOWED[("_codecs", "encode")] = __import__("_codecs").encode
_ALLOWED[("collections", "OrderedDict")] = collections.OrderedDict
for _mod in ("builtins", "__builtin__"):
    for _name in (
        "tuple",
        "list",
        "dict",
        "set",
        "frozenset",
        "complex",
        "bytearray",
        "slice",
        "range",
        "bool",
        "int",
        "float",
        "str",
        "bytes",
    ):
        _ALLOWED[(_mod, _name)] = getattr(builtins, _name)
    _ALLOWED[(_mod, "eval")] = _eval_dense_tensor
# A Tensor pickled with plain ``pickle`` (Tensor.__reduce_ex__): real Paddle's and ours.
_ALLOWED[("paddle.base.dygraph.math_op_patch", "_rebuild_tensor")] = _rebuild_tensor_lazy
_ALLOWED[("paddle_compat._io.serialization", "_rebuild_tensor")] = _rebuild_tensor_lazy


def _numpy_dtype_class(module: str, name: str):
    """numpy>=2 may pickle dtypes through ``numpy.dtypes.Float32DType`` and friends."""
    if module == "numpy.dtypes" and name.endswith("DType"):
        dtypes = getattr(np, "dtypes", None)
        cls = getattr(dtypes, name, None) if dtypes is not None else None
        if isinstance(cls, type) and issubclass(cls, np.dtype):
            return cls
    return None


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        obj = _ALLOWED.get((module, name))
        if obj is None:
            obj = _numpy_dtype_class(module, name)
        if obj is None:
            raise UnsafeGlobalError(
                f"paddle.load refused to load the global '{module}.{name}': files written by "
                "paddle.save only reference numpy arrays, numpy dtypes/scalars and builtin "
                "containers, and unpickling other globals can run arbitrary code. If you trust "
                "this file, read it with pickle.load yourself."
            )
        return obj


def restricted_load(f, encoding: str = "latin1"):
    """``pickle.load`` with the allow-list above (``encoding='latin1'`` like Paddle, for
    Python-2 era files)."""
    return _RestrictedUnpickler(f, encoding=encoding).load()


def restricted_loads(data: bytes, encoding: str = "latin1"):
    return restricted_load(io.BytesIO(data), encoding=encoding)
