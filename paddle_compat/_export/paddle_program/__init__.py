"""Inference programs exported by real Paddle (``paddle.jit.save`` / ``save_inference_model``):
the PIR ``<prefix>.json`` of Paddle 3.x and the ``<prefix>.pdmodel`` protobuf of 2.x, each
with its ``<prefix>.pdiparams``, run as a Layer replaying the program's ops with the
registry's ops (``ROWS``: one row per Paddle op name, from ``op_table`` and, for control flow
and tensor arrays, ``control_flow``).

``is_paddle_program(path)``: whether ``path`` (a prefix or a program file) names one;
``find(path)``: its (program, params) paths; ``load_program(prog, params)`` -> (Program,
arrays); ``load_layer(path, params_file=None)`` -> ``PaddleProgramLayer``;
``load_artifact(prog, params)`` -> ``ProgramArtifact`` (the Predictor's view, compiled).
Damaged files raise ``ProgramError`` (a RuntimeError, as Paddle's loaders raise).
"""

from __future__ import annotations

import os

from . import pdiparams, pdmodel_proto, pir_json
from .layer import ROWS, PaddleProgramLayer, ProgramArtifact, check_ops, replay
from .program import Program, ProgramError

__all__ = [
    "ROWS",
    "PaddleProgramLayer",
    "Program",
    "ProgramArtifact",
    "ProgramError",
    "find",
    "is_paddle_program",
    "load_artifact",
    "load_layer",
    "load_program",
    "replay",
]

_MAX_PROGRAM_BYTES = 1 << 31


def _is_pir_file(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return pir_json.is_pir(f.read(4096))
    except OSError:
        return False


def find(path, params_file=None) -> tuple[str, str] | None:
    """(program file, params file) when ``path`` is a Paddle-exported program: a prefix with
    ``<prefix>.json`` (PIR) or ``<prefix>.pdmodel``, or the program file itself; None else."""
    path = os.fspath(path)
    if not path or os.path.isdir(path):
        return None
    root, ext = os.path.splitext(path)
    cands = []
    if ext == ".json":
        cands = [(path, root)]
    elif ext == ".pdmodel":
        cands = [(path, root)]
    elif ext == ".pdiparams":
        cands = [(root + ".json", root), (root + ".pdmodel", root)]
    else:
        cands = [(path + ".json", path), (path + ".pdmodel", path)]
    for prog, prefix in cands:
        if not os.path.isfile(prog):
            continue
        if prog.endswith(".json") and not _is_pir_file(prog):
            continue  # paddle-compat's own manifest
        if prog.endswith(".pdmodel") and os.path.isfile(prefix + ".json"):
            if not _is_pir_file(prefix + ".json"):
                continue  # paddle-compat's own save (its .json manifest is next to it)
        return prog, os.fspath(params_file) if params_file else prefix + ".pdiparams"
    return None


def is_paddle_program(path) -> bool:
    """Whether ``path`` (a prefix or a program file) names a program exported by Paddle."""
    try:
        return find(path) is not None
    except (TypeError, ValueError):
        return False


def load_program(prog: str, params: str) -> tuple[Program, list]:
    """Parse the program, check every op has a row, read and check the parameters."""
    try:
        size = os.path.getsize(prog)
    except OSError as e:
        raise ProgramError(f"(NotFound) cannot open the program file {prog}: {e}") from None
    if size > _MAX_PROGRAM_BYTES:
        raise ProgramError(f"(InvalidArgument) {prog} is {size} bytes: not a program file")
    with open(prog, "rb") as f:
        raw = f.read()
    try:
        if pir_json.is_pir(raw):
            program = pir_json.parse(raw)
        else:
            program = pdmodel_proto.parse(raw)
    except ProgramError as e:
        raise ProgramError(f"(InvalidArgument) {prog}: {e}") from None
    check_ops(program, prog)
    if program.params and not os.path.isfile(params):
        raise ProgramError(
            f"(NotFound) the params file {params} of {prog} does not exist "
            f"({len(program.params)} parameters expected)."
        )
    arrays = pdiparams.read(params, program.params) if program.params else []
    return program, arrays


def load_layer(path, params_file=None) -> PaddleProgramLayer:
    """A ``PaddleProgramLayer`` for the Paddle-exported program at ``path``."""
    hit = find(path, params_file)
    if hit is None:
        raise ProgramError(f"(NotFound) no Paddle program (.json / .pdmodel) at {path}")
    program, arrays = load_program(*hit)
    return PaddleProgramLayer(program, arrays, hit[0])


def load_artifact(prog: str, params: str | None = None) -> ProgramArtifact:
    """The Predictor's view of the program (inputs/outputs specs, arrays, compiled callable)."""
    hit = find(prog, params)
    if hit is None:
        raise ProgramError(f"(NotFound) no Paddle program (.json / .pdmodel) at {prog}")
    program, arrays = load_program(*hit)
    return ProgramArtifact(program, arrays, hit[0])
