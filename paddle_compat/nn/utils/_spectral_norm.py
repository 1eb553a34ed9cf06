"""Spectral normalization: ``paddle.nn.utils.spectral_norm`` (a forward pre-hook on a layer)
and the kernel behind it and the ``paddle.nn.SpectralNorm`` layer.

The weight is viewed as a matrix ``W`` of ``[shape[dim], -1]`` (``dim`` moved to the front);
power iteration refines the estimates ``u``/``v`` of its first singular vectors
(``v = normalize(W^T u)``, ``u = normalize(W v)``) and the result is ``weight / sigma`` with
``sigma = u^T W v``. As in Paddle, the gradient treats the iterated ``u``/``v`` as constants.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._core.autograd import no_grad
from ..._core.registry import call_op, op
from ..._core.tensor import Parameter, Tensor

__all__ = ["SpectralNorm", "spectral_norm"]


def _as_matrix(w: jax.Array, dim: int) -> jax.Array:
    if dim != 0:
        w = jnp.moveaxis(w, dim, 0)
    return w.reshape(w.shape[0], -1)


@op(
    "_nn_spectral_norm",
    tensors=("weight", "u", "v"),
    dtypes=("float32", "float64"),
    kernel="spectral_norm",
    namespaces=(),
    method=None,
)
def _spectral_norm(weight, u, v, dim=0, power_iters=1, eps=1e-12, add_eps=True):
    """``(weight / sigma, u, v)`` after ``power_iters`` iterations; ``add_eps``: normalize
    by ``norm + eps`` (the layer's kernel), else by ``max(norm, eps)`` (the hook's)."""
    mat = jax.lax.stop_gradient(_as_matrix(weight, dim))

    def unit(x):
        n = jnp.linalg.norm(x)
        return x / (n + eps) if add_eps else x / jnp.maximum(n, eps)

    for _ in range(power_iters):
        v = unit(mat.T @ u)
        u = unit(mat @ v)
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    sigma = u @ (_as_matrix(weight, dim) @ v)
    return weight / sigma, u, v


class SpectralNorm:
    """The forward pre-hook ``spectral_norm`` registers: before each forward ``layer.<name>``
    becomes ``<name>_orig / sigma`` (one power iteration per call in training mode)."""

    def __init__(
        self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but got "
                f"n_power_iterations={n_power_iterations}"
            )
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        """``weight`` as a ``[shape[dim], -1]`` matrix (``dim`` moved to the front)."""
        return Tensor(_as_matrix(weight._value, self.dim), stop_gradient=weight.stop_gradient)

    def compute_weight(self, layer, do_power_iteration: bool) -> Tensor:
        w = getattr(layer, self.name + "_orig")
        u = getattr(layer, self.name + "_u")
        v = getattr(layer, self.name + "_v")
        iters = self.n_power_iterations if do_power_iteration else 0
        out, u2, v2 = call_op("_nn_spectral_norm", w, u, v, self.dim, iters, self.eps, False)
        if do_power_iteration:
            with no_grad():
                u.set_value(u2)
                v.set_value(v2)
        return out

    def __call__(self, layer, inputs) -> None:
        setattr(layer, self.name, self.compute_weight(layer, layer.training))

    @staticmethod
    def apply(layer, name: str, n_power_iterations: int, dim: int, eps: float) -> SpectralNorm:
        """Replace ``layer.<name>`` by ``<name>_orig`` and the buffers ``<name>_u`` /
        ``<name>_v`` (seeded unit vectors) and register the hook."""
        for hook in layer._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}"
                )
        hook = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = layer._parameters[name]
        rank = len(weight.shape)
        if not -rank <= dim < rank:
            raise ValueError(
                "(InvalidArgument) The input tensor's dimension should be equal to or greater "
                f"than the axis's size. But received input tensor's dimension is {rank}, axis's "
                f"size is {dim + 1}"
            )
        hook.dim = dim % rank
        h, w = _as_matrix(weight._value, hook.dim).shape
        with no_grad():
            u = call_op("normalize", call_op("randn", [h], weight.dtype), 2, 0, eps)
            v = call_op("normalize", call_op("randn", [w], weight.dtype), 2, 0, eps)
        delattr(layer, name)
        orig = Parameter(weight._value, trainable=not weight.stop_gradient)
        layer.add_parameter(name + "_orig", orig)
        setattr(layer, name, Tensor(weight._value, stop_gradient=weight.stop_gradient))
        layer.register_buffer(name + "_u", u)
        layer.register_buffer(name + "_v", v)
        layer.register_forward_pre_hook(hook)
        return hook


def spectral_norm(
    layer, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12, dim=None
):
    """Replace ``layer.<name>`` by ``<name>_orig`` (a Parameter) and two buffers ``<name>_u``,
    ``<name>_v``; before each forward ``<name>`` becomes the spectrally normalized weight
    (one power iteration per call in training mode). ``dim`` defaults to 1 for Linear and
    transposed convolutions, else 0. Returns ``layer``."""
    from .._layers.common import Linear
    from .._layers.conv import Conv1DTranspose, Conv2DTranspose, Conv3DTranspose

    if dim is None:
        transposed = (Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, Linear)
        dim = 1 if isinstance(layer, transposed) else 0
    SpectralNorm.apply(layer, name, n_power_iterations, dim, eps)
    return layer
