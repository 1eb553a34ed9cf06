"""The op registry: one decorator turns a plain function over jax arrays into a Paddle op.

    @op("add", tensors=("x", "y"), promote=("x", "y"), inplace="add_")
    def add(x, y):
        return jnp.add(x, y)

The decorator records the metadata; ``call_op`` does the shared work for every op: it maps
argument aliases, unwraps Tensors, applies Paddle's dtype rules, runs the function (jitted once
per op, static arguments and input types), wraps the outputs in Tensors and records autograd.
The ``paddle.*`` namespace, Tensor methods and in-place variants are generated from
``REGISTRY`` in ``paddle_compat._ops._methods``.

Paddle's ``name`` argument and the PyTorch-style keyword ``out`` are declared in the op
function's signature where Paddle's signature has them (``def add(x, y, name=None, *,
out=None)``): ``call_op`` accepts them by position or keyword, never passes them to the function,
and writes the result into ``out`` (``_write_out``), so signatures equal Paddle's without every
op handling them.

``composite=True`` marks an op written over Tensors with other ops (for data-dependent shapes
computed on the host, e.g. ``nonzero``): it is called as-is and gets no autograd of its own.

An op function is annotated for what it receives (``jax.Array`` for tensor parameters, Python
types for static ones); ``inspect.signature(paddle.add)`` and ``help`` show the signature users
call, with ``Tensor`` for ``jax.Array`` (``OpDef.__signature__``, computed on first use).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

from . import (
    amp_state,
    autograd,
    deferred,
    op_observers,
    place,
    segment_store,
    static_mode,
    trace_state,
    views,
)
from . import dtype as _dt
from .op_args import Overload, hashable, unhash
from .op_args import bind_args as _bind
from .op_args import write_out as _write_out
from .op_errors import RankError as _RankError
from .op_errors import check_dtype, out_of_memory  # noqa: F401  (check_dtype: used by ops)
from .op_errors import leaf_dtype as _leaf_dtype
from .op_errors import paddle_error as _paddle_error
from .op_signature import PublicSignature as _PublicSignature
from .tensor import Tensor, to_device

_MISSING = inspect.Parameter.empty
_RESERVED = ("name", "out")  # Paddle's name and out=: handled by call_op, never the function's
_DEFAULT_ALIASES = {"input": "x", "other": "y"}
# ``aliases=`` for the ops whose Paddle 3.3 function refuses the PyTorch-style keywords
# ``input=``/``other=`` (a None alias drops a default one; tests/test_signatures.py checks)
NO_TORCH_KEYWORDS = {"input": None, "other": None}


@dataclass(eq=False, repr=False)
class OpDef:
    name: str
    fn: Callable
    tensors: tuple[str, ...]
    promote: tuple[str, ...]
    methods: tuple[str, ...]  # Tensor method names, the primary one first
    inplace: tuple[str, ...]  # in-place variant names, the primary one first
    tensor_inplace: bool  # the in-place variants are also Tensor methods
    inplace_keywords: bool  # the in-place variants take the keyword aliases too
    inplace_signature: inspect.Signature | None  # the in-place variants' own, where it differs
    aliases: dict[str, str]
    namespaces: tuple[str, ...]
    differentiable: bool
    composite: bool
    extra_names: tuple[str, ...]
    dtypes: tuple[str, ...] | None  # dtype names the first tensor argument may have
    kernel: str  # Paddle's kernel (_C_ops) name, used in dtype errors
    dtype_error: type[Exception]
    amp: str  # AMP list: "white" (low precision), "black" (float32 at O1), "black_always"
    # (float32 at O1 and O2: Paddle's extra black list), "promote" (the widest input)
    params: tuple[str, ...] = ()  # the function's parameters (not name / out)
    positional: tuple[str, ...] = ()  # positional binding order, name / out included
    reserved: tuple[str, ...] = ()  # which of name / out the signature declares
    defaults: dict = field(default_factory=dict)
    required: tuple[str, ...] = ()
    varargs: str | None = None  # name of a *args parameter, if any
    n_positional: int = 0  # parameters before *args
    tensor_modules: tuple[str, ...] = ()  # Paddle's paddle.tensor.<module>s exposing the op
    check: Callable | None = None  # checks of input values, before the kernel (runtime_checks)
    promote_0d: str | None = None  # a 0-D Tensor operand in promotion: "keep_nd" / "kind"
    prebind: Callable | None = None  # (args, kwargs) -> (args, kwargs), before binding
    view: bool | Callable = False  # the result is a view of the first input (views.share)
    train_form: bool = False  # another form in differentiated programs (in_train_program)

    __signature__ = _PublicSignature()

    def __call__(self, *args, **kwargs):
        return call_op(self, *args, **kwargs)

    def __segment_name__(self) -> str | None:
        """The op's name in a persistent segment key (``segment_store``): only the package's
        own ops, whose code the store's fingerprint covers."""
        mod = getattr(self.fn, "__module__", None) or ""
        return f"op:{self.name}" if mod.split(".")[0] == "paddle_compat" else None

    def __get__(self, obj, owner=None):
        """Never binds (an op stored on a class stays the op); makes the op a routine to
        ``inspect``/``pydoc``, so ``help(paddle.add)`` shows its signature and docstring."""
        return self

    def __repr__(self) -> str:
        return f"<paddle op {self.name}>"


