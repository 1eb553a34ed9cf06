"""Distributed tensors: ``shard_tensor``, ``reshard``, ``dtensor_from_fn``, ``unshard_dtensor``,
``shard_layer``, and the Tensor attributes ``placements``/``process_mesh``/``is_dist()``/
``_local_value()``.

A distributed tensor is a plain ``Tensor`` whose array is a sharded ``jax.Array``
(``NamedSharding`` over the ProcessMesh's JAX mesh). Eagerly, placing data is
``jax.device_put``; inside ``paddle.jit.to_static`` it is ``jax.lax.with_sharding_constraint``,
so the compiled program is partitioned by GSPMD. Ops on distributed tensors are ordinary ops:
JAX runs them sharded and inserts the collectives.

The placements of a tensor are read from its array's sharding. What a sharding cannot express
is kept as metadata next to the array, valid until the tensor is next rebound: ``Partial``
(the array holds the reduced value, see ``_placement``) and shards that do not divide the
dimension evenly (JAX arrays need even shards, so such a dim is stored replicated; inside
to_static the constraint still asks XLA for the uneven split, which it pads).

Inside ``to_static`` a tensor's placements are known only where ``shard_tensor``/``reshard``
set them (and for the function's inputs and state); other intermediate results report None,
and ``reshard`` accepts them (their layout is up to GSPMD).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

import paddle_compat as paddle
from paddle_compat._core import autograd as _ag
from paddle_compat._core import trace_state
from paddle_compat._core.dtype import is_inexact_np
from paddle_compat._core.tensor import Parameter, Tensor

from ._mesh import ProcessMesh, _current_rank, from_jax_mesh, tensor_view
from ._placement import (
    Partial,
    Placement,
    ReduceType,
    Replicate,
    Shard,
    from_partition_spec,
    normalize_placements,
    parse_shard_spec,
    to_partition_spec,
)

_ATTR = "_dist_attr"  # Tensor.__dict__ key: (ProcessMesh, placements tuple, _version)


# -- placing arrays ------------------------------------------------------------------------------
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


def _place_array(v, mesh: ProcessMesh, placements: Sequence[Placement]):
    jmesh = mesh.jax_mesh
    spec = to_partition_spec(placements, mesh.dim_names, v.ndim)
    if trace_state.is_tracer(v):
        return jax.lax.with_sharding_constraint(v, NamedSharding(jmesh, spec))
    return jax.device_put(v, NamedSharding(jmesh, _even_spec(spec, v.shape, jmesh)))


def _grad_back(src):
    """Backward of a placement change: the cotangent goes back to the source's layout."""
    sharding = None if trace_state.is_tracer(src) else src.sharding
    committed = sharding is not None and getattr(src, "committed", True)

    def custom(cts, create_graph):
        c = cts[0]
        arr = c._value if isinstance(c, Tensor) else c
        if sharding is not None and not trace_state.is_tracer(arr) and arr.sharding != sharding:
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
        v = g._value
        if trace_state.is_tracer(v):
            a = _attr(p, stale_ok=True)
            if a is None:
                return None
            spec = to_partition_spec(a[1], a[0].dim_names, v.ndim)
            return Tensor(jax.lax.with_sharding_constraint(v, NamedSharding(a[0].jax_mesh,
                                                                            spec)))
        s = _sharding(p)
        if s is None or v.sharding == s:
            return None
        return Tensor(jax.device_put(v, s))

    return hook


def _set_attr(t: Tensor, mesh: ProcessMesh, placements) -> None:
    t.__dict__[_ATTR] = (mesh, tuple(placements), t._version)


def _attr(t: Tensor, stale_ok: bool = False):
    a = t.__dict__.get(_ATTR)
    if a is None:
        return None
    if a[2] == t._version or stale_ok or trace_state.is_tracer(t._value):
        return a
    return None


def _placed(x: Tensor, mesh: ProcessMesh, placements, key: str) -> Tensor:
    """A new Tensor with ``x``'s value laid out as ``placements``; differentiable."""
    v = trace_state.read(x)
    placements = normalize_placements(placements, mesh.ndim, v.ndim)
    out = Tensor(_place_array(v, mesh, placements))
    _set_attr(out, mesh, placements)
    if (_ag.is_grad_enabled() and not x.stop_gradient and is_inexact_np(v.dtype)):
        _ag.record((key,), None, [x], [v], (True,), [out], custom=_grad_back(v))
    return out


# -- public API ----------------------------------------------------------------------------------
def _check_mesh(mesh, arg: str = "mesh") -> ProcessMesh:
    if not isinstance(mesh, ProcessMesh):
        raise TypeError(f"The argument `{arg}` must be a paddle.distributed.ProcessMesh, but got "
                        f"{type(mesh).__name__}.")
    return mesh


