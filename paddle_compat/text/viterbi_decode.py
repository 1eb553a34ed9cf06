"""paddle.text.viterbi_decode and ViterbiDecoder: the highest scoring tag path of a linear-chain
CRF from emission potentials and a transition matrix.

The kernel follows Paddle's CPU kernel step for step (the same masked float arithmetic, its
argmax that takes the first maximum and skips NaN after the first entry, its
start/stop rows when ``include_bos_eos_tag``), as two ``lax.scan``s: forward over the time
steps, then back through the argmax history. It always decodes all ``seq_len`` steps (the
steps past ``max(lengths)`` leave every score unchanged), so one compiled kernel serves every
``lengths``; eagerly the path is then cut to ``max(lengths)`` columns as in Paddle.

Difference: inside ``paddle.jit.to_static`` the lengths are not known while tracing, so the
path keeps all ``seq_len`` columns (its first ``max(lengths)`` columns are Paddle's path, the
rest are 0; the same on the first, eager run of the function) and the value checks on
``lengths`` are skipped in the compiled program.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._core import trace_state
from .._core.op_errors import check_dtype
from .._core.registry import op
from .._core.tensor import Tensor
from ..nn import Layer

__all__ = ["ViterbiDecoder", "viterbi_decode"]

_FLOATS = ("float32", "float64")


def _first_max(x, axis: int):
    """(index, value) of the maximum along ``axis`` as Paddle's kernel finds it: the first of
    equal maxima, and a NaN wins only in the first position (later ones never compare greater).
    Two plain reductions (max, then the smallest index holding it): XLA's CPU argmax is a
    slower paired reduction."""
    pos = jax.lax.broadcasted_iota(jnp.int32, x.shape, axis)
    x = jnp.where(jnp.isnan(x) & (pos > 0), jnp.asarray(-jnp.inf, x.dtype), x)
    best = jnp.max(x, axis=axis)
    at = jnp.where(x == jnp.expand_dims(best, axis), pos, x.shape[axis])
    idx = jnp.where(jnp.isnan(best), 0, jnp.min(at, axis=axis))  # NaN first: index 0
    return idx, best


@op(
    "_viterbi_decode",
    tensors=("potentials", "transition_params", "lengths"),
    namespaces=(),
    method=None,
    differentiable=False,
)
def _viterbi_kernel(potentials, transition_params, lengths, include_bos_eos_tag: bool):
    """(scores [B], path [B, T] int64) over all T steps; see the module docstring."""
    pot = potentials
    dt = pot.dtype
    n = pot.shape[2]
    trans = transition_params.reshape(-1)[: n * n].reshape(n, n)  # Paddle reads n*n values
    lengths = lengths.astype(jnp.int64)
    max_len = jnp.max(lengths)
    steps = jnp.swapaxes(pot, 0, 1)  # [T, B, N]
    stop, start = trans[n - 2], trans[n - 1]

    def add_stop(alpha, left):
        if not include_bos_eos_tag:
            return alpha
        return alpha + stop * (left == 1).astype(dt)[:, None]

    alpha = steps[0] + start if include_bos_eos_tag else steps[0]
    alpha = add_stop(alpha, lengths)
    one = jnp.asarray(1, dt)

    def forward(carry, inputs):
        alpha, left = carry
        logit, i = inputs
        best_prev, best = _first_max(alpha[:, :, None] + trans[None], axis=1)
        mask = (left > 0).astype(dt)[:, None]
        new = alpha * (one - mask) + (best + logit) * mask
        new = add_stop(new, left)
        new = jnp.where(i < max_len, new, alpha)  # Paddle stops at max(lengths)
        return (new, left - 1), best_prev

    t = pot.shape[1]
    (alpha, _), history = jax.lax.scan(
        forward, (alpha, lengths - 1), (steps[1:], jnp.arange(1, t, dtype=jnp.int64))
    )
    last, scores = _first_max(alpha, axis=1)
    last = last.astype(jnp.int64)

    def backward(last, inputs):
        best_prev, p = inputs
        left = lengths - 1 - p  # steps left after position p
        tag = jnp.take_along_axis(best_prev, last[:, None], 1)[:, 0] * (left > 0)
        at_end = (left == 0).astype(jnp.int64)
        tag = tag * (1 - at_end) + last * at_end
        return tag + (left < 0) * last, tag

    _, body = jax.lax.scan(
        backward, last, (history, jnp.arange(t - 1, dtype=jnp.int64)), reverse=True
    )
    tail = last * (lengths - t >= 0)
    path = jnp.concatenate([body, tail[None]], axis=0).T
    return scores, path


def _invalid(msg: str) -> ValueError:
    return ValueError(f"(InvalidArgument) {msg}")


def _check(potentials, transition_params, lengths, include_bos_eos_tag) -> None:
    """Paddle's argument, shape and dtype checks, in its order."""
    for pos, (arg, v) in enumerate(
        (("potentials", potentials), ("transition_params", transition_params), ("lengths", lengths))
    ):
        if not isinstance(v, Tensor):
            kind = "numpy.ndarray" if isinstance(v, np.ndarray) else type(v).__name__
            raise _invalid(
                f"viterbi_decode(): argument '{arg}' (position {pos}) must be Tensor, but got "
                f"{kind}"
            )
    if not isinstance(include_bos_eos_tag, bool):
        raise TypeError(
            "(InvalidType) viterbi_decode(): argument (position 4) must be bool, but got "
            f"{type(include_bos_eos_tag).__name__}"
        )
    check_dtype(potentials, _FLOATS, "viterbi_decode", RuntimeError, "potentials")
    pot, trans, lens = potentials.shape, transition_params.shape, lengths.shape
    if len(pot) != 3:
        raise _invalid(
            f"The rank of Input in ViterbiDecode  must be 3. But received Input's rank is "
            f"{len(pot)}."
        )
    if len(lens) != 1:
        raise _invalid(
            f"The rank of Length in ViterbiDecode must be 1. But received Length's rank is "
            f"{len(lens)}."
        )
    if len(trans) != 2:
        raise _invalid(
            f"The rank of Transition in ViterbiDecode must be 2. But received Transition's "
            f"rank is {len(trans)}."
        )
    if pot[0] != lens[0]:
        raise _invalid("The batch size of Input and Length should be equal.")
    if pot[2] != trans[0]:  # Paddle's message names the two sizes the other way round
        raise _invalid(
            f"The number of tags of Input ({trans[0]}) and Transition ({pot[2]}) should be equal."
        )
    if trans[1] < trans[0]:
        raise _invalid(
            f"viterbi_decode needs a [num_tags, num_tags] transition matrix, got {list(trans)}."
        )
    if pot[2] < 2:
        raise _invalid(f"viterbi_decode needs at least 2 tags, got {pot[2]}.")
    for arg, v, want in (
        ("transition_params", transition_params, potentials.dtype),
        ("lengths", lengths, "int64"),
    ):
        have = v.dtype.name if hasattr(v.dtype, "name") else str(v.dtype)
        want = want.name if hasattr(want, "name") else want
        if have != want:
            raise _invalid(
                f"The type of data we are trying to retrieve ({want}) does not match the type "
                f"of data ({have}) currently contained in the container ({arg})."
            )


