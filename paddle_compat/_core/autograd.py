"""Eager autograd: a tape of nodes whose backward is the op's JAX VJP, compiled once per op,
signature and set of inputs that need gradients (the forward is recomputed inside; XLA drops
what the VJP does not need)."""

from __future__ import annotations

import contextlib
import functools
import inspect
import weakref

import jax
import jax.numpy as jnp

from . import deferred, op_observers, segment_store, trace_state, views
from .dtype import is_inexact_np
from .tensor import Tensor, constant_array, is_shared_zeros

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
            return cls()(func)
        return super().__new__(cls)

    def __init__(self, func=None):
        self._prev: list[bool] = []

    def __call__(self, func):
        """Decorate ``func`` (a generator function keeps the mode while it runs)."""
        if inspect.isgeneratorfunction(func):

            @functools.wraps(func)
            def gen_wrapper(*a, **k):
                gen = func(*a, **k)
                with self._recreate_cm():
                    value = next(gen)
                while True:
                    try:
                        sent = yield value
                    except GeneratorExit:
                        gen.close()
                        raise
                    except BaseException as exc:
                        with self._recreate_cm():
                            value = gen.throw(exc)
                    else:
                        try:
                            with self._recreate_cm():
                                value = gen.send(sent)
                        except StopIteration as stop:
                            return stop.value

            return gen_wrapper
        return super().__call__(func)

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


class set_grad_enabled(_GradMode):  # noqa: N801
    """Set grad mode on or off; takes effect at once, and leaving a ``with`` (or a decorated
    call) restores the mode from before the constructor ran. As Paddle's, a decorated
    function's later calls run in the mode that then holds."""

    def __new__(cls, mode):
        return object.__new__(cls)

    def __init__(self, mode: bool):
        if not isinstance(mode, bool):
            raise TypeError(
                f"set_grad_enabled(): mode must be a bool, but received {type(mode).__name__}"
            )
        self._mode = mode
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


# -- saved-tensor hooks (paddle.autograd.saved_tensors_hooks) ---------------------------------
_SAVED_HOOKS: list = []  # (pack_hook, unpack_hook) pairs; the innermost is last
_hooks_used = False  # set once a Tensor was packed: until then backward skips the check


class Packed:
    """A saved Tensor replaced by what ``pack_hook`` returned; ``unpack_hook`` gives it back."""

    __slots__ = ("obj", "unpack")

    def __init__(self, obj, unpack):
        self.obj, self.unpack = obj, unpack

    def tensor(self) -> Tensor:
        r = self.unpack(self.obj)
        if not isinstance(r, Tensor):
            raise ValueError(
                "(InvalidArgument) paddle.autograd.saved_tensors_hooks: unpack_hook must return "
                f"a Tensor, but returned {type(r).__name__}."
            )
        return r


def pack_saved(t: Tensor):
    """``t`` as saved for backward: packed by the active ``saved_tensors_hooks`` if any."""
    if not _SAVED_HOOKS or trace_state._ctx is not None:
        return t
    global _hooks_used
    _hooks_used = True
    pack, unpack = _SAVED_HOOKS[-1]
    return Packed(pack(t), unpack)


_USED: dict = {}


def _used_primals(node: Node, inputs) -> list:
    """Which inputs an op saves for backward: those whose values its VJP with respect to all
    its float Tensor inputs reads (JAX's dead-code elimination of the VJP's jaxpr). As Paddle's ops,
    an add or a sum saves none, a multiply both, whichever of them needs grad. All of them
    when that cannot be told."""
    primals = node.primals
    if not all(hasattr(p, "shape") and hasattr(p, "dtype") for p in primals):
        return [True] * len(primals)
    avals = [jax.ShapeDtypeStruct(tuple(p.shape), p.dtype) for p in primals]
    mask = tuple(isinstance(x, Tensor) and is_inexact_np(a.dtype) for x, a in zip(inputs, avals))
    k = (node.key, mask, node.out_mask, tuple((a.shape, a.dtype) for a in avals))
    hit = _USED.get(k)
    if hit is None:
        from jax._src.interpreters import partial_eval as pe

        full = Node(node.key, node.f, None, mask, [], node.out_avals, node.out_mask, [])
        cts = [jax.ShapeDtypeStruct(shape, dt) for shape, dt in node.out_avals]
        try:
            closed = jax.make_jaxpr(_vjp_fn(full)[0])(avals, cts)
            _, used = pe.dce_jaxpr(closed.jaxpr, [True] * len(closed.jaxpr.outvars))
            hit = list(used[: len(avals)])
        except Exception:  # noqa: BLE001 - an op JAX cannot trace abstractly: save them all
            hit = [True] * len(primals)
        _USED[k] = hit
    return hit


