"""Converting functions with the dy2static source transform, cached per code object; and the
hook that makes Layers called from converted code run their converted ``forward``.

A function is converted from its source (``inspect.getsource``), compiled under its own file
name and line numbers (tracebacks point at the user's lines) and rebuilt with its own globals,
defaults and closure cells, so it behaves as the original in every Python-valued case. Library
code (paddle-compat itself, JAX, NumPy, the standard library), lambdas, generators and
functions without source are left as they are, as are ``paddle.jit.not_to_static`` ones.
"""

from __future__ import annotations

import ast
import inspect
import logging
import os
import sysconfig
import textwrap
import types
import weakref
from contextlib import contextmanager

from . import convert_ops, transformer

_CODES: dict = {}  # original code -> converted code (None: left as it is)
_FUNCS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LIBRARY_ROOTS = {
    "paddle_compat", "paddle", "parallel", "quant", "serving", "jax", "jaxlib", "numpy", "flax",
    "optax", "orbax", "builtins", "functools", "contextlib", "abc", "typing", "collections",
}  # fmt: skip
_STDLIB = os.path.normpath(sysconfig.get_paths()["stdlib"]) + os.sep
_MISSING = object()


def _is_library(f: types.FunctionType) -> bool:
    mod = (getattr(f, "__module__", None) or "").split(".")[0]
    if mod in _LIBRARY_ROOTS:
        return True
    fname = os.path.normpath(f.__code__.co_filename)
    return fname.startswith(_STDLIB) and "site-packages" not in fname


def convert_function(f):
    """``f`` with its control flow converted (a new function object), or ``f`` itself when it
    is not converted."""
    if isinstance(f, types.MethodType):
        conv = convert_function(f.__func__)
        return f if conv is f.__func__ else types.MethodType(conv, f.__self__)
    if not isinstance(f, types.FunctionType) or getattr(f, "_paddle_not_to_static", False):
        return f
    if "_jst" in f.__code__.co_freevars:  # made by converted code: converted already
        return f
    hit = _FUNCS.get(f)
    if hit is not None:
        return hit
    code = _CODES.get(f.__code__, _MISSING)
    if code is _MISSING:
        code = _CODES[f.__code__] = _convert_code(f)
    if code is None:
        return f
    cells = dict(zip(f.__code__.co_freevars, f.__closure__ or ()))
    cells["_jst"] = types.CellType(convert_ops)
    g = types.FunctionType(
        code, f.__globals__, f.__name__, f.__defaults__, tuple(cells[n] for n in code.co_freevars)
    )
    g.__kwdefaults__ = f.__kwdefaults__
    g.__dict__.update(f.__dict__)
    g.__qualname__, g.__doc__, g.__module__ = f.__qualname__, f.__doc__, f.__module__
    g.__dy2static_original__ = f
    _FUNCS[f] = g
    return g


def _convert_code(f: types.FunctionType):
    if f.__code__.co_name == "<lambda>" or _is_library(f) or hasattr(f, "__wrapped__"):
        return None  # (a decorator's wrapper: converting the source would drop the decorator)
    try:
        lines, first = inspect.getsourcelines(f)
    except (OSError, TypeError):
        return None
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None
    fdef = tree.body[0] if tree.body else None
    if not isinstance(fdef, ast.FunctionDef) or fdef.name != f.__code__.co_name:
        return None
    fdef.decorator_list = []
    ast.increment_lineno(tree, first - 1)
    filename = f.__code__.co_filename
    try:
        need = transformer.transform_function(fdef, filename, _dump)
    except transformer.Unconvertible as e:
        log(1, f"{f.__qualname__} is not converted: {e}")
        return None
    fdef.body = transformer._bindings(need) + fdef.body
    freevars = list(f.__code__.co_freevars)
    factory = transformer._def("__dy2static_factory", ["_jst", *freevars], [fdef])
    factory.body.append(ast.Return(ast.Name(fdef.name, ast.Load())))
    module = ast.Module([factory], [])
    ast.fix_missing_locations(module)
    code = compile(module, filename, "exec")
    inner = _child(_child(code, "__dy2static_factory"), fdef.name)
    if inner is None or not set(inner.co_freevars) <= set(freevars) | {"_jst"}:
        return None
    log(2, f"{f.__qualname__} ({filename}:{first}) is converted")
    return inner


# -- paddle.jit.set_code_level / set_verbosity ---------------------------------------------------
_LOG = logging.getLogger("paddle.jit.dy2static")
_settings = {"code_level": None, "verbosity": None, "code_stdout": False, "log_stdout": False}


def _level(key: str, env: str, default: int) -> int:
    v = _settings[key]
    if v is None:
        try:
            v = int(os.environ.get(env, default))
        except ValueError:
            v = default
    return v


def set_code_level(level: int = 100, also_to_stdout: bool = False) -> None:
    """Log the converted code of each function after transform pass ``level`` (1 returns,
    2 for loops, 3 break/continue, 4 or more: all passes); 0 turns it off. The environment
    variable ``TRANSLATOR_CODE_LEVEL`` does the same (this call takes priority)."""
    if not isinstance(level, int):
        raise TypeError(f"level should be int, but received {type(level).__name__}")
    _settings["code_level"], _settings["code_stdout"] = level, bool(also_to_stdout)


def set_verbosity(level: int = 0, also_to_stdout: bool = False) -> None:
    """Log what the conversion does (level >= 1: functions left unconverted and why; >= 2:
    every converted function). ``TRANSLATOR_VERBOSITY`` does the same."""
    if not isinstance(level, int):
        raise TypeError(f"level should be int, but received {type(level).__name__}")
    _settings["verbosity"], _settings["log_stdout"] = level, bool(also_to_stdout)


def log(level: int, msg: str) -> None:
    if _level("verbosity", "TRANSLATOR_VERBOSITY", 0) >= level:
        _LOG.info(msg)
        if _settings["log_stdout"]:
            print(msg)


def _dump(k: int, fdef) -> None:
    level = _level("code_level", "TRANSLATOR_CODE_LEVEL", 0)
    if level <= 0 or k != min(level, 4):
        return
    ast.fix_missing_locations(fdef)
    text = f"After the transform pass {k} of dy2static:\n{ast.unparse(fdef)}"
    _LOG.info(text)
    if _settings["code_stdout"]:
        print(text)


def _child(code, name):
    if code is None:
        return None
    for c in code.co_consts:
        if isinstance(c, types.CodeType) and c.co_name == name:
            return c
    return None


# -- Layers called from converted code -----------------------------------------------------------
def _layer_call(layer, call, inputs, kwargs):
    """Run ``call`` (the Layer's hooks-and-forward path) with the Layer's converted forward."""
    from .._to_static import StaticFunction

    d = layer.__dict__
    had = "forward" in d
    cur = d.get("forward")
    base = cur._fn if isinstance(cur, StaticFunction) else layer.forward
    conv = convert_function(base)
    if conv is base:
        return call(*inputs, **kwargs)
    d["forward"] = conv
    try:
        return call(*inputs, **kwargs)
    finally:
        if had:
            d["forward"] = cur
        else:
            d.pop("forward", None)


_depth = [0]


@contextmanager
def converting():
    """Inside: Layers called run their converted forward (to_static's discovery and trace)."""
    from ...nn import _layer

    _depth[0] += 1
    _layer._CONVERT_HOOK[0] = _layer_call
    try:
        yield
    finally:
        _depth[0] -= 1
        if not _depth[0]:
            _layer._CONVERT_HOOK[0] = None