REGISTRY: dict[str, OpDef] = {}

# The default ``tensor_modules`` of a ``paddle.*`` op: the Paddle module ``paddle.tensor.<m>``
# that matches the file under paddle_compat/_ops/ defining it (files split by sub-category map
# to their category). Ops defined elsewhere (nn.functional, window) default to none. Where Paddle
# differs (it re-exports many ops, e.g. ``exp`` in ``math`` and ``ops``, ``equal`` in ``logic``)
# the decorator says ``tensor_modules=...``; tests/test_tensor_modules.py checks against Paddle.
_TENSOR_MODULE_OF_FILE = {
    "attribute": "attribute",
    "creation": "creation",
    "random": "random",
    "search": "search",
    "linalg": "linalg",
    "linalg_decomp": "linalg",
    "stat_extra": "stat",
    "manipulation": "manipulation",
    "manip_extra": "manipulation",
    "manipulation_gather": "manipulation",
    "indexing": "manipulation",
    "math": "math",
    "math_extra": "math",
    "math_misc": "math",
    "math_products": "math",
    "reduction": "math",
}


def _default_tensor_modules(fn: Callable, namespaces) -> tuple[str, ...]:
    pkg, _, file = getattr(fn, "__module__", "").rpartition(".")
    if "paddle" not in namespaces or pkg != "paddle_compat._ops":
        return ()
    m = _TENSOR_MODULE_OF_FILE.get(file)
    return (m,) if m else ()


