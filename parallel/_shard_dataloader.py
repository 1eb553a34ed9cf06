"""``shard_dataloader``: a DataLoader whose batches come out as distributed tensors split along
the data-parallel mesh dim.

Paddle gives every dp rank its own ``DistributedBatchSampler`` share of each batch (the batch
size divided by the dp degree) and assembles the global tensor from the local pieces. One JAX
process drives all ranks here, so the loader reads, for each step, the shares of all dp ranks
in rank order and lays the concatenation out with ``Shard(0)`` on the dp mesh dim: the global
batch has the same samples, in the same order, as in a Paddle multi-process run. Under
``jax.distributed`` each process reads the shares of its own ranks and the global array is
assembled from the process-local pieces.

Difference from Paddle 3.3.1: the split goes on the mesh dim that ``shard_dims`` names (Paddle
always puts ``Shard(0)`` on the first mesh dim); Paddle 3.3.1 itself fails on numpy 2 here
(``get_rank_by_dim_and_process_id``).
"""

from __future__ import annotations

from collections.abc import Sequence

import jax
import numpy as np
from jax.sharding import NamedSharding

from paddle_compat._core.seams import (
    ProcessMesh,
    Replicate,
    Shard,
    Tensor,
    array_of,
    normalize_placements,
    set_dist_attr,
    to_partition_spec,
)
from paddle_compat.io import DataLoader, DistributedBatchSampler

from ._api import shard_tensor

__all__ = ["ShardDataloader", "shard_dataloader"]


class _RanksBatchSampler:
    """Batches of several dp ranks' ``DistributedBatchSampler`` shares, concatenated in rank
    order."""

    def __init__(
        self,
        dataset,
        batch_size: int,
        ranks: Sequence[int],
        nranks: int,
        shuffle: bool,
        drop_last: bool,
    ) -> None:
        self._samplers = [
            DistributedBatchSampler(
                dataset,
                batch_size,
                num_replicas=nranks,
                rank=r,
                shuffle=shuffle,
                drop_last=drop_last,
            )
            for r in ranks
        ]
        self.batch_size = batch_size * len(self._samplers)
        self.shuffle, self.drop_last = shuffle, drop_last
        self._acc_steps = 1

    def __iter__(self):
        for parts in zip(*self._samplers):
            yield [i for part in parts for i in part]

    def __len__(self) -> int:
        return len(self._samplers[0])

    def set_epoch(self, epoch: int) -> None:
        for s in self._samplers:
            s.set_epoch(epoch)


def _mesh_dim(mesh: ProcessMesh, dim) -> int:
    if isinstance(dim, str):
        if dim not in mesh.dim_names:
            raise ValueError(f"shard_dims {dim!r} is not a dim name of the mesh {mesh.dim_names}.")
        return mesh.dim_names.index(dim)
    return int(dim) % mesh.ndim


