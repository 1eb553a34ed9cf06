"""Decoding: ``BeamSearchDecoder`` and the loop that drives any decoder, ``dynamic_decode``.

A decoder has three steps: ``initialize(inits) -> (inputs, states, finished)``,
``step(time, inputs, states, **kwargs) -> (outputs, next_states, next_inputs, finished)`` and
an optional ``finalize(outputs, final_states, sequence_lengths)``. ``dynamic_decode`` calls
``step`` until every sequence is finished (read on the host, as Paddle's dynamic graph does)
or ``max_step_num`` is passed, stacks each step's outputs along a new time axis and hands the
time-major stack to ``finalize``.

Beam search keeps ``beam_size`` hypotheses per batch entry. States are ``[batch, beam, ...]``
between steps and ``[batch * beam, ...]`` inside the cell; each step adds the cell's
log-softmax to the running log-probabilities (a finished beam may only emit ``end_token``, at
no cost), keeps the ``beam_size`` best of ``beam * vocab`` continuations (``topk``), and
gathers the surviving beams' states, finished flags and lengths. ``finalize`` backtracks the
parent indices with ``paddle.nn.functional.gather_tree``. Every step is ordinary ops, so the
log-probabilities carry gradients to the cell, ``output_fn`` and ``embedding_fn``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..._core.registry import call_op
from ..._core.tensor import Tensor
from .. import functional as F

__all__ = ["BeamSearchDecoder", "dynamic_decode"]

_KINF = 1.0e9  # the score of an impossible continuation


# -- nested structures (lists, tuples, namedtuples, dicts) of Tensors --------------------------
def _flatten(s) -> list:
    if isinstance(s, dict):
        return [t for k in sorted(s) for t in _flatten(s[k])]
    if isinstance(s, list | tuple):
        return [t for x in s for t in _flatten(x)]
    return [s]


def _map(fn: Callable, *s):
    first = s[0]
    if isinstance(first, dict):
        return {k: _map(fn, *(x[k] for x in s)) for k in first}
    if isinstance(first, list | tuple):
        items = [_map(fn, *xs) for xs in zip(*s)]
        return type(first)(*items) if hasattr(first, "_fields") else type(first)(items)
    return fn(*s)


class Decoder:
    """Base class of decoders driven by ``dynamic_decode`` (``paddle.nn.decode.Decoder``)."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        """True when ``step`` keeps finished sequences finished and reports their lengths in
        its states' ``lengths``, so ``dynamic_decode`` leaves them alone."""
        return False


