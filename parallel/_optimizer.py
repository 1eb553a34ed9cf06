"""``shard_optimizer`` and ``ShardingStage1/2/3``: where an optimizer's state lives on the mesh.

``shard_optimizer(opt)`` wraps an optimizer so that its accumulators (moments, master weights)
are created with the placements of their parameters; the beta-power accumulators are
replicated. With a ``ShardingStage`` the state is in addition split along the sharding mesh dim
(usually ``"dp"``): the first tensor dim not already sharded gets ``Shard`` on that mesh dim
(ZeRO-1). Stage 2 also lays the gradients out that way (a reduce-scatter instead of an
all-reduce), stage 3 the parameters themselves (XLA all-gathers them where the forward needs
them). After every step the parameters and states are put back to those layouts, eagerly with
``device_put`` and inside ``paddle.jit.to_static`` as sharding constraints, so the compiled step
keeps them.

Differences from Paddle 3.3.1: any optimizer is accepted (Paddle asserts AdamW or SGD); a
``shard_fn`` may also be a plain callable ``(key, param, accumulator) -> Tensor``; with a stage
whose ``mesh`` is given, dense parameters are first replicated over that mesh (Paddle does this
for stage 3 only; for stages 1/2 it leaves their state dense). The sharding axis is the mesh dim
the stage names (Paddle picks the first replicated mesh dim of the parameters; the two agree in
the usual dp-first layouts).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

import jax

from paddle_compat._core.seams import (
    ProcessMesh,
    Replicate,
    Shard,
    Tensor,
    array_of,
    dist_attr,
    is_tracer,
    no_grad,
    normalize_placements,
    place_array,
    set_array,
    set_dist_attr,
    sharding_of,
    storage_sharding,
)
from paddle_compat.optimizer import Optimizer

from ._mesh import get_mesh

__all__ = ["ShardingStage1", "ShardingStage2", "ShardingStage3", "shard_optimizer"]


def place(t: Tensor, mesh: ProcessMesh, pls) -> None:
    """Lay ``t``'s array out as ``pls`` on ``mesh`` in place (same Tensor object)."""
    v = array_of(t)
    pls = normalize_placements(list(pls), mesh.ndim, v.ndim)
    if is_tracer(v):
        new = place_array(v, mesh, pls)
    else:
        target = storage_sharding(mesh, pls, v.shape)
        new = v if getattr(v, "sharding", None) == target else jax.device_put(v, target)
    if new is not v:
        set_array(t, new)
    set_dist_attr(t, mesh, pls)


def sharded_placements(pls, axis: int, ndim: int) -> list:
    """``pls`` with mesh dim ``axis`` splitting the first tensor dim no other mesh dim
    splits (unchanged when there is none)."""
    pls = list(pls)
    taken = {p.get_dim() for i, p in enumerate(pls) if isinstance(p, Shard) and i != axis}
    for d in range(ndim):
        if d not in taken:
            pls[axis] = Shard(d)
            break
    return pls


class _ShardingStageBase:
    """Common part of the sharding stages: the mesh dim to shard along and the mesh."""

    stage = 0

    def __init__(self, sharding_mesh_dim: int | str = 0, mesh: ProcessMesh | None = None):
        if mesh is not None and not isinstance(mesh, ProcessMesh):
            raise TypeError(
                f"mesh must be a paddle.distributed.ProcessMesh, got {type(mesh).__name__}"
            )
        self._sharding_mesh_dim = sharding_mesh_dim
        self._mesh = mesh

    def _axis(self, mesh: ProcessMesh) -> int:
        dim = self._sharding_mesh_dim
        if isinstance(dim, str):
            if dim not in mesh.dim_names:
                raise ValueError(
                    f"sharding_mesh_dim {dim!r} is not a dim of the mesh {mesh.dim_names}."
                )
            return mesh.dim_names.index(dim)
        if not -mesh.ndim <= dim < mesh.ndim:
            raise ValueError(f"sharding_mesh_dim {dim} is out of range for a {mesh.ndim}-d mesh.")
        return dim % mesh.ndim

    def _placements(self, key: str, param: Tensor, tensor: Tensor):
        """(mesh, placements) for ``tensor`` (accumulator ``key``, ``"grad"`` or ``"param"``)
        of ``param``, or None to leave it as it is."""
        if not param.is_dist():
            return None
        mesh = param.process_mesh
        pls = param.placements
        if "beta" in key or tensor.ndim == 0:
            return mesh, [Replicate() for _ in range(mesh.ndim)]
        if not self.stage or (key != "param" and tensor.shape[:1] == [1]):
            return mesh, pls
        if key == "grad" and self.stage < 2 or key == "param" and self.stage < 3:
            return mesh, pls
        return mesh, sharded_placements(pls, self._axis(mesh), tensor.ndim)

    def __call__(self, key: str, param: Tensor, tensor: Tensor) -> Tensor:
        """Return ``tensor`` laid out as this stage wants (Paddle's shard_fn protocol)."""
        plan = self._placements(key, param, tensor)
        if plan is not None:
            place(tensor, *plan)
        return tensor


