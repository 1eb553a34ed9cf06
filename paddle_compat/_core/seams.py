"""The core's declared seams: the one module that ``parallel``, ``quant`` and ``serving`` import
from the core (in the style of ``jax.extend``). Everything else under ``paddle_compat._*`` is
private to ``paddle_compat``; an outer package that needs more asks for a new seam here.

- Tensors: ``Tensor``, ``Parameter``, ``array_of`` (the array a Tensor holds, read under trace),
  ``set_array`` (rebind a Tensor's array in place), ``sharding_of`` (the ``NamedSharding`` of
  its concrete array, recording nothing).
- Ops: ``op`` (the registry decorator), ``call_op``, ``run_kernel`` (run a pure function as
  an eager op with autograd).
- Autograd: ``record`` (a tape node), ``run_backward``, ``no_grad``, ``is_grad_enabled``,
  ``set_grad_enabled``.
- AMP: ``amp_state`` (the ``auto_cast`` state in effect) and ``using_amp_state`` (a block
  re-run at backward time, maybe outside ``auto_cast``, runs under its forward's).
- Tracing: ``is_tracer``, ``check_concrete``, ``TraceContext``/``current_trace``/
  ``set_current_trace``.
- Dtypes and RNG: ``to_dtype``, ``is_inexact_np``, ``next_key``, ``host_rng_state`` /
  ``set_host_rng_state`` (the eager host stream's position).
- Distribution (``dist_attr.py``, ``process_mesh.py``): the value types ``ProcessMesh``,
  ``Placement``/``Shard``/``Replicate``/``Partial``/``ReduceType``; placements -> JAX
  ``PartitionSpec`` (``to_partition_spec``, ``normalize_placements``, ``parse_shard_spec``);
  ``place_array`` (lay an array out as placements) and ``storage_sharding`` (the sharding it is
  stored with eagerly); ``set_dist_attr``/``dist_attr`` (what a sharding cannot say:
  ``Partial``, uneven shards). A Tensor's ``placements``/``process_mesh``/``is_dist()``/
  ``_local_value()`` derive from these.
- Functionalization (``_core/functional.py``): ``state_of`` (a Layer, optimizer or Generator as
  ``{name: Tensor}``), ``rng_state``, ``recording`` (the Tensors a run touches), ``swap_in``
  (run a block with other arrays in Tensors, restored after), ``functionalize`` (a call as a
  pure function of arrays), ``write_back``.
- Saved models: ``saved_model`` (``paddle_compat._export``: ``load``/``Artifact``, ``IOSpec``,
  ``ArtifactError``, ``np_dtype``, ``check_input``, ``shape_matches``, ``dtype_kind``,
  ``shape_error_text``); ``paddle_program()`` (``_export/paddle_program``, imported on first
  use: ``is_paddle_program``/``load_artifact`` of inference programs exported by real Paddle).
"""

from __future__ import annotations

from .. import _export as saved_model
from .amp_state import current as amp_state
from .amp_state import using as using_amp_state
from .autograd import is_grad_enabled, no_grad, record, run_backward, set_grad_enabled
from .dist_attr import (
    Partial,
    Placement,
    ReduceType,
    Replicate,
    Shard,
    dist_attr,
    named_sharding,
    normalize_placements,
    parse_shard_spec,
    place_array,
    set_dist_attr,
    storage_sharding,
    to_partition_spec,
)
from .dtype import is_inexact_np, to_dtype
from .functional import functionalize, recording, rng_state, state_of, swap_in, write_back
from .process_mesh import ProcessMesh
from .random import host_state as host_rng_state
from .random import next_key
from .random import set_host_state as set_host_rng_state
from .registry import call_op, op, run_kernel
from .tensor import Parameter, Tensor
from .trace_state import TraceContext, check_concrete, is_tracer
from .trace_state import current as current_trace
from .trace_state import read as array_of
from .trace_state import set_current as set_current_trace


def set_array(t: Tensor, a) -> Tensor:
    """Rebind ``t`` to hold array ``a`` (Paddle's in-place write, e.g. ``set_value``)."""
    t._set_value(a)
    return t


def sharding_of(t: Tensor):
    """The ``NamedSharding`` of ``t``'s concrete array; None for a dense or traced one. It only
    inspects the layout: unlike ``array_of`` it records no state under a trace."""
    return named_sharding(t._value)


__all__ = [
    "amp_state",
    "using_amp_state",
    "Parameter",
    "Partial",
    "Placement",
    "ProcessMesh",
    "ReduceType",
    "Replicate",
    "Shard",
    "Tensor",
    "TraceContext",
    "array_of",
    "call_op",
    "check_concrete",
    "current_trace",
    "dist_attr",
    "functionalize",
    "is_grad_enabled",
    "is_inexact_np",
    "is_tracer",
    "next_key",
    "host_rng_state",
    "set_host_rng_state",
    "no_grad",
    "normalize_placements",
    "paddle_program",
    "op",
    "parse_shard_spec",
    "place_array",
    "record",
    "recording",
    "rng_state",
    "run_backward",
    "run_kernel",
    "saved_model",
    "set_array",
    "set_current_trace",
    "set_dist_attr",
    "set_grad_enabled",
    "sharding_of",
    "state_of",
    "storage_sharding",
    "swap_in",
    "to_dtype",
    "to_partition_spec",
    "write_back",
]


def paddle_program():
    """The loader of inference programs exported by real Paddle (imported on first use: it
    builds on ``paddle.jit``)."""
    from .._export import paddle_program as loader

    return loader
