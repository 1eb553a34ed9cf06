"""Reverse-mode gradients of a while loop whose trip count is only known when it runs.

``lax.while_loop`` has no reverse-mode derivative (its iterations are not stored). Here the
forward pass runs the loop and counts its ``n`` iterations. The backward pass first re-runs the
loop once, keeping the carry every ``stride = ceil(n / CHECKPOINTS)`` iterations (at most
``CHECKPOINTS`` carries in memory), then walks the segments from the last to the first: inside
a segment it recomputes the carry at each iteration from the segment's checkpoint, last
iteration first, and applies the body's VJP there. That is about ``n * (1 + stride / 2)``
extra body runs (``2n`` up to ``CHECKPOINTS`` iterations), memory for ``CHECKPOINTS`` carries,
and the exact gradient (Paddle stores every iteration's variables instead)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

CHECKPOINTS = 32  # carries the backward keeps: n iterations cost ~n * (1 + n / 64) body runs


def while_with_grad(cond, body, params: list, carry):
    """``lax.while_loop(lambda c: cond(params, c), lambda c: body(params, c), carry)``,
    differentiable in ``params`` (a list of inexact arrays) and in the inexact leaves of
    ``carry`` (a pytree of arrays)."""
    leaves, tree = jax.tree_util.tree_flatten(carry)
    is_diff = [jnp.issubdtype(x.dtype, jnp.inexact) for x in leaves]

    def split(c):
        ls = jax.tree_util.tree_leaves(c)
        return [x for x, d in zip(ls, is_diff) if d], [x for x, d in zip(ls, is_diff) if not d]

    def join(diff, rest):
        it_d, it_r = iter(diff), iter(rest)
        return jax.tree_util.tree_unflatten(
            tree, [next(it_d) if d else next(it_r) for d in is_diff]
        )

    def run(p, c0, count: bool):
        if not count:
            return lax.while_loop(lambda c: cond(p, c), lambda c: body(p, c), c0), None
        s = lax.while_loop(
            lambda s: cond(p, s[0]), lambda s: (body(p, s[0]), s[1] + 1), (c0, jnp.int32(0))
        )
        return s

    def advance(p, c, k):  # k body runs from carry c
        return lax.fori_loop(0, k, lambda _, c: body(p, c), c)

    @jax.custom_vjp
    def loop(p, diff, rest):
        return split(run(p, join(diff, rest), False)[0])

    def fwd(p, diff, rest):
        out, n = run(p, join(diff, rest), True)
        return split(out), (p, diff, rest, n)

    def bwd(res, cts):
        p, diff, rest, n = res
        c0 = join(diff, rest)
        stride = jnp.maximum((n + CHECKPOINTS - 1) // CHECKPOINTS, 1)
        segments = (n + stride - 1) // stride

        def keep(j, state):  # checkpoint j: the carry after j * stride iterations
            saved, c = state
            saved = jax.tree_util.tree_map(lambda b, x: b.at[j].set(x), saved, c)
            return saved, advance(p, c, jnp.minimum(stride, n - j * stride))

        empty = jax.tree_util.tree_map(lambda x: jnp.zeros((CHECKPOINTS, *x.shape), x.dtype), c0)
        saved, _ = lax.fori_loop(0, segments, keep, (empty, c0))

        def segment(jj, acc):
            j = segments - 1 - jj
            start = jax.tree_util.tree_map(lambda b: b[j], saved)
            length = jnp.minimum(stride, n - j * stride)

            def back(i, acc):
                ct_diff, ct_p = acc
                diff_k, rest_k = split(advance(p, start, length - 1 - i))
                _, vjp = jax.vjp(lambda p_, d_: split(body(p_, join(d_, rest_k)))[0], p, diff_k)
                dp, dd = vjp(ct_diff)
                return list(dd), [a + b for a, b in zip(ct_p, dp)]

            return lax.fori_loop(0, length, back, acc)

        init = (list(cts[0]), [jnp.zeros_like(x) for x in p])
        ct_diff, ct_p = lax.fori_loop(0, segments, segment, init)
        return ct_p, ct_diff, [np.zeros(x.shape, jax.dtypes.float0) for x in rest]

    loop.defvjp(fwd, bwd)
    diff, rest = split(carry)
    return join(*loop(list(params), diff, rest))