class _ShardingStage0(_ShardingStageBase):
    """No sharding: state follows its parameter's placements."""

    stage = 0


class ShardingStage1(_ShardingStageBase):
    """Shard optimizer state along ``sharding_mesh_dim`` (ZeRO stage 1)."""

    stage = 1

    def __init__(self, sharding_mesh_dim: int | str, mesh: ProcessMesh | None = None) -> None:
        super().__init__(sharding_mesh_dim, mesh)


class ShardingStage2(ShardingStage1):
    """Shard optimizer state and gradients along ``sharding_mesh_dim`` (ZeRO stage 2)."""

    stage = 2


class ShardingStage3(ShardingStage1):
    """Shard optimizer state, gradients and parameters along ``sharding_mesh_dim`` (ZeRO
    stage 3)."""

    stage = 3


class _ShardOptimizer(Optimizer):
    """The optimizer returned by ``shard_optimizer``: the wrapped optimizer with its state laid
    out on the mesh (every other attribute is the wrapped optimizer's)."""

    def __init__(
        self, optimizer: Optimizer, shard_fn=None, gradient_accumulation_steps: int = 1
    ) -> None:
        assert optimizer is not None, "The argument `optimizer` cannot be empty."
        if not isinstance(optimizer, Optimizer):
            raise TypeError(
                f"shard_optimizer expects a paddle.optimizer.Optimizer, got "
                f"{type(optimizer).__name__}"
            )
        d = self.__dict__
        d["_inner_opt"] = optimizer
        d["_shard_fn"] = shard_fn if shard_fn is not None else _ShardingStage0()
        d["gradient_accumulation_steps"] = int(gradient_accumulation_steps)
        d["_layouts"] = {}  # id -> (weakref, NamedSharding, mesh, placements)
        if not callable(self._shard_fn):
            raise TypeError(
                "shard_fn must be a ShardingStage or a callable (key, param, tensor) -> tensor"
            )
        stage = self._shard_fn if isinstance(self._shard_fn, _ShardingStageBase) else None
        params = list(self._params())
        if stage is not None and stage.stage:
            mesh = (
                stage._mesh
                or get_mesh()
                or next((p.process_mesh for p in params if p.is_dist()), None)
            )
            if mesh is None:
                raise ValueError(
                    "The global mesh or shard_fn mesh should be set for the sharding strategy."
                )
            stage._mesh = mesh
            stage._axis(mesh)  # validate the dim early
            for p in params:
                if not p.is_dist():
                    place(p, mesh, [Replicate() for _ in range(mesh.ndim)])
        if stage is not None:
            for p in params:
                self._apply_fn("param", p, p)
            if stage.stage >= 2:
                for p in params:
                    p.register_hook(self._grad_hook(p))
        optimizer.__dict__["_create_accumulators"] = self._create_accumulators_hook

    # -- layouts --------------------------------------------------------------------------
    def _params(self):
        for _, params in self._inner_opt._groups():
            yield from params

    def _apply_fn(self, key: str, param: Tensor, tensor: Tensor) -> None:
        out = self._shard_fn(key, param, tensor)
        if out is not None and out is not tensor:  # a user shard_fn returned a new Tensor
            set_array(tensor, array_of(out))
            a = dist_attr(out)
            if a is not None:
                set_dist_attr(tensor, a[0], a[1])
        self._remember(tensor)

    def _remember(self, t: Tensor) -> None:
        s = sharding_of(t)
        if s is not None and t.is_dist():
            a = dist_attr(t)
            self._layouts[id(t)] = (weakref.ref(t), s, a[0] if a else None, a[1] if a else None)

    def _grad_hook(self, param: Tensor) -> Callable:
        def hook(g):
            t = Tensor(array_of(g), stop_gradient=g.stop_gradient)
            out = self._shard_fn("grad", param, t)
            return out if out is not None else t

        return hook

    def _create_accumulators_hook(self, block, parameters) -> None:
        inner = self._inner_opt
        type(inner)._create_accumulators(inner, block, parameters)
        for p in parameters:
            target = inner._master_weights.get(p.name) if inner._uses_master(p) else None
            if target is not None and id(target) not in self._layouts:
                self._apply_fn("master_weight", p, target)
            owner = (target if target is not None else p).name
            for key, accs in inner._accumulators.items():
                acc = accs.get(owner)
                if acc is not None and id(acc) not in self._layouts:
                    self._apply_fn(key, p, acc)

    def _restore_layouts(self) -> None:
        """Put parameters and state back to their layouts after an update."""
        dead = []
        for k, (ref, sharding, mesh, pls) in self._layouts.items():
            t = ref()
            if t is None:
                dead.append(k)
                continue
            v = array_of(t)
            if is_tracer(v):
                set_array(t, jax.lax.with_sharding_constraint(v, sharding))
            elif getattr(v, "sharding", None) != sharding:
                set_array(t, jax.device_put(v, sharding))
            if mesh is not None:
                set_dist_attr(t, mesh, pls)
        for k in dead:
            del self._layouts[k]

    # -- updates --------------------------------------------------------------------------
    def step(self) -> None:
        """Update the parameters from their gradients (divided by
        ``gradient_accumulation_steps``), then restore the layouts."""
        k = self.gradient_accumulation_steps
        if k > 1:
            with no_grad():
                batches = []
                for group, params in self._inner_opt._groups():
                    pairs = [
                        (p, Tensor(array_of(p.grad) / k))
                        for p in params
                        if not p.stop_gradient and p.grad is not None
                    ]
                    batches.append((group, pairs))
                self._inner_opt._apply(batches)
        else:
            self._inner_opt.step()
        self._restore_layouts()

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        out = self._inner_opt.minimize(loss, startup_program, parameters, no_grad_set)
        self._restore_layouts()
        return out

    def apply_gradients(self, params_grads: list) -> list:
        out = self._inner_opt.apply_gradients(params_grads)
        self._restore_layouts()
        return out

    def __getattr__(self, name: str):
        inner = self.__dict__.get("_inner_opt")
        if inner is None:
            raise AttributeError(name)
        return getattr(inner, name)

    def __setattr__(self, name: str, value) -> None:
        if name in self.__dict__:
            self.__dict__[name] = value
        else:
            setattr(self._inner_opt, name, value)


def _delegate(name: str):
    def method(self, *args, **kwargs):
        return getattr(self._inner_opt, name)(*args, **kwargs)

    method.__name__ = name
    return method


def _delegate_property(name: str):
    return property(
        lambda self: getattr(self._inner_opt, name),
        lambda self, v: setattr(self._inner_opt, name, v),
    )


for _name, _member in vars(Optimizer).items():
    if _name.startswith("__") or _name in vars(_ShardOptimizer):
        continue
    if isinstance(_member, property):
        setattr(_ShardOptimizer, _name, _delegate_property(_name))
    elif callable(_member):
        setattr(_ShardOptimizer, _name, _delegate(_name))


def shard_optimizer(
    optimizer: Optimizer, shard_fn=None, gradient_accumulation_steps: int = 1
) -> _ShardOptimizer:
    """Lay an optimizer's state out on the mesh: like its parameters (``shard_fn=None``), or
    split along a mesh dim with ``ShardingStage1/2/3(mesh_dim, mesh)``."""
    if isinstance(optimizer, _ShardOptimizer):
        optimizer = optimizer._inner_opt
    return _ShardOptimizer(optimizer, shard_fn, gradient_accumulation_steps)
