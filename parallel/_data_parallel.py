"""``paddle.DataParallel``: data-parallel training of a Layer.

Paddle runs one process per device and averages gradients over the processes. Here:

* Within a process, once the parallel environment is set up (``init_parallel_env`` or
  ``fleet.init``) and the process has several devices, the wrapper replicates the parameters
  and buffers over a 1-D ``"dp"`` mesh of its local devices and splits each input batch along
  dim 0; XLA's partitioner inserts the gradient reduction, so a step computes exactly what one
  device computes on the whole batch. With one device it just forwards.
* Across processes (``jax.distributed``), as in Paddle: parameters and buffers start from
  process 0's values, each process runs its own batch, and every parameter's gradient is
  averaged over the processes when backward delivers it (a blocking collective per
  parameter). Gradients accumulated under ``no_sync()`` join the next synchronized average.

Differences from Paddle: within a process, the model's batch is split over its devices rather
than over separate processes (a loss is that of the process's whole batch); multi-process
gradient averaging works in eager mode, not inside ``paddle.jit.to_static``.
"""

from __future__ import annotations

import contextlib

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from paddle_compat._core.seams import Tensor, array_of, is_tracer, run_kernel, set_array
from paddle_compat.nn import Layer

from . import _env

__all__ = ["DataParallel"]

_MESHES: dict = {}


def _dp_mesh() -> Mesh | None:
    """The 1-D ``"dp"`` mesh over this process's devices, or None when there is one device or
    the parallel environment is not set up."""
    if not _env._env_called():
        return None
    devices = jax.local_devices()
    if len(devices) <= 1:
        return None
    key = tuple(d.id for d in devices)
    mesh = _MESHES.get(key)
    if mesh is None:
        mesh = _MESHES[key] = Mesh(np.array(devices), ("dp",))
    return mesh


def _process_mesh() -> Mesh:
    """One device per process (its first local device), for cross-process averages."""
    key = ("procs", jax.process_count())
    mesh = _MESHES.get(key)
    if mesh is None:
        first = {}
        for d in sorted(jax.devices(), key=lambda d: (d.process_index, d.id)):
            first.setdefault(d.process_index, d)
        mesh = _MESHES[key] = Mesh(np.array([first[i] for i in sorted(first)]), ("proc",))
    return mesh


_MEAN: dict = {}


def process_mean(arr):
    """The average of ``arr`` (this process's value) over all processes, as a local array
    laid out like ``arr``; blocks until it is done."""
    if is_tracer(arr):
        raise NotImplementedError(
            "DataParallel across processes averages gradients eagerly; inside "
            "paddle.jit.to_static shard the batch with dist.shard_dataloader/dist.to_static "
            "instead."
        )
    mesh = _process_mesh()
    dev = jax.local_devices()[0]
    local = arr.addressable_shards[0].data if arr.is_fully_replicated else arr
    local = jax.device_put(local, dev)[None]
    n = jax.process_count()
    stacked = jax.make_array_from_single_device_arrays(
        (n, *arr.shape), NamedSharding(mesh, PartitionSpec("proc")), [local]
    )
    fn = _MEAN.get(mesh)
    if fn is None:
        fn = _MEAN[mesh] = jax.jit(
            lambda a: a.mean(0, dtype=a.dtype), out_shardings=NamedSharding(mesh, PartitionSpec())
        )
    out = fn(stacked).addressable_data(0)
    out.block_until_ready()  # several un-awaited CPU collectives in a row can hang
    sharding = getattr(arr, "sharding", None)
    if sharding is not None and out.sharding != sharding:
        out = jax.device_put(out, sharding)
    return out


def _constrain(x: Tensor, sharding: NamedSharding) -> Tensor:
    """``x`` laid out with ``sharding`` (differentiable; a sharding constraint when traced)."""
    v = array_of(x)
    if not is_tracer(v) and x.stop_gradient:
        if getattr(v, "sharding", None) == sharding:
            return x
        return Tensor(jax.device_put(v, sharding), stop_gradient=True)
    key = ("dp_shard", sharding)
    return run_kernel(key, lambda: lambda a: jax.lax.with_sharding_constraint(a, sharding), [x])


def shard_batch(x, mesh: Mesh, axis: str = "dp"):
    """Split Tensors along dim 0 over ``axis`` (replicate those whose size does not divide)."""
    if not isinstance(x, Tensor):
        return x
    n = mesh.shape[axis]
    if x.ndim == 0 or x.shape[0] % n:
        return _constrain(x, NamedSharding(mesh, PartitionSpec()))
    return _constrain(x, NamedSharding(mesh, PartitionSpec(axis)))


