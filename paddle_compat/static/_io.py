"""Saving static Programs: parameters (``static.save``/``load``, ``.pdparams``/``.pdopt``)
and inference models (``save_inference_model``/``load_inference_model``).

An inference model is paddle-compat's saved-model artifact, written by ``paddle.jit.save``:
the Program pruned to the fetched Variables and switched to inference (``clone(for_test=
True)``) runs as the forward of a small Layer whose parameters are the Program's; the -1
dims of the fed Variables stay dynamic. ``load_inference_model`` loads it with
``paddle.jit.load`` and returns a Program with one call of the loaded forward.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import weakref
import zipfile

import numpy as np

from .._core import static_mode
from .._core.tensor import Parameter, Tensor
from ._executor import _prune, global_scope, replay
from ._program import Program, Variable, _Op, default_main_program


def _state(program: Program) -> dict:
    return {name: np.asarray(p._value) for name, p in program._params.items()}


def _opt_state(program: Program) -> dict:
    out = {}
    for op in program._ops:
        opt = op.extra.get("optimizer")
        if opt is not None:
            for k, v in opt.state_dict().items():
                if isinstance(v, Tensor):
                    out[k] = np.asarray(v._value)
    return out


def _strip(path: str) -> str:
    for suffix in (".pdparams", ".pdopt", ".pdmodel"):
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return path


def save(program: Program, model_path: str, protocol: int = 4, **configs) -> None:
    """Write the Program's parameters to ``model_path.pdparams`` and its optimizers' state to
    ``model_path.pdopt`` ({name: ndarray} pickles, as Paddle writes them)."""
    from .. import save as _save

    if not isinstance(program, Program):
        raise TypeError(f"program should be a Program, but received {type(program)}")
    base = _strip(model_path)
    if os.path.basename(base) == "":
        raise ValueError(
            "The input model_path MUST be format of dirname/filename [dirname\\filename in "
            f"Windows system], but received model_path is empty string. {model_path}"
        )
    os.makedirs(os.path.dirname(base) or ".", exist_ok=True)
    _save(_state(program), base + ".pdparams", protocol=protocol)
    _save(_opt_state(program), base + ".pdopt", protocol=protocol)


def load_program_state(model_path: str, var_list=None) -> dict:
    """The {name: ndarray} saved by ``static.save`` (parameters and optimizer state)."""
    from .. import load as _load

    base = _strip(model_path)
    if not os.path.exists(base + ".pdparams"):
        raise ValueError(f"Model saved directory '{base}.pdparams' is not exists.")
    state = dict(_load(base + ".pdparams", return_numpy=True))
    if os.path.exists(base + ".pdopt"):
        state.update(_load(base + ".pdopt", return_numpy=True))
    if var_list is not None:
        names = {v.name if isinstance(v, Tensor) else str(v) for v in var_list}
        state = {k: v for k, v in state.items() if k in names}
    return state


def set_program_state(program: Program, state_dict: dict) -> None:
    """Set the Program's parameters (and its optimizers' state) from ``state_dict``."""
    for name, p in program._params.items():
        if name in state_dict:
            p.set_value(np.asarray(state_dict[name]))
    for op in program._ops:
        opt = op.extra.get("optimizer")
        if opt is not None:
            names = {k for k, v in opt.state_dict().items() if isinstance(v, Tensor)}
            if names and names <= set(state_dict):
                opt.set_state_dict({k: state_dict[k] for k in names})


def load(program: Program, model_path: str, executor=None, var_list=None) -> None:
    """Load what ``static.save`` wrote into the Program's parameters."""
    set_program_state(program, load_program_state(model_path, var_list))


def normalize_program(program: Program, feed_vars, fetch_vars, **kwargs) -> Program:
    """The inference Program: pruned to what ``fetch_vars`` need, in test mode."""
    feed_vars = _as_list(feed_vars, "feed_vars")
    fetch_vars = _as_list(fetch_vars, "fetch_vars")
    p = program.clone(for_test=True)
    p._ops = _prune([op for op in p._ops if op.kind == "op" or op.kind == "data"], fetch_vars)
    p._feed, p._fetch = list(feed_vars), list(fetch_vars)
    return p