def op(
    name: str,
    *,
    tensors: tuple[str, ...] | None = None,
    promote: tuple[str, ...] = (),
    method: str | bool | None = True,
    method_aliases: tuple[str, ...] = (),
    inplace: str | None = None,
    inplace_aliases: tuple[str, ...] = (),
    tensor_inplace: bool | None = None,
    inplace_keywords: bool = False,
    inplace_signature: Callable | None = None,
    aliases: dict[str, str] | None = None,
    namespaces: tuple[str, ...] = ("paddle",),
    differentiable: bool = True,
    composite: bool = False,
    extra_names: tuple[str, ...] = (),
    dtypes: tuple[str, ...] | None = None,
    kernel: str | None = None,
    dtype_error: type[Exception] = RuntimeError,
    amp: str = "promote",
    tensor_modules: tuple[str, ...] | None = None,
    check: Callable[[dict], None] | None = None,
    promote_0d: str | None = None,
    prebind: Callable[[tuple, dict], tuple[tuple, dict]] | None = None,
    view: bool | Callable[[dict, Tensor], tuple[Callable, Callable]] = False,
    train_form: bool = False,
):
    """Register ``fn`` as the Paddle op ``name``: the one place that declares its names.

    tensors: parameters that carry Tensors (default: the first parameter); all others are
        static Python values (part of the compile cache key).
    promote: tensor parameters that share one result dtype (Paddle's binary-op promotion).
    method: Tensor method name (True: same as ``name``; None: no method);
        method_aliases: more Tensor method names (``lt`` for ``less_than``).
    inplace: name of the in-place variant, e.g. ``"add_"``: a function in every namespace of
        the op and a Tensor method when the op has one (or ``tensor_inplace=True``);
        inplace_aliases: more names for it (``clamp_`` for ``clip_``); inplace_keywords: it
        takes the op's keyword aliases (``input=``, ``other=``), as a few of Paddle's do;
        inplace_signature: a stub whose signature the in-place variant has where Paddle's
        differs from the op's (``cumprod_`` takes ``dtype`` by position; its ``name``/``out``
        are accepted and ignored).
    aliases: extra keyword names accepted for parameters (``input`` -> ``x`` and ``other`` ->
        ``y`` are default; ``NO_TORCH_KEYWORDS`` turns those off).
    namespaces: public modules the op appears in (``"paddle"``, ``"paddle.linalg"``,
        ``"paddle.nn.functional"``); extra_names: other public names there (``cat``).
    dtypes: the dtype names the first tensor argument may have; any other raises
        ``dtype_error`` (RuntimeError: Paddle's "kernel not registered", TypeError: its API
        check) naming ``kernel`` (Paddle's kernel name, default ``name``).
    amp: the op's AMP list (``paddle.amp.auto_cast``): "white" runs in float16/bfloat16,
        "black" in float32 at level O1, "black_always" in float32 at O1 and O2, "promote" in
        float32 when any input is float32 (see ``_core/amp_state.py``).
    tensor_modules: the ``paddle.tensor.<module>``s that expose the op and all its names
        (default: from the defining file, see ``_TENSOR_MODULE_OF_FILE``).
    check: called with the bound arguments before the kernel runs, to check input values
        as Paddle's kernel does (indices in range: ``_core/runtime_checks.py``).
    prebind: rewrites a call's (args, kwargs) before they are bound to the signature, for
        Paddle's argument-normalizing decorators (``x.reshape(2, 3)`` packs the ints into
        ``shape``; ``transpose(x, 0, 1)`` swaps two dims); called only off the fast path. It
        returns an ``Overload`` for a call in another op's form (Paddle's overloaded APIs:
        ``scatter(input, dim, index, src)`` is ``put_along_axis``).
    view: the result is a Paddle view of the first tensor argument: an in-place write to either
        shows in the other (``_core/views.py``); True for a reshape-like op, else a function of
        the bound arguments and that input giving a ``views.View`` (a list of them for a list
        result, ``views.STRICT`` for ``view(shape)``, None for a copy).
    train_form: the function takes another form inside a larger program that differentiates
        it (a to_static train step, a deferred segment recording gradients) than in its eager
        kernel, by ``trace_state.in_train_program()``; the two get separate kernels.
    promote_0d: Paddle's arithmetic and comparison ops let a 0-D Tensor operand mix kinds
        (``int32[2] + float64[]`` is float64, ``dtype.promote_with_0d``); "keep_nd": within a
        kind the N-D operand's dtype wins, "kind": within a kind the usual promotion.
    """
    if amp not in ("white", "black", "black_always", "promote"):
        raise ValueError(
            f"op {name!r}: amp must be 'white', 'black', 'black_always' or 'promote', got {amp!r}"
        )

    def deco(fn):
        sig = inspect.signature(fn)
        varargs = next((k for k, p in sig.parameters.items() if p.kind == p.VAR_POSITIONAL), None)
        reserved = tuple(k for k in _RESERVED if k in sig.parameters)
        positional = tuple(
            k
            for k, p in sig.parameters.items()
            if k != varargs and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        )
        params = tuple(k for k in sig.parameters if k != varargs and k not in reserved)
        n_positional = list(sig.parameters).index(varargs) if varargs else len(positional)
        defaults = {
            k: p.default
            for k, p in sig.parameters.items()
            if p.default is not _MISSING and k != varargs and k not in reserved
        }
        required = tuple(
            k
            for k, p in sig.parameters.items()
            if p.default is _MISSING and k != varargs and k not in reserved
        )
        if varargs:
            params = params + (varargs,)
            defaults[varargs] = ()
        od = OpDef(
            name=name,
            fn=fn,
            tensors=tuple(tensors) if tensors is not None else params[:1],
            promote=tuple(promote),
            methods=tuple(
                dict.fromkeys(
                    ((name,) if method is True else (method,) if method else ()) + method_aliases
                )
            ),
            inplace=((inplace,) if inplace else ()) + tuple(inplace_aliases),
            tensor_inplace=bool(method) if tensor_inplace is None else tensor_inplace,
            inplace_keywords=inplace_keywords,
            inplace_signature=None
            if inplace_signature is None
            else inspect.signature(inplace_signature),
            aliases={
                k: v for k, v in {**_DEFAULT_ALIASES, **(aliases or {})}.items() if v is not None
            },
            namespaces=tuple(namespaces),
            differentiable=differentiable,
            composite=composite,
            extra_names=tuple(extra_names),
            dtypes=None if dtypes is None else tuple(dtypes),
            kernel=kernel or name,
            dtype_error=dtype_error,
            amp=amp,
            params=params,
            positional=positional,
            reserved=reserved,
            defaults=defaults,
            required=required,
            varargs=varargs,
            n_positional=n_positional,
            tensor_modules=(
                _default_tensor_modules(fn, namespaces)
                if tensor_modules is None
                else tuple(tensor_modules)
            ),
            check=check,
            promote_0d=promote_0d,
            prebind=prebind,
            view=view,
            train_form=train_form,
        )
        if name in REGISTRY:
            raise ValueError(f"op {name!r} registered twice")
        REGISTRY[name] = od
        od.__name__ = name
        od.__doc__ = fn.__doc__
        od.__wrapped__ = fn
        return od

    return deco


