"""Eager kernels and deferred segments kept on disk, next to JAX's persistent cache: the output
shapes of each kernel and the compiled program of each kernel and segment, so that a later
process runs an eager forward (or backward) without tracing, lowering or compiling anything.

JAX's own persistent cache keys a program by its lowered module, so a warm process still
traces and lowers every segment (~0.4 s for an EfficientNet-B0 forward) just to find the
entry. Here the key is the segment's structure as deferred execution records it: each
kernel's *name* (its op and static arguments as stable text), which earlier values it reads,
the shapes of the arrays fed in, and a fingerprint of everything else that shapes a trace (the
jax, jaxlib and paddle-compat sources, the device, ``XLA_FLAGS`` and JAX's tracing config).

- A kernel is nameable when its cache key holds only plain values (numbers, strings, dtypes,
  tuples, pytree structures without custom nodes, paddle-compat's own ops and module-level
  functions). Anything else (a user's function, an object) makes its segments process-local:
  they run as before, compiled through JAX's cache.
- A program is compiled through JAX's persistent cache as ``jax.jit`` would compile it, and the
  store keeps JAX's metadata for it (``jax.experimental.serialize_executable``'s) with a
  reference to the executable's entry in JAX's cache instead of the executable itself
  (XLA:CPU cannot serialize again an executable read back from that cache). So after a
  source change (a new fingerprint) a miss costs a trace, a lowering and a cache read, as
  before, and an evicted entry is a miss.
- Op-by-op eager kernels use it too (``call``): a kernel's program for one input signature
  is read from the store (or compiled and stored) and called directly, which also skips the
  dispatch work of ``jax.jit`` (~1.5 us of ~8 per op). Inputs that are not plain arrays on the
  default device (tracers, committed or sharded arrays) go through ``jax.jit`` as before.
- Entries are files written atomically; an unreadable or mismatched one is a miss. The store
  is trusted like JAX's cache, whose compiled code it loads (and it holds JAX's pickled
  metadata, which loading unpickles): keep it in a directory only you can write.
  ``PADDLE_COMPAT_SEGMENT_CACHE=0`` turns it off.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import jax
import numpy as np

from . import place, program_prefetch

ENV = "PADDLE_COMPAT_SEGMENT_CACHE"
VERSION = 1
_MAGIC = b"paddle_compat segment v1\n"
_OFF = ("0", "off", "false", "no")
_PRIMITIVES = (type(None), bool, int, float, complex, str)
_UNSET = object()
_state: dict = {}  # "dir" (Path or None), "fp" (the fingerprint text)
_capture = threading.local()  # the JAX cache key of the program compile_and_save compiles
stats = {"avals_loaded": 0, "avals_saved": 0, "loaded": 0, "saved": 0, "failed": 0}
# Programs eager kernels hold (each a few memory mappings): past this many every kernel's table
# is dropped, and what runs again is read back from the store.
MAX_KERNEL_PROGRAMS = 4096
_ArrayImpl = place.ArrayImpl
_tables: list = []  # every kernel's {input avals: program}, to drop them together
_held = [0, None]  # programs held in _tables, the default device they were made for
_direct = True  # False while paddle.profiler records: kernels go through jax.jit, whose
# dispatch is what the JAX trace names (``PjitFunction(op)``, the profiler's operator rows)


def note(fn, key):
    """Give kernel ``fn`` its cache ``key`` (named on first use); returns ``fn``."""
    fn._segment_key = key
    return fn


def kernel_name(fn) -> str | None:
    """Stable text for ``fn``'s key, or None when it has none or something in it is not
    stable across processes."""
    name = getattr(fn, "_segment_name", _UNSET)
    if name is _UNSET:
        key = getattr(fn, "_segment_key", _UNSET)
        name = None if key is _UNSET else encode(key)
        try:
            fn._segment_name = name
        except AttributeError:  # a function that takes no attributes: named again next time
            pass
    return name


def encode(obj) -> str | None:
    """``obj`` (a cache key or part of one) as stable text, or None when it cannot be."""
    parts: list = []
    return "".join(parts) if _encode(obj, parts) else None


def _encode(obj, out: list) -> bool:
    t = type(obj)
    if t in _PRIMITIVES:
        out.append(f"{t.__name__}:{obj!r},")
    elif t is tuple or t is list or (isinstance(obj, tuple) and hasattr(t, "_fields")):
        out.append("(" if t is tuple else "[" if t is list else f"{t.__qualname__}(")
        if not all(_encode(x, out) for x in obj):  # a NamedTuple: its fields, by position
            return False
        out.append("),")
    elif isinstance(obj, np.dtype):
        out.append(f"dtype:{obj.name},")
    elif isinstance(obj, np.generic):
        out.append(f"np.{obj.dtype.name}:{obj.item()!r},")
    elif obj is Ellipsis:
        out.append("...,")
    elif isinstance(obj, jax.tree_util.PyTreeDef):
        s = str(obj)
        if "CustomNode" in s or " at 0x" in s:
            return False
        out.append(f"tree:{s},")
    elif hasattr(t, "__segment_name__"):  # paddle-compat's OpDef
        name = obj.__segment_name__()
        if name is None:
            return False
        out.append(name + ",")
    elif isinstance(obj, type) or callable(obj):  # classes (input types) and functions
        mod, qual = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if not isinstance(mod, str) or not isinstance(qual, str) or "<" in qual:
            return False  # a lambda or a closure: what it captured is not in its name
        if callable(obj) and not isinstance(obj, type) and not _own_module(mod):
            return False  # a user's function: its source is not in the fingerprint
        out.append(f"py:{mod}.{qual},")
    else:
        return False
    return True


def _own_module(mod: str) -> bool:
    return mod == "paddle_compat" or mod.startswith("paddle_compat.")


def _fingerprint() -> str:
    """Everything outside a segment's own key that decides its trace and its compiled code."""
    import jaxlib

    h = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                st = os.stat(os.path.join(dirpath, f))
                h.update(f"{dirpath[len(str(root)) :]}/{f}:{st.st_size}:{st.st_mtime_ns};".encode())
    dev = jax.devices()[0]
    parts = (
        VERSION,
        jax.__version__,
        jaxlib.__version__,
        sys.version_info[:2],
        h.hexdigest(),
        dev.platform,
        dev.device_kind,
        getattr(dev.client, "platform_version", ""),
        os.environ.get("XLA_FLAGS", ""),
    )
    return repr(parts)


