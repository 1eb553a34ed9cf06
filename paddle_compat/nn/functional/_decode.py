"""paddle.nn.functional.gather_tree: the backtrace behind beam search (``BeamSearchDecoder``).

``ids``/``parents`` are ``[max_time, batch_size, beam_size]``; walking back from the last
step, each beam follows its parent index one step at a time and picks that step's id. The
walk is one reversed ``jax.lax.scan``, so eager mode and ``to_static`` compile one loop.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._core import runtime_checks
from ..._core.registry import op

_F = dict(namespaces=("paddle.nn.functional",), method=None)


def _check_gather_tree(vals: dict) -> None:
    ids, parents = vals["ids"], vals["parents"]
    if len(ids.shape) != 3:
        raise ValueError(
            "The input ids must be a 3D tensor with shape [length, batch_size, beam_size]"
        )
    if list(ids.shape) != list(parents.shape):
        raise ValueError(
            "(InvalidArgument) The shape of Input(Parents) must be same with the shape of "
            "Input(Ids)."
        )
    if ids.dtype != parents.dtype and str(parents.dtype).endswith(("int32", "int64")):
        raise ValueError(
            f"(InvalidArgument) The type of data we are trying to retrieve "
            f"({str(ids.dtype).replace('paddle.', '')}) does not match the type of data "
            f"({str(parents.dtype).replace('paddle.', '')}) currently contained in the "
            "container."
        )
    beam = ids.shape[2]
    runtime_checks.check_in_range(
        parents,
        -(2**62),
        beam,
        ValueError,
        "(InvalidArgument) The parents must be less than beam size, but received parents "
        "{bad} is greater than or equal to beam size {hi}. ",
    )


@op(
    "gather_tree",
    tensors=("ids", "parents"),
    dtypes=("int32", "int64"),
    differentiable=False,
    check=_check_gather_tree,
    **_F,
)
def gather_tree(ids: jax.Array, parents: jax.Array) -> jax.Array:
    """The full id sequence of every beam: ``out[T-1] = ids[T-1]``, then backwards
    ``out[t] = ids[t][parent]`` with ``parent`` followed through ``parents``."""
    start = jnp.broadcast_to(jnp.arange(ids.shape[2], dtype=parents.dtype), ids.shape[1:])

    def back(beam, step):
        id_t, parent_t = step
        out = jnp.take_along_axis(id_t, beam, axis=-1)
        return jnp.take_along_axis(parent_t, beam, axis=-1), out

    _, out = jax.lax.scan(back, start, (ids, parents), reverse=True)
    return out
