"""``paddle.jit.scan_layers``: a stack of identical blocks compiled as one ``lax.scan``
(a paddle-compat extension: Paddle has no such API).

``scan_layers(layers)`` marks a ``LayerList``. Eagerly, and in ``to_static``'s first (eager)
call, nothing changes. While ``to_static`` (or ``jit.save``) traces, iterating the marked list
yields one stand-in per block; the first one called runs ALL blocks as one op:

- the blocks must have the same structure (class, sublayers, parameter and buffer names,
  shapes, dtypes, ``stop_gradient``, ``training`` and the other non-Tensor attributes, no
  forward hooks); their parameters and buffers are stacked and ``lax.scan`` runs block 0's
  forward with its Tensors holding each block's slice (``swap_in``, no autograd inside);
- the carried value is the first positional argument; the other arguments are the same for
  every block; each stand-in returns its block's output (so collecting hidden states works);
- a one-block probe (``jax.eval_shape``) finds what else the block reads (closed-over Tensors:
  inputs of the op) and rebinds: the RNG key (dropout) and other shared Tensors are carried
  from block to block, so they advance exactly as the unrolled loop advances them; a block's
  own buffers (BatchNorm statistics) are stacked outputs written back to each block;
- the op is one tape node whose backward is JAX's VJP of the whole scan (retraced under the
  forward's ``auto_cast`` state); each block's parameter gradient is its slice of the stacked
  gradient, accumulated into its ``.grad``. Options: ``remat`` (``jax.checkpoint`` of the
  body), ``unroll`` (``lax.scan``'s).

Where the scan cannot reproduce the unrolled loop before it runs (blocks differ, the block
returns something other than one Tensor shaped like its input, writes its inputs or keeps a
Tensor it created), it warns once and the loop runs unrolled. A loop that misuses the
stand-ins after the scan ran (changes the carried value between blocks, passes per-block
arguments, calls blocks out of order) raises.
"""

from __future__ import annotations

import gc
import warnings

import jax
import jax.numpy as jnp

from .._core import amp_state, autograd, functional, gc_scope, trace_state
from .._core.dtype import is_inexact_np
from .._core.tensor import Tensor

__all__ = ["scan_layers"]

# Layer bookkeeping that differs between identical blocks or does not change what forward does
_BOOKKEEPING = frozenset(
    {
        "_full_name",
        "_parameters",
        "_buffers",
        "_sub_layers",
        "_loaddict_holder",
        "_built",
        "_training",
        "_state_dict_hooks",
        "_non_persistable_buffer_names_set",
        "_forward_pre_hooks",
        "_forward_post_hooks",
        "_forward_pre_hooks_with_kwargs_flag",
        "_forward_post_hooks_with_kwargs_flag",
        "_forward_post_hooks_always_called",
    }
)
_PREFIX = "paddle.jit.scan_layers"
STATS = {"scans": 0, "fallbacks": 0}  # counters read by tests and benchmarks


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def scan_layers(layers, enable: bool = True, remat: bool = False, unroll: int = 1):
    """Mark ``layers`` (a ``paddle.nn.LayerList`` of identical blocks) so that, under
    ``paddle.jit.to_static``, a loop ``for layer in layers: x = layer(x, *args)`` compiles as
    one ``lax.scan`` over the stacked parameters. ``remat``: recompute each block's activations
    in the backward pass (``jax.checkpoint`` of the scan body); ``unroll``: blocks per loop
    iteration (``lax.scan``'s ``unroll``: more compile time, less loop overhead).
    ``enable=False`` unmarks. Returns ``layers``."""
    from ..nn import LayerList

    if not isinstance(layers, LayerList):
        raise TypeError(
            f"{_PREFIX}(layers): layers must be a paddle.nn.LayerList, got {type(layers).__name__}"
        )
    if not isinstance(unroll, int) or isinstance(unroll, bool) or unroll < 1:
        raise ValueError(f"{_PREFIX}(unroll): unroll must be a positive int, got {unroll!r}")
    if enable:
        layers.__dict__["_scan_plan"] = _Plan(bool(remat), unroll)
    else:
        layers.__dict__.pop("_scan_plan", None)
    return layers


class _Plan:
    """The mark on a LayerList: options, and the reasons already warned about."""

    def __init__(self, remat: bool, unroll: int):
        self.remat, self.unroll = remat, unroll
        self.warned: set[str] = set()

    def __eq__(self, other):  # blocks holding marked lists compare equal when marked alike
        return isinstance(other, _Plan) and (other.remat, other.unroll) == (
            self.remat,
            self.unroll,
        )

    def __hash__(self):
        return hash((self.remat, self.unroll))

    def iterate(self, layers):
        """The iterator over ``layers`` under a trace (None: iterate normally)."""
        ctx = trace_state.current()
        if ctx is None or ctx.eager or len(layers) < 2:
            return None
        run = _Run(self, list(layers._sub_layers.values()))
        return run.stand_ins()

    def warn(self, reason: str) -> None:
        STATS["fallbacks"] += 1
        if reason not in self.warned:
            self.warned.add(reason)
            warnings.warn(
                f"{_PREFIX}: running the {reason}; the loop runs unrolled.",
                RuntimeWarning,
                stacklevel=5,
            )


