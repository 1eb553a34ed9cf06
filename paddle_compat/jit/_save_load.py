"""paddle.jit.save / paddle.jit.load: export a Layer's forward to a portable artifact.

``save`` functionalizes the model (parameters and persistable buffers become explicit inputs;
the forward runs with tracers swapped into those Tensors, in eval mode, exactly as to_static
traces it), exports it with ``jax.export`` (StableHLO; ``None``/-1 dims of the InputSpecs become
symbolic dims) and writes ``<prefix>.json`` (manifest) + ``<prefix>.stablehlo`` +
``<prefix>.pdiparams`` in the saved-model format of ``paddle_compat._export``. ``load`` returns
a ``TranslatedLayer`` that runs the exported program without the model's Python class.
"""

from __future__ import annotations

import inspect
import itertools
import os
import re
import warnings

import jax
import numpy as np

from .. import _export
from .._core import autograd as _ag
from .._core import dtype as _dt
from .._core import functional, trace_state
from .._core.tensor import Parameter, Tensor, _unique_name
from ..nn import Layer
from ..static import InputSpec

_KNOWN_CONFIGS = set(
    "output_spec with_hook combine_params clip_extra skip_forward input_names_after_prune "
    "skip_prune_program separate_parameters platforms vjp".split()
)
_DEFAULT_PLATFORMS = ("cpu", "cuda", "tpu")


# -- save ---------------------------------------------------------------------------------------
def _check_prefix(path) -> str:
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"The input path must be a str, but received {type(path)}.")
    if os.path.basename(path) == "":
        raise ValueError(
            "The input path MUST be format of dirname/file_prefix [dirname\\file_prefix in "
            "Windows system], but received file_prefix is empty string."
        )
    for suffix in (".json", ".pdmodel", ".pdiparams", ".stablehlo"):
        if path.endswith(suffix):
            path = path[: -len(suffix)]
    return path


def _is_layer(obj) -> bool:
    from ..nn import Layer

    return isinstance(obj, Layer)


def _resolve_target(obj, with_hook: bool):
    """(function to trace, Layer or None, StaticFunction or None, function for arg names)."""
    from ._to_static import StaticFunction

    if _is_layer(obj):
        fwd = obj.forward
        sf = fwd if isinstance(fwd, StaticFunction) else None
        names_of = sf.dygraph_function if sf is not None else fwd
        return (obj if with_hook else _converted(fwd)), obj, sf, names_of
    if isinstance(obj, StaticFunction):
        inst = obj._instance if _is_layer(obj._instance) else None
        return _converted(obj), inst, obj, obj.dygraph_function
    if callable(obj):
        return obj, None, None, obj
    raise TypeError(
        "paddle.jit.save: the input layer should be 'Layer' or a function "
        f"decorated by paddle.jit.to_static, but received {type(obj)}."
    )


def _converted(fn):
    """A to_static function's control-flow-converted form (what its compiled calls run), when
    it has one; else ``fn``."""
    return getattr(fn, "_call", fn)


