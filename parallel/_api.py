"""Distributed tensors: ``shard_tensor``, ``reshard``, ``dtensor_from_fn``, ``unshard_dtensor``,
``shard_layer``.

A distributed tensor is a plain ``Tensor`` whose array is a sharded ``jax.Array``
(``NamedSharding`` over the ProcessMesh's JAX mesh). Eagerly, placing data is
``jax.device_put``; inside ``paddle.jit.to_static`` it is ``jax.lax.with_sharding_constraint``,
so the compiled program is partitioned by GSPMD. Ops on distributed tensors are ordinary ops:
JAX runs them sharded and inserts the collectives.

The core derives ``Tensor.placements``/``process_mesh``/``is_dist()``/``_local_value()`` from
the array's sharding, plus what ``set_dist_attr`` records for what a sharding cannot express
(``Partial``, uneven shards; see ``paddle_compat/_core/dist_attr.py``).

Inside ``to_static`` a tensor's placements are known only where ``shard_tensor``/``reshard``
set them (and for the function's inputs and state); other intermediate results report None,
and ``reshard`` accepts them (their layout is up to GSPMD).

A process that sees a single device is Paddle's single-card run (rank 0 of a job that started
only it): a mesh naming more processes is then metadata. Tensors placed on it keep their global
value on the one device and report the mesh and placements they were given (Paddle's rank 0
would hold only its own shard and fail on any op that needs another rank).
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

import paddle_compat as paddle
from paddle_compat._core.seams import (
    Parameter,
    Placement,
    ProcessMesh,
    Replicate,
    Tensor,
    array_of,
    dist_attr,
    is_grad_enabled,
    is_inexact_np,
    is_tracer,
    no_grad,
    normalize_placements,
    parse_shard_spec,
    place_array,
    record,
    set_dist_attr,
    sharding_of,
    to_partition_spec,
)

# -- placing arrays ------------------------------------------------------------------------------
_warned_single_device = False


def on_single_device(mesh: ProcessMesh) -> bool:
    """Whether ``mesh`` names more processes than a single-device process has: its tensors
    keep their global value on that device (see the module docstring)."""
    n = len(jax.devices())
    return n == 1 and max(mesh.process_ids) >= n


def _warn_single_device(mesh: ProcessMesh) -> None:
    global _warned_single_device
    if not _warned_single_device:
        _warned_single_device = True
        warnings.warn(
            f"ProcessMesh {mesh} names {mesh.size} processes but JAX sees one device: "
            "distributed tensors keep their global value on it, unsharded (on CPU, set "
            "XLA_FLAGS=--xla_force_host_platform_device_count=N before importing jax to "
            "shard over N devices).",
            stacklevel=4,
        )


def _grad_back(src):
    """Backward of a placement change: the cotangent goes back to the source's layout."""
    sharding = None if is_tracer(src) else src.sharding
    committed = sharding is not None and getattr(src, "committed", True)

    def custom(cts, create_graph):
        c = cts[0]
        arr = array_of(c) if isinstance(c, Tensor) else c
        if sharding is not None and not is_tracer(arr) and arr.sharding != sharding:
            # a dense source gets a dense (uncommitted, single-device) gradient back
            arr = jax.device_put(arr, sharding) if committed else jnp.asarray(np.asarray(arr))
        return [Tensor(arr) if create_graph else arr]

    return custom


def _grad_layout_hook(p: Parameter):
    """A distributed Parameter's gradient takes the Parameter's layout (as in Paddle, where
    the gradient has the parameter's placements); saves a reshard in every optimizer step."""
    ref = weakref.ref(p)

    def hook(g):
        p = ref()
        if p is None:
            return None
        v = array_of(g)
        if is_tracer(v):
            a = dist_attr(p, stale_ok=True)
            if a is None or on_single_device(a[0]):
                return None
            spec = to_partition_spec(a[1], a[0].dim_names, v.ndim)
            return Tensor(jax.lax.with_sharding_constraint(v, NamedSharding(a[0].jax_mesh, spec)))
        s = sharding_of(p)
        if s is None or v.sharding == s:
            return None
        return Tensor(jax.device_put(v, s))

    return hook


