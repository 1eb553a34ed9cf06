"""Small ``paddle.static`` helpers: ``create_parameter``, ``create_global_var``,
``accuracy``, ``name_scope``, ``device_guard``, ``xpu_places``."""

from __future__ import annotations

import contextlib

import jax.numpy as jnp

from .._core import dtype as _dt
from .._core import static_mode
from .._core.tensor import Tensor, unique_name
from ._program import default_main_program


def create_parameter(
    shape, dtype, name=None, attr=None, is_bias: bool = False, default_initializer=None
):
    """A Parameter of the current main Program (XavierUniform weights, zero biases)."""
    from ..framework._param_attr import create_parameter as _create

    with static_mode.suspended():
        p = _create(shape, dtype, name, attr, is_bias, default_initializer)
    default_main_program()._note_param(p)
    return p


def create_global_var(
    shape, value, dtype, persistable: bool = False, force_cpu: bool = False, name=None
):
    """A Tensor filled with ``value`` (persistable: kept with the parameters)."""
    t = Tensor(
        jnp.full([int(d) for d in shape], value, _dt.to_dtype(dtype).np),
        name=name or unique_name("global_var"),
    )
    t.persistable = persistable
    return t


def accuracy(input, label, k: int = 1, correct=None, total=None):
    """Top-k accuracy: the fraction of rows of ``input`` [N, C] whose ``label`` [N, 1] is
    among the k highest scores (a float32 scalar)."""
    from .._core.registry import call_op

    if correct is not None or total is not None:
        raise NotImplementedError("paddle.static.accuracy: correct / total are not supported")
    _, idx = call_op("topk", input, k)
    hit = call_op("any", call_op("equal", idx, call_op("cast", label, idx.dtype)), axis=1)
    return call_op("mean", call_op("cast", hit, "float32"))


@contextlib.contextmanager
def name_scope(prefix=None):
    """Accepted for compatibility: op names carry no scope here."""
    yield


@contextlib.contextmanager
def device_guard(device=None):
    """Accepted for compatibility: XLA places the whole compiled program."""
    yield


def xpu_places(device_ids=None) -> list:
    """[]: no XPU is available to JAX."""
    return []
