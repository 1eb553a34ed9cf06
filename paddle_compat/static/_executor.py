"""Running static Programs: ``Executor``, ``Scope``, ``CompiledProgram``.

``Executor.run(program, feed, fetch_list)`` replays the Program's recorded calls of registry
ops on Tensors holding the fed arrays, under ``paddle.jit.to_static``: the replay is one
compiled XLA program per (Program version, fetch list, feed shapes and dtypes), whose state
(parameters, optimizer moments, learning rate) ``to_static`` threads and writes back. A
backward marker runs the eager autograd (``paddle.grad``) on the traced values; a minimize
marker then sets the parameters' gradients and runs ``optimizer.step()``.

A Scope maps names to Tensors. Running a startup Program (re)initializes its parameters and
puts them into the current scope; the parameters themselves hold the values, so every scope
that holds a parameter sees the same data.
"""

from __future__ import annotations

import contextlib
import functools
import warnings

import jax
import jax.numpy as jnp
import numpy as np

from .._core import dtype as _dt
from .._core import registry as _reg
from .._core import static_mode
from .._core.tensor import Parameter, Tensor, to_device
from .._core.tensor_api import DenseTensor
from ._program import Dim, Program, Variable, _Op, default_main_program, holding


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


# -- Scope ----------------------------------------------------------------------------------------
class _ScopeVar:
    """A variable of a Scope (``scope.var(name)``): ``get_tensor()`` is its DenseTensor."""

    def __init__(self, scope, name):
        self._scope, self._name = scope, name

    def get_tensor(self) -> DenseTensor:
        t = self._scope._vars.get(self._name)
        if t is None:
            t = self._scope._vars[self._name] = Tensor()
            t.name = self._name
        return DenseTensor(t)

    def name(self) -> str:
        return self._name


class Scope:
    """Names to Tensors (Paddle's ``core.Scope``)."""

    def __init__(self):
        self._vars: dict[str, Tensor] = {}

    def var(self, name: str) -> _ScopeVar:
        """The variable ``name``, created if absent."""
        self._vars.setdefault(name, None)
        return _ScopeVar(self, name)

    def find_var(self, name: str):
        """The variable ``name``, or None."""
        return _ScopeVar(self, name) if name in self._vars else None

    def local_var_names(self) -> list[str]:
        return list(self._vars)

    def erase(self, names) -> None:
        for n in names:
            self._vars.pop(n, None)

    def drop_kids(self) -> None:
        pass


_scopes = [Scope()]


def global_scope() -> Scope:
    """The scope Executors use (``scope_guard`` switches it)."""
    return _scopes[-1]


@contextlib.contextmanager
def scope_guard(scope: Scope):
    """Make ``scope`` the global scope inside the block."""
    _scopes.append(scope)
    try:
        yield
    finally:
        _scopes.pop()


# -- strategies -----------------------------------------------------------------------------------
class BuildStrategy:
    """Graph build options (fusions, reduce strategy). XLA fuses on its own: the options
    are kept and have no effect."""

    class ReduceStrategy:
        AllReduce = 0
        Reduce = 1
        _NoReduce = 2

    class GradientScaleStrategy:
        CoeffNumDevice = 0
        One = 1
        Customized = 2

    def __init__(self):
        self.reduce_strategy = BuildStrategy.ReduceStrategy.AllReduce
        self.gradient_scale_strategy = BuildStrategy.GradientScaleStrategy.CoeffNumDevice
        self.debug_graphviz_path = ""
        for flag in (
            "build_cinn_pass", "fuse_elewise_add_act_ops", "fuse_gemm_epilogue",
            "fuse_dot_product_attention", "fuse_adamw", "fused_attention", "fused_feedforward",
            "sequential_run", "fuse_bn_act_ops", "fuse_bn_add_act_ops", "enable_auto_fusion",
            "fuse_relu_depthwise_conv", "fuse_broadcast_ops", "sync_batch_norm",
            "memory_optimize", "fuse_resunit", "enable_inplace", "enable_sequential_execution",
            "fuse_all_reduce_ops", "fuse_all_optimizer_ops", "enable_addto",
        ):  # fmt: skip
            setattr(self, flag, False)


class ExecutionStrategy:
    """Executor thread options (no effect: XLA schedules the compiled program)."""

    def __init__(self):
        self.num_threads = 1
        self.num_iteration_per_drop_scope = 100
        self.num_iteration_per_run = 1
        self.use_thread_barrier = False


class CompiledProgram:
    """A Program with a BuildStrategy; ``Executor.run`` runs it as the Program itself (every
    Program is compiled with XLA)."""

    def __init__(self, program_or_graph, build_strategy=None):
        if not isinstance(program_or_graph, Program):
            raise TypeError(
                "The type of program_to_graph parameter is wrong, expected Graph or Program, "
                f"but received {type(program_or_graph)}"
            )
        self._program = program_or_graph
        self._build_strategy = build_strategy or BuildStrategy()

    def with_data_parallel(self, loss_name=None, build_strategy=None, exec_strategy=None,
                           share_vars_from=None, places=None):  # fmt: skip
        """Paddle 1.x/2.x's data-parallel switch: the program runs as compiled (one device)."""
        if build_strategy is not None:
            self._build_strategy = build_strategy
        return self

    def __getattr__(self, name):
        return getattr(self.__dict__["_program"], name)


