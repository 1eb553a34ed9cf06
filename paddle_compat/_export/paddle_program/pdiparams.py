"""Paddle's ``.pdiparams``: the program's persistable parameters, sorted by name, each one
DenseTensor record (``paddle_compat._io._tensor_binary``) back to back, without names.

Every record is checked against the program's declaration (dtype and shape; -1 dims take any
size) and the file must end after the last one. Record lengths are checked against the file's
size before anything is allocated.
"""

from __future__ import annotations

import os

import numpy as np

from ..._io._tensor_binary import read_dense_tensor
from .program import ProgramError, Var


def read(path: str, params: list[Var]) -> list[np.ndarray]:
    """The arrays of ``params`` (in order) from the ``.pdiparams`` file at ``path``."""
    size = os.path.getsize(path)
    out = []
    with open(path, "rb") as f:
        for i, p in enumerate(params):
            if f.tell() >= size:
                raise ProgramError(
                    f"{path} ends after {i} of the program's {len(params)} parameters "
                    f"(no data for {p.name!r}): the file is truncated or belongs to another "
                    "model."
                )
            try:
                arr, _ = read_dense_tensor(f)
            except ValueError as e:
                raise ProgramError(f"{path}: parameter {p.name!r}: {e}") from None
            want = np.dtype(p.dtype)
            if (
                arr.dtype != want
                or len(arr.shape) != len(p.shape)
                or any(d != -1 and d != a for d, a in zip(p.shape, arr.shape))
            ):
                raise ProgramError(
                    f"{path}: parameter {p.name!r} holds {arr.dtype}{list(arr.shape)}, but the "
                    f"program declares {want}{list(p.shape)}: the params file does not belong "
                    "to this program."
                )
            out.append(arr)
        extra = size - f.tell()
    if extra:
        raise ProgramError(
            f"{path} has {extra} bytes after the program's {len(params)} parameters: the "
            "params file does not belong to this program."
        )
    return out
