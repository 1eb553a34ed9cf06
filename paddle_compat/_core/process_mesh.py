"""``ProcessMesh``: Paddle's n-d array of process ids, backed by a ``jax.sharding.Mesh``.

A value type of the core (a distributed Tensor reports its ``process_mesh``, derived from its
array's ``NamedSharding``); ``paddle.distributed`` (the ``parallel`` package) re-exports it.

Process id ``p`` is the ``p``-th device of ``jax.devices()`` (in a single process with 8 CPU
devices, ids 0..7 are those devices; under ``jax.distributed`` with one device per process, id
``p`` is process ``p``'s device). The JAX mesh is built lazily, so mesh objects can be created
and inspected on any machine; using one to place data needs enough devices.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import jax
import numpy as np
from jax.sharding import Mesh

_UNIQUE_IDS: dict[tuple, int] = {}
_BY_JAX_MESH: dict[Mesh, ProcessMesh] = {}


class ProcessMesh:
    """An n-d array of process ids with a name per dimension (``dp``, ``mp``, ...)."""

    def __init__(
        self,
        mesh: Any = None,
        dim_names: list[str] | None = None,
        shape: Sequence[int] | None = None,
        process_ids: Sequence[int] | None = None,
    ):
        if mesh is None:
            if shape is None or process_ids is None:
                raise ValueError("ProcessMesh needs `mesh`, or both `shape` and `process_ids`.")
            mesh = np.asarray(list(process_ids)).reshape(list(shape))
        if isinstance(mesh, ProcessMesh):
            mesh = mesh.mesh
        try:
            arr = np.array(mesh)
        except ValueError as e:
            raise ValueError(
                f"ProcessMesh: the mesh must be a regular (non-ragged) nested "
                f"list of process ids: {e}"
            ) from None
        if arr.size == 0:
            raise ValueError("ProcessMesh: the mesh must contain at least one process id.")
        if not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"ProcessMesh: process ids must be integers, got {arr.dtype}.")
        arr = arr.astype(np.int64)
        if dim_names is None:
            dim_names = [f"d{i}" for i in range(arr.ndim)]
        dim_names = list(dim_names)
        if len(dim_names) != arr.ndim:
            raise AssertionError("The length of dims_names must be same as the shape of the mesh.")
        if len(set(arr.ravel().tolist())) != arr.size:
            raise AssertionError("All elements of the mesh must be unique.")
        if len(set(dim_names)) != len(dim_names):
            raise AssertionError(f"All dim_names {dim_names} must be unique.")
        self._mesh = arr
        self._shape = list(arr.shape)
        self._process_ids = [int(p) for p in arr.ravel()]
        self._dim_names = dim_names
        key = (tuple(self._shape), tuple(self._process_ids))
        self._unique_id = _UNIQUE_IDS.setdefault(key, len(_UNIQUE_IDS) + 1)
        self._jax_mesh: Mesh | None = None

    # -- Paddle attributes -----------------------------------------------------------------
    @property
    def mesh(self) -> np.ndarray:
        return self._mesh

    @property
    def shape(self) -> list[int]:
        return list(self._shape)

    @property
    def process_ids(self) -> list[int]:
        return list(self._process_ids)

    @property
    def dim_names(self) -> list[str]:
        return list(self._dim_names)

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        return len(self._process_ids)

    @property
    def unique_id(self) -> int:
        return self._unique_id

    def empty(self) -> bool:
        return self.size == 0

    def contains(self, process_id: int) -> bool:
        return int(process_id) in self._process_ids

    def _dim_index(self, dim: str | int) -> int:
        if isinstance(dim, str):
            if dim not in self._dim_names:
                raise AssertionError(f"{dim} is not a valid dim name.")
            return self._dim_names.index(dim)
        if not -self.ndim <= dim < self.ndim:
            raise IndexError("list index out of range")
        return dim % self.ndim

    def get_dim_size(self, dim: str | int) -> int:
        """Number of processes along ``dim`` (a name or an index)."""
        return self._shape[self._dim_index(dim)]

    dim_size = get_dim_size

    def get_mesh_with_dim(self, dim_name: str, index: int | None = None) -> ProcessMesh:
        """The mesh with ``dim_name`` moved to the front; with ``index``, its ``index``-th
        slice along that dim."""
        i = self._dim_index(dim_name)
        order = [i] + [k for k in range(self.ndim) if k != i]
        arr = np.transpose(self._mesh, order)
        names = [self._dim_names[k] for k in order]
        if index is None:
            return ProcessMesh(arr, names)
        return (
            ProcessMesh(arr[index], names[1:]) if arr.ndim > 1 else ProcessMesh([int(arr[index])])
        )

    def get_submesh_with_dim(self, dim_name: str) -> ProcessMesh:
        """The 1-d mesh along ``dim_name`` that contains the current process."""
        i = self._dim_index(dim_name)
        rank = current_rank()
        coord = self.coordinate_of(rank) if self.contains(rank) else [0] * self.ndim
        index = tuple(slice(None) if k == i else coord[k] for k in range(self.ndim))
        return ProcessMesh(self._mesh[index], [self._dim_names[i]])

    def get_rank_by_dim_and_process_id(self, dim_name: str, process_id: int) -> int:
        """Coordinate of ``process_id`` along ``dim_name`` (-1 if it is not in the mesh)."""
        if not self.contains(process_id):
            return -1
        return self.coordinate_of(process_id)[self._dim_index(dim_name)]

    def coordinate_of(self, process_id: int) -> list[int]:
        """Index of ``process_id`` in the mesh array."""
        return [int(c[0]) for c in np.where(self._mesh == int(process_id))]

    def get_group(self, dim_name: str | None = None):
        """The communication group of the processes along ``dim_name`` (all if None)."""
        from .. import distributed  # lazy: groups belong to ``parallel``

        ids = (
            self._process_ids
            if dim_name is None
            else self.get_submesh_with_dim(dim_name).process_ids
        )
        return distributed.new_group(ids)

    def __getitem__(self, index) -> ProcessMesh:
        if isinstance(index, str):
            return self.get_submesh_with_dim(index)
        idx = index if isinstance(index, tuple) else (index,)
        sub = self._mesh[idx]
        if np.ndim(sub) == 0:
            return ProcessMesh([int(sub)])
        names, k = [], 0
        for item in idx:
            if item is Ellipsis:
                raise IndexError("ProcessMesh indexing does not support Ellipsis")
            if isinstance(item, slice):
                names.append(self._dim_names[k])
            k += 1
        names += self._dim_names[k:]
        return ProcessMesh(sub, names)

    def __eq__(self, other) -> bool:
        if not isinstance(other, ProcessMesh):
            return False
        return self._shape == other._shape and self._process_ids == other._process_ids

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((tuple(self._shape), tuple(self._process_ids)))

    def __str__(self) -> str:
        return f"shape {self._shape}, process_ids {self._process_ids}, dim_names {self._dim_names}"

    def __deepcopy__(self, memo):
        new = copy.copy(self)
        memo[id(self)] = new
        return new

    def __getstate__(self):
        return {"mesh": self._mesh.tolist(), "dim_names": self._dim_names}

    def __setstate__(self, state):
        self.__init__(state["mesh"], state["dim_names"])

    def _brace_str(self) -> str:
        """The ``{shape: [2,4], process_ids: [...], dim_names: [dp,mp]}`` form of prints."""
        return (
            f"{{shape: [{','.join(map(str, self._shape))}], process_ids: "
            f"[{','.join(map(str, self._process_ids))}], dim_names: "
            f"[{','.join(self._dim_names)}]}}"
        )

    # -- JAX ------------------------------------------------------------------------------
    @property
    def jax_mesh(self) -> Mesh:
        """The ``jax.sharding.Mesh`` over the devices of this mesh's process ids."""
        if self._jax_mesh is None:
            devices = jax.devices()
            if max(self._process_ids) >= len(devices) or min(self._process_ids) < 0:
                raise RuntimeError(
                    f"ProcessMesh {self}: process id {max(self._process_ids)} has no device; "
                    f"JAX sees {len(devices)} device(s) ({devices[0].platform}). On CPU, set "
                    f"XLA_FLAGS=--xla_force_host_platform_device_count=N before importing jax."
                )
            arr = np.empty(self._mesh.shape, dtype=object)
            for idx, pid in np.ndenumerate(self._mesh):
                arr[idx] = devices[int(pid)]
            m = Mesh(arr, tuple(self._dim_names))
            self._jax_mesh = m
            _BY_JAX_MESH.setdefault(m, self)
        return self._jax_mesh


