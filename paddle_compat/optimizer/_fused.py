"""The fused optimizer update: clipping, weight decay and the update rule for every parameter in
ONE compiled call per ``step()``.

``build(key)`` returns a jitted pure function
``(params, grads, states, masters, lr, found_inf) -> (params, states, masters, clipped)``
over flat lists of arrays; everything else (rule, hyperparameters, clip strategies, which
parameter has a master weight, ...) is static and part of ``key``, so a step with the same
configuration and shapes reuses the compiled program; the learning rate is an array argument,
so changing it never recompiles.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from .._core import segment_store

LOW_PRECISION = (jnp.dtype(jnp.float16), jnp.dtype(jnp.bfloat16))


class Slot(NamedTuple):
    """Static description of one parameter's update."""

    lr_scale: float  # optimize_attr['learning_rate'] (group learning_rate)
    reg: object  # regularizer with a jax ``_term`` (hashable), or None
    clip: int  # index into the clip strategies, -1: none
    need_clip: bool
    hp: tuple  # the rule's hyperparameters
    master: bool  # update a float32 master weight, write back a cast copy
    write_grad: bool  # return the clipped gradient (Paddle clips the grad Tensor in place)


class Key(NamedTuple):
    rule: object  # fn(p, g, states, lr, hp) -> (p, states)
    slots: tuple
    clips: tuple  # clip strategy objects (hashed by their _fused_key)
    lr_dtype: object
    found_inf: bool


class _ClipRef:
    """Hash a clip strategy by its configuration, not its identity."""

    def __init__(self, clip):
        self.clip = clip
        self.key = (type(clip), clip._fused_key())

    def __hash__(self):
        return hash(self.key)

    def __eq__(self, other):
        return isinstance(other, _ClipRef) and self.key == other.key

    def __segment_name__(self):
        return _own_name("clip", self.key)


class _RegRef:
    def __init__(self, reg):
        self.reg = reg
        self.key = (type(reg), float(reg._coeff))

    def __hash__(self):
        return hash(self.key)

    def __eq__(self, other):
        return isinstance(other, _RegRef) and self.key == other.key

    def __segment_name__(self):
        return _own_name("reg", self.key)


def _own_name(kind, key):
    """A stable name for a clip or regularizer (``segment_store``): only the package's own
    classes, whose traced code the store's fingerprint covers."""
    if not key[0].__module__.startswith("paddle_compat"):
        return None
    text = segment_store.encode(key)
    return None if text is None else f"{kind}:{text}"


_CACHE: dict = {}
stats = {"compiled_calls": 0, "builds": 0}


def build(key: Key):
    fn = _CACHE.get(key)
    if fn is None:
        stats["builds"] += 1
        fn = _CACHE[key] = jax.jit(_make(key))
    return fn


def run(key: Key, params, grads, states, masters, lr, found_inf):
    """The fused update for ``key`` on these arrays: one compiled call, through the segment
    store (a warm process reads the program instead of tracing a few hundred updates)."""
    leaves, tree = jax.tree_util.tree_flatten((params, grads, states, masters, lr, found_inf))
    fn = _CACHE.get((key, tree))
    if fn is None:
        fused = build(key)
        fn = jax.jit(lambda *xs: fused(*tree.unflatten(xs)))
        _CACHE[(key, tree)] = segment_store.note(fn, ("optimizer.fused", key, tree))
    return segment_store.call(fn, leaves)


def _make(key: Key):
    rule, slots, clips = key.rule, key.slots, key.clips
    lr_dtype = key.lr_dtype
    members = [[i for i, s in enumerate(slots) if s.clip == c] for c in range(len(clips))]

    def fused(params, grads, states, masters, lr, found_inf):
        grads = list(grads)
        for ref, idx in zip(clips, members):
            need = tuple(slots[i].need_clip for i in idx)
            out = ref.clip._clip_arrays([grads[i] for i in idx], need)
            for i, g in zip(idx, out):
                grads[i] = g
        clipped = [grads[i] for i, s in enumerate(slots) if s.write_grad]
        lr = lr.astype(lr_dtype)
        new_p, new_s, new_m = [], [], []
        for i, s in enumerate(slots):
            p, g = params[i], grads[i]
            if s.reg is not None:
                g = g + s.reg.reg._term(p.astype(g.dtype))
            target = masters[i] if s.master else p
            ct = jnp.float32 if target.dtype in LOW_PRECISION else target.dtype
            lr_i = lr if s.lr_scale == 1.0 else lr * jnp.asarray(s.lr_scale, lr_dtype)
            q, st = rule(target.astype(ct), g.astype(ct), list(states[i]), lr_i.astype(ct), s.hp)
            st = [a.astype(b.dtype) for a, b in zip(st, states[i])]
            if found_inf is not None:
                q = jnp.where(found_inf, target.astype(ct), q)
                st = [jnp.where(found_inf, b, a) for a, b in zip(st, states[i])]
            if s.master:
                new_m.append(q.astype(target.dtype))
                new_p.append(q.astype(p.dtype))
            else:
                new_m.append(None)
                new_p.append(q.astype(p.dtype))
            new_s.append(st)
        return new_p, new_s, new_m, clipped

    return fused


def const(x, dtype):
    """A Python number as a constant of ``dtype`` (arithmetic then stays in ``dtype``)."""
    return jnp.asarray(x, dtype)


def scalar(a):
    """A shape-[1] accumulator (beta pow) as a 0-d array for broadcasting."""
    return a.reshape(())


def is_low_precision(t) -> bool:
    """Whether the Tensor ``t`` holds float16 or bfloat16."""
    return jnp.dtype(t._value.dtype) in LOW_PRECISION


def moment_dtype(param):
    """Accumulator dtype for ``param``: float32 for float16/bfloat16 parameters, else None
    (the parameter's own dtype)."""
    return jnp.float32 if is_low_precision(param) else None


def adam_moments(m1, m2, g, b1, b2, dt):
    """Adam's moment updates ``b1*m1 + (1-b1)*g`` and ``b2*m2 + (1-b2)*g*g`` in ``dt``."""
    one = const(1, dt)
    m1 = const(b1, dt) * m1 + (one - const(b1, dt)) * g
    m2 = const(b2, dt) * m2 + (one - const(b2, dt)) * g * g
    return m1, m2