def shard_tensor(data: Any, mesh: ProcessMesh, placements: Sequence[Placement] | None = None,
                 dtype=None, place=None, stop_gradient: bool | None = None, *,
                 shard_spec: Sequence[str | None] | None = None) -> Tensor:
    """Distribute ``data`` over ``mesh`` as ``placements`` (one per mesh dim); a Parameter
    gives a new Parameter named ``<name>.dist``.

    ``shard_spec`` is the Paddle 2.x form (one mesh-dim name or None per *tensor* dim), accepted
    for old scripts instead of ``placements``.
    """
    _check_mesh(mesh)
    if isinstance(data, Tensor):
        x = data if dtype is None else data.astype(dtype)
    else:
        x = paddle.to_tensor(data, dtype=dtype, place=place,
                             stop_gradient=True if stop_gradient is None else stop_gradient)
    if placements is None:
        if shard_spec is None:
            raise TypeError("shard_tensor() missing required argument: 'placements'")
        placements = parse_shard_spec(shard_spec, mesh.dim_names, x.ndim)
    if isinstance(x, Parameter):
        with _ag.no_grad():
            moved = _placed(x, mesh, placements, "shard_tensor")
        p = Parameter(moved._value, name=f"{x.name}.dist", trainable=True)
        for k in ("optimize_attr", "regularizer", "need_clip", "do_model_average",
                  "is_distributed"):
            if hasattr(x, k):
                setattr(p, k, getattr(x, k))
        p.persistable = x.persistable
        _set_attr(p, mesh, _attr(moved)[1])
        p.register_hook(_grad_layout_hook(p))
        p.stop_gradient = x.stop_gradient
        return p
    out = _placed(x, mesh, placements, "shard_tensor")
    out.persistable = x.persistable
    return out


def dtensor_from_fn(fn: Callable[..., Tensor], mesh: ProcessMesh,
                    placements: Sequence[Placement], *args: Any, **kwargs: Any) -> Tensor:
    """Build a tensor with ``fn(*args, **kwargs)`` and distribute it as ``placements``."""
    return shard_tensor(fn(*args, **kwargs), mesh, placements)


def reshard(dist_tensor: Tensor, mesh: ProcessMesh, placements: Sequence[Placement]) -> Tensor:
    """Lay a distributed tensor out as ``placements`` on ``mesh`` (inserting the collectives:
    all-gather for Shard -> Replicate, all-reduce for Partial -> Replicate, ...)."""
    _check_mesh(mesh)
    if not isinstance(dist_tensor, Tensor) or not (
            is_dist(dist_tensor) or trace_state.is_tracer(dist_tensor._value)):
        raise ValueError(
            "(InvalidArgument) The input tensor of ReshardFunction should be a distributed "
            "tensor (made by paddle.distributed.shard_tensor); got a dense tensor."
        )
    return _placed(dist_tensor, mesh, placements, "reshard")


def unshard_dtensor(dist_tensor: Tensor) -> Tensor:
    """The global value of a distributed tensor as an ordinary (dense) tensor."""
    if not is_dist(dist_tensor):
        return dist_tensor
    v = trace_state.read(dist_tensor)
    if trace_state.is_tracer(v):
        mesh = process_mesh(dist_tensor)
        dense = jax.lax.with_sharding_constraint(v, NamedSharding(mesh.jax_mesh,
                                                                   PartitionSpec()))
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
    if (_ag.is_grad_enabled() and not dist_tensor.stop_gradient
            and is_inexact_np(v.dtype)):
        _ag.record(("unshard_dtensor",), None, [dist_tensor], [v], (True,), [out],
                   custom=_grad_back(v))
    return out


# -- Tensor attributes ---------------------------------------------------------------------------
def _sharding(t: Tensor):
    v = t._value
    if trace_state.is_tracer(v):
        return None
    s = getattr(v, "sharding", None)
    return s if isinstance(s, NamedSharding) else None


def placements(t: Tensor) -> list[Placement] | None:
    """The placements of a distributed tensor (None for a dense one)."""
    a = _attr(t)
    if a is not None:
        return list(a[1])
    s = _sharding(t)
    if s is None:
        return None
    pm = process_mesh(t)
    return from_partition_spec(s.spec, pm.dim_names, t._value.ndim)


def process_mesh(t: Tensor) -> ProcessMesh | None:
    """The ProcessMesh of a distributed tensor (None for a dense one)."""
    a = _attr(t, stale_ok=True)
    s = _sharding(t)
    if a is not None and (s is None or a[0].jax_mesh == s.mesh):
        return tensor_view(a[0])
    return None if s is None else tensor_view(from_jax_mesh(s.mesh))


def is_dist(t: Tensor) -> bool:
    """True for a distributed tensor."""
    return _attr(t) is not None or _sharding(t) is not None