def _trace_config() -> str:
    """JAX's tracing config now (x64, matmul precision, ...): it can change while running."""
    from jax._src import config

    return repr([c for c in config.trace_context() if " at 0x" not in repr(c)])


def directory() -> Path | None:
    """The store's directory (under JAX's persistent cache), or None when it is off."""
    d = _state.get("dir", _UNSET)
    if d is _UNSET:
        d = None
        cache = jax.config.jax_compilation_cache_dir
        on = os.environ.get(ENV, "1").strip().lower() not in _OFF
        if cache and on and jax.config.jax_enable_compilation_cache and _install_capture():
            fp = _fingerprint()
            d = (
                Path(cache)
                / "paddle_compat_segments"
                / hashlib.sha256(fp.encode()).hexdigest()[:16]
            )
            _state["fp"] = fp
        _state["dir"] = d
    return d


def reset() -> None:
    """Look up the directory and fingerprint again on next use (tests, a moved cache)."""
    _state.clear()
    drop_tables()


def _sig_text(sig) -> str:
    return ";".join(f"{tuple(s)}/{np.dtype(d).name}/{int(w)}" for s, d, w in sig)


def _program_text(*parts: str) -> str:
    """A program's key: the fingerprint, JAX's tracing config and the device, then ``parts``
    (what the program computes, and the signature of the ``arrays`` it takes)."""
    return "|".join((_state["fp"], _trace_config(), repr(place.current_device()), *parts))


def _arrays_text(arrays) -> str:
    return _sig_text((a.shape, a.dtype, getattr(a, "weak_type", False)) for a in arrays)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _path(kind: str, text: str, digest: str | None = None) -> Path:
    return directory() / kind / ((digest or _digest(text)) + ".bin")


