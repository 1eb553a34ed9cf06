"""A Tensor's distribution: placements (``Shard``, ``Replicate``, ``Partial``), their mapping
to JAX shardings, and ``Tensor.placements``/``process_mesh``/``is_dist()``/``_local_value()``.

Paddle describes a distributed tensor with one placement per *mesh* dimension; JAX's
``PartitionSpec`` has one entry per *tensor* dimension naming the mesh axes that split it.
``Shard(d)`` on mesh dim ``i`` puts axis ``dim_names[i]`` into entry ``d``; a tensor dim split
over several mesh dims gets a tuple of axis names (mesh-dim order unless ``shard_order`` says
otherwise).

A distributed tensor is a plain ``Tensor`` whose array is a sharded ``jax.Array``
(``NamedSharding`` over the ProcessMesh's JAX mesh): its placements and mesh are read from
that sharding. What a sharding cannot express is kept as metadata next to the array
(``set_dist_attr``), valid until the tensor is next rebound (``set_value`` keeps it):
``Partial`` (kept over replicated storage: the array holds the *reduced*, logical value, which
is what every op and every ``reshard`` to ``Replicate`` sees) and shards that do not divide
the dimension evenly (JAX arrays need even shards, so such a dim is stored replicated; inside
to_static the constraint still asks XLA for the uneven split, which it pads).

These are value types of the core; ``paddle.distributed`` (the ``parallel`` package)
re-exports them and builds ``shard_tensor``/``reshard`` on ``place_array``.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from . import trace_state
from .process_mesh import ProcessMesh, current_rank, from_jax_mesh, tensor_view


class ReduceType(enum.IntEnum):
    """How a ``Partial`` placement's pieces combine."""

    kRedSum = 0
    kRedMax = 1
    kRedMin = 2
    kRedProd = 3
    kRedAvg = 4
    kRedAny = 5
    kRedAll = 6

    __str__ = enum.Enum.__str__


_REDUCE_NAMES = {
    ReduceType.kRedSum: "SUM",
    ReduceType.kRedMax: "MAX",
    ReduceType.kRedMin: "MIN",
    ReduceType.kRedProd: "PROD",
    ReduceType.kRedAvg: "AVG",
    ReduceType.kRedAny: "ANY",
    ReduceType.kRedAll: "ALL",
}


class Placement:
    """Base class: how a tensor is laid out along one dimension of a ProcessMesh."""

    def is_shard(self, dim: int | None = None) -> bool:
        return False

    def is_replicated(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return False

    def __str__(self) -> str:
        return repr(self)


class Shard(Placement):
    """Split tensor dimension ``dim`` evenly across this mesh dimension."""

    def __init__(self, dim: int, *, shard_order: int | None = None, split_factor: int = 1):
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise TypeError(
                "__init__(): incompatible constructor arguments. Shard(dim: int, *, "
                f"split_factor: int = 1) or Shard(dim: int, *, shard_order: int = 0); got "
                f"{type(dim).__name__}"
            )
        self._dim = int(dim)
        self._shard_order = shard_order
        self._split_factor = int(split_factor)

    def get_dim(self) -> int:
        return self._dim

    def get_co_shard_order(self) -> int:
        return 0 if self._shard_order is None else self._shard_order

    def get_split_factor(self) -> int:
        return self._split_factor

    def set_split_factor(self, split_factor: int) -> None:
        self._split_factor = int(split_factor)

    def is_shard(self, dim: int | None = None) -> bool:
        return dim is None or dim == self._dim

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Shard)
            and other._dim == self._dim
            and other.get_co_shard_order() == self.get_co_shard_order()
            and other._split_factor == self._split_factor
        )

    def __hash__(self) -> int:
        return hash(("Shard", self._dim, self.get_co_shard_order(), self._split_factor))

    def __repr__(self) -> str:
        extra = ""
        if self._shard_order is not None:
            extra += f", shard_order={self._shard_order}"
        if self._split_factor != 1:
            extra += f", split_factor={self._split_factor}"
        return f"Shard(dim={self._dim}{extra})"


