"""Eager autograd: a tape of nodes whose backward is the op's JAX VJP, compiled once per op,
signature and set of inputs that need gradients (the forward is recomputed inside; XLA drops
what the VJP does not need)."""

from __future__ import annotations

import contextlib
import functools
import weakref

import jax
import jax.numpy as jnp

from . import deferred, op_observers, trace_state
from .dtype import is_inexact_np
from .tensor import Tensor, constant_array

_grad_enabled = True


def is_grad_enabled() -> bool:
    return _grad_enabled


def _set_grad(mode: bool) -> bool:
    global _grad_enabled
    prev, _grad_enabled = _grad_enabled, bool(mode)
    return prev


class _GradMode(contextlib.ContextDecorator):
    """Context manager and decorator that sets grad mode; ``@paddle.no_grad`` without
    parentheses decorates directly."""

    _mode = False

    def __new__(cls, func=None, *args, **kwargs):
        if callable(func):

            @functools.wraps(func)
            def wrapper(*a, **k):
                with cls():
                    return func(*a, **k)

            return wrapper
        return super().__new__(cls)

    def __init__(self, func=None):
        self._prev: list[bool] = []

    def __enter__(self):
        self._prev.append(_set_grad(self._mode))
        return self

    def __exit__(self, *exc):
        _set_grad(self._prev.pop())
        return False


class no_grad(_GradMode):  # noqa: N801 - Paddle's name
    """Disable gradient recording (context manager or decorator)."""

    _mode = False


class enable_grad(_GradMode):  # noqa: N801
    """Enable gradient recording (context manager or decorator)."""

    _mode = True