def _read(kind: str, text: str, digest: str | None = None) -> bytes | None:
    try:
        with open(_path(kind, text, digest), "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = _MAGIC + text.encode() + b"\n"
    return data[len(head) :] if data.startswith(head) else None


def _write(kind: str, text: str, payload: bytes) -> bool:
    path = _path(kind, text)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_MAGIC + text.encode() + b"\n" + payload)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


# ---------------------------------------------------------------- output shapes per kernel


def _avals_text(name: str, sig) -> str:
    return f"{_state['fp']}|{_trace_config()}|{name}|{_sig_text(sig)}"


def load_avals(fn, sig):
    """``(avals, treedef or None)`` stored for ``fn`` on inputs ``sig``, or None."""
    name = kernel_name(fn)
    if name is None or directory() is None:
        return None
    data = _read("avals", _avals_text(name, sig))
    if data is None:
        return None
    try:
        rec = json.loads(data)
        avals = tuple((tuple(s), jax.numpy.dtype(d), bool(w)) for s, d, w in rec["avals"])
        tree = None if rec["single"] else jax.tree_util.tree_structure(_decode_tree(rec["tree"]))
    except (ValueError, KeyError, TypeError):
        return None
    stats["avals_loaded"] += 1
    return avals, tree


def save_avals(fn, sig, avals, tree) -> None:
    name = kernel_name(fn)
    if name is None or directory() is None:
        return
    if tree is None:
        shape = None
    else:
        shape = _encode_tree(jax.tree_util.tree_unflatten(tree, list(range(tree.num_leaves))))
        if shape is _UNSET:
            return
    rec = {
        "avals": [[list(s), np.dtype(d).name, bool(w)] for s, d, w in avals],
        "single": tree is None,
        "tree": shape,
    }
    if _write("avals", _avals_text(name, sig), json.dumps(rec).encode()):
        stats["avals_saved"] += 1


def _encode_tree(obj):
    """A kernel's output structure as JSON (int leaves), or _UNSET for other containers."""
    t = type(obj)
    if t is int or obj is None:
        return obj
    if t is list or t is tuple:
        items = [_encode_tree(x) for x in obj]
        if any(x is _UNSET for x in items):
            return _UNSET
        return items if t is list else {"tuple": items}
    if t is dict and all(type(k) is str for k in obj):
        items = {k: _encode_tree(v) for k, v in obj.items()}
        return _UNSET if any(v is _UNSET for v in items.values()) else {"dict": items}
    return _UNSET


def _decode_tree(obj):
    if isinstance(obj, list):
        return [_decode_tree(x) for x in obj]
    if isinstance(obj, dict):
        if "tuple" in obj:
            return tuple(_decode_tree(x) for x in obj["tuple"])
        return {k: _decode_tree(v) for k, v in obj["dict"].items()}
    return obj


# ---------------------------------------------------------------- compiled segment programs


def program_text(steps, live, inputs) -> str | None:
    """The store key of a segment (``steps``: (kernel, refs) pairs), or None when a kernel
    in it has no stable name."""
    if directory() is None:
        return None
    parts = []
    for fn, refs in steps:
        name = kernel_name(fn)
        if name is None:
            return None
        parts.append(f"{name}{refs}")
    return _program_text(*parts, _arrays_text(inputs), repr(live))


def kernels_stored(steps, sigs) -> bool:
    """Whether every kernel of ``steps`` ((kernel, refs) pairs) has its program for the
    input signature in ``sigs`` ((shape, dtype, weak_type) per input) in the store."""
    if directory() is None:
        return False
    for (fn, _), sig in zip(steps, sigs, strict=True):
        name = kernel_name(fn)
        if name is None or not _path("programs", _program_text(name, _sig_text(sig))).exists():
            return False
    return True


def named_text(name: str, inputs) -> str | None:
    """The store key of the package's own program ``name`` (stable text naming what it
    computes) for ``inputs``, or None when the store is off."""
    if directory() is None:
        return None
    return _program_text(name, _arrays_text(inputs))


