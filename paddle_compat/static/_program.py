"""Programs of Paddle's static-graph mode: Variables, recorded op calls, ``program_guard``.

In static mode an op call does not run: ``record`` (installed as the registry's static hook)
binds its arguments, infers the output shapes and dtypes with ``jax.eval_shape`` of the same
op, appends the call to the current main Program and returns placeholder Variables. A call
whose arguments hold no Variable runs at once (constants, parameter initializers): its value
is baked into the Program, as Paddle's startup program fills a parameter before the main one
reads it. ``paddle.static.Executor`` replays the recorded calls (``_executor.py``).
"""

from __future__ import annotations

import contextlib
import itertools

import jax
import numpy as np

from .._core import dtype as _dt
from .._core import registry as _reg
from .._core import static_mode
from .._core.tensor import Parameter, Tensor, unique_name
from ._text import _format, _type_str

_tmp_ids = itertools.count()
_PLACEHOLDER = np.zeros((), np.float32)
_SYM = None  # the symbolic size that stands for Paddle's -1 dims in shape inference


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


class _Abstract:
    """What a Variable holds instead of an array: Paddle's shape (-1 unknown) and a dtype."""

    __slots__ = ("shape", "dtype", "owner")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.owner = None  # the Variable holding it

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def spec(self) -> jax.ShapeDtypeStruct:
        global _SYM
        if _SYM is None:
            (_SYM,) = jax.export.symbolic_shape("b")
        return jax.ShapeDtypeStruct(tuple(_SYM if d < 0 else d for d in self.shape), self.dtype)

    def concrete(self, n: int) -> jax.ShapeDtypeStruct:
        return jax.ShapeDtypeStruct(tuple(n if d < 0 else d for d in self.shape), self.dtype)


class Dim(int):
    """An unknown (-1) size of a Variable, as ``Variable.shape`` gives it: equal to -1 and
    printed as -1, but an op that receives it (``paddle.full([], x.shape[0])``) is recorded
    and gets the real size when the Program runs (sizes are static inside ``jax.jit``).
    Arithmetic on it gives a plain int (-1 again)."""

    def __new__(cls, var, axis: int):
        d = super().__new__(cls, -1)
        d.var, d.axis = var, axis
        return d

    def __reduce__(self):
        return (int, (-1,))


class Variable(Tensor):
    """A value of a static Program (Paddle 3's ``pir.Value``): shape (-1 where unknown),
    dtype, name; its data exists only when an Executor runs the Program."""

    def __init__(self, shape, dtype, name=None, stop_gradient=True, program=None, op=None):
        super().__init__(_PLACEHOLDER, stop_gradient=stop_gradient, name=name)
        self._val = _Abstract(shape, dtype)
        self._val.owner = self
        self.__dict__["program"] = program
        self.__dict__["_op"] = op  # the recorded call that defines it

    @property
    def shape(self):
        from .._core.tensor import Size

        return Size([Dim(self, i) if d < 0 else d for i, d in enumerate(self._val.shape)])

    @property
    def block(self):
        return self.program.global_block()

    def is_parameter(self) -> bool:  # a property in Paddle; see the class attribute below
        return False

    is_parameter = property(is_parameter)

    @property
    def lod_level(self) -> int:
        return 0

    def _type_str(self) -> str:
        return _type_str(self._val.shape, self._val.dtype)

    def __repr__(self) -> str:
        op = self._op.op_name if self._op is not None else "pd_op.data"
        sg = "True" if self.stop_gradient else "False"
        return f"Value(define_op_name={op}, index=0, dtype={self._type_str()}, stop_gradient={sg})"

    __str__ = __repr__

    def __bool__(self):
        raise TypeError(
            f"The truth value of a static Variable ({self.name}) is unknown until an Executor "
            "runs the Program; use paddle.static.nn.cond or paddle.where."
        )

    def __len__(self):
        d = self._val.shape[0] if self._val.shape else -1
        if d < 0:
            raise TypeError(f"len() of a static Variable ({self.name}) with unknown size")
        return d

    def numpy(self):
        raise RuntimeError(
            f"Variable {self.name} has no value in static mode: fetch it with "
            "Executor.run(program, feed=..., fetch_list=[...])"
        )

    item = tolist = __float__ = __int__ = __index__ = __array__ = numpy

    def detach(self):
        out = record_call("detach", lambda t: t.detach(), (self,))
        out.stop_gradient = True
        return out

    def cpu(self):
        return _reg.call_op("assign", self)

    def cuda(self, device_id=None, blocking=True):
        return _reg.call_op("assign", self)

    def backward(self, grad_tensor=None, retain_graph=False):
        from ._backward import append_backward

        append_backward(self)

    def __hash__(self):
        return id(self)

    def _set_value(self, value) -> None:
        """An in-place op (``y.add_(x)``, ``assign(x, output=y)``) on a Variable: from here
        on the Program's ``self`` is the value written (recorded as an assignment)."""
        if not static_mode.records():  # a replay or shape inference writes a real value
            self._val = value
            return
        src = value.owner if isinstance(value, _Abstract) else None
        if src is None:  # a concrete array: the Variable holds that constant from here on
            src = Tensor(value)
        if src is self:
            return
        record_call("assign", lambda t: t, (src,), into=self)
        self._version += 1

    def __getitem__(self, index):
        return record_call("slice", lambda x, i: x[i], (self, index))

    def __setitem__(self, index, value):
        def write(x, i, v):
            y = x.clone()
            y[i] = v
            return y

        record_call("set_value", write, (self, index, value), into=self)