class Replicate(Placement):
    """Every process along this mesh dimension holds the whole tensor."""

    def is_replicated(self) -> bool:
        return True

    def __eq__(self, other) -> bool:
        return isinstance(other, Replicate)

    def __hash__(self) -> int:
        return hash("Replicate")

    def __repr__(self) -> str:
        return "Replicate()"


class Partial(Placement):
    """The tensor is the reduction (sum by default) of the pieces held along this mesh dim."""

    def __init__(self, reduce_type: ReduceType = ReduceType.kRedSum):
        if not isinstance(reduce_type, ReduceType):
            raise TypeError(
                "__init__(): incompatible constructor arguments. Partial(reduce_type: "
                f"paddle.distributed.ReduceType = ReduceType.kRedSum); got "
                f"{type(reduce_type).__name__}"
            )
        self._reduce_type = reduce_type

    def reduce_type(self) -> ReduceType:
        return self._reduce_type

    def is_partial(self) -> bool:
        return True

    def __eq__(self, other) -> bool:
        return isinstance(other, Partial) and other._reduce_type == self._reduce_type

    def __hash__(self) -> int:
        return hash(("Partial", int(self._reduce_type)))

    def __repr__(self) -> str:
        return f"Partial(reduce_type={_REDUCE_NAMES[self._reduce_type]})"


# -- conversion ----------------------------------------------------------------------------------
def normalize_placements(placements, mesh_ndim: int, tensor_ndim: int) -> list[Placement]:
    """Check a placement list and bring it to one entry per mesh dim (Paddle pads with
    ``Replicate()`` and ignores extra entries); negative shard dims count from the end."""
    if not isinstance(placements, list | tuple):
        raise TypeError(
            "(InvalidType) argument 'placements' must be list of Placement, but got "
            f"{type(placements).__name__}"
        )
    out: list[Placement] = []
    for i, p in enumerate(placements):
        if not isinstance(p, Placement):
            raise TypeError(
                "(InvalidType) argument (position 1) must be list of Placement, but got "
                f"{type(p).__name__} at pos {i}"
            )
        if isinstance(p, Shard):
            d = p.get_dim()
            if not -tensor_ndim <= d < tensor_ndim:
                raise ValueError(
                    f"(InvalidArgument) Shard(dim={d}) is out of range for a tensor with "
                    f"{tensor_ndim} dimension(s) (placement {i} of {list(placements)})."
                )
            if d < 0:
                p = Shard(d + tensor_ndim, shard_order=p._shard_order, split_factor=p._split_factor)
        out.append(p)
    out = out[:mesh_ndim]
    out += [Replicate() for _ in range(mesh_ndim - len(out))]
    # a tensor dim split over several mesh dims: Paddle reports each Shard's shard_order
    count: dict[int, int] = {}
    for p in out:
        if isinstance(p, Shard):
            count[p.get_dim()] = count.get(p.get_dim(), 0) + 1
    seen: dict[int, int] = {}
    for i, p in enumerate(out):
        if isinstance(p, Shard) and count[p.get_dim()] > 1 and p._shard_order is None:
            k = seen[p.get_dim()] = seen.get(p.get_dim(), -1) + 1
            out[i] = Shard(p.get_dim(), shard_order=k, split_factor=p._split_factor)
    return out


def to_partition_spec(
    placements: Sequence[Placement], dim_names: Sequence[str], ndim: int
) -> PartitionSpec:
    """Paddle placements (one per mesh dim) -> JAX PartitionSpec (one entry per tensor dim)."""
    per_dim: list[list[tuple[int, str]]] = [[] for _ in range(ndim)]
    for i, p in enumerate(placements):
        if isinstance(p, Shard):
            order = p._shard_order if p._shard_order is not None else i
            per_dim[p.get_dim()].append((order, dim_names[i]))
    entries = []
    for axes in per_dim:
        names = [n for _, n in sorted(axes)]
        entries.append(None if not names else names[0] if len(names) == 1 else tuple(names))
    while entries and entries[-1] is None:
        entries.pop()
    return PartitionSpec(*entries)