def pinned_text(name: str, inputs, device) -> str | None:
    """The store key of a package program that takes only integer and float math and always
    runs on ``device`` (the random engine's generator): the fingerprint, JAX's 64-bit mode and
    ``device`` in place of the whole tracing config and the default device, which a script
    changes (``paddle.set_device``) after import has looked the program up."""
    if directory() is None:
        return None
    x64 = f"x64={bool(jax.config.jax_enable_x64)}"
    return "|".join((_state["fp"], x64, repr(device), name, _arrays_text(inputs)))


def stored(text: str) -> bool:
    """Whether a program is stored under ``text`` (its file exists; reading it may still
    miss)."""
    return directory() is not None and _path("programs", text).exists()


def program(text: str, jitted, inputs, device=None, in_order: bool = True):
    """The program stored under ``text``, else ``jitted`` compiled for ``inputs`` and
    stored there. ``device``: where it runs (default: the default device). ``in_order``:
    whether it takes part in reading ahead (``program_prefetch``)."""
    prog = load_program(text, len(inputs), device, in_order)
    if prog is None:
        prog = compile_and_save(jitted, inputs, text, device, in_order)
    return prog


def load_program(text: str, n_in: int, device=None, in_order: bool = True):
    """The compiled program stored under ``text`` (a ``jax.stages.Compiled`` taking ``n_in``
    arrays on ``device``), or None (not stored, or its executable is gone from JAX's
    cache). ``in_order=False`` leaves it out of the order programs are read ahead in (the
    random engine's generator: taken amid a model build's host work, which reads ahead
    would only slow down)."""
    device = device or place.current_device()
    digest = _digest(text)
    ahead = program_prefetch.take(digest)  # read ahead on a background thread
    if ahead is None:
        t = time.perf_counter()
        data = _read("programs", text, digest)
        if data is None:
            return None
        compiled = _decode_program(data, n_in, device)
        if compiled is None:
            stats["failed"] += 1
            return None
        ms = 1e3 * (time.perf_counter() - t)
    else:
        compiled, ms = ahead
    stats["loaded"] += 1
    if in_order:
        _note_taken(digest, ms, device)
    return compiled


def _decode_program(data: bytes, n_in: int | None, device):
    """A stored program's bytes (after its key) as a ``jax.stages.Compiled`` on ``device``,
    or None (evicted from JAX's cache, another jax build, a truncated file)."""
    try:
        head, payload = data.split(b"\n", 1)
        head = json.loads(head)
        if head["lapack"]:
            _initialize_lapack()
        out_tree = jax.tree_util.tree_structure(_decode_tree(head["out"]))
        unpickler = _pickling()[1](io.BytesIO(payload), device.client, [device])
        unloaded, args_info, no_kwargs = unpickler.load()
        n_in = len(args_info) if n_in is None else n_in
        args_info = jax.tree_util.tree_structure(((0,) * n_in, {})).unflatten(args_info)
        return jax.stages.Compiled(unloaded.load(), [], args_info, out_tree, no_kwargs=no_kwargs)
    except Exception:
        return None


# ------------------------------------------- programs read ahead (program_prefetch.py)


def _note_taken(digest: str, ms: float, device) -> None:
    if program_prefetch._on and device == place.current_device():
        program_prefetch.note_taken(
            digest, ms, _read_next, _write_next, lambda d: _load_by_digest(d, device)
        )


def note_start() -> None:
    """At import: the script's start is taken like a program, so the programs that the last
    run of the same script (whatever its arguments) took first, a model's forward, are read
    ahead while this one imports and builds its model. A ``-c`` string and an interactive
    session have no name to go by, and a ``multiprocessing`` child runs other code than its
    parent under the parent's command line: nothing is read ahead for them."""
    import multiprocessing

    arg = sys.argv[0] if sys.argv else ""
    if arg in ("", "-c") or multiprocessing.parent_process() is not None:
        return
    if not program_prefetch._on or directory() is None:
        return
    script = os.path.abspath(arg)
    _note_taken(_digest(f"start|{_state['fp']}|{script}"), 0.0, place.current_device())


