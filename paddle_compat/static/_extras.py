"""Small ``paddle.static`` helpers: ``create_parameter``, ``create_global_var``,
``accuracy``, ``Print``, ``py_func``, ``name_scope``, ``device_guard``, ``xpu_places``."""

from __future__ import annotations

import contextlib

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core import static_mode
from .._core.registry import op
from .._core.tensor import Tensor, unique_name
from ._program import Variable, default_main_program, record_call


def create_parameter(
    shape, dtype, name=None, attr=None, is_bias: bool = False, default_initializer=None
):
    """A Parameter of the current main Program (XavierUniform weights, zero biases)."""
    from ..framework._param_attr import create_parameter as _create

    with static_mode.suspended():
        p = _create(shape, dtype, name, attr, is_bias, default_initializer)
    default_main_program()._note_param(p)
    return p


def create_global_var(
    shape, value, dtype, persistable: bool = False, force_cpu: bool = False, name=None
):
    """A Tensor filled with ``value`` (persistable: kept with the parameters). Ops on it in
    static mode are recorded into the Program (a step counter ``increment``-ed each run)."""
    t = Tensor(
        jnp.full([int(d) for d in shape], value, _dt.to_dtype(dtype).np),
        name=name or unique_name("global_var"),
    )
    t.persistable = persistable
    t.__dict__["_static_global"] = static_mode.is_static()
    return t


def accuracy(input, label, k: int = 1, correct=None, total=None):
    """Top-k accuracy: the fraction of rows of ``input`` [N, C] whose ``label`` [N, 1] is
    among the k highest scores (a float32 scalar). ``correct`` / ``total`` (Tensors, e.g.
    from ``create_global_var``) receive this batch's hits and rows as int32 scalars, as
    Paddle's accuracy op writes them (not accumulated)."""
    from .._core.registry import call_op

    _, idx = call_op("topk", input, k)
    hit = call_op("any", call_op("equal", idx, call_op("cast", label, idx.dtype)), axis=1)
    if correct is not None:
        call_op("assign", call_op("cast", call_op("sum", hit), "int32"), output=correct)
    if total is not None:
        rows = call_op("cast", call_op("numel", hit), "int32")
        call_op("assign", rows, output=total)
    return call_op("mean", call_op("cast", hit, "float32"))


def Print(  # noqa: N802 - Paddle's name
    input,
    first_n: int = -1,
    message: str | None = None,
    summarize: int = 20,
    print_tensor_name: bool = True,
    print_tensor_type: bool = True,
    print_tensor_shape: bool = True,
    print_tensor_layout: bool = True,
    print_tensor_lod: bool = True,
    print_phase: str = "both",
):
    """Static mode: ``input`` unchanged; each run of the Program prints it to stdout, as
    Paddle's print op does (a header of the chosen fields, then at most ``summarize`` values,
    all as ``%.6f``), and, in a Program that trains, its gradient in the backward
    (``print_phase``). Paddle 3.3.1's executor prints on every run whatever ``first_n``, and
    so does this."""
    if not static_mode.is_static():
        raise AssertionError(
            "In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and 'Print()' is "
            "only supported in static graph mode. So if you want to use this api, please call "
            "'paddle.enable_static()' before this api to enter static graph mode."
        )
    phase = str(print_phase).lower()  # Paddle accepts any value; another prints nothing
    fields = (
        print_tensor_name,
        print_tensor_lod,
        print_tensor_shape,
        print_tensor_layout,
        print_tensor_type,
    )
    fields, summarize = tuple(map(bool, fields)), int(summarize)

    def printed(t):
        return _static_print(t, message, summarize, fields, phase)

    # recorded even for a constant input (which the recorder would compute now): it prints
    # each time the Program runs
    if not isinstance(input, Variable):
        input = record_call("assign", lambda t: t, (input,))
    return record_call("print", printed, (input,), effect=True)


@op("_static_print", namespaces=(), method=None)
def _static_print(
    x: jax.Array, message: str | None, summarize: int, fields: tuple[bool, ...], phase: str
) -> jax.Array:
    """``Print``'s kernel: ``x``, printed on the host each time the program runs (``phase``
    "forward" or "both"), and its gradient each time a backward runs ("backward", "both")."""
    name, lod, shape, layout, dtype = fields

    def show(v):
        v = np.asarray(v)
        flat = v.reshape(-1) if summarize < 0 else v.reshape(-1)[:summarize]
        lines = ["Variable: var"] if name else []
        if message is not None:
            lines.append(f"  - message: {message}")
        lines += ["  - lod: {}"] if lod else []
        lines.append("  - place: Place(cpu)")
        lines += [f"  - shape: {list(v.shape)}"] if shape else []
        lines += ["  - layout: NCHW"] if layout else []
        lines += [f"  - dtype: {v.dtype}"] if dtype else []
        lines.append(f"  - data: [{' '.join(f'{float(e):.6f}' for e in flat)}]")
        print("\n".join(lines), flush=True)

    @jax.custom_vjp
    def printed(v):
        if phase in ("forward", "both"):
            jax.debug.callback(show, v, ordered=True)
        return v

    def fwd(v):  # the backward's own forward pass: the Program's forward printed already
        return v, None

    def bwd(_, ct):
        if phase in ("backward", "both"):
            jax.debug.callback(show, ct)
        return (ct,)

    printed.defvjp(fwd, bwd)
    return printed(x)


