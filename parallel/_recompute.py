"""``paddle.distributed.fleet.utils.recompute``: activation recomputation (gradient checkpointing).

The block runs once without recording autograd, so its activations are not kept; it becomes ONE
node on the eager tape whose backward recomputes the forward:

* eagerly, by re-running the block with gradients on (the same kernels, the same host random
  stream position when ``preserve_rng_state``) and back-propagating through that short-lived
  sub-graph;
* inside ``paddle.jit.to_static``, as ``jax.vjp`` of ``jax.checkpoint`` of the block written as a
  pure function of the Tensors it reads, so XLA rematerializes it in the backward pass.

The Tensors the block reads (parameters, buffers, closed-over Tensors, the RNG key) are found by
running the forward under ``recording`` (``_core/functional.py``), as ``to_static`` does; the
recomputation runs the block with the recorded values swapped in (``swap_in``). State the block
writes (RNG advance, running statistics) is written once, by the forward; the recomputation
restores it. Results and gradients equal those of the plain block.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager

import jax

from paddle_compat._core import seams
from paddle_compat._core.seams import Tensor, is_inexact_np

__all__ = ["recompute", "recompute_hybrid", "recompute_sequential"]

_logger = logging.getLogger("paddle.distributed.fleet.recompute")


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


class _Block:
    """One recorded call: the function, its arguments and the state it read, with the values
    that state had when the forward started."""

    def __init__(self, function, args, kwargs, preserve_rng_state: bool):
        self.function, self.args, self.kwargs = function, args, kwargs
        self.preserve = preserve_rng_state
        self.state: list[Tensor] = []
        self.values: list = []
        self.diff: list[Tensor] = []
        self.host_rng: tuple = ()
        self.amp = None

    def forward(self):
        """Run the block without autograd, recording the Tensors it reads."""
        self.host_rng = seams.host_rng_state()
        self.amp = seams.amp_state()  # the recomputation casts as the forward did
        with seams.recording(host_random=True) as rec, seams.no_grad():
            out = self.function(*self.args, **self.kwargs)
        rng = {id(t) for t in seams.rng_state().values()}
        for t in rec.read():
            if id(t) in rng and not self.preserve:
                continue
            self.state.append(t)
            self.values.append(rec.before(t))
        self.diff = [
            t
            for t, v in zip(self.state, self.values)
            if not t.stop_gradient and is_inexact_np(v.dtype)
        ]
        return out

    def values_of_diff(self) -> list:
        by_id = {id(t): v for t, v in zip(self.state, self.values)}
        return [by_id[id(t)] for t in self.diff]

    @contextmanager
    def rerun(self, diff_values, grad: bool):
        """Run the block again on the recorded state (``diff_values`` for the differentiable
        Tensors, which become leaves); yields its outputs, and restores the state on exit."""
        diff_ids = {id(t): v for t, v in zip(self.diff, diff_values)}
        values = [diff_ids.get(id(t), v) for t, v in zip(self.state, self.values)]
        after = seams.host_rng_state()
        if self.preserve:  # eager draws replay the forward's host stream
            seams.set_host_rng_state(self.host_rng)
        try:
            with (
                seams.using_amp_state(self.amp),
                seams.swap_in(self.state, values, leaves=self.diff, eager=True, host_random=True),
            ):
                with seams.set_grad_enabled(grad):
                    out = self.function(*self.args, **self.kwargs)
                yield out
        finally:
            if self.preserve:
                seams.set_host_rng_state(after)


def _diff_outputs(out):
    leaves = jax.tree_util.tree_leaves(out, is_leaf=_is_tensor)
    return [x for x in leaves if isinstance(x, Tensor) and is_inexact_np(x._value.dtype)]


def _eager_backward(block: _Block):
    def custom(cts, create_graph):
        if create_graph and any(t._node is not None for t in block.diff):
            raise NotImplementedError(
                "recompute: higher-order gradients (create_graph=True) through a recomputed "
                "block are only supported when its differentiable inputs are leaf Tensors."
            )
        with block.rerun(block.values_of_diff(), True) as out:
            roots = [(o, c) for o, c in zip(_diff_outputs(out), cts) if not o.stop_gradient]
            capture = {("leaf", id(t)): None for t in block.diff}
            seams.run_backward(roots, create_graph=create_graph, capture=capture)
        grads = [capture[("leaf", id(t))] for t in block.diff]
        if create_graph:
            return [g if g is None or isinstance(g, Tensor) else Tensor(g) for g in grads]
        return [g._value if isinstance(g, Tensor) else g for g in grads]

    return custom


def _traced_backward(block: _Block):
    def custom(cts, create_graph):
        if create_graph:
            raise NotImplementedError(
                "recompute inside paddle.jit.to_static does not support create_graph=True."
            )

        def pure(*diff_values):
            with block.rerun(diff_values, False) as out:
                return [o._value for o in _diff_outputs(out)]

        primals = block.values_of_diff()
        cts = [c._value if isinstance(c, Tensor) else c for c in cts]
        _, vjp = jax.vjp(jax.checkpoint(pure), *primals)
        return list(vjp(cts))

    return custom


def recompute(function, *args, **kwargs):
    """Run ``function(*args, **kwargs)`` without keeping its activations; the backward pass
    recomputes them. ``preserve_rng_state`` (default True) replays the same random numbers;
    ``use_reentrant`` (default True) follows Paddle: when no Tensor argument needs a gradient
    the output needs none either (the block's parameters then get no gradient)."""
    preserve = kwargs.pop("preserve_rng_state", True)
    use_reentrant = kwargs.pop("use_reentrant", True)
    kwargs.pop("offload_indices", None)
    if not seams.is_grad_enabled():
        return function(*args, **kwargs)
    arg_tensors = [
        x
        for x in jax.tree_util.tree_leaves((args, kwargs), is_leaf=_is_tensor)
        if isinstance(x, Tensor)
    ]
    if all(t.stop_gradient for t in arg_tensors):
        _logger.warning(
            "[Recompute]: None of the inputs to current recompute block need grad, therefore "
            "there is NO need to recompute this block in backward !"
        )
        if use_reentrant:
            with seams.no_grad():
                return function(*args, **kwargs)
    block = _Block(function, args, kwargs, bool(preserve))
    out = block.forward()
    leaves, tree = jax.tree_util.tree_flatten(out, is_leaf=_is_tensor)
    # fresh Tensors: an input returned as-is keeps its own history
    wrapped = [Tensor(x._value) if isinstance(x, Tensor) else x for x in leaves]
    if block.diff:
        ctx = seams.current_trace()
        traced = ctx is not None and not ctx.eager
        custom = _traced_backward(block) if traced else _eager_backward(block)
        diff_outs = [w for w in wrapped if isinstance(w, Tensor)]
        name = getattr(function, "__name__", type(function).__name__)
        seams.record(
            ("recompute", name),
            None,
            block.diff,
            block.values_of_diff(),
            (True,) * len(block.diff),
            diff_outs,
            custom=custom,
        )
    return jax.tree_util.tree_unflatten(tree, wrapped)


def recompute_sequential(ctx: dict, functions, *args, **kwargs):
    """Recompute a ``Sequential`` (or list of callables) in ``ctx['segments']`` segments; the
    last segment runs normally. ``ctx`` may set ``preserve_rng_state``."""
    segments = int(ctx.get("segments", 1))
    preserve = ctx.get("preserve_rng_state", True)
    from paddle_compat.nn import Sequential

    if isinstance(functions, Sequential):
        functions = list(functions.children())
    functions = list(functions)
    size = len(functions) // max(segments, 1)

    def run(fns):
        def do(*xs, **kw):
            out = fns[0](*xs, **kw)
            for f in fns[1:]:
                out = f(out)
            return out

        return do

    start = 0
    if size > 0:
        for start in range(0, size * (segments - 1), size):
            out = recompute(
                run(functions[start : start + size]), *args, preserve_rng_state=preserve, **kwargs
            )
            args, kwargs = (out,), {}
        start = size * (segments - 1)
    if start >= len(functions):
        return args[0]
    return run(functions[start:])(*args, **kwargs)


def recompute_hybrid(ctx: dict, function, *args, **kwargs):
    """``recompute`` for hybrid-parallel models (``ctx`` holds the model-parallel group and
    offload flags; on JAX the sharded arrays need no special handling)."""
    preserve = ctx.get("preserve_rng_state", True) if isinstance(ctx, dict) else True
    return recompute(function, *args, preserve_rng_state=preserve, **kwargs)