def _local_value(t: Tensor) -> Tensor:
    """This process's piece of a distributed tensor (Paddle's local DenseTensor)."""
    if not is_dist(t):
        return t
    trace_state.check_concrete(t, "Tensor._local_value()")
    mesh, pls = process_mesh(t), placements(t)
    v = t._value
    rank = _current_rank()
    if not mesh.contains(rank):
        return Tensor(jnp.zeros((0,), v.dtype))
    coord = mesh.coordinate_of(rank)
    device = jax.devices()[rank]
    spec = to_partition_spec(pls, mesh.dim_names, v.ndim)
    stored_as_placed = not any(isinstance(p, Partial) for p in pls) and (
        _even_spec(spec, v.shape, mesh.jax_mesh) == spec)
    if stored_as_placed:  # the device's shard is the local value
        for shard in v.addressable_shards:
            if shard.device == device:
                return Tensor(shard.data, stop_gradient=t.stop_gradient)
    host = np.asarray(v)[_local_slices(v.shape, mesh, pls, coord)]
    for i, p in enumerate(pls):
        if isinstance(p, Partial) and p.reduce_type() == ReduceType.kRedSum and coord[i] != 0:
            host = np.zeros_like(host)
    return Tensor(jax.device_put(host, device), stop_gradient=t.stop_gradient)


def _local_slices(shape, mesh: ProcessMesh, pls, coord) -> tuple:
    """Paddle's split of each dim: ceil-sized chunks, the last ones short or empty."""
    axes: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(pls):
        if isinstance(p, Shard):
            axes.setdefault(p.get_dim(), []).append((p.get_co_shard_order()
                                                     if p._shard_order is not None else i, i))
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


# -- shard_layer ---------------------------------------------------------------------------------
def _replicate_rest(layer, mesh: ProcessMesh) -> None:
    """Replicate the parameters and buffers a shard_fn left dense."""
    for name, p in list(layer._parameters.items()):
        if p is not None and not is_dist(p):
            setattr(layer, name, shard_tensor(p, mesh, [Replicate()] * mesh.ndim))
    for name, b in list(layer._buffers.items()):
        if b is not None and not is_dist(b):
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
            raise ValueError(f"shard_specs names unknown parameters {unknown}; the layer has "
                             f"{sorted(known)}.")
        table = dict(shard_specs)
    elif isinstance(shard_specs, list | tuple):
        table = None
    else:
        raise TypeError(f"shard_specs must be a list or a dict, got {type(shard_specs).__name__}")

    def shard_fn(prefix, sub, mesh):
        for pname, p in list(sub._parameters.items()):
            if p is None or is_dist(p):
                continue
            full = f"{prefix}.{pname}" if prefix else pname
            spec = table.get(full) if table is not None else (
                shard_specs if len(shard_specs) == p.ndim else None)
            if spec is not None:
                setattr(sub, pname, shard_tensor(p, mesh, shard_spec=spec))

    return shard_fn


def shard_layer(layer, process_mesh: ProcessMesh, shard_fn: Callable | None = None,
                input_fn: Callable | None = None, output_fn: Callable | None = None, *,
                shard_specs: list | dict | None = None):
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
            lambda _layer, inputs, outputs: output_fn(outputs, process_mesh))
    return layer


# -- attach to Tensor ----------------------------------------------------------------------------
def _dist_repr(t: Tensor, prefix: str = "Tensor") -> str:
    from paddle_compat._core import tensor_repr as tr

    v = t._value
    indent = len(prefix) + 1
    pls = ", ".join(repr(p) for p in placements(t))
    head = (f"{prefix}(shape={list(v.shape)}, dtype={tr._dtype_name(t)}, "
            f"place={tr._place_str(t)}, stop_gradient={t.stop_gradient}, "
            f"process_mesh={process_mesh(t)._brace_str()}, placements=[{pls}], "
            f"GlobalDenseTensor=\n{' ' * indent}")
    data = tr._TRACED_NOTE if trace_state.is_tracer(v) else tr.format_array(v, indent)
    text = head + data + ")"
    return "Parameter containing:\n" + text if isinstance(t, Parameter) else text


def install() -> None:
    """Give Tensor its distributed attributes (done when ``parallel`` is imported)."""
    if getattr(Tensor, "_parallel_installed", False):
        return
    Tensor._parallel_installed = True
    Tensor.placements = property(placements, doc=placements.__doc__)
    Tensor.process_mesh = property(process_mesh, doc=process_mesh.__doc__)
    Tensor.is_dist = is_dist
    Tensor._local_value = _local_value

    dense_repr = Tensor.__repr__

    def __repr__(self):
        if is_dist(self) and not (not trace_state.is_tracer(self._value)
                                  and self._value.is_deleted()):
            return _dist_repr(self)
        return dense_repr(self)

    Tensor.__repr__ = Tensor.__str__ = __repr__

    dense_set_value = Tensor.set_value

    def set_value(self, value):
        a, s = _attr(self), _sharding(self)
        if s is not None:
            arr = value._value if isinstance(value, Tensor) else jnp.asarray(np.asarray(value))
            if not trace_state.is_tracer(arr) and tuple(arr.shape) == tuple(self._value.shape):
                value = Tensor(jax.device_put(arr.astype(self._value.dtype), s))
        dense_set_value(self, value)
        if a is not None:
            _set_attr(self, a[0], a[1])

    set_value.__doc__ = dense_set_value.__doc__
    Tensor.set_value = set_value