def _unpacked(primals) -> list:
    return [p.tensor()._value if isinstance(p, Packed) else p for p in primals]


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
    if _SAVED_HOOKS and custom is None and trace_state._ctx is None:
        # saved: the Tensor inputs whose values the op's backward reads
        used = _used_primals(node, inputs)
        node.primals = [
            pack_saved(x) if isinstance(x, Tensor) and u else a
            for x, a, u in zip(inputs, arrays, used)
        ]
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


try:  # JAX's differentiation tracers (internal names: checked here, nothing if they move)
    from jax._src.interpreters import ad as _jax_ad

    _AD_TRACERS = (_jax_ad.JVPTracer, _jax_ad.LinearizeTracer)
except (ImportError, AttributeError):  # pragma: no cover - a JAX that renamed them
    _AD_TRACERS = ()


def forward_with_pullback(fn, arrays, mask):
    """``(out, pullback)`` of ``fn(*arrays)`` over the inputs ``mask`` marks: under a trace the
    backward then reuses the forward's residuals instead of running the forward again inside
    the VJP (XLA cannot merge two copies of a loop). ``pullback(cts)`` takes cotangents of the
    inexact outputs, as ``_vjp_fn``'s function does."""
    if any(isinstance(a, _AD_TRACERS) for a in arrays):
        # an enclosing JAX transformation differentiates this already (a node's VJP retracing
        # its function): a VJP here would hand it the forward of a linearization, in which
        # custom rules (a while loop's) are already replaced by their forward passes
        return fn(*arrays), None
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

    # (primals..., cts...) as one flat argument list, for deferred.apply
    flat = jax.jit(lambda *xs: vjp(list(xs[:n]), list(xs[n:])), inline=True)
    segment_store.note(flat, ("vjp", *k))
    hit = _VJPS[k] = (vjp, flat)
    return hit


def _apply_vjp(node: Node, primals, cts, create_graph: bool):
    if node.custom is not None:  # Python backward (PyLayer, placement changes): real arrays
        cts = [None if c is None else deferred.resolve(user_grad(c)) for c in cts]
        return [user_grad(g, create_graph) for g in node.custom(cts, create_graph)]
    if node.pullback is not None and not create_graph:  # traced: reuse the forward's residuals
        return list(node.pullback([c._val if isinstance(c, Tensor) else c for c in cts]))
    raw, flat = _vjp_fn(node)
    if not create_graph:
        arrays = [c._val if isinstance(c, Tensor) else c for c in cts]
        return deferred.apply(flat, *primals, *arrays)
    # differentiable backward: run the VJP as a recorded kernel over connected Tensors
    from .registry import run_kernel

    primal_inputs, j = [], 0
    for p, m in zip(primals, node.mask):
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
def _conj(a):
    return jnp.conj(a)


segment_store.note(_conj, "autograd.conj")


def user_grad(g, create_graph=False):
    """A cotangent as users see it, or a user's gradient as a cotangent: for complex values
    Paddle (as PyTorch) gives ``dL/d(re) + i dL/d(im)``, the conjugate of JAX's cotangent, so
    every boundary between the tape and user code (a leaf's ``.grad``, ``paddle.grad``'s
    results, hooks, ``backward(grad_tensor)``, a PyLayer's backward) conjugates complex ones."""
    if g is None or not jnp.issubdtype(
        g._val.dtype if isinstance(g, Tensor) else g.dtype, jnp.complexfloating
    ):
        return g
    if isinstance(g, Tensor):
        if create_graph:
            from .registry import call_op

            return call_op("conj", g)
        return Tensor(deferred.apply(_conj, g._val), stop_gradient=g.stop_gradient)
    return deferred.apply(_conj, g)


@jax.jit
def _sum(a, b):
    """Gradient accumulation, compiled (an uncompiled ``a + b`` costs ~3x more dispatch)."""
    return a + b


segment_store.note(_sum, "autograd.sum")


def _add(a, b, create_graph):
    if a is None:
        return b
    if create_graph:
        from .registry import call_op

        return call_op("add", a, b)
    a = a._val if isinstance(a, Tensor) else a  # a PyLayer's gradient kept as a Tensor
    b = b._val if isinstance(b, Tensor) else b
    return deferred.apply(_sum, a, b)