def call_op(od: OpDef | str, *args, **kwargs):
    """Run a registered op on Paddle-style arguments."""
    if isinstance(od, str):
        od = REGISTRY[od]
    if static_mode.recording and static_mode.records():  # enable_static(): into the Program
        return static_mode.record(od, args, kwargs)
    if amp_state._local.state is not None:
        return _call_amp(od, args, kwargs)
    if not kwargs and len(args) == len(od.tensors):
        fast = _FAST.get(od)
        if fast is None:
            fast = _FAST[od] = _fast_plan(od)
        flat = _flat_inputs(od, args) if fast else None
        if flat is not None:
            if od.check is not None:
                od.check({**od.defaults, **dict(zip(od.tensors, args))})
            statics, types, treedef = fast
            out = _run_flat(od, statics, types, treedef, *flat)
            if od.view:
                _share_view(od, {**od.defaults, **dict(zip(od.tensors, args))}, out)
            return out
    if od.prebind is not None:
        bound = od.prebind(args, kwargs)
        if isinstance(bound, Overload):
            return _run_overload(bound)
        args, kwargs = bound
    vals, out = _bind(od, args, kwargs)
    if out is not None:
        return _write_out(od, _call_bound(od, vals), out)
    res = _call_bound(od, vals)
    if od.view:
        _share_view(od, vals, res)
    return res


def _run_overload(call: Overload):
    """A call in another op's form (``prebind`` said so): that op runs, and takes ``out``."""
    kwargs = dict(call.kwargs)
    out = kwargs.pop("out", None)
    res = call_op(call.op, *call.args, **kwargs)
    return res if out is None else _write_out(REGISTRY[call.op], res, out)


def _share_view(od: OpDef, vals: dict, res) -> None:
    base = vals[od.tensors[0]]
    if isinstance(base, Tensor):
        views.share_op(base, res, od.view, vals)


def _call_bound(od: OpDef, vals: dict):
    if od.dtypes is not None:
        check_dtype(vals[od.tensors[0]], od.dtypes, od.kernel, od.dtype_error, od.tensors[0])
    if od.check is not None:
        od.check(vals)
    if od.composite:
        try:
            return call_with(od, vals)
        except IndexError as e:  # also numpy's AxisError
            if str(e).startswith("("):  # a Paddle-style error from the op or an op inside
                raise
            inputs = [v for v in vals.values() if isinstance(v, Tensor)]
            raise _paddle_error((od,), inputs, _RankError(e), ValueError) from None
    return _run_op(od, vals)


