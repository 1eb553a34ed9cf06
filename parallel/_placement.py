"""Placements (``Shard``, ``Replicate``, ``Partial``) and their mapping to JAX shardings.

Paddle describes a distributed tensor with one placement per *mesh* dimension; JAX's
``PartitionSpec`` has one entry per *tensor* dimension naming the mesh axes that split it.
``Shard(d)`` on mesh dim ``i`` puts axis ``dim_names[i]`` into entry ``d``; a tensor dim split
over several mesh dims gets a tuple of axis names (mesh-dim order unless ``shard_order`` says
otherwise). ``Partial`` is kept as metadata over replicated storage: the array holds the
*reduced* (logical) value, which is what every op and every ``reshard`` to ``Replicate`` sees.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from jax.sharding import PartitionSpec


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


_REDUCE_NAMES = {ReduceType.kRedSum: "SUM", ReduceType.kRedMax: "MAX",
                 ReduceType.kRedMin: "MIN", ReduceType.kRedProd: "PROD",
                 ReduceType.kRedAvg: "AVG", ReduceType.kRedAny: "ANY",
                 ReduceType.kRedAll: "ALL"}


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
        return (isinstance(other, Shard) and other._dim == self._dim
                and other.get_co_shard_order() == self.get_co_shard_order()
                and other._split_factor == self._split_factor)

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
                p = Shard(d + tensor_ndim, shard_order=p._shard_order,
                          split_factor=p._split_factor)
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


def to_partition_spec(placements: Sequence[Placement], dim_names: Sequence[str],
                      ndim: int) -> PartitionSpec:
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