def _read_next(digest: str) -> list | None:
    """``[(digest, ms, delay ms), ...]`` stored for ``digest`` (``_write_next``), or None."""
    data = _read("next", digest)
    try:
        items = json.loads(data) if data else None
        if not isinstance(items, list):
            return None
        return [(str(d), float(ms), float(delay)) for d, ms, delay in items]
    except (ValueError, TypeError):
        return None


def _write_next(digest: str, successors: list) -> None:
    _write("next", digest, json.dumps(successors).encode())


def _load_by_digest(digest: str, device):
    """The program stored as ``digest`` (its key is in its file), or None: on a reader
    thread, for ``program_prefetch``."""
    try:
        with open(_path("programs", "", digest), "rb") as f:
            data = f.read()
    except OSError:
        return None
    if not data.startswith(_MAGIC):
        return None
    end = data.find(b"\n", len(_MAGIC))
    text = data[len(_MAGIC) : end].decode(errors="replace")
    if end < 0 or _digest(text) != digest:
        return None
    return _decode_program(data[end + 1 :], None, device)


def compile_and_save(jitted, inputs, text: str, device=None, in_order: bool = True):
    """Compile ``jitted`` for ``inputs`` (through JAX's persistent cache, as ``jax.jit``
    would) and store what it takes to load the program again under ``text``."""
    lowered = jitted.lower(*inputs)
    if lowered._lowering.compile_args.get("host_callbacks"):
        return lowered.compile()  # calls back into this process's Python: never stored
    _capture.on, _capture.ref = True, None
    t = time.perf_counter()
    try:
        compiled = lowered.compile()
    finally:
        _capture.on = False
    compile_s = time.perf_counter() - t
    ref = _capture.ref  # None: JAX had the executable in memory (no cache lookup)
    try:
        from jax._src import compilation_cache

        backend = (device or place.current_device()).client
        if ref is None or not compilation_cache.is_executable_in_cache(backend, ref[0]):
            return compiled
        unloaded = compiled._executable._unloaded_executable
        if unloaded is None or compiled._params.const_args:
            return compiled
        args_info, _ = jax.tree_util.tree_flatten(compiled.args_info)
        out_tree = compiled.out_tree
        with io.BytesIO() as f:
            _pickling()[0](f, (ref[0], ref[1].SerializeAsString())).dump(
                (unloaded, args_info, compiled._no_kwargs)
            )
            payload = f.getvalue()
    except Exception:  # a program this jax cannot describe: run it, store nothing
        stats["failed"] += 1
        return compiled
    outs = _encode_tree(jax.tree_util.tree_unflatten(out_tree, list(range(out_tree.num_leaves))))
    if outs is _UNSET:  # an output container the header cannot describe
        return compiled
    head = json.dumps({"out": outs, "lapack": "lapack" in lowered.as_text()}).encode()
    if _write("programs", text, head + b"\n" + payload):
        stats["saved"] += 1
        # XLA:CPU reads a program back in about a twentieth of its compile (~0.65 vs ~15 ms a
        # fusion): the estimate the next process reads ahead by, until it measures its own
        if in_order:
            _note_taken(_digest(text), 1e3 * compile_s / 20, device or place.current_device())
    return compiled


@functools.cache
def _pickling():
    """(Pickler, Unpickler) of a program's metadata (JAX's own, from
    ``jax.experimental.serialize_executable``) that refer to the executable by its entry in
    JAX's persistent cache instead of carrying it: XLA:CPU cannot serialize again an
    executable read back from that cache."""
    from jax._src import compilation_cache
    from jax._src.lib import xla_client as xc
    from jax.experimental import serialize_executable as se

    class Pickler(se._JaxPjrtPickler):
        def __init__(self, file, ref):
            super().__init__(file)
            self.ref = ref

        def persistent_id(self, obj):
            if isinstance(obj, xc.LoadedExecutable):
                return ("jax_cache", *self.ref)
            return super().persistent_id(obj)

    class Unpickler(se._JaxPjrtUnpickler):
        def persistent_load(self, pid):
            if pid[0] != "jax_cache":
                return super().persistent_load(pid)
            options = xc.CompileOptions.ParseFromString(pid[2])
            exe, _ = compilation_cache.get_executable_and_time(
                pid[1], options, self.backend, self.execution_devices
            )
            if exe is None:
                raise KeyError("evicted from JAX's persistent cache")
            return exe

    return Pickler, Unpickler