def _call_amp(od: OpDef, args, kwargs):
    """``call_op`` inside ``paddle.amp.auto_cast``: cast the op's floating Tensor inputs to
    the dtype the AMP state picks for it, then run the op (and any ops it is built from) with
    AMP off, as Paddle runs one kernel per op."""
    if od.prebind is not None:
        bound = od.prebind(args, kwargs)
        if isinstance(bound, Overload):
            return _run_overload(bound)
        args, kwargs = bound
    vals, out = _bind(od, args, kwargs)
    if out is not None:
        return _write_out(od, _call_amp(od, (), vals), out)
    if od.check is not None and not od.composite:  # a composite op checks in call_op
        od.check(vals)
    bias = None
    if od.name in amp_state.BIAS_ADDED_AFTER and vals.get("bias") is not None:
        bias, vals["bias"] = vals["bias"], None  # Paddle adds a conv's bias as its own op
    state = amp_state.set_current(None)
    try:
        if od.name in amp_state.X_ONLY:
            params = od.tensors[:1]
        elif od.composite:  # built from other ops: every Tensor argument is an input
            params = [p for p in od.params if _has_tensor(vals[p])]
        else:
            params = od.tensors
        leaves = []
        for p in params:
            v = vals[p]
            if isinstance(v, Tensor):
                leaves.append(v)
            elif isinstance(v, list | tuple | dict):
                leaves.extend(
                    t for t in jax.tree_util.tree_leaves(v, is_leaf=_is_tensor) if _is_tensor(t)
                )
        dst = state.dest(od, [t._val.dtype for t in leaves]) if leaves else None
        if dst is not None and not any(amp_state.needs_cast(t._val.dtype, dst) for t in leaves):
            dst = None
        if dst is not None and od.composite:
            cast = REGISTRY["cast"]

            def to_dst(t):
                if isinstance(t, Tensor) and amp_state.needs_cast(t._val.dtype, dst):
                    return call_op(cast, t, dst.name)
                return t

            for p in params:
                vals[p] = jax.tree_util.tree_map(to_dst, vals[p], is_leaf=_is_tensor)
        if od.composite:
            out = call_op(od, **vals)
        else:  # the casts run inside the op's own kernel (one dispatch, and fused by XLA)
            first = vals[od.tensors[0]] if od.tensors else None
            if od.dtypes is not None and not (
                dst is not None
                and isinstance(first, Tensor)
                and amp_state.needs_cast(first._val.dtype, dst)
            ):
                check_dtype(first, od.dtypes, od.kernel, od.dtype_error, od.tensors[0])
            out = _run_op(od, vals, None if dst is None else (dst, frozenset(params)))
    finally:
        amp_state.set_current(state)
    if bias is None:
        return out
    if str(vals.get("data_format", "NC")).startswith("NC"):
        bias = call_op("reshape", bias, [-1] + [1] * (len(out.shape) - 2))
    return call_op("add", out, bias)


def _has_tensor(v) -> bool:
    if isinstance(v, Tensor):
        return True
    return isinstance(v, list | tuple) and any(_has_tensor(x) for x in v)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _scalar_dtype(s) -> _dt.DType:
    if isinstance(s, bool):
        return _dt.bool_
    if isinstance(s, int):
        return _dt.int64
    if isinstance(s, float):
        return _dt.default_float()
    if isinstance(s, complex):
        return _dt.complex64
    raise TypeError(f"unsupported scalar {s!r}")


def _promote_plan(od: OpDef, leaves, leaf_param):
    """Target dtype for each leaf taking part in promotion (None: leave as is)."""
    idx = [i for i, p in enumerate(leaf_param) if p in od.promote]
    if len(idx) == 0:
        return None
    tensor_dt = None
    typed = [i for i in idx if _leaf_dtype(leaves[i]) is not None]
    if od.promote_0d is not None and len(typed) == 2:
        (a, b), (na, nb) = [_leaf_dtype(leaves[i]) for i in typed], [leaves[i] for i in typed]
        tensor_dt = _dt.promote_with_0d(
            a, len(na.shape) == 0, b, len(nb.shape) == 0, od.promote_0d == "keep_nd"
        )
    else:
        for i in typed:
            d = _leaf_dtype(leaves[i])
            tensor_dt = d if tensor_dt is None else _dt.promote_types(tensor_dt, d)
    if tensor_dt is None:
        target = None
        for i in idx:
            d = _scalar_dtype(leaves[i])
            target = d if target is None else _scalar_join(target, d)
    else:
        target = tensor_dt
        for i in idx:
            if _leaf_dtype(leaves[i]) is None:
                target = _dt.scalar_result_dtype(target, leaves[i])
    return idx, target