class _Block:
    """Stands in for block ``i`` of a loop over a marked LayerList (attributes are the
    block's)."""

    __slots__ = ("_run", "_i")

    def __init__(self, run, i):
        self._run, self._i = run, i

    def __call__(self, *args, **kwargs):
        return self._run.call(self._i, args, kwargs)

    def __getattr__(self, name):
        return getattr(self._run.blocks[self._i], name)

    def __repr__(self) -> str:
        return f"scanned({self._run.blocks[self._i]!r})"


class _Run:
    """One pass of a loop over a marked LayerList under a trace."""

    def __init__(self, plan: _Plan, blocks: list):
        self.plan, self.blocks = plan, blocks
        self.mode: str | None = None  # "scan" or "loop", decided by the first call
        self.outs: list[Tensor] = []
        self.next = 0
        self.args = None
        self.failed = False  # a stand-in raised: no early-stop warning on top

    def stand_ins(self):
        n = len(self.blocks)
        try:
            for i in range(n):
                yield _Block(self, i)
        finally:
            if self.mode == "scan" and self.next < n and not self.failed:
                warnings.warn(
                    f"{_PREFIX}: the loop called {self.next} of {n} blocks; the scan ran all "
                    f"{n} (state they update, such as the random key, advanced for all {n}).",
                    RuntimeWarning,
                    stacklevel=2,
                )

    def call(self, i, args, kwargs):
        try:
            return self._call(i, args, kwargs)
        except Exception:
            self.failed = True
            raise

    def _call(self, i, args, kwargs):
        if self.mode is None:
            if i != 0:
                self.mode = "loop"
                self.plan.warn(f"blocks from block {i} (the loop did not start at block 0)")
            else:
                outs = _scan(self.plan, self.blocks, args, kwargs)
                if isinstance(outs, str):
                    self.mode = "loop"
                    self.plan.warn(outs)
                else:
                    self.mode, self.outs, self.args = "scan", outs, (args[1:], kwargs)
        if self.mode == "loop":
            return self.blocks[i](*args, **kwargs)
        if i != self.next:
            raise RuntimeError(
                f"{_PREFIX}: block {i} was called after block {self.next - 1}; a scanned "
                "LayerList runs its blocks once each, in order (unmark it with "
                "scan_layers(layers, enable=False) for other loops)."
            )
        if i > 0:
            _check_same_call(i, args, kwargs, self.outs[i - 1], self.args)
        self.next = i + 1
        return self.outs[i]


def _check_same_call(i, args, kwargs, prev_out, first):
    if not args or args[0] is not prev_out:
        raise ValueError(
            f"{_PREFIX}: block {i} must get block {i - 1}'s output as its first argument "
            "(x = layer(x, ...)); the loop changes the carried Tensor between blocks. Unmark the "
            "LayerList with scan_layers(layers, enable=False) for such loops."
        )
    a = jax.tree_util.tree_flatten((args[1:], kwargs), is_leaf=_is_tensor)
    b = jax.tree_util.tree_flatten(first, is_leaf=_is_tensor)
    same = a[1] == b[1] and all(
        x is y if isinstance(x, Tensor) or isinstance(y, Tensor) else _same(x, y)
        for x, y in zip(a[0], b[0])
    )
    if not same:
        raise ValueError(
            f"{_PREFIX}: block {i} got other arguments than block 0; a scanned LayerList "
            "passes the same arguments besides the carried Tensor to every block (per-block "
            "arguments such as caches[i] are not supported: unmark the LayerList)."
        )


