"""``paddle.distributed.shard_scaler``: a ``paddle.amp.GradScaler`` for distributed gradients.

A GradScaler already unscales sharded gradients of one mesh in one compiled call (JAX runs
it sharded and reduces the inf/nan check across the shards). What it cannot do is mix
gradients that live on different meshes (pipeline stages, a head on a sub-mesh) in one call:
``shard_scaler`` makes the scaler unscale each mesh's gradients separately and OR the
per-mesh found-inf flags into one flag that every mesh's optimizer update can read.

As in Paddle, the scaler object itself is returned, with its unscale step replaced.
"""

from __future__ import annotations

import types

import jax
import jax.numpy as jnp
import numpy as np

import paddle_compat as paddle
from paddle_compat._core.seams import array_of, is_tracer, set_array


@jax.jit
def _check_and_unscale(grads, scale):
    """``g * (1 / scale)`` per gradient (in float32 for half-precision ones) and whether any
    gradient held an inf or nan."""
    inv = (1.0 / scale.astype(jnp.float32)).reshape(())
    found = jnp.zeros((), jnp.bool_)
    out = []
    for g in grads:
        ct = jnp.float32 if g.dtype in (jnp.float16, jnp.bfloat16) else g.dtype
        found = found | ~jnp.all(jnp.isfinite(g))
        out.append((g.astype(ct) * inv.astype(ct)).astype(g.dtype))
    return out, found


def _devices_key(a) -> tuple | None:
    """The devices a committed array lives on (None for an uncommitted one: it goes anywhere)."""
    if not getattr(a, "committed", True):
        return None
    return tuple(sorted(d.id for d in a.sharding.device_set))


def _unscale_per_mesh(self, optimizer) -> None:
    """The scaler's unscale step, one compiled call per mesh the gradients live on."""
    if not self._enable:
        return
    plain = type(self)._unscale
    grads = self._param_grads(optimizer)
    arrays = [array_of(g) for g in grads]
    if any(is_tracer(a) for a in arrays):  # inside to_static: one program, GSPMD places it
        return plain(self, optimizer)
    groups: dict[tuple | None, list[int]] = {}
    for i, a in enumerate(arrays):
        groups.setdefault(_devices_key(a), []).append(i)
    committed = [k for k in groups if k is not None]
    if len(committed) <= 1:
        return plain(self, optimizer)
    states = paddle.amp.OptimizerState
    state = self._optimizer_states[id(optimizer)]
    if state["state"] is states.UNSCALED:
        raise RuntimeError(
            "unscale_() has already been called on this optimizer since the last update()."
        )
    if state["state"] is states.STEPPED:
        raise RuntimeError("unscale_() is being called after step().")
    scale = array_of(self._scale)
    found = False
    for idx in groups.values():
        new, bad = _check_and_unscale([arrays[i] for i in idx], scale)
        for i, a in zip(idx, new):
            set_array(grads[i], a)
        found = found or bool(bad)
    # one uncommitted flag: every mesh's optimizer update can read it
    set_array(self._found_inf, jnp.asarray(np.array([found])))
    state["state"] = states.UNSCALED


def shard_scaler(scaler):
    """Make ``scaler`` (a ``paddle.amp.GradScaler``) unscale gradients that live on several
    meshes, each mesh on its own; returns the same scaler."""
    if not isinstance(scaler, paddle.amp.AmpScaler):
        raise AttributeError(
            f"shard_scaler expects a paddle.amp.GradScaler, but got {type(scaler).__name__} "
            "(it has no attribute '_unscale')."
        )
    scaler._unscale = types.MethodType(_unscale_per_mesh, scaler)
    scaler.unscale_ = types.MethodType(_unscale_per_mesh, scaler)
    return scaler