def _arg_names(fn) -> list[str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [
        p.name
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]


def _call_shapes(sf, key) -> list[tuple[tuple, str]] | None:
    """(shape, dtype) per argument of one cached call of a to_static function, when all its
    arguments are positional Tensors; else None."""
    treedef, statics, _ = key
    args, kwargs = jax.tree_util.tree_unflatten(treedef, list(statics))
    if kwargs or not all(isinstance(s, tuple) and s and s[0] == "T" for s in args):
        return None
    return [(tuple(s[1]), s[2]) for s in args]


class _CallShapes:
    """The shapes seen by a to_static function, for jit.save without input_spec.

    Paddle saves the last call's program, whose data ops carry that call's shapes, but its
    executor runs the program on inputs of any shape the kernels take (measured with 3.3.1:
    other batch sizes, other sizes of every dim, even another rank). Here a dim is dynamic when
    the forward traces with it symbolic and runs what it runs with the concrete size
    (``x.shape[1] == 4`` is False for a symbol: another Python path). Tried in order: every
    dim; else axis 0 of each input plus the dims that differed between calls (or only those),
    then each remaining dim added one at a time.
    """

    def __init__(self, last, varied):
        self.last = last  # [(shape, dtype)] of the last call
        self.varied = varied  # {(input, axis)} that differed between calls

    def specs(self, dyn) -> list[InputSpec]:
        return [
            InputSpec([-1 if (i, j) in dyn and d > 0 else d for j, d in enumerate(shape)], dt)
            for i, (shape, dt) in enumerate(self.last)
        ]

    def ones(self, dyn) -> set:
        """The dims of ``dyn`` that were 1 in the last call (traced apart: size-1 dims take
        other paths in broadcasting and matmul)."""
        return {(i, j) for i, j in dyn if self.last[i][0][j] == 1}

    def probe(self, dims) -> list[InputSpec]:
        """The last call's shapes with ``dims`` set to 2: the concrete reference for a dim
        that was 1."""
        return [
            InputSpec([2 if (i, j) in dims else d for j, d in enumerate(shape)], dt)
            for i, (shape, dt) in enumerate(self.last)
        ]

    def every(self) -> set:
        return {(i, j) for i, (shape, _) in enumerate(self.last) for j in range(len(shape))}

    def batch(self) -> set:
        return {(i, 0) for i, (shape, _) in enumerate(self.last) if shape} | self.varied


def _specs_from_calls(sf) -> _CallShapes | None:
    last = sf.last_call_shapes()
    if last is None:
        return None
    varied = set()
    for key in dict.fromkeys([*sf._known_state, *sf._cache]):  # every call signature seen
        shapes = _call_shapes(sf, key)
        if shapes is None or len(shapes) != len(last):
            continue
        for i, ((shape, dt), (lshape, ldt)) in enumerate(zip(shapes, last)):
            if dt == ldt and len(shape) == len(lshape):
                varied |= {(i, j) for j, (a, b) in enumerate(zip(shape, lshape)) if a != b}
    return _CallShapes([(tuple(sh), dt) for sh, dt in last], varied)


def _input_specs(input_spec, sf, fn_for_names, obj):
    """(the InputSpecs, or the _CallShapes to search when no input_spec is known; names)."""
    names_from_args = _arg_names(fn_for_names)
    calls = None
    if input_spec is None and sf is not None:
        input_spec = sf.input_spec
        if input_spec is None:
            calls = _specs_from_calls(sf)
            input_spec = None if calls is None else calls.specs(set())
    jst = calls is not None
    if input_spec is None:
        sig = ",".join(names_from_args)
        fname = getattr(fn_for_names, "__name__", "forward")
        raise ValueError(
            f"No valid transformed program for function: {fname}({sig}), input_spec: None.\n"
            "\tPlease specific `input_spec` in `@paddle.jit.to_static` or feed input tensor to "
            "call the decorated function at once.\n"
        )
    if isinstance(input_spec, InputSpec | Tensor):
        input_spec = [input_spec]
    if not isinstance(input_spec, list | tuple):
        raise TypeError(
            "The input input_spec should be 'list', but received input_spec's type "
            f"is {type(input_spec)}."
        )
    specs, names = [], []
    for i, s in enumerate(input_spec):
        if isinstance(s, Tensor):
            s = InputSpec.from_tensor(s)
        elif isinstance(s, np.ndarray):
            s = InputSpec.from_numpy(s)
        elif not isinstance(s, InputSpec):
            raise TypeError(
                "paddle.jit.save: every input_spec entry must be a paddle.static.InputSpec or "
                f"a Tensor (entry {i} is {type(s).__name__}); nested or non-Tensor inputs are "
                "not supported by the saved-model format."
            )
        arg = names_from_args[i] if i < len(names_from_args) else f"x{i}"
        if jst:
            name = f"_jst.{i}.{arg}.0"
        else:
            name = s.name or arg
        specs.append(_normalized(s))
        names.append(name)
    seen: dict[str, int] = {}
    for i, n in enumerate(names):  # duplicate names would make the feed ambiguous
        if n in seen:
            k = 1
            while f"{n}_{k}" in names:
                k += 1
            names[i] = f"{n}_{k}"
        seen[names[i]] = i
    return (calls or specs), names


def _normalized(s: InputSpec) -> InputSpec:
    """A copy with -1 for dynamic dims and a paddle dtype (InputSpec keeps ``np.float32``,
    ``float``, ... as given)."""
    try:
        dtype = _dt.to_dtype(s.dtype)
    except TypeError:
        raise TypeError(f"paddle.jit.save: InputSpec {s} has an unknown dtype.") from None
    shape = [-1 if d is None or int(d) < 0 else int(d) for d in s.shape]
    return InputSpec(shape, dtype, s.name, s.stop_gradient)


def _collect_state(layer) -> list[tuple[str, str, Tensor]]:
    """[(unique name, attribute path, Tensor)] for parameters and persistable buffers, sorted by
    unique name as Paddle orders ``.pdiparams``."""
    if layer is None:
        return []
    names: dict[str, int] = {}
    fixed = []
    for key, t in functional.state_of(layer).items():
        name = t.name or key
        if name in names:  # two Tensors share a name: keep the table unambiguous
            names[name] += 1
            name = f"{name}@{names[name]}"
        names.setdefault(name, 0)
        fixed.append((name, key, t))
    return sorted(fixed, key=lambda x: x[0])


_SCOPE = None


def _symbolic_scope():
    """One scope for every export in the process: op kernels' jit caches are keyed on avals,
    and equal-named dims from two scopes would share (wrong) cached traces."""
    global _SCOPE
    if _SCOPE is None:
        _SCOPE = jax.export.SymbolicScope()
    return _SCOPE


def _arg_avals(specs: list[InputSpec], mode: str):
    """ShapeDtypeStructs; dynamic dims independent symbols or shared by axis position."""
    scope = _symbolic_scope()
    out, dims_all = [], []
    for i, s in enumerate(specs):
        names = []
        for j, d in enumerate(s.shape):
            if d == -1:
                if mode == "shared" or (mode == "batch" and j == 0):
                    names.append("batch" if j == 0 else f"d{j}")
                else:
                    names.append(f"s{i}_{j}")
            else:
                names.append(str(int(d)))
        shape = jax.export.symbolic_shape(",".join(names), scope=scope) if names else ()
        out.append(jax.ShapeDtypeStruct(tuple(shape), s.dtype.np))
        dims_all.append([int(d) if isinstance(d, int) else str(d) for d in shape])
    return out, dims_all


def _modes(specs) -> list[str]:
    """How to name dynamic dims, most general first: all independent; axis 0 shared by every
    input (a batch); every axis shared by position (e.g. ids + mask of one sequence length)."""
    dyn = [[j for j, d in enumerate(s.shape) if d == -1] for s in specs]
    n = sum(len(d) for d in dyn)
    if n <= 1:
        return ["independent"]
    modes = ["independent"]
    if sum(1 for d in dyn if 0 in d) > 1:
        modes.append("batch")
    if any(
        sum(1 for d in dyn if j in d) > 1 for j in range(1, max(map(len, [s.shape for s in specs])))
    ):
        modes.append("shared")
    return modes


def _symbolic_error(e: Exception, dims) -> bool:
    """Whether ``e`` comes from a dynamic dim used where a concrete size was needed."""
    text = f"{type(e).__name__}: {e}"
    if re.search("Symbolic dimension|symbolic dim|DimExpr|InconclusiveDimension|shape poly", text):
        return True
    syms = {d for ds in dims for d in ds if isinstance(d, str)}
    return any(re.search(rf"\b{re.escape(s)}\b", text) for s in syms)


def _events(closed, events: list, env: dict) -> list:
    """A trace as comparable events, nested jaxprs inlined: (primitive, input tokens, scalar
    params) for each equation that reads data (the inputs, parameters, values computed from
    them). Equations that read no data (shape and index arithmetic, constants) are dropped;
    their outputs become ("S", ...) tokens: "S" for a scalar (a symbolic size where the
    concrete trace has a literal), else the dropped equation itself."""
    jaxpr = getattr(closed, "jaxpr", closed)
    for v, c in zip(jaxpr.constvars, getattr(closed, "consts", ())):
        a = np.asarray(c)
        env[v] = ("lit", a.tolist()) if a.shape == () else ("S", a.shape, str(a.dtype), _digest(a))
    for eqn in jaxpr.eqns:
        ins = tuple(_atom(v, env) for v in eqn.invars)
        params = tuple(
            (k, v) for k, v in sorted(eqn.params.items()) if type(v) in (int, float, bool, str)
        )
        subs = []
        for v in eqn.params.values():
            for sub in v if isinstance(v, tuple | list) else (v,):
                if hasattr(getattr(sub, "jaxpr", sub), "eqns"):
                    inner = getattr(sub, "jaxpr", sub)
                    sub_env = {}
                    if len(inner.invars) == len(ins):  # a call: its inputs are the caller's
                        sub_env = {iv: t for iv, t in zip(inner.invars, ins) if t != "v"}
                    subs.append(_events(sub, [], sub_env))
        if "v" not in ins:  # reads no data
            for o in eqn.outvars:
                scalar = getattr(o.aval, "shape", None) == ()
                env[o] = ("S",) if scalar else ("S", eqn.primitive.name, ins, params, str(subs))
            continue
        events.append((eqn.primitive.name, ins, params))
        for sub in subs:
            events.extend(["{", *sub, "}"])
    return events


def _digest(a: np.ndarray):
    return hash(a.tobytes()) if a.size <= 4096 else a.size


def _atom(v, env):
    if hasattr(v, "val"):  # a Literal
        return ("lit", np.asarray(v.val).tolist())
    return env.get(v, "v")


def _scalar_token(t) -> bool:
    return t == ("S",) or (
        isinstance(t, tuple) and len(t) == 2 and t[0] == "lit" and np.ndim(t[1]) == 0
    )


def _same_path(symbolic: list, concrete: list) -> bool:
    """Whether a trace with symbolic sizes ran what the concrete trace ran (equal events;
    static values computed from sizes compare by how they were made, sizes aside)."""
    return len(symbolic) == len(concrete) and all(_match(a, b) for a, b in zip(symbolic, concrete))


def _match(a, b) -> bool:
    if a == b:
        return True
    if ("S",) in (a, b) and all(_scalar_token(t) for t in (a, b)):
        return True
    if type(a) is not type(b) or not isinstance(a, tuple) or len(a) != len(b):
        return False
    return all(_match(x, y) for x, y in zip(a, b))


def _export_one(pure, state_avals, arg_avals, platforms):
    try:
        return jax.export.export(jax.jit(pure), platforms=platforms)(state_avals, arg_avals)
    except Exception:
        if platforms is None or tuple(platforms) == (jax.default_backend(),):
            raise
        exp = jax.export.export(jax.jit(pure))(state_avals, arg_avals)
        warnings.warn(
            f"paddle.jit.save: could not lower the model for {platforms}; the "
            f"artifact runs on {jax.default_backend()} only.",
            stacklevel=5,
        )
        return exp


def _export_forward(fn, state, specs, platforms, output_spec=None):
    """jax.export the forward; returns (Exported, dims per input, the InputSpecs it takes).
    ``specs`` is the InputSpec list, or the _CallShapes whose dynamic dims are searched."""
    calls = specs if isinstance(specs, _CallShapes) else None
    last = calls.specs(set()) if calls else specs
    state_t = [t for _, _, t in state]
    holders = [Tensor(np.zeros([1 if d == -1 else d for d in s.shape], s.dtype.np)) for s in last]
    body = functional.functionalize(fn, state_t, tuple(holders))

    def pure(state_vals, arg_vals):
        with _ag.no_grad():
            ret_vals, _writes = body(state_vals, arg_vals)
        if output_spec is not None:
            return [ret_vals[i] for i in _select_outputs(output_spec, len(ret_vals))]
        return list(ret_vals)

    state_avals = [jax.ShapeDtypeStruct(t._value.shape, t._value.dtype) for t in state_t]
    if calls is None:
        exp, dims = _export_specs(pure, state_avals, last, platforms)
    else:
        same_numbers = _numbers_check(pure, state, calls)
        chosen, why = _search_dynamic(pure, state_avals, calls, same_numbers)
        tries = [chosen, chosen - calls.ones(chosen), calls.batch() & chosen]
        tries += [calls.varied & chosen, set()]
        for k, dyn in enumerate(tries):
            if dyn in tries[:k]:
                continue
            last = calls.specs(dyn)
            try:
                exp, dims = _export_specs(pure, state_avals, last, platforms)
                if calls.ones(dyn) and not same_numbers(exp):
                    why = why or (
                        "with a symbolic size the forward gives other numbers for a size 1 "
                        "of the calls: a Python branch on that size?"
                    )
                    continue
                break
            except Exception:
                if dyn:
                    continue
                raise
        _warn_pinned(last, why)
    if body.writes:
        warnings.warn(
            f"paddle.jit.save: the forward updates {len(body.writes)} Tensor(s) in eval "
            "mode; the saved program returns its outputs only and does not keep those "
            "updates.",
            stacklevel=3,
        )
    return exp, dims, last


def _export_specs(pure, state_avals, specs, platforms):
    """Export with the dynamic dims of ``specs`` named by each mode of ``_modes`` in turn."""
    modes = _modes(specs)
    first_err = None
    for mode in modes:
        arg_avals, dims = _arg_avals(specs, mode)
        try:
            return _export_one(pure, state_avals, arg_avals, platforms), dims
        except trace_state.DataDependentError as e:
            raise trace_state.DataDependentError(
                f"paddle.jit.save cannot export this forward: {e}"
            ) from None
        except Exception as e:
            if first_err is None:
                first_err, first_dims = e, dims
            if mode == modes[-1]:
                if _symbolic_error(first_err, first_dims) or _symbolic_error(e, dims):
                    raise ValueError(
                        "paddle.jit.save: the forward needs a concrete size for a dynamic "
                        "dimension (None/-1 in InputSpec): "
                        f"{str(e).splitlines()[0]}. Give that dimension a fixed size in the "
                        "InputSpec, or compute shapes with paddle.shape(x) / -1 in reshape."
                    ) from e
                raise
    raise AssertionError("unreachable")


_MAX_TRIES = 16


def _search_dynamic(pure, state_avals, calls, same_numbers) -> tuple[set, str | None]:
    """(the dims to make dynamic, why the batch dims could not be, or None); see _CallShapes.
    A dim is taken when the forward traces with it symbolic and runs what it runs with the
    last call's concrete shapes (``_same_path``, traces only); when the traces differ (JAX
    itself gathers instead of slicing for a symbolic shape), when the exported program gives
    the forward's numbers at those shapes (at most ``_NUMBER_CHECKS`` times: each compiles)."""
    budget = [_NUMBER_CHECKS]

    def events(specs, mode):
        avals, _ = _arg_avals(specs, mode)
        return _events(jax.jit(pure).trace(state_avals, avals).jaxpr, [], {})

    try:
        references = {frozenset(): events(calls.specs(set()), "independent")}
    except Exception:  # noqa: BLE001 - the concrete export reports it
        return set(), None
    reasons: list[str] = []

    def reference(dyn):
        ones = frozenset(calls.ones(dyn))
        if ones not in references:
            references[ones] = events(calls.probe(ones), "independent")
        return references[ones]

    def ok(dyn) -> bool:
        specs = calls.specs(dyn)
        why = "no dynamic dim"
        for mode in _modes(specs):
            try:
                if _same_path(events(specs, mode), reference(dyn)):
                    return True
                why = "the forward takes another Python path for a symbolic size"
                if budget[0] > 0:
                    budget[0] -= 1
                    avals, _ = _arg_avals(specs, mode)
                    if same_numbers(jax.export.export(jax.jit(pure))(state_avals, avals)):
                        return True
            except Exception as e:  # noqa: BLE001 - a dim the forward needs concrete
                why = str(e).splitlines()[0] if str(e) else type(e).__name__
        reasons.append(why)
        return False

    every = calls.every()
    if not every or ok(every):
        return every, None
    base, why = calls.batch(), None
    if not ok(base):
        why = reasons[-1]
        base = calls.varied if calls.varied and ok(calls.varied) else set()
    for d in sorted(every - base)[:_MAX_TRIES]:
        if ok(base | {d}):
            base = base | {d}
    return base, why


_NUMBER_CHECKS = 3


def _numbers_check(pure, state, calls):
    """``same(exp)``: whether an exported program gives the forward's numbers at the last
    call's shapes (random inputs; ints and bools 0/1: valid ids and masks). The check for dims
    that were 1 (their trace was compared with one at size 2: a ``x.shape[0] == 1`` branch
    shows here) and for traces JAX itself made differently."""
    rng = np.random.default_rng(0)
    args = []
    for shape, dt in calls.last:
        npdt = _dt.to_dtype(dt).np
        if np.issubdtype(npdt, np.floating) or np.issubdtype(npdt, np.complexfloating):
            args.append(rng.standard_normal(shape).astype(npdt))
        else:
            args.append(rng.integers(0, 2, shape).astype(npdt))
    vals = [t._value for _, _, t in state]
    want = []

    def same(exp) -> bool:
        try:
            if not want:
                want.append(jax.jit(pure)(vals, args))
            got = jax.jit(exp.call)(vals, args)
        except Exception:  # noqa: BLE001 - cannot run here: keep the dims fixed
            return False
        return len(got) == len(want[0]) and all(
            np.shape(g) == np.shape(w)
            and np.allclose(np.asarray(g, "float64"), np.asarray(w, "float64"), 1e-4, 1e-5, True)
            for g, w in zip(got, want[0])
        )

    return same


def _warn_pinned(specs, why) -> None:
    """Warn when axis 0 of an input had to stay fixed in the saved program."""
    if all(s.shape[:1] in ((), (-1,)) for s in specs):
        return
    shapes = [list(s.shape) for s in specs]
    warnings.warn(
        f"paddle.jit.save: the saved program takes inputs of shape {shapes} only (-1: any "
        f"size); a dynamic batch dimension does not export ({why or 'export failed'}). "
        "Pass input_spec=[InputSpec([None, ...])] to paddle.jit.save or to_static to choose "
        "the dynamic dims.",
        stacklevel=4,
    )


def save(layer, path, input_spec=None, **configs) -> None:
    """Save a Layer (or to_static function) for inference: the forward, exported in eval mode
    to StableHLO with symbolic dims for None/-1 InputSpec dims, plus its parameters."""
    for k in configs:
        if k not in _KNOWN_CONFIGS:
            raise ValueError(f"The additional config ({k}) of `paddle.jit.save` is not supported.")
    prefix = _check_prefix(path)
    fn, lay, sf, names_of = _resolve_target(layer, bool(configs.get("with_hook", False)))
    specs, in_names = _input_specs(input_spec, sf, names_of, layer)
    state = _collect_state(lay)
    modes = (
        [(sub, sub.__dict__.get("_training", True)) for sub in lay.sublayers(include_self=True)]
        if lay is not None
        else []
    )
    platforms = configs.get("platforms", _DEFAULT_PLATFORMS)
    try:
        if lay is not None:
            lay.eval()
        exp, dims, specs = _export_forward(fn, state, specs, platforms, configs.get("output_spec"))
    finally:
        for sub, mode in modes:
            sub.__dict__["_training"] = mode
    vjp = 1 if configs.get("vjp", True) else 0
    try:
        program = exp.serialize(vjp_order=vjp)
    except Exception:  # a forward JAX cannot differentiate still serves inference
        vjp = 0
        program = exp.serialize()
    inputs = [
        _export.IOSpec(n, [int(d) for d in s.shape], str(np.dtype(s.dtype.np)), d)
        for n, s, d in zip(in_names, specs, dims)
    ]
    outputs = [
        _export.IOSpec(
            f"fetch_name_{i}",
            [_static_dim(d) for d in a.shape],
            str(np.dtype(a.dtype)),
            [_dim_json(d) for d in a.shape],
        )
        for i, a in enumerate(exp.out_avals)
    ]
    params = [
        _export.ParamSpec(
            name,
            key,
            [int(d) for d in t._value.shape],
            str(np.dtype(t._value.dtype)),
            not t.stop_gradient,
        )
        for name, key, t in state
    ]
    arrays = [np.asarray(jax.device_get(t._value)) for _, _, t in state]
    from .. import __compat_version__, __version__

    _export.write(
        prefix,
        inputs=inputs,
        outputs=outputs,
        params=params,
        arrays=arrays,
        program=program,
        extra={
            "platforms": list(exp.platforms),
            "vjp_order": vjp,
            "layer": type(lay).__name__
            if lay is not None
            else getattr(getattr(fn, "dygraph_function", fn), "__qualname__", "function"),
            "producer": {
                "paddle_compat": __compat_version__,
                "paddle_api": __version__,
                "jax": jax.__version__,
            },
        },
    )


def _select_outputs(output_spec, n_out) -> list[int]:
    idx = []
    for o in output_spec:
        if isinstance(o, bool) or not isinstance(o, int | np.integer):
            raise TypeError(
                "paddle.jit.save: output_spec takes output indices (ints) in "
                f"paddle-compat, got {type(o).__name__}."
            )
        if not -n_out <= o < n_out:
            raise ValueError(
                f"output_spec index {o} is out of range: the forward returns {n_out} Tensor(s)."
            )
        idx.append(int(o) % n_out)
    return idx


def _static_dim(d) -> int:
    return int(d) if isinstance(d, int | np.integer) else -1


def _dim_json(d):
    return int(d) if isinstance(d, int | np.integer) else str(d)


_UIDS = itertools.count()


def _artifact_uid(art) -> int:
    """A never-reused id for the autograd VJP cache key."""
    uid = art.__dict__.get("_uid")
    if uid is None:
        uid = art.__dict__["_uid"] = next(_UIDS)
    return uid


# -- load ---------------------------------------------------------------------------------------
def load(path, **configs):
    """Load a model saved by ``paddle.jit.save`` as a ``TranslatedLayer`` (no Python class
    needed), or an inference program exported by real Paddle (``.json``/``.pdmodel``)."""
    from .._export import paddle_program

    path = os.fspath(path) if isinstance(path, os.PathLike) else path
    if isinstance(path, str) and paddle_program.is_paddle_program(path):
        return paddle_program.load_layer(path)
    try:
        art = _export.load(_check_prefix(path))
        return PirTranslatedLayer(art)
    except _export.ArtifactError as e:
        raise ValueError(str(e)) from None


class TranslatedLayer(Layer):
    """A Layer running a saved (exported) forward; its parameters are ``param_0``, ...
    (Paddle's naming) in the saved order. Eval only: the saved program is the eval forward."""

    def __init__(self, artifact=None):
        super().__init__()
        self.__dict__["_artifact"] = artifact
        if artifact is None:
            return
        for i, (spec, arr) in enumerate(zip(artifact.params, artifact.arrays())):
            p = Parameter(
                jax.numpy.asarray(arr), name=_unique_name(spec.name), trainable=spec.trainable
            )
            self.add_parameter(f"param_{i}", p)
        self.eval()

    @property
    def input_names(self) -> list[str]:
        return self._artifact.input_names

    @property
    def output_names(self) -> list[str]:
        return self._artifact.output_names

    def program(self, method_name: str = "forward") -> str:
        """The saved forward as StableHLO text (Paddle returns its Program here)."""
        return self._artifact.exported.mlir_module()

    def forward(self, *inputs, **kwargs):
        art = self._artifact
        if kwargs:
            order = {n: i for i, n in enumerate(art.input_names)}
            extra = [k for k in kwargs if k not in order]
            if extra:
                raise TypeError(
                    f"TranslatedLayer got unexpected input(s) {extra}; its "
                    f"inputs are {art.input_names}."
                )
            full = list(inputs) + [None] * (len(order) - len(inputs))
            for k, v in kwargs.items():
                full[order[k]] = v
            inputs = tuple(full)
        if len(inputs) != len(art.inputs) or any(x is None for x in inputs):
            raise ValueError(
                f"The saved model takes {len(art.inputs)} input(s) {art.input_names}, but "
                f"{sum(x is not None for x in inputs)} were given."
            )
        for x in inputs:
            if not isinstance(x, Tensor | np.ndarray):
                raise TypeError(
                    f"The type of input in {type(self).__name__} must be numpy array or "
                    f"Variable(Tensor), but received {type(x)}."
                )
        tensors = [x if isinstance(x, Tensor) else Tensor(x) for x in inputs]
        arrays = [
            _export.check_input(spec, trace_state.read(t), type(self).__name__, cast=False)
            for spec, t in zip(art.inputs, tensors)
        ]
        params = list(self._parameters.values())
        pvals = [trace_state.read(p) for p in params]
        fn = art.callable()
        try:
            outs = fn(pvals, arrays)
        except ValueError as e:
            raise ValueError(
                f"{type(self).__name__}: the inputs do not fit the saved model: "
                f"{_export.shape_error_text(e, art.input_names)}"
            ) from None
        out_tensors = [Tensor(o) for o in outs]
        if _ag.is_grad_enabled() and self._artifact.manifest.get("vjp_order", 0):
            all_in = params + tensors
            vals = pvals + arrays
            mask = tuple(
                not t.stop_gradient and _dt.is_inexact_np(v.dtype) for t, v in zip(all_in, vals)
            )
            if any(mask):
                n = len(params)

                def f(*xs):
                    return fn(list(xs[:n]), list(xs[n:]))

                _ag.record(
                    ("translated_layer", _artifact_uid(art)), f, all_in, vals, mask, out_tensors
                )
        if len(out_tensors) == 1:
            return out_tensors[0]
        return out_tensors

    def extra_repr(self) -> str:
        return ", ".join(f"{s.name}: {s.shape} {s.dtype}" for s in self._artifact.inputs)


class PirTranslatedLayer(TranslatedLayer):
    """What ``paddle.jit.load`` returns (Paddle 3.x's class name; it prints as
    ``PirTranslatedLayer()``)."""

    def extra_repr(self) -> str:
        return ""