def _as_list(x, what: str) -> list:
    xs = list(x) if isinstance(x, list | tuple) else [x]
    if not all(isinstance(v, Tensor) for v in xs):
        raise TypeError(f"{what} should be a Variable or a list of Variable.")
    return xs


class _ProgramForward:
    """The forward of an inference Program, for ``paddle.jit.save``."""

    @staticmethod
    def layer(program: Program, feed_vars, fetch_vars):
        from ..nn import Layer, ParameterList

        ops = program._ops
        params = [
            t for t in {id(t): t for op in ops for t in op.inputs()}.values()
            if isinstance(t, Parameter)
        ]  # fmt: skip

        class ProgramLayer(Layer):
            def __init__(self):
                super().__init__()
                self.params = ParameterList(params)

            def forward(self, *xs):
                env = {id(v): x for v, x in zip(feed_vars, xs)}
                out = replay(ops, env, fetch_vars)
                return out[0] if len(out) == 1 else out

        return ProgramLayer()


def _owner(fetch_vars):
    """The Program the fetched Variables belong to (None if none does)."""
    for v in fetch_vars if isinstance(fetch_vars, list | tuple) else [fetch_vars]:
        if isinstance(v, Variable) and v.program is not None:
            return v.program
    return None


def save_inference_model(path_prefix: str, feed_vars, fetch_vars, executor, **kwargs) -> None:
    """Save the part of ``program`` (default: the default main program) that computes
    ``fetch_vars`` from ``feed_vars``, with its parameters, for inference."""
    from ..jit import save as jit_save
    from ._input_spec import InputSpec

    if not path_prefix or os.path.basename(path_prefix) == "":
        raise ValueError(
            "The input path MUST be format of dirname/file_prefix [dirname\\file_prefix in "
            f"Windows system], but received file_prefix is empty string. {path_prefix}"
        )
    program = kwargs.get("program") or _owner(fetch_vars) or default_main_program()
    prog = normalize_program(program, feed_vars, fetch_vars)
    layer = _ProgramForward.layer(prog, prog._feed, prog._fetch)
    specs = [
        InputSpec([None if d < 0 else d for d in v.shape], v.dtype, v.name) for v in prog._feed
    ]
    with static_mode.suspended():
        jit_save(layer, path_prefix, input_spec=specs)


def load_inference_model(path_prefix: str, executor, **kwargs) -> list:
    """``[program, feed_target_names, fetch_targets]`` of a model ``save_inference_model``
    wrote; ``executor.run(program, feed=..., fetch_list=fetch_targets)`` runs it."""
    from ..jit import load as jit_load

    with static_mode.suspended():
        layer = jit_load(path_prefix)
    in_specs, out_specs = layer._artifact.inputs, layer._artifact.outputs
    prog = Program()
    feeds = []
    for spec in in_specs:
        v = Variable(spec.shape, np.dtype(spec.dtype), name=spec.name, program=prog)
        op = _Op("data", outputs=v, name=spec.name)
        v.__dict__["_op"] = op
        prog._add(op)
        feeds.append(v)
    call = _Op("call", inputs=feeds, fn=layer)
    outs = [
        Variable(s.shape, np.dtype(s.dtype), name=s.name, program=prog, op=call) for s in out_specs
    ]
    call.outputs = outs
    prog._add(call)
    for _, p in layer.named_parameters():
        prog._params[p.name] = p
        prog._loaded.add(p.name)
        global_scope()._vars[p.name] = p
    return [prog, [v.name for v in feeds], outs]


# -- serialized programs and parameters (bytes) ---------------------------------------------------
_ZIP_MAGIC = b"PK\x03\x04"