class _Op:
    """One recorded call: an op of the registry with bound arguments (Variables inside), or
    a marker (``kind`` 'data', 'backward', 'minimize') that the Executor interprets."""

    def __init__(self, kind, od=None, vals=None, outputs=None, **extra):
        self.kind = kind
        self.od = od
        self.vals = vals or {}
        self.outputs = outputs  # the result pytree, Variables as leaves
        self.extra = extra

    @property
    def op_name(self) -> str:
        if self.od is not None:
            return f"pd_op.{self.od.kernel}"
        return f"pd_op.{self.extra.get('name') if self.kind == 'call' else self.kind}"

    def inputs(self) -> list:
        leaves = jax.tree_util.tree_leaves(
            (self.vals, self.extra.get("inputs", []), self.extra.get("closes_over", [])),
            is_leaf=_is_tensor,
        )
        return [x.var if isinstance(x, Dim) else x for x in leaves if isinstance(x, Tensor | Dim)]

    def output_vars(self) -> list:
        leaves = jax.tree_util.tree_leaves(self.outputs, is_leaf=_is_tensor)
        leaves += self.extra.get("grad_vars", []) + self.extra.get("writes", [])
        return [x for x in leaves if isinstance(x, Variable)]


class Block:
    """A Program's (only) block."""

    def __init__(self, program):
        self.program = program
        self.idx = 0

    @property
    def ops(self):
        return list(self.program._ops)

    def var(self, name):
        return self.program._lookup(name)

    def has_var(self, name) -> bool:
        return self.program._find(name) is not None

    @property
    def vars(self):
        return dict(self.program._vars)

    def all_parameters(self):
        return list(self.program._params.values())

    def create_var(self, name=None, shape=(), dtype="float32", **kwargs):
        v = Variable(shape, _dt.to_dtype(dtype).np, name=name or unique_name("tmp"))
        v.__dict__["program"] = self.program
        self.program._vars[v.name] = v
        return v


