"""The saved-model format of ``paddle.jit.save``: writer, reader and path resolution (``jit``
writes it, ``jit.load`` and ``serving`` read it).

A model saved under the prefix ``PATH/model`` is three files::

    model.json        manifest (JSON): inputs/outputs (names, shapes with -1 for dynamic dims,
                      dtypes), parameter table (order, names, shapes, dtypes), file sizes/hash
    model.stablehlo   ``jax.export.Exported.serialize()``: the forward as StableHLO with
                      symbolic dims, called as ``f(params: list, inputs: list) -> list``
    model.pdiparams   the parameters, in the manifest's order, as consecutive records of
                      Paddle's binary DenseTensor format (what Paddle's save_combine writes)

Real Paddle 3.3 writes ``model.json`` (a PIR program) + ``model.pdiparams`` for the same call,
so scripts that pass those paths to ``paddle.inference.Config`` keep working. The manifest is
written last: a reader that finds it finds the files it describes (sizes and hash checked).
See docs/serving.md.
"""

from __future__ import annotations

import glob
import hashlib
import io
import json
import os
import re
import weakref
from dataclasses import dataclass, field

import numpy as np

FORMAT = "paddle_compat.saved_model"
_CALL_TARGET = re.compile(r'(?:custom_call @|call_target_name = ")([\w.$-]+)')
FORMAT_VERSION = 1
PROGRAM_SUFFIX = ".stablehlo"
PARAMS_SUFFIX = ".pdiparams"
MANIFEST_SUFFIX = ".json"


class ArtifactError(ValueError):
    """A saved model that cannot be found or read."""


@dataclass
class IOSpec:
    """One input or output of a saved model."""

    name: str
    shape: list[int]  # -1 for a dynamic dimension
    dtype: str  # numpy dtype name ("float32", "int64", "bfloat16", ...)
    dims: list = field(default_factory=list)  # ints and symbol names ("b", "s0_1")

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "shape": list(self.shape),
            "dtype": self.dtype,
            "dims": list(self.dims or self.shape),
        }

    @classmethod
    def from_json(cls, d: dict) -> IOSpec:
        return cls(
            str(d["name"]),
            [int(x) for x in d["shape"]],
            str(d["dtype"]),
            list(d.get("dims", d["shape"])),
        )


@dataclass
class ParamSpec:
    """One parameter: its unique name (``linear_0.w_0``), Layer attribute path
    (``fc1.weight``), shape, dtype, trainable flag."""

    name: str
    key: str
    shape: list[int]
    dtype: str
    trainable: bool = True

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "key": self.key,
            "shape": list(self.shape),
            "dtype": self.dtype,
            "trainable": self.trainable,
        }

    @classmethod
    def from_json(cls, d: dict) -> ParamSpec:
        return cls(
            str(d["name"]),
            str(d.get("key", d["name"])),
            [int(x) for x in d["shape"]],
            str(d["dtype"]),
            bool(d.get("trainable", True)),
        )


def np_dtype(name: str) -> np.dtype:
    """numpy dtype for a manifest dtype name (bfloat16/float8 come from ml_dtypes); anything
    that is not a plain numeric dtype is a ValueError."""
    try:
        dt = np.dtype(name)
    except TypeError:
        import ml_dtypes

        dt = getattr(ml_dtypes, str(name), None)
        if dt is None:
            raise ValueError(f"unknown dtype {name!r}") from None
        dt = np.dtype(dt)
    if dt.hasobject or dt.kind in "OSUVMm" or dt.fields is not None:
        raise ValueError(f"unknown dtype {name!r}")
    return dt


def _inside(manifest_path: str, name) -> str:
    """The file ``name`` of a manifest, which must lie in the manifest's own directory (a plain
    file name: no directories, no ``..``, no absolute path, no link leading out)."""
    d = os.path.dirname(os.path.abspath(manifest_path))
    if (
        not isinstance(name, str)
        or not name
        or os.path.basename(name) != name
        or name in ("..", ".")
    ):
        raise ArtifactError(
            f"{manifest_path}: the file {name!r} it names must be a file name in the model's "
            "directory."
        )
    path, root = os.path.join(d, name), os.path.realpath(d)
    if os.path.commonpath([os.path.realpath(path), root]) != root:
        raise ArtifactError(f"{manifest_path}: {name!r} is a link that leads out of its directory.")
    return path