def _as_list(v) -> list:
    return [] if v is None else list(v) if isinstance(v, list | tuple) else [v]


def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
    """Static mode: ``out = func(*x)`` run by Python on numpy arrays each time the Program
    runs (``out`` None: ``func`` runs for its side effects). ``backward_func`` gives the
    inputs' gradients from the inputs, the outputs and the outputs' gradients, leaving out
    ``skip_vars_in_backward_input``. A ``-1`` dim of an output takes the input's size there
    (the batch); Paddle reads it from the Tensor ``func`` returns."""
    if not static_mode.is_static():
        raise AssertionError("py_func is only supported in static graph mode.")
    xs, outs = _as_list(x), _as_list(out)
    for v in xs + outs:
        if not isinstance(v, Variable):
            raise TypeError(f"The type of 'x' and 'out' in py_func must be Variable, got {type(v)}")
    if not callable(func) or (backward_func is not None and not callable(backward_func)):
        raise TypeError("func and backward_func of py_func must be callable.")
    skip = {id(v) for v in _as_list(skip_vars_in_backward_input)}
    for v in _as_list(skip_vars_in_backward_input):
        if all(v is not u for u in xs + outs):
            raise ValueError(f"Variable {v.name} is not found in forward inputs and outputs")
    keep = tuple(id(v) not in skip for v in xs + outs)
    specs = tuple((tuple(o.shape), _dt.to_dtype(o.dtype).np.str) for o in outs)
    if not outs:  # run for its effects: a callback the program keeps
        record_call("py_func", lambda *ts: _py_func_op(list(ts), func), tuple(xs), effect=True)
        return out
    results = record_call(
        "py_func",
        lambda *ts: _py_func_op(list(ts), func, backward_func, keep, specs),
        tuple(xs),
        effect=True,
    )
    for o, r in zip(outs, results):
        o._set_value(r._val)
    return out


@op("_py_func", tensors=("xs",), namespaces=(), method=None)
def _py_func_op(xs, func, backward_func=None, keep: tuple = (), specs: tuple = ()):
    """``py_func``'s kernel: ``func`` as a ``pure_callback`` (no outputs: an ordered debug
    callback), its VJP another one calling ``backward_func``; a ``-1`` output dim takes the
    first input's size there."""
    arrays = list(xs)
    if not specs:
        jax.debug.callback(lambda *a: func(*a), *arrays, ordered=True)
        return []
    lead = arrays[0].shape if arrays else ()
    shapes = [
        jax.ShapeDtypeStruct(
            tuple(lead[i] if d < 0 and i < len(lead) else d for i, d in enumerate(shape)),
            np.dtype(dt),
        )
        for shape, dt in specs
    ]

    @jax.custom_vjp
    def f(*a):
        return jax.pure_callback(_host(func, shapes), shapes, *a)

    def fwd(*a):
        y = f(*a)
        return y, (a, y)

    def bwd(res, cts):
        a, y = res
        if backward_func is None:
            return tuple(jnp.zeros_like(v) for v in a)
        given = [v for v, k in zip([*a, *y], keep) if k]
        grad_shapes = [jax.ShapeDtypeStruct(v.shape, v.dtype) for v in a]
        return tuple(
            jax.pure_callback(_host(backward_func, grad_shapes), grad_shapes, *given, *cts)
        )

    f.defvjp(fwd, bwd)
    return list(f(*arrays))


def _host(fn, shapes):
    """``fn`` on numpy arrays, its results as ``shapes`` (None: zeros, as a gradient Paddle
    leaves out)."""

    def call(*arrays):
        res = fn(*[np.asarray(a) for a in arrays])
        res = list(res) if isinstance(res, list | tuple) else [res]
        return [
            np.zeros(s.shape, s.dtype) if r is None else np.asarray(r, s.dtype).reshape(s.shape)
            for r, s in zip(res, shapes)
        ]

    return call


@contextlib.contextmanager
def name_scope(prefix=None):
    """Accepted for compatibility: op names carry no scope here."""
    yield


@contextlib.contextmanager
def device_guard(device=None):
    """Accepted for compatibility: XLA places the whole compiled program."""
    yield


def xpu_places(device_ids=None) -> list:
    """[]: no XPU is available to JAX."""
    return []