def _scalar_join(a: _dt.DType, b: _dt.DType) -> _dt.DType:
    order = [_dt.bool_, _dt.int64, _dt.default_float(), _dt.complex64]
    return order[max(order.index(a), order.index(b))]


def _to_array_leaf(x, target: _dt.DType | None):
    """Non-Tensor leaf in a tensor position -> a value jit can take."""
    if isinstance(x, bool | int | float | complex):
        dt = _scalar_dtype(x).np if target is None else target
        key = (type(x), x.hex() if type(x) is float else x, dt)  # hex: -0.0 and nan distinct
        a = _SCALAR_ARRAYS.get(key)
        if a is None:
            # a device array, not a Python scalar: Python scalars miss jit's C++ fast path;
            # made on the host (``jnp.asarray`` compiles a convert kernel per dtype) and
            # concrete even when first seen inside a trace, so the cache never holds a tracer
            with jax.ensure_compile_time_eval():
                a = to_device(np.asarray(x, dt), owned=True)
            if len(_SCALAR_ARRAYS) > 4096:
                _SCALAR_ARRAYS.clear()
            _SCALAR_ARRAYS[key] = a
        return a
    if isinstance(x, np.ndarray | np.generic | list | tuple):
        a = np.asarray(x)
        if target is None and a.dtype == np.float64:
            a = a.astype(_dt.default_float().np)
        return to_device(a)
    if isinstance(x, jax.Array | jax.core.Tracer):
        return x
    raise TypeError(f"expected a Tensor, got {type(x).__name__}")


# -- the shared execution path ----------------------------------------------------------------
_KERNELS: dict = {}


def _run_op(od: OpDef, vals: dict, amp=None):
    """Run ``od`` on bound arguments; ``amp``: (dtype, parameters) whose floating Tensor
    inputs the kernel first casts to that dtype (``auto_cast``)."""
    dyn = [vals[p] for p in od.tensors]
    statics = tuple((p, hashable(vals[p])) for p in od.params if p not in od.tensors)
    flat = _flat_inputs(od, dyn) if amp is None else None
    if flat is not None:  # the common eager case: Tensors (and scalars), no nesting
        (inputs, casts), treedef = flat, _flat_treedef(len(dyn))
    else:
        leaves, treedef = jax.tree_util.tree_flatten(dyn, is_leaf=_is_tensor)
        leaf_param = []
        if od.promote or amp is not None:  # which parameter each leaf came from
            for p, v in zip(od.tensors, dyn):
                n = len(jax.tree_util.tree_leaves(v, is_leaf=_is_tensor))
                leaf_param.extend([p] * n)
        targets = [None] * len(leaves)
        if amp is not None:
            dst, amp_params = amp
            targets = [
                dst
                if p in amp_params
                and isinstance(x, Tensor)
                and amp_state.needs_cast(x._val.dtype, dst)
                else None
                for x, p in zip(leaves, leaf_param)
            ]
        # promotion sees the dtypes after the AMP casts
        seen = [
            x if t is None else np.broadcast_to(np.empty((), t), tuple(x.shape))
            for x, t in zip(leaves, targets)
        ]
        casts = _casts(od, seen, leaf_param) if od.promote else (None,) * len(leaves)
        casts = tuple(t if c is None else c for c, t in zip(casts, targets))
        promoted = bool(od.promote) and any(p in od.promote for p in leaf_param)
        inputs = [
            x if isinstance(x, Tensor) else _to_array_leaf(x, c if promoted else None)
            for x, c in zip(leaves, casts)
        ]
    # 1 == 1.0 == True as dict keys: the value types are part of the key too
    types = tuple(_typesig(vals[p]) for p, _ in statics) if statics else ()
    return _run_flat(od, statics, types, treedef, inputs, casts)


_FAST: dict = {}


def _fast_plan(od: OpDef):
    """For a call with one Tensor per tensor parameter and defaults for the rest: the static
    part of the kernel key, computed once (``()`` when the op has no such plan)."""
    if od.composite or od.dtypes is not None or od.varargs is not None:
        return ()
    rest = [p for p in od.params if p not in od.tensors]
    if any(p not in od.defaults for p in rest):
        return ()
    statics = tuple((p, hashable(od.defaults[p])) for p in rest)
    types = tuple(_typesig(od.defaults[p]) for p in rest) if statics else ()
    return statics, types, _flat_treedef(len(od.tensors))