# -- writing ------------------------------------------------------------------------------------
def _atomic_write(path: str, data: bytes | None = None, write_fn=None) -> None:
    from .._io.serialization import _write

    _write(path, write_fn if write_fn is not None else (lambda f: f.write(data)))


def write(
    prefix: str,
    *,
    inputs: list[IOSpec],
    outputs: list[IOSpec],
    params: list[ParamSpec],
    arrays: list[np.ndarray],
    program: bytes,
    extra: dict | None = None,
) -> dict:
    """Write the three files of a saved model under ``prefix``; returns the manifest."""
    dirname = os.path.dirname(prefix)
    if dirname:
        os.makedirs(dirname, exist_ok=True)
    base = os.path.basename(prefix)
    from .._io._tensor_binary import dense_tensor_to_bytes

    params_hash = hashlib.sha256()

    def write_params(f):
        for spec, a in zip(params, arrays):
            a = np.asarray(a)
            if list(a.shape) != list(spec.shape) or a.dtype != np_dtype(spec.dtype):
                raise ArtifactError(
                    f"parameter {spec.name}: array {a.shape} {a.dtype} does not "
                    f"match its table entry {spec.shape} {spec.dtype}"
                )
            record = dense_tensor_to_bytes(a)
            params_hash.update(record)
            f.write(record)

    params_path = prefix + PARAMS_SUFFIX
    if params:
        _atomic_write(params_path, write_fn=write_params)
    elif os.path.exists(params_path):  # a stale file from an earlier save would confuse readers
        os.unlink(params_path)
    _atomic_write(prefix + PROGRAM_SUFFIX, program)
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "program_file": base + PROGRAM_SUFFIX,
        "program_bytes": len(program),
        "program_sha256": hashlib.sha256(program).hexdigest(),
        "params_file": base + PARAMS_SUFFIX if params else None,
        "params_bytes": os.path.getsize(params_path) if params else 0,
        "params_sha256": params_hash.hexdigest() if params else None,
        "inputs": [s.to_json() for s in inputs],
        "outputs": [s.to_json() for s in outputs],
        "params": [p.to_json() for p in params],
        **(extra or {}),
    }
    _atomic_write(prefix + MANIFEST_SUFFIX, dump_manifest(manifest).encode("utf-8"))
    return manifest


