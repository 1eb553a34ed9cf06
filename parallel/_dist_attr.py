"""``paddle.distributed.DistAttr``: the legacy (Paddle 2.x auto-parallel) description of how a
tensor is laid out on a ProcessMesh, as one mesh-dim name or None per tensor dim.

``DistAttr(mesh, ["x", None])`` keeps Paddle's ``dims_mapping`` view (the mesh-dim index per
tensor dim, -1 when not split) and prints as Paddle's C++ ``TensorDistAttr``. ``placements``
gives the equivalent Paddle 3 placements (one per mesh dim) for ``shard_tensor``/``reshard``.
"""

from __future__ import annotations

import copy

from paddle_compat._core.seams import Partial, Placement, ProcessMesh, Replicate, Shard


def _brace(mesh: ProcessMesh | None) -> str:
    """A mesh as Paddle's C++ prints it: ``{shape: [2,3], process_ids: [...], dim_names: [x,y]}``."""
    shape, ids, names = (mesh.shape, mesh.process_ids, mesh.dim_names) if mesh else ([], [], [])
    return (
        f"{{shape: [{','.join(map(str, shape))}], process_ids: [{','.join(map(str, ids))}], "
        f"dim_names: [{','.join(names)}]}}"
    )


class DistAttr:
    """How a tensor is distributed on ``mesh``: ``sharding_specs`` names, per tensor dim, the
    mesh dim that splits it (None: not split)."""

    __hash__ = None  # mutable, compared by value (as Paddle's)

    def __init__(self, mesh: ProcessMesh, sharding_specs: list[str | None]):
        if not isinstance(mesh, ProcessMesh):
            raise ValueError("The mesh must be an instance of paddle.distributed.ProcessMesh.")
        if not isinstance(sharding_specs, list):
            raise ValueError("The sharding_specs must be an instance of list.")
        if not all(s is None or isinstance(s, str) for s in sharding_specs):
            raise AssertionError("The dimension name in sharding_specs must be an instance of str.")
        names = mesh.dim_names
        for s in sharding_specs:
            if s is not None and s not in names:
                raise ValueError(
                    f"Invalid sharding dimension '{s}'. Available dimensions in mesh are: {names}."
                )
        self._sharding_specs = sharding_specs
        self._process_mesh: ProcessMesh | None = mesh
        self._multi_dims: list[list[int]] = [
            [] if s is None else [names.index(s)] for s in sharding_specs
        ]
        self._dynamic_dims = [False] * len(sharding_specs)
        self._partial: dict[int, str] = {}
        self.batch_dim = 0
        self.chunk_id = 0
        self._annotated: dict[str, bool] = {}
        self.mark_annotated("process_mesh")
        self.mark_annotated("dims_mapping")

    # -- the layout --------------------------------------------------------------------------
    @property
    def sharding_specs(self) -> list[str | None]:
        """The ``sharding_specs`` given to the constructor."""
        return self._sharding_specs

    @property
    def process_mesh(self) -> ProcessMesh | None:
        return self._process_mesh

    @process_mesh.setter
    def process_mesh(self, mesh: ProcessMesh | None) -> None:
        if mesh is not None and not isinstance(mesh, ProcessMesh):
            raise TypeError(f"process_mesh must be a ProcessMesh, got {type(mesh).__name__}")
        self._process_mesh = mesh

    @property
    def dims_mapping(self) -> list[int]:
        """Per tensor dim, the mesh dim that splits it (-1: not split; the last one when
        several mesh dims split it)."""
        return [m[-1] if m else -1 for m in self._multi_dims]

    @dims_mapping.setter
    def dims_mapping(self, mapping: list[int]) -> None:
        self.multi_dims_mapping = [[] if int(d) == -1 else [int(d)] for d in mapping]

    @property
    def multi_dims_mapping(self) -> list[list[int]]:
        """Per tensor dim, the list of mesh dims that split it."""
        return [list(m) for m in self._multi_dims]

    @multi_dims_mapping.setter
    def multi_dims_mapping(self, mapping: list[list[int]]) -> None:
        mapping = [[int(d) for d in m] for m in mapping]
        if len(mapping) != len(self._dynamic_dims):
            self._dynamic_dims = [False] * len(mapping)
        self._multi_dims = mapping

    @property
    def dynamic_dims(self) -> list[bool]:
        return list(self._dynamic_dims)

    @dynamic_dims.setter
    def dynamic_dims(self, dims: list[bool]) -> None:
        self._dynamic_dims = [bool(d) for d in dims]

    @property
    def placements(self) -> list[Placement]:
        """The Paddle 3 placements (one per mesh dim) of this layout."""
        if self._process_mesh is None:
            return []
        out: list[Placement] = [Replicate() for _ in range(self._process_mesh.ndim)]
        for tensor_dim, mesh_dims in enumerate(self._multi_dims):
            for k, d in enumerate(mesh_dims):
                out[d] = (
                    Shard(tensor_dim, shard_order=k) if len(mesh_dims) > 1 else Shard(tensor_dim)
                )
        for d in self._partial:
            out[d] = Partial()
        return out

    # -- annotations and partial status ------------------------------------------------------
    @property
    def annotated(self) -> dict[str, bool]:
        return dict(self._annotated)

    def is_annotated(self, name: str) -> bool:
        return self._annotated.get(name, False)

    def mark_annotated(self, name: str) -> None:
        if name in ("process_mesh", "dims_mapping"):
            self._annotated[name] = True

    def clear_annotated(self) -> None:
        self._annotated.clear()

    def reset(self) -> None:
        """Forget the mesh, the mapping (every dim unsplit), the annotations and partial dims."""
        self._process_mesh = None
        self._multi_dims = [[] for _ in self._multi_dims]
        self._annotated.clear()
        self._partial.clear()

    def _is_partial(self) -> bool:
        return bool(self._partial)

    def _partial_dims(self) -> set[int]:
        return set(self._partial)

    def _set_partial_dims(self, dims: list[int]) -> None:
        sharding = {d for m in self._multi_dims for d in m}
        for d in dims:
            if d in sharding:
                raise ValueError(
                    f"(InvalidArgument) Trying to Set dim {d} as Partial which is a Sharding dim."
                )
            self._partial[int(d)] = "SUM"

    def _clean_partial_dims(self, dims: list[int]) -> None:
        for d in dims:
            self._partial.pop(int(d), None)

    def _clean_partial_status(self) -> None:
        self._partial.clear()

    # -- value semantics ---------------------------------------------------------------------
    def _key(self) -> tuple:
        mesh = self._process_mesh
        return (
            None if mesh is None else (tuple(mesh.shape), tuple(mesh.process_ids)),
            tuple(tuple(m) for m in self._multi_dims),
            self.batch_dim,
            self.chunk_id,
            tuple(self._dynamic_dims),
            tuple(sorted(self._partial.items())),
        )

    def __eq__(self, other) -> bool:
        return isinstance(other, DistAttr) and self._key() == other._key()

    def __deepcopy__(self, memo):
        new = copy.copy(self)
        new._multi_dims = [list(m) for m in self._multi_dims]
        new._dynamic_dims = list(self._dynamic_dims)
        new._partial = dict(self._partial)
        new._annotated = dict(self._annotated)
        memo[id(self)] = new
        return new

    def __str__(self) -> str:
        dims = " ".join(f"[{','.join(map(str, m))}]" for m in self._multi_dims)
        dyn = ",".join(str(int(d)) for d in self._dynamic_dims)
        ann = ",".join(f"{k}: {int(v)}" for k, v in sorted(self._annotated.items()))
        partial = "".join(f"Partial(dims:{d}, {r}), " for d, r in sorted(self._partial.items()))
        return (
            f"{{process_mesh: {_brace(self._process_mesh)}, dim_mappings: "
            f"[{dims + ' ' if dims else ''}], batch_dim: {self.batch_dim}, chunk_id: "
            f"{self.chunk_id}, skip_check_mesh: 0, dynamic_dims: [{dyn}], annotated: [{ann}], "
            f"partial: [{partial}], split_factor: .}}"
        )
