"""Paddle's views: the results of ``reshape``, ``view``, ``squeeze``, ``unsqueeze``, ``flatten``,
``transpose``/``t``, basic indexing (``x[0]``, ``x[:, 1:]``) and ``detach`` share memory with
their input in Paddle, so an in-place write to either one (``x[0] = 10``, ``y.add_(z)``) shows
in the other.

JAX arrays are immutable, so the Tensors that share one buffer form a ``_Group`` instead: the
group keeps the buffer's current array (its root value) and each member a ``_Link`` with the
two functions of its view: ``get`` (root value -> the member's value) and ``put`` (root value,
the member's new value -> the new root value). A write to one member (the one way a Tensor's
value changes, ``Tensor._set_value``) computes the new root value and gives every other live
member its new value. Groups form in eager execution only: inside ``to_static`` or deferred
execution a view is a copy (writes there are values of the traced program)."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from . import deferred, trace_state


class _Group:
    __slots__ = ("value", "members", "prune_at")

    def __init__(self, value):
        self.value = value  # the shared buffer's current array
        self.members: list = []  # weakrefs of the member Tensors
        self.prune_at = 8  # drop dead members when the list grows past this (amortized)

    def add(self, t) -> None:
        if len(self.members) >= self.prune_at:
            self.members[:] = [r for r in self.members if r() is not None]
            self.prune_at = max(8, 2 * len(self.members))
        self.members.append(weakref.ref(t))


class _Link:
    __slots__ = ("group", "get", "put")

    def __init__(self, group: _Group, get: Callable, put: Callable):
        self.group, self.get, self.put = group, get, put


def _eager() -> bool:
    return trace_state._ctx is None and not deferred._enabled and trace_state.jax_idle()


def _reshape_pair(shape):
    return (lambda b: b.reshape(shape)), (lambda b, v: v.reshape(b.shape))


def _identity_get(r):  # the root's own link
    return r


def _identity_put(r, v):
    return v


def _reshaped(get, put, old_shape, new_shape):
    """A member's (get, put) after its own shape changed in place."""
    return (lambda r: get(r).reshape(new_shape)), (lambda r, v: put(r, v.reshape(old_shape)))


def share(base, view, get: Callable | None = None, put: Callable | None = None) -> None:
    """Make ``view`` (computed from ``base``) a view of it: ``get(b)`` is the view's value for
    ``base``'s value ``b`` and ``put(b, v)`` is ``base``'s value after the view becomes ``v``
    (default: the same elements in row-major order, another shape)."""
    if base is view or not _eager():
        return
    b, v = base._val, view._val
    if b.dtype != v.dtype or not hasattr(b, "reshape") or not hasattr(v, "reshape"):
        return
    if get is None:
        if b.size != v.size:
            return
        get, put = _reshape_pair(v.shape)
    link = base._alias
    if link is None:
        group = _Group(b)
        link = base._alias = _Link(group, _identity_get, _identity_put)
        group.add(base)
    group = link.group
    if link.get is not _identity_get:  # a view of a view: compose with the base's own link
        bget, bput = link.get, link.put
        get, put = (
            (lambda r, g=get: g(bget(r))),
            (lambda r, w, p=put: bput(r, p(bget(r), w))),
        )
    group.add(view)
    view._alias = _Link(group, get, put)


def propagate(t, value) -> None:
    """After ``t``'s value became ``value``: the group's buffer and its other members follow.
    An in-place reshape (``reshape_``) stays in the group; a write that changes ``t``'s size
    or dtype (``resize_``, ``set_``) takes it out (Paddle gives it a new buffer)."""
    link = t._alias
    if not _eager() or value.__class__ is deferred.Pending:
        return
    group = link.group
    try:
        get, put = link.get, link.put
        old = get(group.value)
        if value.dtype != old.dtype or value.size != old.size:
            root = None
        else:
            if value.shape != old.shape:  # an in-place reshape (reshape_, squeeze_...)
                get, put = _reshaped(get, put, old.shape, value.shape)
                link = t._alias = _Link(group, get, put)
            root = put(group.value, value)
    except Exception:  # noqa: BLE001 - a write the view cannot take back: t leaves the group
        root = None
    if root is None:
        t._alias = None
        return
    group.value = root
    for r in group.members:
        m = r()
        if m is None or m is t or m._alias is None or m._alias.group is not group:
            continue
        m._val = m._alias.get(root)
        m._version += 1