class TensorProcessMesh(ProcessMesh):
    """What ``Tensor.process_mesh`` returns: the same mesh, printed the way Paddle prints a
    tensor's (C++) mesh, ``{shape: [2,4], process_ids: [...], dim_names: [dp,mp]}``."""

    def __str__(self) -> str:
        return self._brace_str()


def tensor_view(pm: ProcessMesh) -> TensorProcessMesh:
    """``pm`` as a TensorProcessMesh (shares its JAX mesh; cached)."""
    if isinstance(pm, TensorProcessMesh):
        return pm
    view = pm.__dict__.get("_tensor_view")
    if view is None:
        view = copy.copy(pm)
        view.__class__ = TensorProcessMesh
        view.__dict__.pop("_tensor_view", None)
        pm.__dict__["_tensor_view"] = view
    view._jax_mesh = pm.jax_mesh if pm._jax_mesh is not None else None
    return view


def from_jax_mesh(m: Mesh) -> ProcessMesh:
    """The ProcessMesh for a JAX mesh (the one that built it, if any)."""
    pm = _BY_JAX_MESH.get(m)
    if pm is None:
        position = {d: i for i, d in enumerate(jax.devices())}
        ids = np.vectorize(lambda d: position[d], otypes=[np.int64])(m.devices)
        pm = ProcessMesh(ids, list(m.axis_names))
        pm._jax_mesh = m
        _BY_JAX_MESH[m] = pm
    return pm


def current_rank() -> int:
    """This process's rank (``paddle.distributed.get_rank()``: 0 in a single process)."""
    from .. import distributed  # lazy: the parallel environment belongs to ``parallel``

    return distributed.get_rank()