def _flat_inputs(od: OpDef, dyn):
    """(inputs, cast plan) when every tensor parameter got a Tensor, or for a promoting op a
    Tensor or a Python scalar (``x * 2.0``: the plan is cached per types); None otherwise."""
    for v in dyn:  # (a loop: ``all`` over a generator costs ~0.3 us a call)
        if not isinstance(v, Tensor):
            break
    else:
        casts = (None,) * len(dyn)
        if od.promote:
            first = None
            for p, v in zip(od.tensors, dyn):
                if p in od.promote:
                    d = v._val.dtype
                    if first is None:
                        first = d
                    elif d != first:
                        casts = _casts(od, list(dyn), list(od.tensors))
                        break
        return dyn, casts
    if od.promote and all(isinstance(v, Tensor) or type(v) in _SCALAR_TYPES for v in dyn):
        sig = (
            od,
            _dt.default_float(),
            *(v._val.dtype if isinstance(v, Tensor) else type(v) for v in dyn),
        )
        casts = _SCALAR_PLANS.get(sig)
        if casts is None:
            casts = _SCALAR_PLANS[sig] = _casts(od, list(dyn), list(od.tensors))
        inputs = [
            x if isinstance(x, Tensor) else _to_array_leaf(x, c if p in od.promote else None)
            for x, c, p in zip(dyn, casts, od.tensors)
        ]
        return inputs, casts
    return None


def _run_flat(od: OpDef, statics, types, treedef, inputs, casts):
    key = (od, statics, types, treedef, casts)
    out = run_kernel(
        key,
        lambda: _make_op_fn(od, statics, treedef, casts),
        inputs,
        differentiable=od.differentiable,
    )
    if op_observers.OBSERVERS:  # paddle.amp.debugging
        op_observers.forward(od, inputs, casts, out)
    return out


_TREEDEFS: dict[int, object] = {}
_SCALAR_TYPES = (bool, int, float, complex)
_SCALAR_PLANS: dict = {}
_SCALAR_ARRAYS: dict = {}


def _flat_treedef(n: int):
    t = _TREEDEFS.get(n)
    if t is None:
        t = _TREEDEFS[n] = jax.tree_util.tree_structure([0] * n)
    return t


def _casts(od, leaves, leaf_param) -> tuple:
    plan = _promote_plan(od, leaves, leaf_param)
    casts = [None] * len(leaves)
    if plan is not None:
        idx, target = plan
        for i in idx:
            if _leaf_dtype(leaves[i]) != target:
                casts[i] = target.np
    return tuple(casts)


def _make_op_fn(od, statics, treedef, casts):
    static_kw = {k: unhash(v) for k, v in statics}
    names = od.tensors

    def f(*leaves):
        leaves = [x if c is None else jnp.asarray(x).astype(c) for x, c in zip(leaves, casts)]
        dyn = jax.tree_util.tree_unflatten(treedef, leaves)
        kw = {**dict(zip(names, dyn)), **static_kw}
        return call_with(od, kw)

    f.__name__ = od.name
    return f


def call_with(od: OpDef, kw: dict):
    """Call ``od.fn`` with bound arguments (spreading a ``*args`` parameter)."""
    if od.varargs is None:
        return od.fn(**kw)
    pos = [kw.pop(p) for p in od.params[: od.n_positional]]
    return od.fn(*pos, *kw.pop(od.varargs), **kw)


def _typesig(v):
    if isinstance(v, list | tuple):
        return tuple(type(x) for x in v)
    return type(v)


def get_kernel(key, make_f):
    k = _KERNELS.get(key)
    if k is None:
        f = make_f()
        k = _KERNELS[key] = (f, segment_store.note(jax.jit(f, inline=True), key))
    return k


def _train_kernel(key, make_f):
    """``(key, (f, jitted f))`` of a ``train_form`` op's kernel for a larger program that
    differentiates it: keyed apart, traced as ``trace_state.train_program``."""
    key = (*key, "in_train_program")
    return key, get_kernel(key, lambda: trace_state.train_program(make_f()))