def _saved(feed_vars, fetch_vars, executor, kwargs) -> dict:
    """The files ``save_inference_model`` writes for these Variables: {suffix: bytes}."""
    with tempfile.TemporaryDirectory() as d:
        prefix = os.path.join(d, "model")
        save_inference_model(prefix, feed_vars, fetch_vars, executor, **kwargs)
        return {
            ext: open(prefix + ext, "rb").read() for ext in (".json", ".stablehlo", ".pdiparams")
        }


def serialize_program(feed_vars, fetch_vars, **kwargs) -> bytes:
    """The inference program computing ``fetch_vars`` from ``feed_vars`` as bytes: the program
    part of ``save_inference_model``'s files (its manifest and StableHLO, zipped; Paddle
    writes its ProgramDesc protobuf)."""
    files = _saved(feed_vars, fetch_vars, None, kwargs)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for ext in (".json", ".stablehlo"):
            z.writestr("model" + ext, files[ext])
    return buf.getvalue()


def serialize_persistables(feed_vars, fetch_vars, executor, **kwargs) -> bytes:
    """The parameters that program reads, as Paddle's combined ``.pdiparams`` bytes."""
    return _saved(feed_vars, fetch_vars, executor, kwargs)[".pdiparams"]


def deserialize_program(data: bytes) -> Program:
    """A Program from ``serialize_program``'s bytes, or from the bytes of a program file real
    Paddle wrote (a 2.x ``.pdmodel`` or a PIR ``.json``); it runs once
    ``deserialize_persistables`` gave it its parameters."""
    if not isinstance(data, bytes | bytearray):
        raise TypeError(f"deserialize_program takes bytes, but received {type(data).__name__}.")
    prog = Program()
    prog.__dict__["_serialized"] = bytes(data)
    return prog


def deserialize_persistables(program: Program, data: bytes, executor) -> None:
    """Give a ``deserialize_program`` Program its parameters (``.pdiparams`` bytes); the
    Program then holds the loaded model (feed and fetch Variables by their names:
    ``program.global_block().var(name)``)."""
    blob = program.__dict__.get("_serialized") if isinstance(program, Program) else None
    if blob is None:
        raise ValueError(
            "deserialize_persistables takes a Program made by deserialize_program."
        )  # fmt: skip
    if not isinstance(data, bytes | bytearray):
        raise TypeError(
            f"deserialize_persistables takes bytes, but received {type(data).__name__}."
        )
    d = tempfile.mkdtemp(prefix="paddle_compat_program_")  # read lazily: kept with the Program
    prefix = os.path.join(d, "model")
    if blob[:4] == _ZIP_MAGIC:
        with zipfile.ZipFile(io.BytesIO(blob)) as z:
            for ext in (".json", ".stablehlo"):
                _write(prefix + ext, z.read("model" + ext))
    elif blob.lstrip()[:1] == b"{":
        _write(prefix + ".json", blob)
    else:
        _write(prefix + ".pdmodel", blob)
    _write(prefix + ".pdiparams", bytes(data))
    loaded, feeds, fetches = load_inference_model(prefix, executor)
    keep = {"_serialized": blob, "_uid": program._uid}
    program.__dict__.update(loaded.__dict__)
    program.__dict__.update(keep)
    program._feed_names, program._fetch_targets = feeds, fetches
    weakref.finalize(program, shutil.rmtree, d, True)


def _write(path: str, content: bytes) -> None:
    with open(path, "wb") as f:
        f.write(content)


def save_to_file(path: str, content: bytes) -> None:
    """Write ``content`` (bytes, e.g. ``serialize_program``'s) to ``path``."""
    if not isinstance(content, bytes):
        raise ValueError("'content' type should be bytes.")
    _write(path, content)


def load_from_file(path: str) -> bytes:
    """The bytes of the file at ``path``."""
    if not os.path.isfile(path):
        raise ValueError(f"{path} is not a file.")
    with open(path, "rb") as f:
        return f.read()