def _call_hooks(t: Tensor, g, create_graph):
    for hook in list(t._hooks.values()):
        # an op's gradient reaches a hook with stop_gradient=False (Paddle)
        gt = g if isinstance(g, Tensor) else Tensor(g, stop_gradient=False)
        r = hook(user_grad(gt, create_graph))
        if r is not None:
            r = user_grad(r, create_graph)
            g = r if create_graph else r._val
    return g


def _accumulate_leaf(t: Tensor, g, create_graph, sg=False):
    if t._hooks:
        g = _call_hooks(t, g, create_graph)
    _store_grad(t, g, create_graph, sg)


def _store_grad(t: Tensor, g, create_graph, sg=False):
    """Add ``g`` into ``t.grad`` (leaves, and non-leaves that ``retain_grads()``). A first
    gradient's ``stop_gradient`` is ``sg`` (True for a PyLayer gradient computed without
    grad, as in Paddle, which stores that Tensor); accumulating keeps the flag."""
    if create_graph:
        gt = user_grad(g if isinstance(g, Tensor) else Tensor(g), True)
        t._grad = gt if t._grad is None else _add(t._grad, gt, True)
        return
    g = user_grad(g._val if isinstance(g, Tensor) else g)
    if g.dtype != t._val.dtype:
        g = deferred.apply(_cast_fn(t._val.dtype), g)
    if t._grad is None:
        t._grad = Tensor(g, stop_gradient=sg)
        return
    prev = t._grad._val if trace_state._ctx is None else trace_state.read(t._grad)
    if is_shared_zeros(prev):
        # cleared by clear_grad(): Paddle stores the next gradient as a new Tensor, not
        # added to the zeros (so a -0.0 stays -0.0, and no kernel runs)
        t._grad = Tensor(g, stop_gradient=t._grad.stop_gradient)
    else:  # accumulated in place, as Paddle does: a Tensor taken from .grad sees it
        trace_state.note_grad_accumulated()
        t._grad._set_value(deferred.apply(_sum, prev, g))