@op(
    "viterbi_decode",
    tensors=("potentials", "transition_params", "lengths"),
    namespaces=("paddle.text",),
    method=None,
    composite=True,
)
def viterbi_decode(
    potentials: Tensor,
    transition_params: Tensor,
    lengths: Tensor,
    include_bos_eos_tag: bool = True,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """The Viterbi path of a linear-chain CRF: (scores [batch], path [batch, max(lengths)]
    int64). Inside to_static the path has ``seq_len`` columns (zeros past ``max(lengths)``)."""
    _check(potentials, transition_params, lengths, include_bos_eos_tag)
    batch, seq_len = potentials.shape[0], potentials.shape[1]
    concrete = not trace_state.is_tracer(lengths._value)
    if concrete:
        lens = np.asarray(trace_state.read(lengths))
        if batch == 0:
            raise _invalid("viterbi_decode needs a non-empty batch (lengths is empty).")
        max_len = int(lens.max())
        if max_len > seq_len or seq_len == 0:
            end = max(max_len, 1)
            raise IndexError(
                "(OutOfRange) The end row index is out of bound.\n  [Hint: Expected end_idx "
                f"<= meta_.dims[0], but received end_idx:{end} > meta_.dims[0]:{seq_len}.]"
            )
        if max_len <= 0:
            raise _invalid(f"viterbi_decode needs max(lengths) > 0, got {max_len}.")
    scores, path = _viterbi_kernel(potentials, transition_params, lengths, include_bos_eos_tag)
    # inside to_static (its first, eager run included) the path keeps seq_len columns
    if concrete and max_len < seq_len and trace_state.current() is None:
        path = path[:, :max_len]
    return scores, path


class ViterbiDecoder(Layer):
    """Layer form of ``viterbi_decode`` with a fixed transition matrix: ``forward(potentials,
    lengths)`` returns (scores, path)."""

    def __init__(
        self, transitions: Tensor, include_bos_eos_tag: bool = True, name: str | None = None
    ) -> None:
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials: Tensor, lengths: Tensor) -> tuple[Tensor, Tensor]:
        return viterbi_decode(
            potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name
        )