def _train_form(key) -> bool:
    return key[0].__class__ is OpDef and key[0].train_form


def run_kernel(key, make_f, inputs, differentiable=True):
    """Run the pure function for ``key`` on ``inputs`` (Tensors or arrays), wrap outputs in
    Tensors and record an autograd node when some input requires grad."""
    k = _KERNELS.get(key)
    f, jitted = k if k is not None else get_kernel(key, make_f)
    recorded = None
    wants_grad = differentiable and autograd._grad_enabled and _any_needs_grad(inputs)
    try:
        if trace_state._ctx is not None:
            arrays = [
                trace_state.read(x) if isinstance(x, Tensor) else deferred.resolve(x)
                for x in inputs
            ]
            if (
                wants_grad
                and _train_form(key)
                and any(isinstance(a, jax.core.Tracer) for a in arrays)
            ):
                key, (f, jitted) = _train_kernel(key, make_f)
        elif deferred._enabled:  # recorded into the pending segment (None: must run now)
            arrays = [x._val if isinstance(x, Tensor) else x for x in inputs]
            if wants_grad and _train_form(key):
                key, (f, jitted) = _train_kernel(key, make_f)
            recorded = deferred.record(jitted, arrays)
            if recorded is None:
                arrays = [deferred.resolve(a) for a in arrays]
        else:  # eager: no trace to tell about the inputs read
            arrays = [x._value if isinstance(x, Tensor) else deferred.resolve(x) for x in inputs]
        mask = None  # which inputs the node differentiates, when the op records one
        if wants_grad:
            mask = autograd.diff_mask(inputs, arrays)
            mask = mask if any(mask) else None
        pullback = None
        static = False
        if recorded is None:
            traced = trace_state._ctx is not None and mask is not None
            if traced and any(isinstance(a, jax.core.Tracer) for a in arrays):
                # traced: the backward reuses this forward's residuals (JAX's pullback)
                out, pullback = autograd.forward_with_pullback(jitted, arrays, mask)
            elif trace_state._ctx is not None and trace_state.folds(inputs, arrays):
                static = True  # a value known while tracing (from shapes): a constant
                with jax.ensure_compile_time_eval():
                    out = jitted(*arrays)
            elif trace_state._ctx is None:  # eager: the kernel's program for these shapes
                out = segment_store.call(jitted, arrays)
            else:
                out = jitted(*arrays)
            if not differentiable and any(isinstance(a, jax.core.Tracer) for a in arrays):
                # no gradient either where JAX differentiates the whole trace (a compiled
                # segment's backward), as the tape records none
                out = jax.tree_util.tree_map(jax.lax.stop_gradient, out)
    except TypeError as e:
        shape_problem = "shape" in str(e) or "broadcast" in str(e)
        raise _paddle_error(key, inputs, e, ValueError if shape_problem else None) from None
    except ValueError as e:
        raise _paddle_error(key, inputs, e, ValueError) from None
    except IndexError as e:  # shape arithmetic on a rank the op does not take
        if str(e).startswith("("):
            raise
        raise _paddle_error(key, inputs, _RankError(e), ValueError) from None
    except jax.errors.JaxRuntimeError as e:
        raise out_of_memory(e) or e from None
    if recorded is not None:
        out_leaves, out_tree = recorded
    elif out.__class__ is place.ArrayImpl or isinstance(out, jax.Array):
        out_leaves, out_tree = (out,), None
    else:
        out_leaves, out_tree = jax.tree_util.tree_flatten(out)
    out_tensors = [Tensor(a) for a in out_leaves]
    if static:
        for t in out_tensors:
            trace_state.note_static(t)
    if mask is not None:
        node = autograd.record(key, f, inputs, arrays, mask, out_tensors)
        if node is not None:
            node.pullback = pullback
        for t in out_tensors:  # Paddle: every output of a differentiable op, ints too
            t.stop_gradient = False
    if out_tree is None:
        return out_tensors[0]
    return jax.tree_util.tree_unflatten(out_tree, out_tensors)


def _any_needs_grad(inputs) -> bool:
    for x in inputs:  # a plain loop: the common no-grad call skips building the mask
        if isinstance(x, Tensor) and not x.stop_gradient:
            return True
    return False