def _initialize_lapack() -> None:
    """What JAX sets up while lowering a linear-algebra op and a stored program skips:
    LAPACK's entry points (without them such a program crashes the process)."""
    if not _state.get("lapack"):
        from jax._src.lax import linalg

        linalg.initialize_lapack()
        _state["lapack"] = True


# ---------------------------------------------------------------- op-by-op eager kernels


def call(fn, arrays):
    """``fn(*arrays)`` for an eager kernel (a ``jax.jit`` function): with plain uncommitted
    arrays, through the kernel's table of programs per input signature (read from the store,
    or compiled and stored, on a miss); anything else goes to ``fn`` itself."""
    if not _direct:
        return fn(*arrays)
    sig = []
    for a in arrays:
        if a.__class__ is _ArrayImpl and not a._committed:  # (the property costs 2x)
            sig.append(a.aval)
        elif a.__class__ is np.ndarray:  # host operands (getitem's slice starts)
            sig.append((a.shape, a.dtype))
        else:
            return fn(*arrays)
    table = getattr(fn, "_segment_table", None)
    if table is None or _held[1] is not place._current:
        table = _table(fn)
    if table is False:
        return fn(*arrays)
    sig = tuple(sig)
    prog = table.get(sig)
    if prog is None:
        prog = table[sig] = _kernel_program(fn, arrays)
    return prog(*arrays)


def _table(fn):
    """``fn``'s program table, or False (no stable name, or the store is off)."""
    if _held[1] is not place._current:  # another default device: other programs
        drop_tables()
        _held[1] = place._current
    table = getattr(fn, "_segment_table", None)
    if table is None:
        if directory() is None:
            return False
        table = {} if kernel_name(fn) is not None and hasattr(fn, "lower") else False
        try:
            fn._segment_table = table
        except AttributeError:
            return False
        if table is not False:
            _tables.append(table)
    return table


def _kernel_program(fn, arrays):
    if directory() is None or not all(_canonical(a) for a in arrays):
        return fn  # the store is off since the table was made, or JAX would convert an input
    _held[0] += 1
    if _held[0] > MAX_KERNEL_PROGRAMS:
        drop_tables()
        _held[0] = 1
    return program(_program_text(kernel_name(fn), _arrays_text(arrays)), fn, arrays)


def _canonical(a) -> bool:
    """Whether JAX takes ``a`` with its own dtype (numpy int64 is int32 without 64-bit mode)."""
    return a.__class__ is not np.ndarray or jax.dtypes.canonicalize_dtype(a.dtype) == a.dtype


def direct_calls(on: bool) -> None:
    """Whether eager kernels call their programs directly (off: through ``jax.jit``)."""
    global _direct
    _direct = bool(on)


def drop_tables() -> None:
    """Let every eager kernel's programs go (they are read back from the store as needed)."""
    for t in _tables:
        t.clear()
    _held[0] = 0


def _install_capture() -> bool:
    """Let ``compile_and_save`` learn the key JAX's persistent cache gives the program it
    compiles (a wrapper of ``jax._src.compilation_cache.get_cache_key``; without that hook
    the store stays off)."""
    try:
        from jax._src import compilation_cache as cc
    except ImportError:
        return False
    current = getattr(cc, "get_cache_key", None)
    if current is None or not callable(getattr(cc, "get_executable_and_time", None)):
        return False
    if getattr(current, "_paddle_compat_capture", False):
        return True

    def get_cache_key(module, devices, compile_options, backend, *args, **kwargs):
        key = current(module, devices, compile_options, backend, *args, **kwargs)
        if getattr(_capture, "on", False):
            _capture.ref = (key, compile_options)
        return key

    get_cache_key._paddle_compat_capture = True
    cc.get_cache_key = get_cache_key
    return True