class Program:
    """A static-graph program: the recorded op calls of its block, its data Variables and the
    parameters it reads. ``print`` shows it in Paddle's PIR text form."""

    _ids = itertools.count()

    def __init__(self):
        self._ops: list[_Op] = []
        self._vars: dict[str, Variable] = {}
        self._params: dict[str, Tensor] = {}  # name -> Parameter read by the program
        self._inits: dict[str, tuple] = {}  # startup program: name -> (Parameter, array)
        self._loaded: set[str] = set()  # parameters that came with a loaded program
        self._runs = 0  # how many times an Executor ran it (a startup program draws anew)
        self._version = 0
        self._amp = None  # static.amp.decorate's auto_cast arguments for its ops
        self._uid = next(Program._ids)
        self._block = Block(self)
        self.random_seed = 0
        self._is_test = False

    # -- Paddle's Program API ---------------------------------------------------------------
    def global_block(self) -> Block:
        return self._block

    def block(self, index: int) -> Block:
        return self._block

    def current_block(self) -> Block:
        return self._block

    @property
    def blocks(self):
        return [self._block]

    @property
    def num_blocks(self) -> int:
        return 1

    def list_vars(self):
        return list(self._params.values()) + list(self._vars.values())

    def all_parameters(self):
        return list(self._params.values())

    def clone(self, for_test: bool = False) -> Program:
        """A copy; ``for_test=True`` drops backward and optimizer steps and runs dropout and
        batch norm in inference mode, as Paddle's test program does."""
        p = Program()
        p._vars, p._params, p._inits = dict(self._vars), dict(self._params), dict(self._inits)
        p._loaded = set(self._loaded)
        p.random_seed = self.random_seed
        p._amp = self._amp
        for op in self._ops:
            if for_test and op.kind in ("backward", "minimize"):
                continue
            if for_test and op.od is not None and "training" in op.vals:
                op = _Op(op.kind, op.od, {**op.vals, "training": False}, op.outputs, **op.extra)
            p._ops.append(op)
        p._is_test = for_test
        return p

    def state_dict(self, mode: str = "all", scope=None) -> dict:
        return {k: v for k, v in self._params.items()}

    def set_state_dict(self, state_dict, scope=None) -> None:
        for k, v in state_dict.items():
            if k in self._params:
                self._params[k].set_value(v)

    def _add(self, op: _Op) -> None:
        self._ops.append(op)
        self._version += 1
        for v in op.output_vars():
            self._vars[v.name] = v

    def _note_param(self, p: Tensor, init=None, initializer=None) -> None:
        """Add parameter ``p`` (its startup entry: the value now; ``init``, the initializer's
        ("uniform", low, high) / ("full", value) for printing; ``initializer``, to draw
        again when the startup program runs again)."""
        if p.name not in self._params:
            if isinstance(p, Parameter):
                p.__dict__["is_parameter"] = True  # Paddle's static Parameter says so
            self._params[p.name] = p
            self._version += 1
            startup = _startup_stack[-1]
            if p.name not in startup._inits:
                startup._inits[p.name] = (p, p._value, init, initializer)

    def _find(self, name):
        v = self._vars.get(name)
        return self._params.get(name) if v is None else v

    def _lookup(self, name):
        v = self._find(name)
        if v is None:
            raise ValueError(f"var {name} is not in this block")
        return v

    def __repr__(self) -> str:
        return _format(self)

    __str__ = __repr__


# -- the current programs ---------------------------------------------------------------------
_main_stack = [Program()]
_startup_stack = [Program()]


def default_main_program() -> Program:
    """The Program ops are recorded into (outside any ``program_guard``)."""
    return _main_stack[-1]


def default_startup_program() -> Program:
    """The Program that initializes the parameters of the default main program."""
    return _startup_stack[-1]


@contextlib.contextmanager
def program_guard(main_program: Program, startup_program: Program | None = None):
    """Record into ``main_program`` (parameter initializers into ``startup_program``)."""
    if not isinstance(main_program, Program):
        raise TypeError(
            "The type of main_program must be paddle.static.Program, but received "
            f"{type(main_program)}"
        )
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError(
            "The type of startup_program must be paddle.static.Program, but received "
            f"{type(startup_program)}"
        )
    _main_stack.append(main_program)
    _startup_stack.append(startup_program if startup_program is not None else _startup_stack[-1])
    try:
        yield
    finally:
        _main_stack.pop()
        _startup_stack.pop()


def _reset_programs() -> None:
    """Fresh default programs (``paddle.enable_static()`` keeps them; tests reset)."""
    _main_stack[:] = [Program()]
    _startup_stack[:] = [Program()]


# -- recording ----------------------------------------------------------------------------------
def data(name: str, shape, dtype=None, lod_level: int = 0) -> Variable:
    """A feed slot of the current main Program (``None`` or -1 dims: any size)."""
    if not isinstance(name, str):
        raise TypeError(f"The type of 'name' in data must be str, but received {type(name)}")
    dims = [-1 if d is None else int(d) for d in shape]
    dt = _dt.to_dtype(dtype) if dtype is not None else _dt.default_float()
    prog = default_main_program()
    v = Variable(dims, dt.np, name=name, stop_gradient=True, program=prog)
    op = _Op("data", outputs=v, name=name)
    v.__dict__["_op"] = op
    prog._add(op)
    return v


def _vars_in(tree) -> list:
    return [
        x for x in jax.tree_util.tree_leaves(tree, is_leaf=_is_tensor) if isinstance(x, Variable)
    ]


