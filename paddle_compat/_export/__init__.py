"""The saved-model format (``<prefix>.json`` manifest + ``.stablehlo`` program + ``.pdiparams``
parameters): ``paddle.jit.save`` writes it, ``paddle.jit.load`` and ``serving`` read it.

Writing: ``write(prefix, inputs=[IOSpec], outputs=[IOSpec], params=[ParamSpec], arrays,
program)``. Reading: ``load(model | prog_file, params_file) -> Artifact`` (manifest, specs,
``arrays()``, ``exported``, ``callable()``), ``ArtifactError`` when it cannot be found or read.
Inputs: ``check_input``/``shape_matches``/``dtype_kind`` check a value against an ``IOSpec``;
``shape_error_text`` names the input in jax.export's shape errors.
"""

from .artifact import (
    FORMAT,
    FORMAT_VERSION,
    Artifact,
    ArtifactError,
    IOSpec,
    ParamSpec,
    load,
    np_dtype,
    resolve,
    write,
)
from .checks import check_input, dtype_kind, shape_error_text, shape_matches

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Artifact",
    "ArtifactError",
    "IOSpec",
    "ParamSpec",
    "check_input",
    "dtype_kind",
    "load",
    "np_dtype",
    "resolve",
    "shape_error_text",
    "shape_matches",
    "write",
]
