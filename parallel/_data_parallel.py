"""``paddle.DataParallel``: data-parallel training of a Layer.

Paddle runs one process per device and all-reduces gradients. On JAX one process drives all its
devices: once the parallel environment is set up (``init_parallel_env`` or ``fleet.init``) and
more than one device is visible, the wrapper replicates the parameters and buffers over a 1-D
``"dp"`` mesh of every device and shards each input batch along its first dimension; XLA's
partitioner inserts the gradient reduction, so a step computes exactly what one device computes
on the whole batch. With one device (or before ``init_parallel_env``) it just forwards.

Differences from Paddle: the batch given to the model is the global batch (it is split over the
devices), and a loss is the loss of the global batch, not a per-rank value. Runs with several
processes (``jax.distributed``) are not covered yet: the wrapper then forwards only.
"""

from __future__ import annotations

import contextlib

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from paddle_compat._core import registry as _reg
from paddle_compat._core import trace_state
from paddle_compat._core.tensor import Tensor
from paddle_compat.nn import Layer

from . import _env

__all__ = ["DataParallel"]

_MESHES: dict = {}


def _dp_mesh() -> Mesh | None:
    """The 1-D ``"dp"`` mesh over every device, or None when data parallelism is off."""
    if not _env._env_called() or jax.process_count() > 1:
        return None
    devices = jax.devices()
    if len(devices) <= 1:
        return None
    key = tuple(d.id for d in devices)
    mesh = _MESHES.get(key)
    if mesh is None:
        mesh = _MESHES[key] = Mesh(np.array(devices), ("dp",))
    return mesh


def _constrain(x: Tensor, sharding: NamedSharding) -> Tensor:
    """``x`` laid out with ``sharding`` (differentiable; a sharding constraint when traced)."""
    v = x._value
    if not trace_state.is_tracer(v) and x.stop_gradient:
        if getattr(v, "sharding", None) == sharding:
            return x
        return Tensor(jax.device_put(v, sharding), stop_gradient=True)
    key = ("dp_shard", sharding)
    return _reg.run_kernel(key, lambda: lambda a: jax.lax.with_sharding_constraint(a, sharding),
                           [x])


def shard_batch(x, mesh: Mesh, axis: str = "dp"):
    """Split Tensors along dim 0 over ``axis`` (replicate those whose size does not divide)."""
    if not isinstance(x, Tensor):
        return x
    n = mesh.shape[axis]
    if x.ndim == 0 or x._value.shape[0] % n:
        return _constrain(x, NamedSharding(mesh, PartitionSpec()))
    return _constrain(x, NamedSharding(mesh, PartitionSpec(axis)))


def replicate_state(layer: Layer, mesh: Mesh) -> None:
    """Lay every parameter and buffer of ``layer`` out replicated over ``mesh``."""
    rep = NamedSharding(mesh, PartitionSpec())
    tensors = list(layer.parameters()) + [b for b in layer.buffers() if b is not None]
    for t in tensors:
        v = t._value
        if not trace_state.is_tracer(v) and getattr(v, "sharding", None) != rep:
            t._set_value(jax.device_put(v, rep))


class DataParallel(Layer):
    """Run ``layers`` data-parallel: parameters replicated, each batch split over the devices
    (see the module docstring); otherwise a transparent wrapper."""

    def __init__(self, layers: Layer, strategy=None, comm_buffer_size: int = 25,
                 last_comm_buffer_size: float = 1, find_unused_parameters: bool = False,
                 group=None) -> None:
        super().__init__(layers.full_name() + "_data_parallel")
        if not isinstance(layers, Layer):
            raise TypeError("The data parallel module should be a Layer, but received "
                            f"{type(layers).__name__}.")
        self._layers = layers
        self.find_unused_parameters = find_unused_parameters
        self.grad_need_sync = True
        self.group = group
        self.comm_buffer_size = int(comm_buffer_size * 1024 * 1024)
        self.last_comm_buffer_size = int(last_comm_buffer_size * 1024 * 1024)
        self.__dict__["_mesh"] = _dp_mesh()
        if self._mesh is not None:
            replicate_state(layers, self._mesh)

    @property
    def mesh(self) -> Mesh | None:
        """The data-parallel device mesh (None: single device)."""
        return self._mesh

    def forward(self, *inputs, **kwargs):
        mesh = self._mesh
        if mesh is not None:
            inputs = jax.tree_util.tree_map(lambda x: shard_batch(x, mesh), inputs,
                                            is_leaf=lambda x: isinstance(x, Tensor))
            kwargs = jax.tree_util.tree_map(lambda x: shard_batch(x, mesh), kwargs,
                                            is_leaf=lambda x: isinstance(x, Tensor))
        return self._layers(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Skip gradient synchronization inside the block (gradients are global arrays here, so
        accumulation needs no synchronization at all)."""
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

    def state_dict(self, destination=None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", use_hook: bool = True,
                   keep_vars: bool = True):
        """The wrapped layer's ``state_dict`` (keys without the ``_layers.`` prefix)."""
        return self._layers.state_dict(destination=destination,
                                       include_sublayers=include_sublayers,
                                       structured_name_prefix=structured_name_prefix,
                                       use_hook=use_hook, keep_vars=keep_vars)

    def set_state_dict(self, state_dict, use_structured_name: bool = True):
        """Load into the wrapped layer (keeping the replicated layout)."""
        out = self._layers.set_state_dict(state_dict, use_structured_name=use_structured_name)
        if self._mesh is not None:
            replicate_state(self._layers, self._mesh)
        return out

    set_dict = set_state_dict
    load_dict = set_state_dict