def cpu_places(device_count: int | None = None) -> list:
    """``device_count`` CPUPlaces (default: CPU_NUM, else 1)."""
    import os

    from .._core.place import CPUPlace

    n = device_count or int(os.environ.get("CPU_NUM", "1"))
    return [CPUPlace() for _ in range(n)]


def cuda_places(device_ids=None) -> list:
    """A CUDAPlace per GPU (or per id in ``device_ids``)."""
    from .._core.place import CUDAPlace

    if device_ids is None:
        device_ids = range(len([d for d in jax.devices() if d.platform == "gpu"]))
    return [CUDAPlace(i) for i in device_ids]


# -- replay ---------------------------------------------------------------------------------------
def _prune(ops: list[_Op], targets: list) -> list[_Op]:
    """The ops needed for ``targets`` plus every optimizer step, every op acting on the host
    (``Print``, ``py_func``) and every op writing state in place (a global variable, a
    running statistic), in program order."""
    needed = {id(t) for t in targets}
    keep = []
    for op in reversed(ops):
        outs = op.output_vars()
        effect = op.extra.get("effect", False)
        if op.kind == "minimize" or effect or any(id(v) in needed for v in outs):
            keep.append(op)
            needed.update(id(t) for t in op.inputs())
    return keep[::-1]


class _Runner:
    """One compiled replay of a Program for one fetch list."""

    def __init__(self, program: Program, targets: list):
        from ..jit import to_static

        self.program = program
        self.targets = targets
        self.ops = _prune(program._ops, targets)
        self.data = [op.outputs for op in self.ops if op.kind == "data"]
        self.params = [
            t for t in {id(t): t for op in self.ops for t in op.inputs()}.values()
            if isinstance(t, Parameter)
        ]  # fmt: skip
        self.fn = to_static(self._replay)

    def _replay(self, feeds: dict):
        env = {id(v): feeds[v.name] for v in self.data}
        return replay(self.ops, env, self.targets, self.program._amp)


def replay(ops: list[_Op], env: dict, targets: list, amp: dict | None = None) -> list:
    """Run recorded ``ops`` on the Tensors of ``env`` (id(Variable) -> Tensor; the data
    Variables bound); the values of ``targets``. With ``amp`` (``static.amp.decorate``'s
    ``auto_cast`` arguments) the recorded ops run under ``paddle.amp.auto_cast``."""
    cast = contextlib.nullcontext
    if amp is not None:
        from ..amp import auto_cast

        cast = functools.partial(auto_cast, True, **amp)

    def sub(x):
        if isinstance(x, Dim):
            return int(sub(x.var).shape[x.axis])
        if isinstance(x, Variable):
            try:
                return env[id(x)]
            except KeyError:
                raise ValueError(f"Variable {x.name} has no value in this run") from None
        return x

    for op in ops:
        if op.kind == "op":
            vals = jax.tree_util.tree_map(sub, op.vals, is_leaf=_is_tensor)
            with cast():
                _bind_outputs(env, op.outputs, _reg.call_op(op.od, **vals))
        elif op.kind == "call":
            args = jax.tree_util.tree_map(sub, op.extra["inputs"], is_leaf=_is_tensor)
            bound = [v for v in op.extra.get("closes_over", ()) if id(v) in env]
            with holding(bound, [env[id(v)]._value for v in bound]):
                _bind_outputs(env, op.outputs, op.extra["fn"](*args))
        elif op.kind != "data":
            _backward(op, sub, env)
    return [_fetch(sub(t)) for t in targets]


def _backward(op: _Op, sub, env) -> None:
    from .. import autograd

    loss = [sub(t) for t in op.extra["loss"]]
    wrt = [sub(t) for t in op.extra["wrt"]]
    scaler = op.extra.get("scaler")  # static.amp.decorate: dynamic loss scaling
    if scaler is not None:
        loss = [scaler.scale(t) for t in loss]
    seeds = op.extra.get("target_grads")
    if seeds is not None:  # gradients(target_gradients=): ones where None
        seeds = [None if g is None else sub(g) for g in seeds]
    blocked = [sub(v) for v in op.extra.get("no_grad", ())] or None
    grads = autograd.grad(loss, wrt, grad_outputs=seeds, allow_unused=True, no_grad_vars=blocked)
    if op.kind == "minimize":
        opt = op.extra["optimizer"]
        for p, g in zip(wrt, grads):
            if g is not None and not p.stop_gradient:
                p.grad = g
        if scaler is not None:  # unscales the gradients, skips the step on inf/nan
            scaler.step(opt)
            scaler.update()
            grads = [p.grad if g is not None else None for p, g in zip(wrt, grads)]
        else:
            opt.step()
    for gv, g, t in zip(op.extra["grad_vars"], grads, wrt):
        env[id(gv)] = g if g is not None else _reg.call_op("zeros_like", t)
    if op.kind == "minimize":
        opt.clear_grad(set_to_zero=False)


