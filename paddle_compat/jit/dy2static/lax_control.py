"""Tensor-valued control flow as one XLA program: ``lax.switch`` and ``lax.while_loop`` over
Python functions of Tensors (the core under the converted ``if``/``while``/``for`` and
``paddle.static.nn.cond``/``while_loop``/``case``/``switch_case``).

A branch or loop body is plain Paddle code: it reads Tensors made before it (parameters, the
caller's locals), rebinds some in place (a BatchNorm's running mean, the RNG key) and returns
Python values. Each run of it happens inside a *scope*: a trace context that records the
Tensors it reads and rebinds and restores everything it rebound on exit, so nothing traced
inside leaks out. Running the body inside ``lax.switch``/``lax.while_loop`` teaches us its
outputs; from them a *plan* fixes, per output leaf, whether it is an array (a Tensor, or a
Python number that differs between branches or changes in the loop), a Python constant, or
undefined (a variable only one branch creates), plus the rebound Tensors to carry. When the
plan learned differs from the one the run used, the run is repeated with the new plan (at
most a few times: plans only grow).

Gradients: a converted ``if`` whose branches read Tensors that need grad becomes one node on
the autograd tape, a function of those Tensors (JAX differentiates ``lax.switch``). A
``while`` on a Tensor condition is a node too, differentiated by recomputation
(``while_grad``: ``lax.while_loop`` itself has no reverse-mode derivative).
"""

from __future__ import annotations

import gc
import itertools
from contextlib import contextmanager
from functools import partial

import jax
import jax.extend.core
import jax.numpy as jnp
import numpy as np

from ..._core import autograd as _ag
from ..._core import functional, trace_state
from ..._core.tensor import Tensor
from .while_grad import while_with_grad

_node_ids = itertools.count()


class ConversionError(trace_state.DataDependentError):
    """Tensor control flow that cannot become one XLA program (to_static falls back to eager
    with ``full_graph=False``, raises with ``full_graph=True``)."""

    def __init__(self, msg: str, where: str | None = None):
        super().__init__(msg if where is None else f"{msg}\n  at {where}")
        self.user_frame = where


class UndefinedVar:
    """A variable that only some branches of a Tensor ``if`` create (or that a loop creates
    and never ran): using it raises, naming the variable, as Python's unbound local would."""

    def __init__(self, name: str, where: str | None = None):
        self._name, self._where = name, where

    def _raise(self, *a, **k):
        at = f" (see {self._where})" if self._where else ""
        raise NameError(
            f"local variable '{self._name}' is not defined on every path of the converted "
            f"control flow before this use{at}: define it before the if/while, or in every "
            "branch"
        )

    __call__ = __getattr__ = __getitem__ = __iter__ = __len__ = __bool__ = _raise
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _raise
    __truediv__ = __rtruediv__ = __matmul__ = __neg__ = __lt__ = __gt__ = _raise
    __le__ = __ge__ = __float__ = __int__ = __index__ = _raise

    def __repr__(self) -> str:
        return f"UndefinedVar({self._name!r})"


class ReturnUnset(UndefinedVar):
    """The return value of a converted function before a ``return`` ran: where a branch sets
    it and another does not, that branch carries zeros of the same shape (its return flag is
    then False, so the zeros are never returned)."""


def is_traced(x) -> bool:
    return isinstance(x, Tensor) and trace_state.is_tracer(x._value)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _is_number(x) -> bool:
    return isinstance(x, bool | int | float | np.bool_ | np.number)


def _number_dtype(x):
    """A Python number's dtype as a Paddle Tensor of it: bool, int64, float32."""
    if isinstance(x, np.generic):
        return x.dtype
    return np.dtype("bool" if isinstance(x, bool) else "int64" if isinstance(x, int) else "float32")


# -- the scope a branch or loop body runs in --------------------------------------------------
class _Seen:
    """What one run of a branch or body did: its output leaves (described, see ``_describe``)
    and structure, the Tensors made before it that it rebound and read (by id)."""

    def __init__(self, descs, tree, written, free, grads, parts=None):
        self.descs, self.tree = descs, tree
        self.written, self.free, self.grads = written, free, grads
        self.parts = parts  # a tuple result: per element, its structure or "unset"


def _parts(out):
    if not isinstance(out, tuple):
        return None
    return [
        "unset"
        if isinstance(o, ReturnUnset)
        else jax.tree_util.tree_structure(o, is_leaf=_is_tensor)
        for o in out
    ]


