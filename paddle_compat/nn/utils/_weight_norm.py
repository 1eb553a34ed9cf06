"""Weight normalization: ``weight = g * v / ||v||`` with the norm over every axis but ``dim``
(over all axes when ``dim`` is None or -1). ``weight_norm`` replaces the parameter by
``<name>_v`` and ``<name>_g`` and recomputes ``<name>`` in a forward pre-hook, so gradients
reach ``g`` and ``v``; ``remove_weight_norm`` folds them back into one Parameter."""

from __future__ import annotations

from ..._core.registry import call_op
from ..._core.tensor import Parameter, Tensor

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def _norm_except_dim(v: Tensor, dim: int) -> Tensor:
    """||v|| over every axis but ``dim`` (a vector of ``v.shape[dim]``), or over all (0-D)."""
    sq = v * v
    if dim == -1:
        return call_op("sqrt", call_op("sum", sq))
    axes = [i for i in range(len(v.shape)) if i != dim]
    return call_op("sqrt", call_op("sum", sq, axes)) if axes else call_op("sqrt", sq)


def _weight(g: Tensor, v: Tensor, dim: int) -> Tensor:
    scale = g / _norm_except_dim(v, dim)
    if dim != -1:
        shape = [1] * len(v.shape)
        shape[dim] = v.shape[dim]
        scale = call_op("reshape", scale, shape)
    return v * scale


class WeightNorm:
    """The forward pre-hook ``weight_norm`` registers: before each forward it recomputes
    ``layer.<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = dim

    def compute_weight(self, layer) -> Tensor:
        g = getattr(layer, self.name + "_g")
        v = getattr(layer, self.name + "_v")
        return _weight(g, v, self.dim)

    @staticmethod
    def apply(layer, name: str, dim: int) -> WeightNorm:
        """Split ``layer.<name>`` into ``<name>_g`` and ``<name>_v`` and register the hook."""
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        weight = layer._parameters[name]
        rank = len(weight.shape)
        if dim is None:
            dim = -1
        if not -rank <= dim < rank:
            raise AssertionError("dim must set between [-R, R), R means the dimension of weight.")
        if dim != -1:
            dim %= rank
        hook = WeightNorm(name, dim)
        trainable = not weight.stop_gradient
        g = _norm_except_dim(Tensor(weight._value), dim)
        delattr(layer, name)
        layer.add_parameter(name + "_v", Parameter(weight._value, trainable=trainable))
        layer.add_parameter(name + "_g", Parameter(g._value, trainable=trainable))
        setattr(layer, name, hook.compute_weight(layer))
        layer.register_forward_pre_hook(hook)
        return hook

    def remove(self, layer) -> None:
        """Fold ``<name>_g`` and ``<name>_v`` back into one Parameter ``<name>``."""
        w = self.compute_weight(layer)
        trainable = not getattr(layer, self.name + "_v").stop_gradient
        delattr(layer, self.name)
        delattr(layer, self.name + "_g")
        delattr(layer, self.name + "_v")
        layer.add_parameter(self.name, Parameter(w._value, trainable=trainable))

    def __call__(self, layer, inputs) -> None:
        setattr(layer, self.name, self.compute_weight(layer))


def weight_norm(layer, name: str = "weight", dim: int = 0):
    """Split ``layer.<name>`` into ``<name>_g`` (its norms) and ``<name>_v`` (its direction);
    returns ``layer``."""
    WeightNorm.apply(layer, name, dim)
    return layer


def remove_weight_norm(layer, name: str = "weight"):
    """Undo ``weight_norm``: ``<name>`` becomes one Parameter again; returns ``layer``."""
    for key, hook in list(layer._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(layer)
            del layer._forward_pre_hooks[key]
            layer._forward_pre_hooks_with_kwargs_flag.pop(key, None)
            return layer
    raise ValueError(f"weight_norm of '{name}' not found in {layer}")
