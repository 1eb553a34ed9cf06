"""``paddle.optimizer.Optax``: any ``optax.GradientTransformation`` as a Paddle optimizer.

``Optax(optax.lion(1e-4), parameters=model.parameters())`` then ``loss.backward();
opt.step(); opt.clear_grad()`` as with any Paddle optimizer. The optax state is held in
Tensors (``state_dict`` saves them), the update is one compiled call over all parameters,
and it runs inside ``paddle.jit.to_static`` like the built-in optimizers.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax

from .._core import trace_state
from .._core.tensor import Tensor, unique_name
from ._fused import LOW_PRECISION
from ._optimizer import Optimizer

__all__ = ["Optax"]


def _find_hyperparams(state):
    """The ``hyperparams`` dict of an ``optax.inject_hyperparams`` state, or None."""
    for node in jax.tree_util.tree_leaves(
        state, is_leaf=lambda x: hasattr(x, "hyperparams") and isinstance(x.hyperparams, dict)
    ):
        if hasattr(node, "hyperparams") and isinstance(node.hyperparams, dict):
            return node.hyperparams
    return None


class Optax(Optimizer):
    """Run the optax transform ``transform`` on ``parameters``: each step feeds it every
    trainable parameter's gradient (zeros for one without a gradient, whose value is then
    left unchanged) and applies its updates. Low-precision parameters are updated in float32
    and rounded back each step: there are no master weights, so updates smaller than the
    parameter's precision are lost (keep such parameters float32, or use a built-in optimizer
    with ``multi_precision``).
    The learning rate lives in the transform: build it with ``optax.inject_hyperparams`` to
    read or set it through ``get_lr``/``set_lr``."""

    def __init__(self, transform, parameters=None, grad_clip=None, name: str | None = None):
        if not (hasattr(transform, "init") and hasattr(transform, "update")):
            raise TypeError(
                "transform should be an optax.GradientTransformation (with init and update), "
                f"but got {type(transform)}"
            )
        super().__init__(0.0, parameters=parameters, grad_clip=grad_clip, name=name)
        if self._parameter_list and isinstance(self._parameter_list[0], dict):
            raise TypeError(
                "paddle.optimizer.Optax takes a list of parameters, not parameter groups: "
                "combine transforms with optax.multi_transform instead"
            )
        self._tx = transform
        self._params = [p for p in self._parameter_list if not p.stop_gradient]
        self._state = None  # the optax state's leaves, as Tensors
        self._treedef = None
        self._pending_state = None
        self._update_fns = {}

    # -- state ----------------------------------------------------------------------------------
    def _init_state(self) -> None:
        params = [trace_state.read(p) for p in self._params]
        init = self._tx.init([_compute(a) for a in params])
        leaves, self._treedef = jax.tree_util.tree_flatten(init)
        prefix = self._name or "optax"
        self._state = [
            Tensor(jnp.asarray(x), name=unique_name(f"{prefix}_state_{i}"))
            for i, x in enumerate(leaves)
        ]
        for t in self._state:
            t.persistable = True
        if self._pending_state is not None:
            self._load(self._pending_state)
            self._pending_state = None

    def state_dict(self) -> dict:
        """The optax state's arrays as ``optax_state_<i>`` (in the state pytree's order)."""
        if self._state is None:
            return dict(self._pending_state or {})
        return {f"optax_state_{i}": t for i, t in enumerate(self._state)}

    def set_state_dict(self, state_dict: dict) -> None:
        if self._state is None:
            self._pending_state = dict(state_dict)
        else:
            self._load(state_dict)

    load_state_dict = set_state_dict

    def _load(self, state_dict: dict) -> None:
        for i, t in enumerate(self._state):
            key = f"optax_state_{i}"
            if key not in state_dict:
                raise KeyError(f"optimizer state {key} not found in the state dict")
            v = state_dict[key]
            arr = trace_state.read(v) if isinstance(v, Tensor) else jnp.asarray(v)
            want = t._value
            if arr.shape != want.shape or arr.dtype != want.dtype:
                raise ValueError(
                    f"{key}: shape {list(arr.shape)} / {arr.dtype} does not match the "
                    f"transform's state {list(want.shape)} / {want.dtype}"
                )
            t._set_value(arr)

    # -- learning rate ----------------------------------------------------------------------------
    def _hyperparams(self):
        if self._state is None:
            self._init_state()
        state = jax.tree_util.tree_unflatten(self._treedef, [t._value for t in self._state])
        hp = _find_hyperparams(state)
        if hp is None or "learning_rate" not in hp:
            raise RuntimeError(
                "this optax transform has no readable learning rate: build it with "
                "optax.inject_hyperparams(optax.<name>)(learning_rate=...) to use get_lr/set_lr"
            )
        return state, hp

    def get_lr(self) -> float:
        """The ``learning_rate`` hyperparameter of an ``optax.inject_hyperparams`` transform."""
        _, hp = self._hyperparams()
        return float(hp["learning_rate"])

    def set_lr(self, value: float) -> None:
        state, hp = self._hyperparams()
        hp["learning_rate"] = jnp.asarray(value, jnp.asarray(hp["learning_rate"]).dtype)
        for t, leaf in zip(self._state, jax.tree_util.tree_leaves(state)):
            t._set_value(jnp.asarray(leaf))

    # -- the update -------------------------------------------------------------------------------
    def _update_fn(self, with_inf: bool, has_grad: tuple):
        fn = self._update_fns.get((with_inf, has_grad))
        if fn is None:
            tx, treedef = self._tx, self._treedef

            def update(params, grads, leaves, found_inf):
                state = jax.tree_util.tree_unflatten(treedef, leaves)
                ps = [_compute(p) for p in params]
                gs = [g.astype(p.dtype) for g, p in zip(grads, ps)]
                updates, new_state = tx.update(gs, state, ps)
                new = optax.apply_updates(ps, updates)
                new = [q if h else p for q, p, h in zip(new, ps, has_grad)]
                new = [q.astype(p.dtype) for q, p in zip(new, params)]
                new_leaves = jax.tree_util.tree_leaves(new_state)
                if found_inf is not None:
                    bad = jnp.any(found_inf)
                    new = [jnp.where(bad, p, q) for q, p in zip(new, params)]
                    new_leaves = [jnp.where(bad, a, b) for b, a in zip(new_leaves, leaves)]
                return new, new_leaves

            fn = self._update_fns[(with_inf, has_grad)] = jax.jit(update)
        return fn

    def _apply(self, batches) -> None:
        pairs = [
            (p, g) for _, ps in batches for p, g in ps if g is not None and not p.stop_gradient
        ]
        if not pairs:
            return
        if self._grad_clip is not None:
            pairs = self._grad_clip(pairs)
        if self._state is None:
            self._init_state()
        found_inf = self._get_auxiliary_var("found_inf")
        if found_inf is not None and not isinstance(found_inf, Tensor):
            if found_inf:
                return
            found_inf = None
        read = trace_state.read
        grad_of = {id(p): g for p, g in pairs}
        params = [read(p) for p in self._params]
        grads = [
            read(grad_of[id(p)]) if id(p) in grad_of else jnp.zeros(a.shape, a.dtype)
            for p, a in zip(self._params, params)
        ]
        has_grad = tuple(id(p) in grad_of for p in self._params)
        new, new_leaves = self._update_fn(found_inf is not None, has_grad)(
            params,
            grads,
            [read(t) for t in self._state],
            read(found_inf) if found_inf is not None else None,
        )
        for p, a in zip(self._params, new):
            p._set_value(a)
        for t, a in zip(self._state, new_leaves):
            t._set_value(a)


def _compute(a):
    """Half-precision parameters are updated in float32."""
    return a.astype(jnp.float32) if a.dtype in LOW_PRECISION else a