def _bind_outputs(env, outputs, result) -> None:
    outs = jax.tree_util.tree_leaves(outputs, is_leaf=_is_tensor)
    res = jax.tree_util.tree_leaves(result, is_leaf=_is_tensor)
    for v, r in zip(outs, res):
        if isinstance(v, Variable):
            env[id(v)] = r


def _fetch(t):
    if not isinstance(t, Tensor):
        return Tensor(jnp.asarray(t))
    return _reg.call_op("assign", t)


# -- Executor -------------------------------------------------------------------------------------
class Executor:
    """Runs static Programs (on the default JAX device; ``place`` is accepted)."""

    def __init__(self, place=None):
        self.place = place
        self._runners: dict = {}
        self._closed = False

    def close(self) -> None:
        """Release the compiled programs; the Executor cannot run afterwards."""
        self._runners.clear()
        self._closed = True

    def run(
        self,
        program=None,
        feed=None,
        fetch_list=None,
        feed_var_name: str = "feed",
        fetch_var_name: str = "fetch",
        scope=None,
        return_numpy: bool = True,
        use_program_cache: bool = False,
        use_prune: bool = False,
    ):
        """Run ``program`` (default: the default main program) with ``feed`` ({name: array})
        and return the values of ``fetch_list`` (numpy arrays, or Tensors when
        ``return_numpy=False``)."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Executor")
        if program is None:
            program = default_main_program()
        if isinstance(program, CompiledProgram):
            program = program._program
        if not isinstance(program, Program):
            raise TypeError(
                f"Executor requires Program as its Parameter. But you passed in {type(program)}"
            )
        scope = scope if scope is not None else global_scope()
        feed = {} if feed is None else feed
        if isinstance(feed, list | tuple) and len(feed) == 1 and isinstance(feed[0], dict):
            feed = feed[0]  # one dict per device (a DataLoader with return_list=False)
        if not isinstance(feed, dict):
            raise TypeError(f"feed requires dict as its Parameter. But you passed in {type(feed)}")
        if fetch_list is None:
            fetch_list = []
        elif not isinstance(fetch_list, list | tuple):
            fetch_list = [fetch_list]
        with static_mode.suspended():
            for name, (p, value, _, initializer) in program._inits.items():
                if program._runs and initializer is not None:
                    initializer(p)  # run again: a new draw, as Paddle's startup ops make
                else:  # the first run: the values drawn when the parameter was created
                    p._set_value(value)
                p.clear_gradient(False)
                scope._vars[name] = p
            program._runs += 1
            if not program._ops and not fetch_list:
                return []
            targets = [program._lookup(f) if isinstance(f, str) else f for f in fetch_list]
            key = (program._uid, program._version, tuple(id(t) for t in targets))
            runner = self._runners.get(key)
            if runner is None:
                runner = self._runners[key] = _Runner(program, targets)
            for p in runner.params:
                if scope._vars.get(p.name) is not p and p.name not in program._loaded:
                    raise RuntimeError(
                        f"(PreconditionNotMet) The parameter {p.name} is not initialized in "
                        "the scope: run the startup program first "
                        "(exe.run(paddle.static.default_startup_program()))."
                    )
            for op in program._ops:  # Paddle feeds every data Variable of the program
                if op.kind == "data" and op.outputs.name not in feed:
                    raise KeyError(op.outputs.name)
            feeds = {v.name: _feed_tensor(v, feed) for v in runner.data}
            outs = runner.fn(feeds)
        if return_numpy:
            return [_fetched(t) for t in outs]
        return outs


def _fetched(t: Tensor) -> np.ndarray:
    """A fetched value as numpy: Paddle's executor gives int64 as C ``long long`` (numpy's
    ``longlong``, which prints ``dtype=int64``), not numpy's default ``int_``."""
    a = np.asarray(t._value)
    return a.view(np.longlong) if a.dtype == np.int64 else a


def _feed_tensor(v: Variable, feed: dict) -> Tensor:
    if v.name not in feed:  # Paddle: a KeyError naming the variable
        raise KeyError(v.name)
    x = feed[v.name]
    arr = x._value if isinstance(x, Tensor) else np.asarray(x)
    want = v._val.shape
    if len(arr.shape) != len(want) or any(w >= 0 and w != d for w, d in zip(want, arr.shape)):
        warnings.warn(  # Paddle warns and runs the program on the fed shape
            f"The fed Variable '{v.name}' should have dimensions = {len(want)}, shape = "
            f"{list(want)}, but received fed shape {list(arr.shape)} on each device",
            stacklevel=3,
        )
    if np.dtype(arr.dtype) != v._val.dtype:
        raise ValueError(
            f"The data type of the fed Variable '{v.name}' should be "
            f"{_dt.to_dtype(v._val.dtype).name}, but received {np.dtype(arr.dtype).name}"
        )
    return Tensor(to_device(np.asarray(arr)), stop_gradient=v.stop_gradient)