def replicate_state(layer: Layer, mesh: Mesh) -> None:
    """Lay every parameter and buffer of ``layer`` out replicated over ``mesh``."""
    rep = NamedSharding(mesh, PartitionSpec())
    tensors = list(layer.parameters()) + [b for b in layer.buffers() if b is not None]
    for t in tensors:
        v = array_of(t)
        if not is_tracer(v) and getattr(v, "sharding", None) != rep:
            set_array(t, jax.device_put(v, rep))


def _sync_from_process0(layer: Layer) -> None:
    """Give every process process 0's parameters and buffers (Paddle's initial broadcast)."""
    from jax.experimental import multihost_utils

    tensors = list(layer.parameters()) + [b for b in layer.buffers() if b is not None]
    arrays = [array_of(t) for t in tensors]
    values = multihost_utils.broadcast_one_to_all([np.asarray(a) for a in arrays])
    for t, a, v in zip(tensors, arrays, values):
        set_array(t, jax.numpy.asarray(v, dtype=a.dtype))


class DataParallel(Layer):
    """Run ``layers`` data-parallel: parameters replicated, each batch split over the devices
    (see the module docstring); otherwise a transparent wrapper."""

    def __init__(
        self,
        layers: Layer,
        strategy=None,
        comm_buffer_size: int = 25,
        last_comm_buffer_size: float = 1,
        find_unused_parameters: bool = False,
        group=None,
    ) -> None:
        super().__init__(layers.full_name() + "_data_parallel")
        if not isinstance(layers, Layer):
            raise TypeError(
                f"The data parallel module should be a Layer, but received {type(layers).__name__}."
            )
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.grad_need_sync = True
        self.group = group
        self.comm_buffer_size = int(comm_buffer_size * 1024 * 1024)
        self.last_comm_buffer_size = int(last_comm_buffer_size * 1024 * 1024)
        self.__dict__["_mesh"] = _dp_mesh()
        self.__dict__["_hooks_handles"] = []
        if jax.process_count() > 1:
            _sync_from_process0(layers)
            for p in layers.parameters():
                if not p.stop_gradient:
                    self._hooks_handles.append(p.register_hook(self._average_hook(p)))
        if self._mesh is not None:
            replicate_state(layers, self._mesh)

    def _average_hook(self, param: Tensor):
        """Average ``param``'s gradient over the processes as backward delivers it (what has
        accumulated unsynchronized joins the average)."""

        def hook(g):
            if not self.grad_need_sync:
                return None
            acc = param.grad
            total = array_of(g) if acc is None else array_of(g) + array_of(acc)
            avg = process_mean(total)
            return Tensor(avg if acc is None else avg - array_of(acc))

        return hook

    @property
    def mesh(self) -> Mesh | None:
        """The data-parallel device mesh (None: single device)."""
        return self._mesh

    def forward(self, *inputs, **kwargs):
        mesh = self._mesh
        if mesh is not None:
            inputs = jax.tree_util.tree_map(
                lambda x: shard_batch(x, mesh), inputs, is_leaf=lambda x: isinstance(x, Tensor)
            )
            kwargs = jax.tree_util.tree_map(
                lambda x: shard_batch(x, mesh), kwargs, is_leaf=lambda x: isinstance(x, Tensor)
            )
        return self._layers(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Accumulate gradients without averaging them over the processes inside the block
        (the next synchronized backward averages the total)."""
        prev = self.grad_need_sync
        self.grad_need_sync = False
        try:
            yield
        finally:
            self.grad_need_sync = prev

    def scale_loss(self, loss):
        """Returns ``loss`` unchanged (deprecated in Paddle too)."""
        return loss

    def apply_collective_grads(self) -> None:
        """No-op: the partitioner already reduced the gradients."""

    def state_dict(
        self,
        destination=None,
        include_sublayers: bool = True,
        structured_name_prefix: str = "",
        use_hook: bool = True,
        keep_vars: bool = True,
    ):
        """The wrapped layer's ``state_dict`` (keys without the ``_layers.`` prefix)."""
        return self._layers.state_dict(
            destination=destination,
            include_sublayers=include_sublayers,
            structured_name_prefix=structured_name_prefix,
            use_hook=use_hook,
            keep_vars=keep_vars,
        )

    def set_state_dict(self, state_dict, use_structured_name: bool = True):
        """Load into the wrapped layer (keeping the replicated layout)."""
        out = self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)
        if self._mesh is not None:
            replicate_state(self._layers, self._mesh)
        return out

    set_dict = set_state_dict
    load_dict = set_state_dict