def _placed(x: Tensor, mesh: ProcessMesh, placements, key: str) -> Tensor:
    """A new Tensor with ``x``'s value laid out as ``placements``; differentiable."""
    v = array_of(x)
    placements = normalize_placements(placements, mesh.ndim, v.ndim)
    if on_single_device(mesh):
        _warn_single_device(mesh)
        out = Tensor(v)
    else:
        out = Tensor(place_array(v, mesh, placements))
    set_dist_attr(out, mesh, placements)
    if is_grad_enabled() and not x.stop_gradient and is_inexact_np(v.dtype):
        record((key,), None, [x], [v], (True,), [out], custom=_grad_back(v))
    return out


# -- public API ----------------------------------------------------------------------------------
def _check_mesh(mesh, arg: str = "mesh") -> ProcessMesh:
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(
            f"The argument `{arg}` must be a paddle.distributed.ProcessMesh, but got "
            f"{type(mesh).__name__}."
        )
    return mesh


def shard_tensor(
    data: Any,
    mesh: ProcessMesh,
    placements: Sequence[Placement] | None = None,
    dtype=None,
    place=None,
    stop_gradient: bool | None = None,
    *,
    shard_spec: Sequence[str | None] | None = None,
) -> Tensor:
    """Distribute ``data`` over ``mesh`` as ``placements`` (one per mesh dim); a Parameter
    gives a new Parameter named ``<name>.dist``.

    ``shard_spec`` is the Paddle 2.x form (one mesh-dim name or None per *tensor* dim), accepted
    for old scripts instead of ``placements``.
    """
    _check_mesh(mesh)
    if isinstance(data, Tensor):
        x = data if dtype is None else data.astype(dtype)
    else:
        x = paddle.to_tensor(
            data,
            dtype=dtype,
            place=place,
            stop_gradient=True if stop_gradient is None else stop_gradient,
        )
    if placements is None:
        if shard_spec is None:
            raise TypeError("shard_tensor() missing required argument: 'placements'")
        placements = parse_shard_spec(shard_spec, mesh.dim_names, x.ndim)
    if isinstance(x, Parameter):
        with no_grad():
            moved = _placed(x, mesh, placements, "shard_tensor")
        p = Parameter(array_of(moved), name=f"{x.name}.dist", trainable=True)
        for k in (
            "optimize_attr",
            "regularizer",
            "need_clip",
            "do_model_average",
            "is_distributed",
        ):
            if hasattr(x, k):
                setattr(p, k, getattr(x, k))
        p.persistable = x.persistable
        set_dist_attr(p, mesh, dist_attr(moved)[1])
        p.register_hook(_grad_layout_hook(p))
        p.stop_gradient = x.stop_gradient
        return p
    out = _placed(x, mesh, placements, "shard_tensor")
    out.persistable = x.persistable
    return out


def dtensor_from_fn(
    fn: Callable[..., Tensor],
    mesh: ProcessMesh,
    placements: Sequence[Placement],
    *args: Any,
    **kwargs: Any,
) -> Tensor:
    """Build a tensor with ``fn(*args, **kwargs)`` and distribute it as ``placements``."""
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def reshard(dist_tensor: Tensor, mesh: ProcessMesh, placements: Sequence[Placement]) -> Tensor:
    """Lay a distributed tensor out as ``placements`` on ``mesh`` (inserting the collectives:
    all-gather for Shard -> Replicate, all-reduce for Partial -> Replicate, ...)."""
    _check_mesh(mesh)
    if not isinstance(dist_tensor, Tensor) or not (
        dist_tensor.is_dist() or is_tracer(array_of(dist_tensor))
    ):
        raise ValueError(
            "(InvalidArgument) The input tensor of ReshardFunction should be a distributed "
            "tensor (made by paddle.distributed.shard_tensor); got a dense tensor."
        )
    return _placed(dist_tensor, mesh, placements, "reshard")


