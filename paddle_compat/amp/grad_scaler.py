"""``paddle.amp.GradScaler``: dynamic loss scaling for float16 training.

``scale(loss)`` multiplies the loss by the scale (a float32 Tensor of shape [1]); ``step`` /
``minimize`` first unscale the gradients (``g * (1 / scale)``) and note whether any was inf or
nan, then let the optimizer update, which skips the update when one was; ``update`` then
halves the scale after ``decr_every_n_nan_or_inf`` bad steps and doubles it after
``incr_every_n_steps`` good ones. The scale, the counters and the found-inf flag are Tensors
updated in place, so a step under ``paddle.jit.to_static`` compiles without host syncs.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from enum import Enum
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from .._core import trace_state
from .._core.tensor import Tensor, to_device
from ._auto_cast import amp_global_state

__all__ = ["AmpScaler", "GradScaler", "OptimizerState"]


class OptimizerState(Enum):
    INIT = 0
    UNSCALED = 1
    STEPPED = 2


# the loss-scaling settings saved in state_dict, in Paddle's key order
_SETTINGS = ("incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf")


def _refresh_optimizer_state():
    return {"state": OptimizerState.INIT}


@jax.jit
def _unscale_arrays(grads, scale):
    """Paddle's check_finite_and_unscale: ``g * (1 / scale)`` per gradient (computed in float32
    for half-precision gradients) and whether any input was inf or nan."""
    inv = (1.0 / scale.astype(jnp.float32)).reshape(())
    found = jnp.zeros((1,), jnp.bool_)
    out = []
    for g in grads:
        mt = jnp.float32 if g.dtype in (jnp.float16, jnp.bfloat16) else g.dtype
        found = found | ~jnp.all(jnp.isfinite(g))
        out.append((g.astype(mt) * inv.astype(mt)).astype(g.dtype))
    return out, found


@partial(jax.jit, static_argnums=(4, 5, 6, 7))
def _update_arrays(scale, incr, decr, found, incr_ratio, decr_ratio, incr_every, decr_every):
    """One loss-scaling update; returns (scale, incr count, decr count, decreased?)."""
    bad = found.reshape(())
    decr_next = jnp.where(bad, decr + 1, 0)
    incr_next = jnp.where(bad, 0, incr + 1)
    shrink = bad & (decr_next == decr_every)
    grow = ~bad & (incr_next == incr_every)
    ratio = jnp.where(shrink, decr_ratio, jnp.where(grow, incr_ratio, 1.0)).astype(scale.dtype)
    return (
        jnp.where(shrink | grow, scale * ratio, scale),
        jnp.where(grow, 0, incr_next),
        jnp.where(shrink, 0, decr_next),
        shrink,
    )


def _report_decrease(old_scale, decr_ratio) -> None:
    s = float(np.asarray(old_scale).reshape(-1)[0])
    print(f"Found inf or nan, current scale is: {s}, decrease to: {s}*{float(decr_ratio)}")


class AmpScaler:
    """Loss scaling for AMP training (``GradScaler`` with Paddle's older defaults)."""

    def __init__(
        self,
        enable: bool = True,
        init_loss_scaling: float = 2.0**15,
        incr_ratio: float = 2.0,
        decr_ratio: float = 0.5,
        incr_every_n_steps: int = 1000,
        decr_every_n_nan_or_inf: int = 1,
        use_dynamic_loss_scaling: bool = True,
    ) -> None:
        self._enable = enable
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._scale = None
        if self._enable:
            assert incr_ratio > 1.0, "The incr_ratio must be > 1.0."
            assert decr_ratio < 1.0, "The decr_ratio must be < 1.0."
            self._init_loss_scaling = init_loss_scaling
            self._incr_ratio = incr_ratio
            self._decr_ratio = decr_ratio
            self._incr_every_n_steps = incr_every_n_steps
            self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
            self._counts = [Tensor(to_device(np.zeros((), np.int32))) for _ in range(2)]
            self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
            self._found_inf = Tensor(to_device(np.zeros((1,), np.bool_)))
            self._scale = Tensor(to_device(np.asarray([init_loss_scaling], np.float32)))
            self._cache_found_inf = None
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    # the counters as Paddle's Python ints (read-only views of the Tensors)
    @property
    def _incr_count(self) -> int:
        return int(self._counts[0])

    @property
    def _decr_count(self) -> int:
        return int(self._counts[1])

    def scale(self, var: Tensor) -> Tensor:
        """``var * scale`` (``var`` itself when the scaler is disabled). Dynamic scaling turns
        itself off, with a warning, when the last ``auto_cast`` was not float16."""
        if not isinstance(var, Tensor):
            raise TypeError(
                "The type of 'var' in AmpScaler.scale() must be <class 'paddle.Tensor'>, but "
                f"received {type(var)}."
            )
        amp_dtype = amp_global_state().amp_dtype
        if self._enable and amp_dtype != "float16" and self._use_dynamic_loss_scaling:
            self._enable = False
            self._use_dynamic_loss_scaling = False
            self._init_loss_scaling = 1.0
            warnings.warn(
                f"It is not recommended to use dynamic loss scaling for {amp_dtype}, so "
                "GradScaler is disable by default.",
                stacklevel=2,
            )
        if not self._enable:
            return var
        return var * self._scale

    def minimize(self, optimizer, *args, **kwargs):
        """Unscale the gradients (unless ``unscale_`` did), let ``optimizer.minimize`` update
        (skipped when a gradient is inf/nan), then update the scale."""
        if not self._enable:
            return optimizer.minimize(*args, **kwargs)
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        optimizer._set_auxiliary_var("found_inf", self._found_inf)
        result = optimizer.minimize(*args, **kwargs)
        self._cache_found_inf = optimizer._get_auxiliary_var("found_inf")
        if self._use_dynamic_loss_scaling:
            self._update()
        self._optimizer_states = defaultdict(_refresh_optimizer_state)
        return result

    def _param_grads(self, optimizer) -> list[Tensor]:
        groups = getattr(optimizer, "_param_groups", None)
        if groups and isinstance(groups[0], dict):
            params = [p for g in groups for p in g["params"]]
        else:
            params = optimizer._parameter_list or []
        return [p.grad for p in params if p.grad is not None]

    def _unscale(self, optimizer) -> None:
        if not self._enable:
            return
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        grads = self._param_grads(optimizer)
        read = trace_state.read
        if grads:
            new, found = _unscale_arrays([read(g) for g in grads], read(self._scale))
            for g, a in zip(grads, new):
                g._set_value(a)
        else:
            found = jnp.zeros((1,), jnp.bool_)
        self._found_inf._set_value(found)
        state["state"] = OptimizerState.UNSCALED

    def _update(self) -> None:
        if not self._enable:
            return
        read = trace_state.read
        found = self._cache_found_inf
        found = read(found) if isinstance(found, Tensor) else jnp.asarray([bool(found)])
        old = read(self._scale)
        scale, incr, decr, shrank = _update_arrays(
            old,
            read(self._counts[0]),
            read(self._counts[1]),
            found,
            float(self._incr_ratio),
            float(self._decr_ratio),
            int(self._incr_every_n_steps),
            int(self._decr_every_n_nan_or_inf),
        )
        if trace_state.current() is None or trace_state.current().eager:
            if bool(shrank):
                _report_decrease(old, self._decr_ratio)
        else:
            jax.debug.callback(
                lambda s, o: _report_decrease(o, self._decr_ratio) if s else None, shrank, old
            )
        self._scale._set_value(scale)
        self._counts[0]._set_value(incr)
        self._counts[1]._set_value(decr)

    # -- settings -----------------------------------------------------------------------------
    def is_enable(self) -> bool:
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        return self._init_loss_scaling

    def set_init_loss_scaling(self, new_init_loss_scaling) -> None:
        """Set the initial scale; the current scale restarts from it."""
        self._init_loss_scaling = new_init_loss_scaling
        self._scale = Tensor(to_device(np.asarray([new_init_loss_scaling], np.float32)))

    def get_incr_ratio(self) -> float:
        return self._incr_ratio

    def set_incr_ratio(self, new_incr_ratio: float) -> None:
        assert new_incr_ratio > 1.0, "The new_incr_ratio must be > 1.0."
        self._incr_ratio = new_incr_ratio

    def get_decr_ratio(self) -> float:
        return self._decr_ratio

    def set_decr_ratio(self, new_decr_ratio: float) -> None:
        assert new_decr_ratio < 1.0, "The new_decr_ratio must be < 1.0."
        self._decr_ratio = new_decr_ratio

    def get_incr_every_n_steps(self) -> int:
        return self._incr_every_n_steps

    def set_incr_every_n_steps(self, new_incr_every_n_steps: int) -> None:
        self._incr_every_n_steps = new_incr_every_n_steps

    def get_decr_every_n_nan_or_inf(self) -> int:
        return self._decr_every_n_nan_or_inf

    def set_decr_every_n_nan_or_inf(self, new_decr_every_n_nan_or_inf: int) -> None:
        self._decr_every_n_nan_or_inf = new_decr_every_n_nan_or_inf

    def state_dict(self) -> dict:
        """The scale (a numpy array of shape [1]), ratios, step settings and counters; empty
        when the scaler is disabled."""
        if not self._enable:
            return {}
        out = {"scale": self._scale.numpy()}
        out.update({k: getattr(self, "_" + k) for k in _SETTINGS})
        out.update(incr_count=self._incr_count, decr_count=self._decr_count)
        out["use_dynamic_loss_scaling"] = self._use_dynamic_loss_scaling
        return out

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what ``state_dict`` returned (the scale restarts from the saved one)."""
        if not self._enable:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The input state dict is empty, possibly because it was saved "
                "from a disabled instance of GradScaler."
            )
        self.set_init_loss_scaling(state_dict["scale"][0])
        for k in (*_SETTINGS, "use_dynamic_loss_scaling"):
            setattr(self, "_" + k, state_dict[k])
        for counter, k in zip(self._counts, ("incr_count", "decr_count")):
            counter._set_value(jnp.asarray(state_dict[k], jnp.int32))


class GradScaler(AmpScaler):
    """Dynamic loss scaling (``init_loss_scaling=2**16``, doubling every 2000 good steps):
    ``scaler.scale(loss).backward(); scaler.step(opt); scaler.update()`` or
    ``scaler.minimize(opt, scaled)``."""

    def __init__(
        self,
        enable: bool = True,
        init_loss_scaling: float = 2.0**16,
        incr_ratio: float = 2.0,
        decr_ratio: float = 0.5,
        incr_every_n_steps: int = 2000,
        decr_every_n_nan_or_inf: int = 1,
        use_dynamic_loss_scaling: bool = True,
    ) -> None:
        super().__init__(
            enable,
            init_loss_scaling,
            incr_ratio,
            decr_ratio,
            incr_every_n_steps,
            decr_every_n_nan_or_inf,
            use_dynamic_loss_scaling,
        )

    def step(self, optimizer) -> None:
        """Unscale (unless ``unscale_`` did) and let ``optimizer.step()`` update, skipped when
        a gradient is inf/nan."""
        if not self._enable:
            return optimizer.step()
        state = self._optimizer_states[id(optimizer)]
        if state["state"] is OptimizerState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["state"] is OptimizerState.INIT:
            self._unscale(optimizer)
        optimizer._set_auxiliary_var("found_inf", self._found_inf)
        optimizer.step()
        self._cache_found_inf = optimizer._get_auxiliary_var("found_inf")
        state["state"] = OptimizerState.STEPPED
        if not self._use_dynamic_loss_scaling:
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def update(self) -> None:
        """Update the scale after ``step`` (dynamic loss scaling only)."""
        if not self._enable:
            return
        if self._use_dynamic_loss_scaling:
            self._update()
            self._optimizer_states = defaultdict(_refresh_optimizer_state)

    def unscale_(self, optimizer) -> None:
        """Divide the gradients by the scale now (e.g. before clipping them)."""
        return super()._unscale(optimizer)