class set_grad_enabled:  # noqa: N801
    """Set grad mode on or off; takes effect at once, and is restored on leaving a ``with``."""

    def __init__(self, mode: bool):
        self._prev = _set_grad(mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _set_grad(self._prev)
        return False


# -- the tape ----------------------------------------------------------------------------------
class Node:
    """One recorded op: how to compute input gradients from output cotangents."""

    __slots__ = (
        "key",
        "f",
        "primals",
        "mask",
        "edges",
        "out_avals",
        "out_mask",
        "out_refs",
        "custom",
        "pullback",
        "__weakref__",
    )

    def __init__(self, key, f, primals, mask, edges, out_avals, out_mask, out_refs, custom=None):
        self.key, self.f, self.primals, self.mask = key, f, primals, mask
        self.edges, self.out_avals, self.out_mask, self.out_refs = (
            edges,
            out_avals,
            out_mask,
            out_refs,
        )
        self.custom = custom
        self.pullback = None  # under a trace: JAX's pullback from the forward (no recompute)

    @property
    def name(self) -> str:
        if isinstance(self.key, tuple) and self.key[0] == "pylayer":
            return self.key[1].__name__
        od = self.key[0] if isinstance(self.key, tuple) else self.key
        return getattr(od, "name", str(od))


def _edge(x: Tensor):
    return (None, x) if x._node is None else (x._node, x._out_idx)


def record(key, f, inputs, arrays, mask, out_tensors, custom=None) -> Node | None:
    edges = [_edge(x) for x, m in zip(inputs, mask) if m]
    out_mask = tuple(is_inexact_np(t._val.dtype) for t in out_tensors)
    if not any(out_mask):
        return None
    diff_outs = [t for t, m in zip(out_tensors, out_mask) if m]
    node = Node(
        key,
        f,
        list(arrays),
        tuple(mask),
        edges,
        [(tuple(t._val.shape), t._val.dtype) for t in diff_outs],
        out_mask,
        [weakref.ref(t) for t in diff_outs],
        custom,
    )
    for k, t in enumerate(diff_outs):
        t.stop_gradient = False
        t._node = node
        t._out_idx = k
    return node


def diff_mask(inputs, arrays) -> tuple:
    """Which inputs of an op its node differentiates: Tensors that need grad, inexact dtype."""
    return tuple(
        isinstance(x, Tensor) and not x.stop_gradient and is_inexact_np(a.dtype)
        for x, a in zip(inputs, arrays)
    )


def forward_with_pullback(fn, arrays, mask):
    """``(out, pullback)`` of ``fn(*arrays)`` over the inputs ``mask`` marks: under a trace the
    backward then reuses the forward's residuals instead of running the forward again inside
    the VJP (XLA cannot merge two copies of a loop). ``pullback(cts)`` takes cotangents of the
    inexact outputs, as ``_vjp_fn``'s function does."""
    diff_idx = [i for i, m in enumerate(mask) if m]
    tree = []

    def g(*d):
        full = list(arrays)
        for i, v in zip(diff_idx, d):
            full[i] = v
        leaves, treedef = jax.tree_util.tree_flatten(fn(*full))
        tree.append(treedef)
        return [o for o in leaves if is_inexact_np(o.dtype)], leaves

    _, pullback, leaves = jax.vjp(g, *[arrays[i] for i in diff_idx], has_aux=True)
    return jax.tree_util.tree_unflatten(tree[0], leaves), pullback


_VJPS: dict = {}


def _vjp_fn(node: Node):
    """The pure function (primals, cts) -> input grads for ``node``."""
    k = (node.key, node.mask, node.out_mask)
    hit = _VJPS.get(k)
    if hit is not None:
        return hit
    f, mask, out_mask = node.f, node.mask, node.out_mask
    diff_idx = [i for i, m in enumerate(mask) if m]

    n = len(mask)

    def vjp(primals, cts):
        def g(*d):
            full = list(primals)
            for i, v in zip(diff_idx, d):
                full[i] = v
            out = jax.tree_util.tree_leaves(f(*full))
            return [o for o, m in zip(out, out_mask) if m]

        _, pullback = jax.vjp(g, *[primals[i] for i in diff_idx])
        return pullback(list(cts))

    jitted = jax.jit(vjp, inline=True)

    def flat(*xs):  # (primals..., cts...) as one flat argument list, for deferred.apply
        return jitted(list(xs[:n]), list(xs[n:]))

    hit = _VJPS[k] = (vjp, flat)
    return hit


def _apply_vjp(node: Node, cts, create_graph: bool):
    if node.custom is not None:  # Python backward (PyLayer, placement changes): real arrays
        return node.custom([deferred.resolve(c) for c in cts], create_graph)
    if node.pullback is not None and not create_graph:  # traced: reuse the forward's residuals
        return list(node.pullback([c._val if isinstance(c, Tensor) else c for c in cts]))
    raw, flat = _vjp_fn(node)
    if not create_graph:
        arrays = [c._val if isinstance(c, Tensor) else c for c in cts]
        return deferred.apply(flat, *node.primals, *arrays)
    # differentiable backward: run the VJP as a recorded kernel over connected Tensors
    from .registry import run_kernel

    primal_inputs, j = [], 0
    for p, m in zip(node.primals, node.mask):
        if m:
            src, idx = node.edges[j]
            j += 1
            primal_inputs.append(idx if src is None else _edge_tensor(p, src, idx))
        else:
            primal_inputs.append(p)
    n = len(primal_inputs)
    key = ("vjp", node.key, node.mask, node.out_mask)

    def make():
        return lambda *xs: tuple(raw(list(xs[:n]), list(xs[n:])))

    return list(run_kernel(key, make, primal_inputs + list(cts)))


def _edge_tensor(value, src: Node, idx: int) -> Tensor:
    t = Tensor(value, stop_gradient=False)
    t._node, t._out_idx = src, idx
    return t


@jax.jit
def _sum(a, b):
    """Gradient accumulation, compiled (an uncompiled ``a + b`` costs ~3x more dispatch)."""
    return a + b


def _add(a, b, create_graph):
    if a is None:
        return b
    if create_graph:
        from .registry import call_op

        return call_op("add", a, b)
    return deferred.apply(_sum, a, b)


def _call_hooks(t: Tensor, g, create_graph):
    for hook in list(t._hooks.values()):
        gt = g if isinstance(g, Tensor) else Tensor(g)
        r = hook(gt)
        if r is not None:
            g = r if create_graph else r._val
    return g


def _accumulate_leaf(t: Tensor, g, create_graph):
    if t._hooks:
        g = _call_hooks(t, g, create_graph)
    _store_grad(t, g, create_graph)


def _store_grad(t: Tensor, g, create_graph):
    """Add ``g`` into ``t.grad`` (leaves, and non-leaves that ``retain_grads()``)."""
    if create_graph:
        gt = g if isinstance(g, Tensor) else Tensor(g)
        t._grad = gt if t._grad is None else _add(t._grad, gt, True)
        return
    g = g._val if isinstance(g, Tensor) else g
    if g.dtype != t._val.dtype:
        g = deferred.apply(_cast_fn(t._val.dtype), g)
    if t._grad is None:
        if g.__class__ is deferred.Pending:
            # deferred: g + (-0.0), bit for bit g, so a first backward records the same
            # program as later ones (which add into the zeroed grad) and compiles once
            g = deferred.apply(_sum, constant_array(g.shape, -0.0, g.dtype), g)
        t._grad = Tensor(g, stop_gradient=False)
    else:
        prev = t._grad._val if trace_state._ctx is None else trace_state.read(t._grad)
        t._grad = Tensor(deferred.apply(_sum, prev, g), stop_gradient=False)


def run_backward(roots, retain_graph=False, create_graph=False, capture=None):
    """Propagate cotangents from ``roots`` [(tensor, cotangent)] through the tape.

    capture: {key: None} for ``paddle.grad``; keys are ``("leaf", id(t))`` or ``(node, idx)``.
    When given, gradients are collected there instead of being accumulated into ``.grad``.
    """
    deps: dict[Node, int] = {}
    start = [t._node for t, _ in roots if t._node is not None]
    stack, seen = list(start), set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        for src, _ in n.edges:
            if src is not None:
                deps[src] = deps.get(src, 0) + 1
                stack.append(src)
    bufs: dict[Node, list] = {}
    for t, ct in roots:
        if t._node is None:
            _deliver_leaf(t, ct, create_graph, capture)
            continue
        b = bufs.setdefault(t._node, [None] * len(t._node.out_avals))
        b[t._out_idx] = _add(b[t._out_idx], ct, create_graph)
    ready = [n for n in dict.fromkeys(start) if deps.get(n, 0) == 0]
    while ready:
        node = ready.pop()
        cts = bufs.pop(node, None) or [None] * len(node.out_avals)
        for k, ref in enumerate(node.out_refs):
            t = ref()
            if t is not None and cts[k] is not None:
                if t._hooks:
                    cts[k] = _call_hooks(t, cts[k], create_graph)
                if t._retain_grad and capture is None:
                    _store_grad(t, cts[k], create_graph)  # hooks already ran above
            if capture is not None and (node, k) in capture and cts[k] is not None:
                capture[(node, k)] = _add(capture[(node, k)], cts[k], create_graph)
        if node.primals is None:
            raise RuntimeError(
                "(Unavailable) trying to backward through the same graph a second time, but "
                "the buffers have already been freed. Specify retain_graph=True when calling "
                f"backward the first time (op {node.name})."
            )
        full = [
            c if c is not None else _zeros(shape, dt, create_graph)
            for c, (shape, dt) in zip(cts, node.out_avals)
        ]
        grads = _apply_vjp(node, full, create_graph)
        if op_observers.OBSERVERS:  # paddle.amp.debugging
            op_observers.backward(node.name, grads)
        if not retain_graph:
            node.primals = None
        for (src, idx), g in zip(node.edges, grads):
            if g is None:
                continue
            if src is None:
                _deliver_leaf(idx, g, create_graph, capture)
                continue
            b = bufs.setdefault(src, [None] * len(src.out_avals))
            b[idx] = _add(b[idx], g, create_graph)
            deps[src] -= 1
            if deps[src] == 0:
                ready.append(src)


def _deliver_leaf(t, g, create_graph, capture):
    if capture is not None:
        key = ("leaf", id(t))
        if key in capture:
            if t._hooks:
                g = _call_hooks(t, g, create_graph)
            capture[key] = _add(capture[key], g, create_graph)
        return
    _accumulate_leaf(t, g, create_graph)


_CASTS: dict = {}


def _cast_fn(dtype):
    fn = _CASTS.get(dtype)
    if fn is None:
        fn = _CASTS[dtype] = jax.jit(lambda a: a.astype(dtype))
    return fn


def _zeros(shape, dt, create_graph):
    """The cotangent of an output that received none (a shared zeros array)."""
    z = constant_array(shape, 0, dt)
    return Tensor(z) if create_graph else z


def _root_ct(t: Tensor, g, create_graph):
    if g is None:
        ct = constant_array(t._val.shape, 1, t._val.dtype, limit=256)  # backward's seed
    elif isinstance(g, Tensor):
        if list(g.shape) != t.shape:
            raise ValueError(
                f"(InvalidArgument) The shape of grad_tensor {g.shape} must be the same as "
                f"the shape of the tensor {t.shape}."
            )
        return g if create_graph else trace_state.read(g).astype(t._value.dtype)
    else:
        ct = jnp.asarray(g, t._value.dtype)
    return Tensor(ct) if create_graph else ct


def backward(tensors, grad_tensors=None, retain_graph: bool = False) -> None:
    """Accumulate d(sum of tensors)/d(leaf) into every leaf's ``.grad``."""
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    elif isinstance(grad_tensors, Tensor):
        grad_tensors = [grad_tensors]
    roots = []
    for t, g in zip(tensors, grad_tensors):
        if t.stop_gradient:  # Paddle silently does nothing
            continue
        roots.append((t, _root_ct(t, g, False)))
    run_backward(roots, retain_graph=retain_graph)
    while _FINAL_HOOKS:  # registered for this backward only (Paddle's backward final hooks)
        _FINAL_HOOKS.pop(0)()


_FINAL_HOOKS: list = []


def add_backward_final_hook(hook) -> None:
    """Run ``hook()`` once, at the end of the next ``backward()``."""
    _FINAL_HOOKS.append(hook)


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    only_inputs=True,
    allow_unused=False,
    no_grad_vars=None,
):
    """Gradients of ``outputs`` with respect to ``inputs`` (``.grad`` is not touched)."""
    single = isinstance(inputs, Tensor)
    outputs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    inputs = [inputs] if single else list(inputs)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    elif isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs]
    if retain_graph is None:
        retain_graph = create_graph
    keys = [("leaf", id(t)) if t._node is None else (t._node, t._out_idx) for t in inputs]
    capture = dict.fromkeys(keys)
    roots = [
        (t, _root_ct(t, g, create_graph))
        for t, g in zip(outputs, grad_outputs)
        if not t.stop_gradient
    ]
    prev = _set_grad(create_graph)
    try:
        run_backward(roots, retain_graph=retain_graph, create_graph=create_graph, capture=capture)
    finally:
        _set_grad(prev)
    result = []
    for t, k in zip(inputs, keys):
        g = capture[k]
        if g is None:
            for o in outputs:  # an output that is itself an input
                if o is t:
                    g = _root_ct(o, None, create_graph)
        if g is None:
            if not allow_unused:
                raise ValueError(
                    "(InvalidArgument) The Tensor in inputs (shape "
                    f"{t.shape}) is not used to compute outputs; set allow_unused=True to "
                    "get None for it."
                )
            result.append(None)
        else:
            gt = g if isinstance(g, Tensor) else Tensor(g)
            if not create_graph:
                gt.stop_gradient = True
            result.append(gt)
    return result


def rebind_inplace(x: Tensor, out: Tensor) -> Tensor:
    """Make ``x`` hold ``out``'s array and autograd history (in-place semantics)."""
    x._set_value(out._val)
    x._node, x._out_idx = out._node, out._out_idx
    if out._node is not None:
        x.stop_gradient = False
        out._node.out_refs[out._out_idx] = weakref.ref(x)
    return x