def _fills(parts_list) -> dict:
    """Elements of tuple results that are an unset return value on some paths and one
    structure on the others: that structure, to fill the unset ones with (``_fill``)."""
    if any(p is None for p in parts_list) or len({len(p) for p in parts_list}) != 1:
        return {}
    out = {}
    for i, col in enumerate(zip(*parts_list)):
        set_ = {c for c in col if not isinstance(c, str)}  # (a PyTreeDef is != no str)
        if any(isinstance(c, str) for c in col) and len(set_) == 1:
            t = set_.pop()
            if t.num_leaves != 1 or t != jax.tree_util.tree_structure(0):
                out[i] = t
    return out


def _fill(out, fills: dict):
    if not fills or not isinstance(out, tuple):
        return out
    return tuple(
        jax.tree_util.tree_unflatten(fills[i], [o] * fills[i].num_leaves)
        if i in fills and isinstance(o, ReturnUnset)
        else o
        for i, o in enumerate(out)
    )


@contextmanager
def _scope(swap: list, values: list, where=None):
    """Run a block as a branch: ``functional.swap_in`` (``swap`` Tensors hold ``values``,
    tracers of the program being built; everything the block rebinds is restored on exit),
    without autograd, recording the Tensors made before the block that it reads
    (``ctx.free``); what it read is reported to the enclosing trace."""
    outer = trace_state.current()
    ctx = None
    _scope_depth[0] += 1
    try:
        host = outer is not None and outer.host_random
        with functional.swap_in(swap, values, host_random=host) as ctx, _ag.no_grad():
            ctx.free, ctx.free_uid = {}, ctx.start_uid
            if outer is not None:
                ctx.static = outer.static  # values known while tracing stay known inside
            yield ctx
    finally:
        _scope_depth[0] -= 1
        if ctx is not None:
            _report(outer, ctx)
    _check_escaped(ctx, where)


_scope_depth = [0]  # branches and loop bodies being traced, one inside the other


def _report(outer, ctx) -> None:
    """Tell the enclosing trace what the branch read (state it did not know; free Tensors of
    an enclosing branch) and depended on."""
    if outer is None:
        return
    for t in list(ctx.discovered.values()) + list(ctx.free.values()):
        trace_state.read(t)
    outer.guards.update(ctx.guards)


def _observe(ctx, out):
    """(what the run did, its output leaves)."""
    leaves, tree = jax.tree_util.tree_flatten(out, is_leaf=_is_tensor)
    written = {}
    for ref, *_ in ctx.written.values():
        t = ref()
        if t is not None and t._uid < ctx.free_uid:
            written[id(t)] = t
    grads = bool(ctx.grads)
    descs = [_describe(x) for x in leaves]
    return _Seen(descs, tree, written, dict(ctx.free), grads, _parts(out)), leaves


def _check_escaped(ctx, where) -> None:
    """A Tensor made inside a branch or loop body that outlives it holds a value of the
    program being built (e.g. appended to a list, stored on an object): refuse the conversion
    rather than leak it."""
    alive = [r for r in ctx.created if r() is not None and r()._uid >= ctx.start_uid]
    if alive:
        gc.collect()  # cycles that are already garbage
        alive = [r for r in alive if r() is not None]
    if alive:
        raise ConversionError(
            "a Tensor created inside Tensor control flow is kept after it (appended to a "
            "list, stored on an object, ...); only the variables it assigns can carry values "
            "out",
            where,
        )


# -- plans: what flows through the lax primitive ------------------------------------------------
def _describe(x):
    """One leaf as the plan sees it; a leaf's plan is ``("array", shape, dtype)``,
    ``("const", value)``, ``("undef", UndefinedVar)`` or ``("zeros", shape, dtype)`` (a return
    value that this path does not set)."""
    if isinstance(x, Tensor):
        v = x._value
        return ("array", tuple(v.shape), np.dtype(v.dtype))
    if _is_number(x):
        return ("num", x)
    if isinstance(x, UndefinedVar):
        return ("undef", x)
    return ("const", x)


def _same_const(a, b) -> bool:
    try:
        return a is b or (type(a) is type(b) and bool(a == b))
    except Exception:
        return False