def _recorded_inputs(tree) -> bool:
    """Whether a call reads a Variable, a trainable parameter the main Program reads, or a
    global variable made in static mode (``create_global_var``)."""
    params = _main_stack[-1]._params
    for x in jax.tree_util.tree_leaves(tree, is_leaf=_is_tensor):
        if isinstance(x, Variable | Dim) or getattr(x, "_static_global", False) is True:
            return True
        if isinstance(x, Parameter) and not x.stop_gradient and params.get(x.name) is x:
            return True
    return False


def record(od, args, kwargs):
    """The static hook of ``registry.call_op``: record the call into the main Program."""
    if not _recorded_inputs((args, kwargs)):  # a constant (initializers): computed now
        with static_mode.suspended():
            return _reg.call_op(od, *args, **kwargs)
    if od.prebind is not None:
        args, kwargs = od.prebind(args, kwargs)
    vals, out = _reg._bind(od, args, kwargs)
    prog = default_main_program()
    for x in jax.tree_util.tree_leaves(vals, is_leaf=_is_tensor):
        if isinstance(x, Parameter) or (
            isinstance(x, Tensor) and not isinstance(x, Variable) and x.persistable
        ):
            prog._note_param(x)
    tree, infos, wrote, state = _infer(od, vals)
    op = _Op("op", od, vals, writes=wrote, effect=state)
    in_sg = all(t.stop_gradient for t in op.inputs()) or not od.differentiable
    outs = []
    for info in infos:
        if isinstance(info, _Abstract):
            v = Variable(
                info.shape, info.dtype, name=f"{od.name}_{next(_tmp_ids)}.tmp_0",
                stop_gradient=in_sg, program=prog, op=op,
            )  # fmt: skip
            outs.append(v)
        else:
            outs.append(info[0])
    op.outputs = jax.tree_util.tree_unflatten(tree, outs)
    prog._add(op)
    if out is not None:  # out=: the given Variables take the results' places
        return _reg._write_out(od, op.outputs, out)
    return op.outputs


def record_call(name: str, fn, args: tuple, into=None, effect: bool = False):
    """Record ``fn(*args)`` (a function of Tensors that is not one registry op, e.g.
    indexing); replay calls ``fn`` on the replayed Tensors. ``into``: the Variable that
    takes the result (an in-place write), else new Variables are returned. ``effect``: the
    call acts on the host (prints, calls Python), so a run keeps it whatever it fetches."""
    prog = default_main_program()
    tree, infos, wrote, state = _infer(None, list(args), call=lambda a: fn(*a))
    closes = [v for v in _closure_vars(fn) if all(v is not a for a in args)]
    op = _Op(
        "call", outputs=None, inputs=list(args), fn=fn, name=name, closes_over=closes,
        writes=wrote, effect=effect or state,
    )  # fmt: skip
    in_sg = all(t.stop_gradient for t in op.inputs())
    outs = [
        Variable(i.shape, i.dtype, name=f"{name}_{next(_tmp_ids)}.tmp_0", stop_gradient=in_sg,
                 program=prog, op=op) if isinstance(i, _Abstract) else i[0]
        for i in infos
    ]  # fmt: skip
    result = jax.tree_util.tree_unflatten(tree, outs)
    if into is not None:
        if isinstance(result, Variable):  # the written value's shape and dtype
            into._val = _Abstract(result._val.shape, result._val.dtype)
            into._val.owner = into
        op.outputs = into
        into.__dict__["_op"] = op
        into.stop_gradient = into.stop_gradient and in_sg
        result = into
    else:
        op.outputs = result
    prog._add(op)
    return result


@contextlib.contextmanager
def _restoring(tensors, saved):
    try:
        yield
    finally:
        for t, (v, ver) in zip(tensors, saved):
            t._val, t._version = v, ver


def _closure_vars(fn, seen=None) -> list:
    """The Variables a Python function reads from its closure or globals (and from the
    functions it closes over), each once."""
    seen = set() if seen is None else seen
    out = []
    if id(fn) in seen:
        return out
    seen.add(id(fn))
    code = getattr(fn, "__code__", None)
    if code is None:
        return out
    values = [c.cell_contents for c in (fn.__closure__ or ()) if _has_contents(c)]
    g = getattr(fn, "__globals__", {})
    values += [g[n] for n in code.co_names if n in g]
    for v in values:
        try:
            leaves = jax.tree_util.tree_leaves(v, is_leaf=_is_tensor) if not callable(v) else [v]
        except (TypeError, ValueError):  # e.g. a dict whose keys do not sort: holds no Variable
            continue
        for x in leaves:
            if isinstance(x, Variable) and all(x is not y for y in out):
                out.append(x)
            elif callable(x) and not isinstance(x, type):
                out += [y for y in _closure_vars(x, seen) if all(y is not z for z in out)]
    return out