class ShardDataloader:
    """Iterates a DataLoader and returns each batch as distributed tensors (see
    ``shard_dataloader``)."""

    def __init__(
        self,
        dataloader: DataLoader,
        meshes,
        input_keys=None,
        shard_dims=None,
        is_dataset_splitted: bool = False,
        dense_tensor_idx=None,
    ) -> None:
        if is_dataset_splitted is True and shard_dims is None:
            raise ValueError("shard_dims must be set when is_dataset_splitted is True")
        self._meshes = list(meshes) if isinstance(meshes, list | tuple) else [meshes]
        if not self._meshes:
            raise ValueError("meshes must be set")
        for m in self._meshes:
            for mm in m if isinstance(m, list | tuple) else [m]:
                if not isinstance(mm, ProcessMesh):
                    raise TypeError(f"meshes must be ProcessMesh objects, got {type(mm).__name__}")
        self._one_mesh = len(self._meshes) == 1
        self._input_keys = input_keys
        if isinstance(shard_dims, int | str) or shard_dims is None:
            self._shard_dims = [shard_dims] * len(self._meshes)
        else:
            if len(shard_dims) != len(self._meshes):
                raise ValueError(
                    f"shard_dims must be the same length as meshes, but got "
                    f"{len(shard_dims)} != {len(self._meshes)}"
                )
            self._shard_dims = list(shard_dims)
        self.dense_tensor_idx = dense_tensor_idx
        self._process_local = jax.process_count() > 1
        self._dataloader = dataloader
        self.batch_size = getattr(dataloader.batch_sampler, "batch_size", None)
        self.batch_sampler = dataloader.batch_sampler
        mesh0 = self._meshes[0][0] if isinstance(self._meshes[0], list | tuple) else self._meshes[0]
        dim0 = self._shard_dims[0]
        dim0 = dim0[0] if isinstance(dim0, list | tuple) else dim0
        split = not (
            is_dataset_splitted
            or shard_dims is None
            or dim0 is None
            or isinstance(dataloader.batch_sampler, DistributedBatchSampler)
            or getattr(dataloader, "_iterable", False)
            or dataloader.batch_sampler is None
        )
        if split:
            degree = mesh0.get_dim_size(_mesh_dim(mesh0, dim0))
            sampler = dataloader.batch_sampler
            ranks = list(range(degree))
            if self._process_local:  # this process reads the shares of its own ranks
                n, me = jax.process_count(), jax.process_index()
                ranks = ranks[me * degree // n : (me + 1) * degree // n]
            self.batch_sampler = _RanksBatchSampler(
                dataloader.dataset,
                max(sampler.batch_size // degree, 1),
                ranks,
                degree,
                bool(getattr(sampler, "shuffle", False)),
                bool(getattr(sampler, "drop_last", False)),
            )
            self.batch_size = self.batch_sampler.batch_size
            self._dataloader = DataLoader(
                dataloader.dataset,
                batch_sampler=self.batch_sampler,
                return_list=dataloader.return_list,
                collate_fn=dataloader.collate_fn,
                num_workers=dataloader.num_workers,
                places=dataloader.places,
                worker_init_fn=dataloader.worker_init_fn,
            )
        self.iter = None

    @property
    def dataset(self):
        return self._dataloader.dataset

    def __len__(self) -> int:
        return len(self._dataloader)

    def __iter__(self):
        self.iter = iter(self._dataloader)
        return self

    def __call__(self):
        return self.__iter__()

    def __next__(self):
        if self.iter is None:
            self.iter = iter(self._dataloader)
        return self._get_batch(next(self.iter))

    # -- laying out a batch ---------------------------------------------------------------
    def _mesh_and_dim(self, index: int):
        k = 0 if self._one_mesh else index
        return self._meshes[k], self._shard_dims[k]

    def _place(self, t, mesh: ProcessMesh, dim):
        if not isinstance(t, Tensor):
            return t
        pls = [Replicate() for _ in range(mesh.ndim)]
        if dim is not None:
            pls[_mesh_dim(mesh, dim)] = Shard(0)
        if self._process_local:
            return _from_local(t, mesh, pls)
        return shard_tensor(t, mesh, pls)

    def _place_item(self, item, index: int):
        mesh, dim = self._mesh_and_dim(index)
        dense = (
            set(self.dense_tensor_idx[index])
            if self.dense_tensor_idx
            and index < len(self.dense_tensor_idx)
            and self.dense_tensor_idx[index]
            else set()
        )
        if isinstance(item, list | tuple):
            meshes = mesh if isinstance(mesh, list | tuple) else [mesh] * len(item)
            dims = dim if isinstance(dim, list | tuple) else [dim] * len(item)
            return [
                x if j in dense else self._place(x, meshes[j], dims[j]) for j, x in enumerate(item)
            ]
        if isinstance(mesh, list | tuple):
            mesh, dim = mesh[0], dim[0] if isinstance(dim, list | tuple) else dim
        return self._place(item, mesh, dim)

    def _get_batch(self, batch):
        if isinstance(batch, dict):
            keys = list(self._input_keys) if self._input_keys is not None else list(batch)
            out = dict(batch)
            for i, k in enumerate(keys):
                if k in batch:
                    out[k] = self._place_item(batch[k], i)
            return out
        if isinstance(batch, list | tuple):
            if not self._one_mesh and len(batch) != len(self._meshes):
                raise ValueError(
                    f"the batch has {len(batch)} items but {len(self._meshes)} meshes were given"
                )
            return [self._place_item(x, i) for i, x in enumerate(batch)]
        return self._place_item(batch, 0)


def _from_local(t: Tensor, mesh: ProcessMesh, pls) -> Tensor:
    """The global tensor whose dim 0 is the concatenation of every process's ``t``."""
    pls = normalize_placements(pls, mesh.ndim, t.ndim)
    sharding = NamedSharding(mesh.jax_mesh, to_partition_spec(pls, mesh.dim_names, t.ndim))
    arr = jax.make_array_from_process_local_data(sharding, np.asarray(array_of(t)))
    out = Tensor(arr, stop_gradient=t.stop_gradient)
    set_dist_attr(out, mesh, pls)
    return out


def shard_dataloader(
    dataloader: DataLoader,
    meshes,
    input_keys=None,
    shard_dims=None,
    is_dataset_splitted: bool = False,
    dense_tensor_idx=None,
) -> ShardDataloader:
    """Wrap ``dataloader`` so its batches come out distributed over ``meshes`` (one mesh, or
    one per batch item), split along the mesh dim ``shard_dims`` (name or index; None: not
    split)."""
    return ShardDataloader(
        dataloader, meshes, input_keys, shard_dims, is_dataset_splitted, dense_tensor_idx
    )