def _merge_leaf(descs, label: str, where):
    """One leaf's plan from its description in every branch (or loop entry and exit)."""
    kinds = {d[0] for d in descs}
    if kinds == {"undef"}:
        return descs[0]
    if "undef" in kinds:
        undef = next(d[1] for d in descs if d[0] == "undef")
        defined = [d for d in descs if d[0] != "undef"]
        if isinstance(undef, ReturnUnset) and all(d[0] in ("array", "num") for d in defined):
            arr = _merge_leaf(defined, label, where)
            return ("zeros", arr[1], arr[2]) if arr[0] == "array" else arr
        return ("undef", undef)
    if kinds <= {"num", "const"} and all(_same_const(d[1], descs[0][1]) for d in descs):
        return ("const", descs[0][1])
    if "const" in kinds:
        vals = ", ".join(repr(d[1]) if d[0] != "array" else "a Tensor" for d in descs)
        raise ConversionError(
            f"'{label}' takes different non-Tensor values on the paths of Tensor control flow "
            f"({vals}); only Tensors and numbers can differ",
            where,
        )
    arrays = [d for d in descs if d[0] == "array"]
    if arrays:
        shapes = {d[1] for d in arrays}
        dtypes = {d[2] for d in arrays}
        if len(shapes) > 1:
            got = " and ".join(str(list(s)) for s in sorted(shapes))
            raise ConversionError(
                f"'{label}' has shape {got} on different paths of Tensor control flow; it must "
                "keep one shape (pad it, or use paddle.where)",
                where,
            )
        if len(dtypes) > 1:
            got = " and ".join(sorted(str(d) for d in dtypes))
            raise ConversionError(
                f"'{label}' has dtype {got} on different paths of Tensor control flow; cast it "
                "to one dtype",
                where,
            )
        return ("array", arrays[0][1], arrays[0][2])
    dt = np.result_type(*[_number_dtype(d[1]) for d in descs])
    return ("array", (), dt)


def _encode(leaf_plans, leaves):
    """The arrays one run passes out, following the plan."""
    out = []
    for p, x in zip(leaf_plans, leaves):
        if p[0] in ("array", "zeros"):
            if isinstance(x, Tensor):
                out.append(jnp.asarray(x._value, p[2]))
            elif isinstance(x, UndefinedVar):
                out.append(jnp.zeros(p[1], p[2]))
            else:
                out.append(jnp.full(p[1], x, p[2]))
    return out


def _decode(leaf_plans, arrays, sg: bool, where=None):
    it = iter(arrays)
    out = []
    for p in leaf_plans:
        if p[0] in ("array", "zeros"):
            out.append(Tensor(next(it), stop_gradient=sg))
        elif p[0] == "undef" and where is not None:  # names the control flow when used
            out.append(type(p[1])(p[1]._name, p[1]._where or where))
        else:
            out.append(p[1])
    return out


def _labels(names, tree, n_leaves):
    """A readable name per output leaf (``'h'``, ``'state[1]'``) for error messages."""
    if names is None or tree is None:
        return [f"output {i}" for i in range(n_leaves)]
    try:
        per_var = tree.children()
    except Exception:
        return [f"output {i}" for i in range(n_leaves)]
    out = []
    for name, sub in zip(names, per_var):
        k = sub.num_leaves
        out += [name] if k == 1 else [f"{name}[{j}]" for j in range(k)]
    out += [f"output {i}" for i in range(len(out), n_leaves)]
    return out


def _check_trees(seens, names, where) -> None:
    trees = [s.tree for s in seens]
    if all(t == trees[0] for t in trees):
        return
    what = "the results"
    try:
        kids = [t.children() for t in trees]
        for i, parts in enumerate(zip(*kids)):
            if any(p != parts[0] for p in parts):
                what = f"'{names[i]}'" if names else f"result {i}"
                break
    except Exception:
        pass
    raise ConversionError(
        f"{what} of Tensor control flow has a different structure on different paths "
        "(e.g. a list of another length, or None on one path)",
        where,
    )


def _needing_grad(tensors) -> list:
    if not _ag.is_grad_enabled():
        return []
    return [
        t
        for t in tensors
        if not t.stop_gradient and np.issubdtype(np.dtype(t._value.dtype), np.inexact)
    ]


def _write_results(written: list, results: list) -> None:
    """Rebind the Tensors a branch or loop body rebound to the primitive's results (with the
    result's autograd history, as an in-place op)."""
    for t, r in zip(written, results):
        if r._node is not None:
            _ag.rebind_inplace(t, r)
        else:
            t._set_value(r._value)


def _check_grads(seens, where) -> None:
    if any(s.grads for s in seens):
        raise ConversionError(
            "backward() or clear_grad() inside Tensor control flow is not supported; move it "
            "after the if/while",
            where,
        )