def _has_contents(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
        return True
    except ValueError:
        return False


@contextlib.contextmanager
def holding(variables, values):
    """The Variables hold ``values`` (arrays) inside the block: a Python function recorded
    with ``record_call`` sees the replayed values of the Variables it closes over."""
    saved = [v._val for v in variables]
    for v, a in zip(variables, values):
        v._val = a
    try:
        yield
    finally:
        for v, a in zip(variables, saved):
            v._val = a


def _dims(shape) -> list[int]:
    return [d if isinstance(d, int) else -1 for d in shape]


def _infer(od, vals, call=None):
    """The op's result with Tensors holding ShapeDtypeStructs (Paddle's -1 where the size
    depends on a -1 input dim), from ``jax.eval_shape`` of the same op."""
    leaves, tree = jax.tree_util.tree_flatten(vals, is_leaf=_is_tensor)
    idx = [i for i, x in enumerate(leaves) if isinstance(x, Variable)]
    sgs = [leaves[i].stop_gradient for i in idx]
    dims = [i for i, x in enumerate(leaves) if isinstance(x, Dim)]
    # a Python function (call) may read Variables it closes over: they hold tracers too
    direct = {id(leaves[i]) for i in idx}
    captured = []
    if call is not None:
        captured = [v for v in _closure_vars(call) if id(v) not in direct]
    ins = [leaves[i] for i in idx] + captured
    ins += [v for v in {id(leaves[i].var): leaves[i].var for i in dims}.values() if all(
        v is not w for w in ins)]  # fmt: skip

    def run(arrays):
        ls = list(leaves)
        for i, a, sg in zip(idx, arrays, sgs):
            ls[i] = Tensor(a, stop_gradient=sg)
        for i in dims:  # the size this pass gives the Variable
            d = leaves[i]
            ls[i] = next(a for v, a in zip(ins, arrays) if v is d.var).shape[d.axis]
        bound = jax.tree_util.tree_unflatten(tree, ls)
        if call is None:
            out = _reg.call_op(od, **bound)
        else:
            with holding(captured, arrays[len(idx) : len(idx) + len(captured)]):
                out = call(bound)
        res_leaves, res_tree = jax.tree_util.tree_flatten(out, is_leaf=_is_tensor)
        arrs = [x._value if isinstance(x, Tensor) else None for x in res_leaves]
        others = [None if isinstance(x, Tensor) else x for x in res_leaves]
        # Variables the op wrote in place (assign(x, output=y)): the op also defines them
        wrote = [leaves[i] for i, a in zip(idx, arrays) if ls[i]._val is not a]
        # state it wrote in place (a global variable, a running statistic): the Executor
        # keeps the op whatever is fetched, as Paddle's runs every op of the Program
        state = any(x._val is not v for x, (v, _) in zip(concrete[:-1], saved))
        run.meta = (res_tree, others, wrote, state)
        return arrs

    from .._core.random import default_generator
    from ..autograd import no_grad

    concrete = [x for x in leaves if isinstance(x, Tensor) and not isinstance(x, Variable)]
    concrete.append(default_generator._key)  # random ops draw a key from it
    saved = [(x._val, x._version) for x in concrete]  # an op may rebind one (batch_norm)
    with static_mode.suspended(), no_grad(), _restoring(concrete, saved):
        try:
            specs = jax.eval_shape(run, [v._val.spec() for v in ins])
            shapes = [None if s is None else _dims(s.shape) for s in specs]
        except Exception:  # noqa: BLE001 - a size the op needs as a Python int
            # two concrete sizes for the -1 dims: the result dims that differ are -1
            specs = jax.eval_shape(run, [v._val.concrete(4) for v in ins])
            other = jax.eval_shape(run, [v._val.concrete(8) for v in ins])
            shapes = [
                None if s is None else [a if a == b else -1 for a, b in zip(s.shape, t.shape)]
                for s, t in zip(specs, other)
            ]
    res_tree, others, wrote, state = run.meta
    infos = []
    for s, shape, o in zip(specs, shapes, others):
        infos.append((o,) if s is None else _Abstract(shape, s.dtype))
    return res_tree, infos, wrote, state