def unshard_dtensor(dist_tensor: Tensor) -> Tensor:
    """The global value of a distributed tensor as an ordinary (dense) tensor."""
    if not dist_tensor.is_dist():
        return dist_tensor
    v = array_of(dist_tensor)
    if is_tracer(v) and on_single_device(dist_tensor.process_mesh):
        dense = v
    elif is_tracer(v):
        mesh = dist_tensor.process_mesh
        dense = jax.lax.with_sharding_constraint(v, NamedSharding(mesh.jax_mesh, PartitionSpec()))
    elif v.is_fully_addressable:
        dense = jnp.asarray(np.asarray(v))  # uncommitted: mixes with any other array
    else:
        from jax.experimental import multihost_utils

        dense = jnp.asarray(multihost_utils.process_allgather(v, tiled=True))
    if isinstance(dist_tensor, Parameter):
        p = Parameter(dense, trainable=dist_tensor.trainable)
        p.stop_gradient = dist_tensor.stop_gradient
        return p
    out = Tensor(dense)
    if is_grad_enabled() and not dist_tensor.stop_gradient and is_inexact_np(v.dtype):
        record(("unshard_dtensor",), None, [dist_tensor], [v], (True,), [out], custom=_grad_back(v))
    return out


# -- shard_layer ---------------------------------------------------------------------------------
def _replicate_rest(layer, mesh: ProcessMesh) -> None:
    """Replicate the parameters and buffers a shard_fn left dense."""
    for name, p in list(layer._parameters.items()):
        if p is not None and not p.is_dist():
            setattr(layer, name, shard_tensor(p, mesh, [Replicate()] * mesh.ndim))
    for name, b in list(layer._buffers.items()):
        if b is not None and not b.is_dist():
            layer._buffers[name] = shard_tensor(b, mesh, [Replicate()] * mesh.ndim)


def _specs_shard_fn(shard_specs, layer):
    """The legacy ``shard_specs`` keyword -> a shard_fn.

    A list (one mesh-dim name or None per tensor dim) applies to every parameter with that
    many dims; a dict maps parameter names (as in ``named_parameters()``) to such lists.
    """
    if isinstance(shard_specs, dict):
        known = {n for n, _ in layer.named_parameters()}
        unknown = sorted(set(shard_specs) - known)
        if unknown:
            raise ValueError(
                f"shard_specs names unknown parameters {unknown}; the layer has {sorted(known)}."
            )
        table = dict(shard_specs)
    elif isinstance(shard_specs, list | tuple):
        table = None
    else:
        raise TypeError(f"shard_specs must be a list or a dict, got {type(shard_specs).__name__}")

    def shard_fn(prefix, sub, mesh):
        for pname, p in list(sub._parameters.items()):
            if p is None or p.is_dist():
                continue
            full = f"{prefix}.{pname}" if prefix else pname
            spec = (
                table.get(full)
                if table is not None
                else (shard_specs if len(shard_specs) == p.ndim else None)
            )
            if spec is not None:
                setattr(sub, pname, shard_tensor(p, mesh, shard_spec=spec))

    return shard_fn


def shard_layer(
    layer,
    process_mesh: ProcessMesh,
    shard_fn: Callable | None = None,
    input_fn: Callable | None = None,
    output_fn: Callable | None = None,
    *,
    shard_specs: list | dict | None = None,
):
    """Distribute a Layer's parameters: ``shard_fn(name, sublayer, mesh)`` runs on every
    sublayer (the layer itself first, named ``""``) and may replace parameters with
    ``shard_tensor`` results; what stays dense is replicated. ``input_fn(inputs, mesh)`` and
    ``output_fn(outputs, mesh)`` become forward pre/post hooks.

    ``shard_specs`` (not in Paddle 3.3, kept for older scripts): instead of ``shard_fn``, a
    list of mesh-dim names/None per tensor dim applied to every parameter of that rank, or a
    dict ``{"fc1.weight": [None, "mp"], ...}``.
    """
    if process_mesh is None:
        raise ValueError("The argument `process_mesh` cannot be empty.")
    if not isinstance(process_mesh, ProcessMesh):
        raise ValueError("The argument `process_mesh` is not `dist.ProcessMesh` type.")
    if shard_specs is not None:
        if shard_fn is not None:
            raise ValueError("shard_layer: pass shard_fn or shard_specs, not both.")
        shard_fn = _specs_shard_fn(shard_specs, layer)
    for name, sub in layer.named_sublayers(include_self=True):
        if shard_fn is not None:
            shard_fn(name, sub, process_mesh)
        _replicate_rest(sub, process_mesh)
    if input_fn is not None:
        layer.register_forward_pre_hook(lambda _layer, inputs: input_fn(inputs, process_mesh))
    if output_fn is not None:
        layer.register_forward_post_hook(
            lambda _layer, inputs, outputs: output_fn(outputs, process_mesh)
        )
    return layer