def from_partition_spec(spec, dim_names: Sequence[str], ndim: int) -> list[Placement]:
    """JAX PartitionSpec -> Paddle placements (one per mesh dim)."""
    out: list[Placement] = [Replicate() for _ in dim_names]
    index = {n: i for i, n in enumerate(dim_names)}
    for d, entry in enumerate(tuple(spec)[:ndim]):
        if entry is None:
            continue
        names = entry if isinstance(entry, tuple) else (entry,)
        for k, name in enumerate(names):
            i = index.get(name)
            if i is not None:
                out[i] = Shard(d, shard_order=k) if len(names) > 1 else Shard(d)
    for name in getattr(spec, "unreduced", ()) or ():
        if name in index:
            out[index[name]] = Partial()
    return out


def parse_shard_spec(shard_spec, dim_names: Sequence[str], ndim: int) -> list[Placement]:
    """The legacy ``shard_spec`` form (one mesh-dim name or None per *tensor* dim, Paddle 2.x)
    -> placements."""
    if len(shard_spec) != ndim:
        raise ValueError(
            f"The length of shard_spec {list(shard_spec)} must be the same as the number of "
            f"dimensions of the tensor ({ndim})."
        )
    out: list[Placement] = [Replicate() for _ in dim_names]
    for d, name in enumerate(shard_spec):
        if name is None:
            continue
        if name not in dim_names:
            raise ValueError(
                f"shard_spec entry {name!r} is not a dim name of the process mesh "
                f"{list(dim_names)}."
            )
        i = list(dim_names).index(name)
        if not isinstance(out[i], Replicate):
            raise ValueError(f"mesh dim {name!r} is used twice in shard_spec {list(shard_spec)}")
        out[i] = Shard(d)
    return out


# -- arrays laid out as placements ---------------------------------------------------------------
def _even_spec(spec: PartitionSpec, shape, jmesh) -> PartitionSpec:
    """``spec`` without the axes of dims they do not divide evenly (stored replicated)."""
    entries = []
    for d, entry in enumerate(tuple(spec)):
        if entry is None:
            entries.append(None)
            continue
        names = entry if isinstance(entry, tuple) else (entry,)
        k = math.prod(jmesh.shape[n] for n in names)
        entries.append(entry if shape[d] % k == 0 else None)
    return PartitionSpec(*entries)


def storage_sharding(mesh: ProcessMesh, placements: Sequence[Placement], shape) -> NamedSharding:
    """The ``NamedSharding`` a concrete array of ``shape`` laid out as ``placements`` is stored
    with (a dim that does not split evenly is stored replicated)."""
    jmesh = mesh.jax_mesh
    spec = to_partition_spec(placements, mesh.dim_names, len(shape))
    return NamedSharding(jmesh, _even_spec(spec, shape, jmesh))


def place_array(a, mesh: ProcessMesh, placements: Sequence[Placement]):
    """Array ``a`` laid out as ``placements`` on ``mesh``: ``jax.device_put`` eagerly (with
    ``storage_sharding``), ``with_sharding_constraint`` under trace."""
    if trace_state.is_tracer(a):
        spec = to_partition_spec(placements, mesh.dim_names, a.ndim)
        return jax.lax.with_sharding_constraint(a, NamedSharding(mesh.jax_mesh, spec))
    return jax.device_put(a, storage_sharding(mesh, placements, a.shape))


def named_sharding(a) -> NamedSharding | None:
    """The ``NamedSharding`` of a concrete array (None for a tracer or any other sharding)."""
    if trace_state.is_tracer(a):
        return None
    s = getattr(a, "sharding", None)
    return s if isinstance(s, NamedSharding) else None


# -- a Tensor's placements -----------------------------------------------------------------------
_ATTR = "_dist_attr"  # Tensor.__dict__ key: (ProcessMesh, placements tuple, _version)