def dump_manifest(m: dict) -> str:
    """JSON with one line per top-level key and per input/output/parameter entry."""
    lines = []
    for k, v in m.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            items = ",\n".join("  " + json.dumps(x) for x in v)
            lines.append(f" {json.dumps(k)}: [\n{items}\n ]")
        else:
            lines.append(f" {json.dumps(k)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# -- locating -----------------------------------------------------------------------------------
def _is_ours(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return FORMAT.encode() in head


def resolve(
    model: str | None = None, prog_file: str | None = None, params_file: str | None = None
) -> tuple[str, str | None]:
    """(manifest path, params path or None) for a model given as a prefix, a directory, or the
    program/params file pair (``model.json`` or ``model.pdmodel`` + ``model.pdiparams``)."""
    if prog_file:
        prog = os.fspath(prog_file)
        cands = [prog]
        root, ext = os.path.splitext(prog)
        if ext in (".pdmodel", PROGRAM_SUFFIX, PARAMS_SUFFIX, ""):
            cands.append(root + MANIFEST_SUFFIX)
        if ext == "":
            cands.append(prog + MANIFEST_SUFFIX)
        for c in cands:
            if os.path.isfile(c) and c.endswith(MANIFEST_SUFFIX):
                return c, os.fspath(params_file) if params_file else None
        raise ArtifactError(
            f"Cannot open the model file {prog}: no saved model manifest "
            f"({', '.join(dict.fromkeys(c for c in cands if c.endswith(MANIFEST_SUFFIX)))}) "
            "found. Save the model with paddle.jit.save(layer, path_prefix, input_spec=...)."
        )
    if model is None:
        raise ArtifactError(
            "No model given: set Config(model_dir) or Config(prog_file, params_file)."
        )
    model = os.fspath(model)
    if os.path.isdir(model):
        found = sorted(
            p for p in glob.glob(os.path.join(model, "*" + MANIFEST_SUFFIX)) if _is_ours(p)
        )
        for preferred in ("inference.json", "model.json"):
            hit = os.path.join(model, preferred)
            if hit in found:
                return hit, None
        if len(found) == 1:
            return found[0], None
        if not found:
            raise ArtifactError(
                f"No saved model (<prefix>.json written by paddle.jit.save) in the directory "
                f"{model}."
            )
        raise ArtifactError(
            f"Several saved models in {model}: "
            f"{[os.path.basename(p) for p in found]}; pass the prefix or the "
            ".json file instead of the directory."
        )
    for cand in (model + MANIFEST_SUFFIX, model):
        if os.path.isfile(cand) and cand.endswith(MANIFEST_SUFFIX):
            return cand, None
    root, ext = os.path.splitext(model)
    if ext in (".pdmodel", PROGRAM_SUFFIX, PARAMS_SUFFIX) and os.path.isfile(
        root + MANIFEST_SUFFIX
    ):
        return root + MANIFEST_SUFFIX, None
    raise ArtifactError(
        f"The saved model {model} does not exist (looked for {model + MANIFEST_SUFFIX}). Pass "
        "the path prefix given to paddle.jit.save, its directory, or the .json file."
    )


# -- reading ------------------------------------------------------------------------------------
class Artifact:
    """A saved model read from disk: manifest, parameter arrays, and the deserialized
    ``jax.export.Exported`` (loaded on first use)."""

    def __init__(self, manifest_path: str, params_path: str | None = None):
        self.manifest_path = manifest_path
        with open(manifest_path, "rb") as f:
            raw = f.read()
        try:
            m = json.loads(raw)
        except ValueError as e:
            raise ArtifactError(f"{manifest_path} is not valid JSON: {e}") from None
        if not isinstance(m, dict) or m.get("format") != FORMAT:
            if (
                isinstance(m, dict)
                and isinstance(m.get("base_code"), dict)
                and m["base_code"].get("magic") == "pir"
            ):
                raise ArtifactError(
                    f"{manifest_path} is a PIR program written by PaddlePaddle itself, but its "
                    "parameters file (.pdiparams) is missing or it is not a complete program; "
                    "paddle.jit.load and paddle.inference run a Paddle-exported .json/.pdmodel "
                    "together with its .pdiparams."
                )
            raise ArtifactError(f"{manifest_path} is not a paddle-compat saved model manifest.")
        if int(m.get("format_version", 0)) > FORMAT_VERSION:
            raise ArtifactError(
                f"{manifest_path} has format version {m['format_version']}; this paddle-compat "
                f"reads up to version {FORMAT_VERSION}."
            )
        self.manifest = m
        try:
            self.program_path = _inside(manifest_path, m["program_file"])
            if params_path is None and m.get("params_file"):
                params_path = _inside(manifest_path, m["params_file"])
            self.inputs = [IOSpec.from_json(x) for x in m["inputs"]]
            self.outputs = [IOSpec.from_json(x) for x in m["outputs"]]
            self.params = [ParamSpec.from_json(x) for x in m["params"]]
            for spec in (*self.inputs, *self.outputs, *self.params):
                np_dtype(spec.dtype)
        except ArtifactError:
            raise
        except KeyError as e:
            raise ArtifactError(f"{manifest_path}: the manifest has no {e} entry.") from None
        except (TypeError, ValueError, AttributeError) as e:
            raise ArtifactError(f"{manifest_path}: malformed manifest ({e}).") from None
        self.params_path = params_path
        self._exported = None
        self._arrays = None
        self._callable = None

    @property
    def input_names(self) -> list[str]:
        return [s.name for s in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return [s.name for s in self.outputs]

    def program_bytes(self) -> bytes:
        try:
            with open(self.program_path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise ArtifactError(f"Cannot read the program file {self.program_path}: {e}") from None
        want = self.manifest.get("program_sha256")
        if want and hashlib.sha256(data).hexdigest() != want:
            raise ArtifactError(
                f"{self.program_path} does not match its manifest "
                f"{self.manifest_path} (hash differs): a partial or mixed save."
            )
        return data

    @property
    def exported(self):
        """The ``jax.export.Exported`` forward."""
        if self._exported is None:
            import jax

            data = self.program_bytes()
            try:
                exported = jax.export.deserialize(bytearray(data))
                targets = set(_CALL_TARGET.findall(exported.mlir_module()))
            except Exception as e:  # flatbuffers/XLA errors of a damaged file
                raise ArtifactError(
                    f"Cannot read the program file {self.program_path}: it is not a program "
                    f"written by paddle.jit.save ({type(e).__name__}: {str(e)[:200]})."
                ) from None
            callbacks = sorted(t for t in targets if "callback" in t.lower())
            if callbacks:  # jax.export cannot write them: a hand-made file calling into Python
                raise ArtifactError(
                    f"{self.program_path} calls back into the host ({', '.join(callbacks)}), "
                    "which paddle.jit.save never writes; refusing to run it."
                )
            self._exported = exported
        return self._exported

    def arrays(self) -> list[np.ndarray]:
        """The parameters as numpy arrays, in the manifest's order."""
        if self._arrays is None:
            self._arrays = read_params(
                self.params_path, self.params, self.manifest.get("params_sha256")
            )
        return self._arrays

    def callable(self, compiler_options: dict | None = None):
        """``jax.jit(exported.call)``: ``f(params, inputs) -> list of outputs`` (shared by every
        predictor over this artifact with the same XLA options, so compiled shapes are
        reused)."""
        key = tuple(sorted((compiler_options or {}).items()))
        if self._callable is None:
            self._callable = {}
        fn = self._callable.get(key)
        if fn is None:
            import jax

            fn = self._callable[key] = jax.jit(
                self.exported.call, compiler_options=dict(key) or None
            )
        return fn


class _HashingReader(io.RawIOBase):
    """A file whose bytes feed a sha256 as they are read."""

    def __init__(self, f):
        self._f, self.hash = f, hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        n = self._f.readinto(b)
        self.hash.update(memoryview(b)[:n])
        return n


def read_params(
    path: str | None, specs: list[ParamSpec], sha256: str | None = None
) -> list[np.ndarray]:
    """Read the ``.pdiparams`` records for ``specs`` (checked against the table and, when the
    manifest records one, against the file's sha256)."""
    if not specs:
        return []
    if path is None or not os.path.isfile(path):
        raise ArtifactError(f"The parameter file {path} of the saved model does not exist.")
    from .._io._tensor_binary import read_dense_tensor

    out = []
    with open(path, "rb", buffering=0) as raw:
        hashed = _HashingReader(raw)
        f = io.BufferedReader(hashed, 1 << 20)
        for spec in specs:
            try:
                a, _ = read_dense_tensor(f)
            except ValueError as e:
                raise ArtifactError(f"{path}: cannot read parameter {spec.name}: {e}") from None
            if list(a.shape) != spec.shape or a.dtype != np_dtype(spec.dtype):
                raise ArtifactError(
                    f"{path}: parameter {spec.name} is {list(a.shape)} {a.dtype}, the manifest "
                    f"says {spec.shape} {spec.dtype} (a partial or mixed save?)"
                )
            out.append(a)
        if f.read(1):
            raise ArtifactError(
                f"{path} has data after its {len(specs)} parameters (a partial or mixed save?)"
            )
    if sha256 and hashed.hash.hexdigest() != sha256:
        raise ArtifactError(
            f"{path} does not match its manifest (sha256 differs): the parameters were changed "
            "after paddle.jit.save, or the files come from different saves."
        )
    return out


_CACHE: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def load(
    model: str | None = None, prog_file: str | None = None, params_file: str | None = None
) -> Artifact:
    """Read a saved model (shared while in use: cached weakly per path + modification time)."""
    manifest, params = resolve(model, prog_file, params_file)
    try:
        st = os.stat(manifest)
        key = (
            os.path.abspath(manifest),
            params and os.path.abspath(params),
            st.st_mtime_ns,
            st.st_size,
        )
    except OSError:
        key = None
    hit = _CACHE.get(key) if key else None
    if hit is None:
        hit = Artifact(manifest, params)
        if key:
            _CACHE[key] = hit
    return hit