# -- if / case / switch_case -------------------------------------------------------------------
def run_switch(index, branches, names=None, where=None, reset=None):
    """``branches[index]()`` as one ``lax.switch``; ``index`` a traced integer Tensor or array
    (clamped into range, as ``lax.switch`` does). Returns the chosen branch's result.
    ``reset()`` drops the caller's references to what a branch made (its local variables)."""
    idx = index._value if isinstance(index, Tensor) else index
    idx = jnp.asarray(idx).reshape(()).astype(jnp.int32)
    leaf_plans, written, free, fills = None, [], [], {}
    for _ in range(5):
        seens, used = [None] * len(branches), [None] * len(branches)

        def make(
            k,
            leaf_plans=leaf_plans,
            written=written,
            free=free,
            fills=fills,
            seens=seens,
            used=used,
        ):
            def branch(free_vals):
                with _scope(free, free_vals, where) as ctx:
                    seens[k], leaves = _observe(ctx, _fill(branches[k](), fills))
                    # the first run guesses each branch's own outputs as the plan
                    used[k] = plan = leaf_plans or [_initial_plan_of(d) for d in seens[k].descs]
                    res = [], []
                    if len(plan) == len(leaves):
                        res = _encode(plan, leaves), [t._value for t in written]
                    leaves = None
                    if reset is not None:
                        reset()
                return res

            return branch

        def call(*free_vals, make=make):
            return jax.lax.switch(idx, [make(k) for k in range(len(branches))], list(free_vals))

        error = None
        try:
            if free:  # Tensors that need grad: the switch is a function of them
                result = _ag.forward_with_pullback(
                    call, [t._value for t in free], (True,) * len(free)
                )
            else:
                result = (call(), None)
        except (TypeError, ValueError) as e:  # the branches' outputs differ: learn the plan
            if any(s is None for s in seens):
                raise  # raised by the user's code in a branch
            result, error = None, e
        _check_grads(seens, where)
        if any(s.tree != seens[0].tree for s in seens):
            more = _fills([s.parts for s in seens])
            if more and not set(more) <= set(fills):
                fills = {**fills, **more}
                continue
        _check_trees(seens, names, where)
        labels = _labels(names, seens[0].tree, len(seens[0].descs))
        new_plans = [
            _merge_leaf([s.descs[i] for s in seens], labels[i], where)
            for i in range(len(seens[0].descs))
        ]
        new_written = _union([s.written for s in seens])
        new_free = _needing_grad(_union([s.free for s in seens]))
        same = (
            all(_plans_equal(new_plans, u) for u in used)
            and _ids(new_written) == _ids(written)
            and _ids(new_free) == _ids(free)
        )
        if same and result is not None:
            break
        if same:
            raise error
        leaf_plans, written, free = new_plans, new_written, new_free
    else:
        raise ConversionError("Tensor control flow did not settle on one program", where)
    leaf_plans = used[0]
    (outs, pullback) = result
    var_arrays, write_arrays = outs if outs else ([], [])
    tensors = _decode(leaf_plans, var_arrays, sg=True, where=where)
    arrays_out = [t for t in tensors if isinstance(t, Tensor)] + [Tensor(v) for v in write_arrays]
    if pullback is not None:
        node = _ag.record(
            ("dy2static.if", next(_node_ids)),
            call,
            free,
            [t._value for t in free],
            (True,) * len(free),
            arrays_out,
        )
        if node is not None:
            node.pullback = pullback
    _write_results(written, arrays_out[len(arrays_out) - len(written) :])
    return jax.tree_util.tree_unflatten(seens[0].tree, tensors)


def _union(dicts) -> list:
    out = {}
    for d in dicts:
        out.update(d)
    return sorted(out.values(), key=lambda t: t._uid)


def _ids(ts) -> list:
    return [id(t) for t in ts]


def _plans_equal(a, b) -> bool:
    if a is None or b is None or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x[0] != y[0]:
            return False
        if x[0] in ("array", "zeros"):
            if x[1:] != y[1:]:
                return False
        elif x[0] == "undef":
            if type(x[1]) is not type(y[1]) or x[1]._name != y[1]._name:
                return False
        elif not (x[1] is y[1] or _same_const(x[1], y[1])):
            return False
    return True