def set_dist_attr(t, mesh: ProcessMesh, placements: Sequence[Placement]) -> None:
    """Record that ``t``, as it holds its array now, is laid out as ``placements`` on ``mesh``
    (for what the sharding cannot say: ``Partial``, uneven shards, a traced value)."""
    t.__dict__[_ATTR] = (mesh, tuple(placements), t._version)


def dist_attr(t, stale_ok: bool = False) -> tuple[ProcessMesh, tuple[Placement, ...]] | None:
    """``(mesh, placements)`` recorded by ``set_dist_attr``; None when there is none, or when
    ``t`` was rebound since (unless ``stale_ok``, or ``t`` holds a tracer)."""
    a = t.__dict__.get(_ATTR)
    if a is None:
        return None
    if a[2] == t._version or stale_ok or trace_state.is_tracer(t._value):
        return a[0], a[1]
    return None


def placements_of(t) -> list[Placement] | None:
    """``Tensor.placements``: the placements of a distributed tensor (None for a dense one)."""
    a = dist_attr(t)
    if a is not None:
        return list(a[1])
    s = named_sharding(t._value)
    if s is None:
        return None
    return from_partition_spec(s.spec, process_mesh_of(t).dim_names, t._value.ndim)


def process_mesh_of(t) -> ProcessMesh | None:
    """``Tensor.process_mesh``: the ProcessMesh of a distributed tensor (None for a dense
    one), printed as Paddle prints a tensor's mesh."""
    a = dist_attr(t, stale_ok=True)
    s = named_sharding(t._value)
    if a is not None and (s is None or a[0].jax_mesh == s.mesh):
        return tensor_view(a[0])
    return None if s is None else tensor_view(from_jax_mesh(s.mesh))


def is_dist(t) -> bool:
    """``Tensor.is_dist()``: True for a distributed tensor."""
    return dist_attr(t) is not None or named_sharding(t._value) is not None


def local_array(t):
    """This process's piece of distributed tensor ``t`` (``Tensor._local_value()``): the
    device's shard, or Paddle's split of the global value (``Partial`` sums: zeros off the
    first coordinate); None on a process outside the mesh."""
    mesh, pls = process_mesh_of(t), placements_of(t)
    v = t._value
    rank = current_rank()
    if not mesh.contains(rank):
        return None
    coord = mesh.coordinate_of(rank)
    devices = jax.devices()
    if len(devices) == 1 and mesh.size > 1:  # a label-only mesh on one device: rank 0's piece
        device, stored_as_placed = devices[0], False
    else:
        device = devices[rank]
        spec = to_partition_spec(pls, mesh.dim_names, v.ndim)
        stored_as_placed = not any(isinstance(p, Partial) for p in pls) and (
            _even_spec(spec, v.shape, mesh.jax_mesh) == spec
        )
    if stored_as_placed:  # the device's shard is the local value
        for shard in v.addressable_shards:
            if shard.device == device:
                return shard.data
    host = np.asarray(v)[_local_slices(v.shape, mesh, pls, coord)]
    for i, p in enumerate(pls):
        if isinstance(p, Partial) and p.reduce_type() == ReduceType.kRedSum and coord[i] != 0:
            host = np.zeros_like(host)
    return jax.device_put(host, device)


def _local_slices(shape, mesh: ProcessMesh, pls, coord) -> tuple:
    """Paddle's split of each dim: ceil-sized chunks, the last ones short or empty."""
    axes: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(pls):
        if isinstance(p, Shard):
            axes.setdefault(p.get_dim(), []).append(
                (p.get_co_shard_order() if p._shard_order is not None else i, i)
            )
    out = []
    for d, n in enumerate(shape):
        start, size = 0, n
        for _, i in sorted(axes.get(d, [])):
            k = mesh.shape[i]
            chunk = -(-size // k)
            c = coord[i]
            start += c * chunk
            size = max(0, min(chunk, size - c * chunk))
        out.append(slice(start, start + size))
    return tuple(out)
