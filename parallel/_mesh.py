"""The global mesh of ``paddle.distributed.set_mesh``/``get_mesh``.

``ProcessMesh`` itself is a value type of the core (a distributed Tensor reports its mesh):
``paddle_compat/_core/process_mesh.py``.
"""

from __future__ import annotations

from paddle_compat._core.seams import ProcessMesh

_global_mesh: ProcessMesh | None = None


def set_mesh(mesh: ProcessMesh) -> None:
    """Set the global mesh that ``get_mesh`` returns."""
    global _global_mesh
    _global_mesh = mesh


def get_mesh() -> ProcessMesh | None:
    """The global mesh set by ``set_mesh`` (None if unset)."""
    return _global_mesh