def run_cond(pred, true_fn, false_fn, names=None, where=None, reset=None):
    """``true_fn() if pred else false_fn()`` with a traced boolean ``pred`` (one element)."""
    p = pred._value if isinstance(pred, Tensor) else pred
    if int(np.prod(p.shape)) != 1:
        raise ConversionError(
            f"the condition of a Tensor if must have one element, but its shape is "
            f"{list(p.shape)}; reduce it with .all() or .any()",
            where,
        )
    return run_switch(p.reshape(()).astype(jnp.int32), [false_fn, true_fn], names, where, reset)


# -- while -------------------------------------------------------------------------------------
def _merge_loop_leaf(before, after, label: str, where):
    """A loop variable's plan from its value before the loop and after one body run; a variable
    the body creates is carried from zeros of its shape (Paddle's loop variables start filled)."""
    if before[0] == "const" and _is_number(before[1]):
        before = ("num", before[1])
    if before[0] == "zeros":  # created by the body: still carried from zeros
        merged = _merge_leaf([("array", before[1], before[2]), after], label, where)
        return ("zeros", merged[1], merged[2])
    if before[0] == "undef" and after[0] != "undef":
        merged = _merge_leaf([after], label, where)
        if merged[0] == "array":
            return ("zeros", merged[1], merged[2])
        return ("undef", before[1])
    return _merge_leaf([before, after], label, where)


def run_while(cond_fn, body_fn, init, names=None, where=None, reset=None):
    """``while cond_fn(vars): vars = body_fn(vars)`` as one ``lax.while_loop``; ``init`` is a
    pytree of loop variables (Tensors, numbers, other Python values that the body keeps).
    ``reset()`` drops the caller's references to what a run of the body made."""
    init_leaves, tree = jax.tree_util.tree_flatten(init, is_leaf=_is_tensor)
    labels = _labels(names, tree, len(init_leaves))
    plans = [_initial_plan(x) for x in init_leaves]
    written: list = []
    # inside a traced if/while, the passes that learn the plan are shapes only: a loop left in
    # the enclosing program would be differentiated with it (a plain while_loop cannot be)
    nested = _scope_depth[0] > 0
    for _ in range(6):
        seen = {}
        cond, body = _loop_fns(cond_fn, body_fn, plans, written, [], tree, seen, where, reset)
        init_carry = (_encode(plans, init_leaves), [t._value for t in written])
        try:
            learn = partial(jax.lax.while_loop, partial(cond, []), partial(body, []), init_carry)
            out = jax.eval_shape(learn) if nested else learn()
        except TypeError as e:
            if "body" not in seen or "cond" not in seen or "loop" not in str(e):
                raise
            out = None
        if "body" not in seen:
            raise ConversionError("the body of a Tensor while loop did not run", where)
        s = seen["body"]
        _check_grads([seen["cond"], s], where)
        if s.tree != tree:
            fills = _fills([_parts(init), s.parts])
            if fills:  # an unset return value before the loop: carried from zeros
                init = _fill(init, fills)
                init_leaves, tree = jax.tree_util.tree_flatten(init, is_leaf=_is_tensor)
                labels = _labels(names, tree, len(init_leaves))
                plans = [_initial_plan(x) for x in init_leaves]
                continue
            _check_trees([_Seen([], tree, {}, {}, False), s], names, where)
        new_plans = [
            _merge_loop_leaf(p, d, labels[i], where) for i, (p, d) in enumerate(zip(plans, s.descs))
        ]
        new_written = _union([written_dict(written), seen["cond"].written, s.written])
        if (
            out is not None
            and _plans_equal(new_plans, plans)
            and _ids(new_written) == _ids(written)
        ):
            break
        plans, written = new_plans, new_written
    else:
        raise ConversionError("a Tensor while loop did not settle on one program", where)
    read = _union([seen["cond"].free, s.free])
    free = _needing_grad(read)
    if nested:  # inside a traced if/while: JAX may differentiate the enclosing one through it
        free = [t for t in read if np.issubdtype(np.dtype(t._value.dtype), np.inexact)]
    carry_tensors = [x for x, p in zip(init_leaves, plans) if p[0] in ("array", "zeros")]
    carry_mask = [isinstance(x, Tensor) and bool(_needing_grad([x])) for x in carry_tensors]
    if free or any(carry_mask) or nested:  # reverse mode by recomputation (while_grad)
        cond, body = _loop_fns(cond_fn, body_fn, plans, written, free, tree, {}, where, reset)
        if nested:  # the backward may run after this branch's scope: keep no Tensors alive
            example = ([t._value for t in free], init_carry)
            cond, body = _staged(cond, example), _staged(body, example)
        n_free, n_vars = len(free), len(init_carry[0])

        def loop(*xs):
            carry = (list(xs[n_free : n_free + n_vars]), list(xs[n_free + n_vars :]))
            return while_with_grad(cond, body, list(xs[:n_free]), carry)

        inputs = free + carry_tensors + written
        arrays = [t._value for t in free] + init_carry[0] + init_carry[1]
        mask = (True,) * n_free + tuple(carry_mask) + (False,) * len(written)
        out = loop(*arrays)  # (not a pullback: an enclosing VJP must see the custom rule)
    var_arrays, write_arrays = out
    results = _decode(plans, var_arrays, sg=True, where=where)
    write_tensors = [Tensor(v) for v in write_arrays]
    if free or any(carry_mask) or nested:
        outs = [t for t in results if isinstance(t, Tensor)] + write_tensors
        _ag.record(
            ("dy2static.while", next(_node_ids)), loop, inputs, arrays, mask, outs,
            custom=partial(_loop_vjp, loop, arrays, mask),
        )  # fmt: skip
    _write_results(written, write_tensors)
    return jax.tree_util.tree_unflatten(tree, results)