def _same(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - uncomparable values count as different
        return False


# -- structure ---------------------------------------------------------------------------------
def _difference(a, b, prefix: str = "") -> str | None:
    """Where layer ``b`` differs from ``a`` in what forward depends on (None: identical)."""
    where = prefix.rstrip(".") or "the block"
    if type(a) is not type(b):
        return f"{where} is a {type(b).__name__}, not a {type(a).__name__}"
    if a.training != b.training:
        return f"{where} has training={b.training}"
    for hooks in ("_forward_pre_hooks", "_forward_post_hooks"):
        if a.__dict__.get(hooks) or b.__dict__.get(hooks):
            return f"{where} has forward hooks"
    for store in ("_parameters", "_buffers"):
        da, db = a.__dict__[store], b.__dict__[store]
        if list(da) != list(db):
            return f"{where} has {store[1:]} {list(db)}, not {list(da)}"
        for k in da:
            ta, tb = da[k], db[k]
            if (ta is None) != (tb is None) or (
                ta is not None
                and (
                    tuple(ta.shape) != tuple(tb.shape)
                    or ta.dtype != tb.dtype
                    or ta.stop_gradient != tb.stop_gradient
                )
            ):
                return f"{prefix}{k} differs (shape, dtype or stop_gradient)"
    if (k := _attr_difference(a, b)) is not None:
        return f"{prefix}{k} differs"
    if list(a._sub_layers) != list(b._sub_layers):
        return f"{where} has sublayers {list(b._sub_layers)}, not {list(a._sub_layers)}"
    for k, sa in a._sub_layers.items():
        sb = b._sub_layers[k]
        if (sa is None) != (sb is None):
            return f"{prefix}{k} is None in one block only"
        if sa is not None and (d := _difference(sa, sb, f"{prefix}{k}.")) is not None:
            return d
    return None


def _attr_difference(a, b) -> str | None:
    da, db = a.__dict__, b.__dict__
    keys = [k for k in da if k not in _BOOKKEEPING]
    if sorted(keys) != sorted(k for k in db if k not in _BOOKKEEPING):
        return "the set of attributes"
    for k in keys:
        if not _same(da[k], db[k]):
            return k
    return None


def _block_state(block) -> list[tuple[str, Tensor]]:
    """A block's parameters, then its buffers, by structured name (each Tensor once)."""
    out = list(block.named_parameters())
    seen = {id(t) for _, t in out}
    out += [(k, t) for k, t in block.named_buffers() if id(t) not in seen]
    return out


# -- the scan ----------------------------------------------------------------------------------
def _scan(plan: _Plan, blocks: list, args: tuple, kwargs: dict):
    """Run every block as one op; the outputs of each block, or why it cannot (a reason)."""
    n = len(blocks)
    if not args or not isinstance(args[0], Tensor):
        return (
            "blocks one by one: the carried value (the first positional argument) is not a Tensor"
        )
    x = args[0]
    rest = (args[1:], kwargs)
    arg_tensors = [t for t in jax.tree_util.tree_leaves(rest, is_leaf=_is_tensor) if _is_tensor(t)]
    if any(t is x for t in arg_tensors):
        return "blocks one by one: the carried Tensor is also passed as another argument"
    for i in range(1, n):
        d = _difference(blocks[0], blocks[i])
        if d is not None:
            return f"blocks one by one: block {i} differs from block 0 ({d})"
    states = [_block_state(b) for b in blocks]
    names0 = [k for k, _ in states[0]]
    if any([k for k, _ in s] != names0 for s in states[1:]):
        return "blocks one by one: their parameters and buffers are not named alike"
    st0 = [t for _, t in states[0]]
    prev = trace_state.set_current(None)  # the holder is private: not state of the trace
    try:
        holder = Tensor(trace_state.read(x), stop_gradient=x.stop_gradient)
    finally:
        trace_state.set_current(prev)
    block0 = blocks[0]

    def call():
        a, kw = rest
        return block0(holder, *a, **kw)

    probe = _probe(call, holder, arg_tensors, st0, x)
    if isinstance(probe, str):
        return probe
    reads, carries, written = probe
    per_block = [[t for _, t in s] for s in states]
    if written:  # a block's own buffers (BatchNorm statistics) must not be shared by blocks
        ids = [id(s[j]) for s in per_block for j in written]
        if len(set(ids)) != len(ids):
            return "blocks one by one: blocks share a buffer that forward updates"
    f = _scan_fn(plan, n, call, holder, arg_tensors, reads, carries, st0, written)
    inputs = [x, *arg_tensors, *reads, *carries, *(t for s in per_block for t in s)]
    arrays = [trace_state.read(t) for t in inputs]
    outs = [Tensor(a) for a in f(*arrays)]
    if autograd.is_grad_enabled():
        mask = tuple(not t.stop_gradient and is_inexact_np(a.dtype) for t, a in zip(inputs, arrays))
        if any(mask):
            autograd.record(("scan_layers", _Key()), f, inputs, arrays, mask, outs)
    STATS["scans"] += 1
    ys, rest_outs = outs[:n], outs[n:]
    for t, v in zip(carries, rest_outs[: len(carries)]):
        t._set_value(v._value)
    new_state = rest_outs[len(carries) :]
    for i, s in enumerate(per_block):
        for m, j in enumerate(written):
            s[j]._set_value(new_state[i * len(written) + m]._value)
    return ys


class _Key:
    """A tape key unique to one scan op (its VJP closes over this op's block and Tensors)."""

    name = "scan_layers"


def _probe(call, holder, arg_tensors, st0, x):
    """Trace block 0 once (shapes only) and find what it reads and rebinds besides its own
    Tensors and arguments: (read-only Tensors, carried Tensors, indices of written block
    Tensors), or why the scan cannot reproduce the loop."""
    known = [holder, *arg_tensors, *st0]
    found = {}

    def fn(vals):
        with autograd.no_grad(), functional.swap_in(known, vals, eager=True) as ctx:
            out = call()
            found["ctx"] = ctx
            found["out"] = (
                (tuple(out._value.shape), out._value.dtype) if isinstance(out, Tensor) else None
            )
            found["new"] = {
                i: (tuple(r()._value.shape), r()._value.dtype)
                for i, (r, *_) in ctx.written.items()
                if r() is not None
            }
            out = None
        return None

    specs = [jax.ShapeDtypeStruct(jnp.shape(v), v.dtype) for v in (t._value for t in known)]
    with gc_scope.new_objects_only():  # the collection below walks only what the trace made
        jax.eval_shape(fn, specs)
        ctx = found.pop("ctx")
        kept = _kept_tracers(ctx)
        if kept:
            gc.collect()  # Tensors in released reference cycles are not kept
            kept = _kept_tracers(ctx)
    if found["out"] != (tuple(x._value.shape), x._value.dtype):
        return (
            "blocks one by one: a block must return one Tensor with its first argument's shape "
            "and dtype"
        )
    if ctx.grads:
        return "blocks one by one: the block sets .grad"
    if kept:
        return "blocks one by one: the block keeps a Tensor it creates (e.g. a cache)"
    ids = {id(t): j for j, t in enumerate(st0)}
    arg_ids = {id(holder)} | {id(t) for t in arg_tensors}
    written, carries = [], []
    for i, (ref, *_) in ctx.written.items():
        t = ref()
        if t is None or t._uid >= ctx.start_uid:
            continue
        if i in arg_ids:
            return "blocks one by one: the block writes into its arguments in place"
        if i in ids:
            written.append(ids[i])
            continue
        if found["new"].get(i) != (tuple(t._value.shape), t._value.dtype):
            return "blocks one by one: the block changes a shared Tensor's shape or dtype"
        carries.append(t)
    carried = {id(t) for t in carries}
    reads = [t for i, t in ctx.discovered.items() if i not in carried]
    return reads, carries, sorted(written)


def _is_tracer(t) -> bool:
    return trace_state.is_tracer(t._val)


def _kept_tracers(ctx) -> bool:
    """Whether a Tensor the trace created is still alive holding a tracer."""
    return any(t is not None and _is_tracer(t) for t in (r() for r in ctx.created))


def _scan_fn(plan, n, call, holder, arg_tensors, reads, carries, st0, written):
    """The op: (x, arguments, read Tensors, carried Tensors, every block's Tensors, block by
    block) -> (each block's output, the carried Tensors' final values, each block's written
    Tensors)."""
    na, nr, nc, k = len(arg_tensors), len(reads), len(carries), len(st0)
    known = [holder, *arg_tensors, *reads, *carries, *st0]
    amp = amp_state.current()  # the backward retraces f outside auto_cast: the same casts

    def step(av, rv, carry, sl):
        xc, cs = carry
        with autograd.no_grad(), functional.swap_in(known, [xc, *av, *rv, *cs, *sl]):
            out = call()
            y = jax.lax.convert_element_type(out._value, xc.dtype)
            new_c = [jax.lax.convert_element_type(t._value, c.dtype) for t, c in zip(carries, cs)]
            new_s = [jax.lax.convert_element_type(st0[j]._value, sl[j].dtype) for j in written]
            out = None
        return (y, new_c), (y, new_s)

    def f(*arrays):
        x = arrays[0]
        av = list(arrays[1 : 1 + na])
        rv = list(arrays[1 + na : 1 + na + nr])
        cv = list(arrays[1 + na + nr : 1 + na + nr + nc])
        flat = arrays[1 + na + nr + nc :]
        stacked = [jnp.stack(flat[j::k]) for j in range(k)]

        def body(carry, sl):
            return step(av, rv, carry, sl)

        if plan.remat:
            body = jax.checkpoint(body)
        with amp_state.using(amp):
            (_, c_fin), (ys, s_new) = jax.lax.scan(
                body, (x, cv), stacked, length=n, unroll=plan.unroll
            )
        outs = [ys[i] for i in range(n)] + list(c_fin)
        outs += [s_new[m][i] for i in range(n) for m in range(len(written))]
        return outs

    return f