class BeamSearchDecoder(Decoder):
    """Beam search around an RNN cell: ``embedding_fn`` maps ids to the cell's inputs,
    ``output_fn`` the cell's outputs to vocabulary logits."""

    class OutputWrapper(NamedTuple):
        scores: Any
        predicted_ids: Any
        parent_ids: Any

    class StateWrapper(NamedTuple):
        cell_states: Any
        log_probs: Any
        finished: Any
        lengths: Any

    def __init__(
        self,
        cell,
        start_token: int,
        end_token: int,
        beam_size: int,
        embedding_fn: Callable[..., Any] | None = None,
        output_fn: Callable[..., Any] | None = None,
    ) -> None:
        self.cell = cell
        self.embedding_fn = embedding_fn
        self.output_fn = output_fn
        self.start_token = start_token
        self.end_token = end_token
        self.beam_size = beam_size

    # -- reshaping between [batch, beam, ...] and [batch * beam, ...] --------------------------
    @staticmethod
    def tile_beam_merge_with_batch(x: Tensor, beam_size: int) -> Tensor:
        """``[batch, ...] -> [batch * beam_size, ...]``, each entry repeated ``beam_size``
        times in a row (to tile an encoder's outputs for the beams)."""
        x = call_op("unsqueeze", x, [1])
        x = call_op("tile", x, [1, beam_size] + [1] * (len(x.shape) - 2))
        return call_op("reshape", x, [-1, *x.shape[2:]])

    def _split_batch_beams(self, x: Tensor) -> Tensor:
        return call_op("reshape", x, [-1, self.beam_size, *x.shape[1:]])

    def _merge_batch_beams(self, x: Tensor) -> Tensor:
        return call_op("reshape", x, [-1, *x.shape[2:]])

    def _expand_to_beam_size(self, x: Tensor) -> Tensor:
        x = call_op("unsqueeze", x, [1])
        return call_op("tile", x, [1, self.beam_size] + [1] * (len(x.shape) - 2))

    def _gather(self, x: Tensor, indices: Tensor, batch_size) -> Tensor:
        """``x[b, indices[b, k]]`` for ``x`` of shape [batch, beam, ...]."""
        beam = indices.shape[1]
        offset = call_op("arange", 0, int(batch_size) * x.shape[1], x.shape[1], "int64")
        flat_idx = call_op("reshape", indices + call_op("unsqueeze", offset, [1]), [-1])
        flat = call_op("reshape", x, [-1, *x.shape[2:]])
        out = call_op("gather", flat, flat_idx, 0)
        return call_op("reshape", out, [-1, beam, *x.shape[2:]])

    def _mask_probs(self, probs: Tensor, finished: Tensor) -> Tensor:
        """A finished beam can only continue with ``end_token``, at log-probability 0."""
        vocab = probs.shape[-1]
        noend = [-_KINF] * vocab
        noend[self.end_token] = 0.0
        noend = call_op("to_tensor", noend, probs.dtype)
        return call_op("where", call_op("unsqueeze", finished, [2]), noend, probs)

    # -- the decoder protocol ------------------------------------------------------------------
    def initialize(self, initial_cell_states):
        """Tile the cell states for the beams; every beam starts from ``start_token``, the
        first with log-probability 0 and the others at -1e9 (so step 1 expands one beam)."""
        if initial_cell_states is None:
            raise ValueError(
                "(InvalidArgument) BeamSearchDecoder.initialize(): argument "
                "'initial_cell_states' must be Tensor, but got None"
            )
        states = _map(self._expand_to_beam_size, initial_cell_states)
        ref = _flatten(initial_cell_states)[0]
        batch = ref.shape[0]
        ids = call_op("full", [batch, self.beam_size], self.start_token, "int64")
        inputs = self.embedding_fn(ids) if self.embedding_fn is not None else ids
        row = [[0.0] + [-_KINF] * (self.beam_size - 1)]
        log_probs = call_op("tile", call_op("to_tensor", row, "float32"), [batch, 1])
        finished = call_op("full", [batch, self.beam_size], False, "bool")
        lengths = call_op("zeros", [batch, self.beam_size], "int64")
        return inputs, self.StateWrapper(states, log_probs, finished, lengths), finished

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        vocab = logits.shape[-1]
        step_log_probs = F.log_softmax(logits)
        step_log_probs = self._mask_probs(step_log_probs, beam_state.finished)
        log_probs = step_log_probs + call_op("unsqueeze", beam_state.log_probs, [2])
        scores = call_op("reshape", log_probs, [-1, self.beam_size * vocab])
        topk_scores, topk_indices = call_op("topk", scores, self.beam_size)
        beam_indices = call_op("floor_divide", topk_indices, call_op("full", [], vocab, "int64"))
        token_indices = call_op("remainder", topk_indices, call_op("full", [], vocab, "int64"))
        batch = logits.shape[0]
        next_cell_states = _map(lambda x: self._gather(x, beam_indices, batch), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices, batch)
        next_lengths = self._gather(beam_state.lengths, beam_indices, batch)
        next_lengths = next_lengths + call_op(
            "cast", call_op("logical_not", next_finished), next_lengths.dtype
        )
        ended = call_op("equal", token_indices, call_op("full", [], self.end_token, "int64"))
        next_finished = call_op("logical_or", next_finished, ended)
        output = self.OutputWrapper(topk_scores, token_indices, beam_indices)
        state = self.StateWrapper(next_cell_states, topk_scores, next_finished, next_lengths)
        return output, state

    def step(self, time, inputs, states, **kwargs):
        """Run the cell on every beam, expand and prune to ``beam_size`` hypotheses; returns
        ``(OutputWrapper, StateWrapper, next_inputs, finished)``."""
        inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map(self._split_batch_beams, cell_outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        ids = output.predicted_ids
        next_inputs = self.embedding_fn(ids) if self.embedding_fn is not None else ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        """The whole id sequence of every beam, ``[time, batch, beam]``, from the per-step
        ids and parents (``gather_tree``)."""
        return F.gather_tree(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def tracks_own_finished(self) -> bool:
        return True


def _keep_finished(old, new, finished):
    """``old`` where the sequence had already finished, else ``new`` (impute_finished)."""
    mask = finished
    while len(mask.shape) < len(new.shape):
        mask = call_op("unsqueeze", mask, [-1])
    return call_op("where", mask, old, new)


def _batch_major(x: Tensor) -> Tensor:
    return call_op("transpose", x, [1, 0, *range(2, len(x.shape))])


def dynamic_decode(
    decoder,
    inits=None,
    max_step_num=None,
    output_time_major=False,
    impute_finished=False,
    is_test=False,
    return_length=False,
    **kwargs,
):
    """Run ``decoder`` step by step until all sequences finish (or ``max_step_num`` steps
    have run past the first); returns ``(outputs, final_states)``, plus the sequence lengths
    with ``return_length``. Outputs are batch-major unless ``output_time_major``. ``is_test``
    is accepted for Paddle's API (a memory hint there, nothing to do here)."""
    inputs, states, finished = decoder.initialize(inits)
    lengths = call_op("cast", call_op("zeros_like", finished), "int64")
    steps: list = []
    time = call_op("full", [1], 0, "int64")
    step_idx = 0
    while not bool(call_op("all", finished)):
        out, next_states, next_inputs, next_finished = decoder.step(time, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            next_finished = call_op("logical_or", next_finished, finished)
            lengths = lengths + call_op("cast", call_op("logical_not", next_finished), "int64")
            if impute_finished:
                keep = next_finished
                next_states = _map(
                    lambda old, new, m=keep: _keep_finished(old, new, m), states, next_states
                )
        else:
            lengths = getattr(next_states, "lengths", lengths)
        steps.append(out)
        inputs, states, finished = next_inputs, next_states, next_finished
        time = time + 1
        step_idx += 1
        if max_step_num is not None and step_idx > max_step_num:
            break
    outputs = _map(lambda *ts: call_op("stack", list(ts), 0), *steps)
    final_states = states
    try:
        outputs, final_states = decoder.finalize(outputs, final_states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        outputs = _map(_batch_major, outputs)
    if return_length:
        return outputs, final_states, lengths
    return outputs, final_states