def _staged(fn, example):
    """``fn(free_vals, carry)`` traced once into a jaxpr: calling the result runs no Python
    body and holds none of the Tensors the body read (a nested loop's backward re-runs its
    body after the enclosing branch's scope has ended)."""
    closed, out_shape = jax.make_jaxpr(fn, return_shape=True)(*example)
    run = jax.extend.core.jaxpr_as_fun(closed)
    out_tree = jax.tree_util.tree_structure(out_shape)

    def staged(*args):
        return jax.tree_util.tree_unflatten(out_tree, run(*jax.tree_util.tree_leaves(args)))

    return staged


def _loop_vjp(loop, arrays, mask, cts, create_graph):
    """The input gradients of a differentiable loop node (``while_grad``'s rule)."""
    diff_idx = [i for i, m in enumerate(mask) if m]

    def g(*d):
        full = list(arrays)
        for i, v in zip(diff_idx, d):
            full[i] = v
        leaves = jax.tree_util.tree_leaves(loop(*full))
        return [o for o in leaves if jnp.issubdtype(o.dtype, jnp.inexact)]

    outs, vjp = jax.vjp(g, *[arrays[i] for i in diff_idx])
    cts = [jnp.zeros_like(o) if c is None else c for c, o in zip(cts, outs)]
    return list(vjp(cts))


def _loop_fns(cond_fn, body_fn, plans, written, free, tree, seen, where, reset):
    """``cond(free_vals, carry)`` and ``body(free_vals, carry)`` of a Tensor while loop: the
    carry is (the variables' arrays by ``plans``, the rebound Tensors' arrays); ``free``
    Tensors (read by the loop, needing grad) hold ``free_vals`` while it runs."""

    def unpack(var_arrays):
        return jax.tree_util.tree_unflatten(tree, _decode(plans, var_arrays, sg=True))

    def cond(free_vals, carry):
        var_arrays, write_arrays = carry
        with _scope(written + free, [*write_arrays, *free_vals], where) as ctx:
            p = _pred_array(cond_fn(unpack(var_arrays)), where)
            seen["cond"] = _observe(ctx, None)[0]
            if reset is not None:
                reset()
        return p

    def body(free_vals, carry):
        var_arrays, write_arrays = carry
        with _scope(written + free, [*write_arrays, *free_vals], where) as ctx:
            seen["body"], leaves = _observe(ctx, body_fn(unpack(var_arrays)))
            res = carry
            if seen["body"].tree == tree and len(leaves) == len(plans):
                res = _encode(plans, leaves), [t._value for t in written]
            leaves = None
            if reset is not None:
                reset()
        return res

    return cond, body


def _initial_plan(x):
    return _initial_plan_of(_describe(x))


def _initial_plan_of(d):
    """A leaf's plan guessed from one run: Tensors as arrays, everything else constant."""
    return ("const", d[1]) if d[0] == "num" else d


def written_dict(ts) -> dict:
    return {id(t): t for t in ts}


def _pred_array(p, where):
    v = p._value if isinstance(p, Tensor) else jnp.asarray(p)
    if int(np.prod(v.shape)) != 1:
        raise ConversionError(
            f"the condition of a Tensor while loop must have one element, but its shape is "
            f"{list(v.shape)}; reduce it with .all() or .any()",
            where,
        )
    return v.reshape(()).astype(bool)