def run_backward(roots, retain_graph=False, create_graph=False, capture=None, blocked=None):
    """Propagate cotangents from ``roots`` [(tensor, cotangent)] through the tape.

    capture: {key: None} for ``paddle.grad``; keys are ``("leaf", id(t))`` or ``(node, idx)``.
    When given, gradients are collected there instead of being accumulated into ``.grad``.
    blocked: keys (as capture's) that no gradient flows into (``grad``'s ``no_grad_vars``).
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
    roots_of = set(start)
    ready = [n for n in dict.fromkeys(start) if deps.get(n, 0) == 0]

    def release(src: Node) -> None:  # one of src's consumers is done: src is ready after all
        deps[src] -= 1
        if deps[src] == 0:
            ready.append(src)

    while ready:
        node = ready.pop()
        cts = bufs.pop(node, None)
        if cts is None and node not in roots_of:  # nothing flowed in (None / no_grad_vars)
            for src, _ in node.edges:
                if src is not None:
                    release(src)
            continue
        cts = cts or [None] * len(node.out_avals)
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
        if node.custom is not None:  # a PyLayer fills in (or not) what received nothing
            full = cts
        else:
            full = [
                _zeros(shape, dt, create_graph) if c is None else _as_dtype(c, dt, create_graph)
                for c, (shape, dt) in zip(cts, node.out_avals)
            ]
        packed = _hooks_used and _has_packed(node)
        primals = _unpacked(node.primals) if packed else node.primals
        grads = _apply_vjp(node, primals, full, create_graph)
        if op_observers.OBSERVERS:  # paddle.amp.debugging
            op_observers.backward(node.name, grads)
        if not retain_graph:
            node.primals = None
        for (src, idx), g in zip(node.edges, grads):
            if g is None and src is None:
                continue
            sg = False  # a PyLayer's gradient keeps its Tensor's flag (a leaf's first grad,
            # or what the next PyLayer's backward gets when nothing else adds to it)
            if not create_graph and isinstance(g, Tensor):
                if (
                    src is None
                    or src.custom is None
                    or (src in bufs and bufs[src][idx] is not None)
                ):
                    sg, g = g.stop_gradient, g._value
            if blocked and ((src, idx) if src is not None else ("leaf", id(idx))) in blocked:
                g = None  # no_grad_vars: nothing flows in (the dependency still counts down)
            if src is None:
                if g is not None:
                    _deliver_leaf(idx, g, create_graph, capture, sg)
                continue
            if g is not None:
                b = bufs.setdefault(src, [None] * len(src.out_avals))
                b[idx] = _add(b[idx], g, create_graph)
            release(src)


def _has_packed(node: Node) -> bool:
    return node.custom is None and any(p.__class__ is Packed for p in node.primals)


def _deliver_leaf(t, g, create_graph, capture, sg=False):
    if capture is not None:
        key = ("leaf", id(t))
        if key in capture:
            if t._hooks:
                g = _call_hooks(t, g, create_graph)
            capture[key] = _add(capture[key], g, create_graph)
        return
    _accumulate_leaf(t, g, create_graph, sg)


_CASTS: dict = {}


def _cast_fn(dtype):
    fn = _CASTS.get(dtype)
    if fn is None:
        fn = jax.jit(lambda a: a.astype(dtype))
        _CASTS[dtype] = segment_store.note(fn, ("autograd.cast", jnp.dtype(dtype)))
    return fn


def _as_dtype(c, dt, create_graph):
    """A cotangent in its output's dtype (a PyLayer's backward may return another one)."""
    if c.dtype == dt:
        return c
    if isinstance(c, Tensor):
        return c.astype(dt) if create_graph else deferred.apply(_cast_fn(dt), c._val)
    return deferred.apply(_cast_fn(dt), c)


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
        if create_graph:
            return user_grad(g, True)
        return user_grad(trace_state.read(g).astype(t._value.dtype))
    else:
        ct = user_grad(jnp.asarray(g, t._value.dtype))
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
    *,
    dump_backward_graph_path=None,
):
    """Gradients of ``outputs`` with respect to ``inputs`` (``.grad`` is not touched)."""
    single = isinstance(inputs, Tensor)
    outputs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    inputs = [inputs] if single else list(inputs)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    elif isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs]
    if not only_inputs:
        raise AssertionError("only_inputs=False is not supported yet")
    if not all(isinstance(t, Tensor) for t in outputs):
        raise AssertionError("Elements of outputs must be Tensor")
    if not all(isinstance(t, Tensor) for t in inputs):
        raise AssertionError("Elements of inputs must be Tensor")
    if retain_graph is None:
        retain_graph = create_graph
    keys = [_key(t) for t in inputs]
    capture = dict.fromkeys(keys)
    if isinstance(no_grad_vars, Tensor):
        no_grad_vars = [no_grad_vars]
    blocked = {_key(t) for t in no_grad_vars or ()}
    roots = [
        (t, _root_ct(t, g, create_graph))
        for t, g in zip(outputs, grad_outputs)
        if not t.stop_gradient
    ]
    prev = _set_grad(create_graph)
    try:
        run_backward(roots, retain_graph, create_graph, capture=capture, blocked=blocked)
    finally:
        _set_grad(prev)
    result = []
    for i, (t, k) in enumerate(zip(inputs, keys)):
        g = capture[k]
        if g is None:
            for o in outputs:  # an output that is itself an input
                if o is t:
                    g = _root_ct(o, None, create_graph)
        if g is None:
            if not allow_unused:
                raise ValueError(
                    f"(InvalidArgument) The {i}-th input does not appear in the backward "
                    "graph. Please check the input tensor or set allow_unused=True to get None "
                    "result."
                )
            result.append(None)
        else:
            gt = user_grad(g if isinstance(g, Tensor) else Tensor(g), create_graph)
            if not create_graph:
                gt.stop_gradient = True
            result.append(gt)
    return result


def _key(t: Tensor):
    """How ``run_backward``'s capture and blocked sets name a Tensor."""
    return ("leaf", id(t)) if t._node is None else (t._node, t._out_idx)


def rebind_inplace(x: Tensor, out: Tensor) -> Tensor:
    """Make ``x`` hold ``out``'s array and autograd history (in-place semantics); where
    ``out`` is a view of x (``x.t_()``, ``x.unsqueeze_(0)``) x becomes that view instead."""
    if out._alias is None or not views.adopt(x, out):
        x._set_value(out._val)
    x._node, x._out_idx = out._node, out._out_idx
    if out._node is not None:
        x.stop_gradient = False
        out._node.out_refs[out._out_idx] = weakref.ref(x)
    return x
