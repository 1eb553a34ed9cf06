"""A program exported by real Paddle as a Layer: ``forward`` replays the program's ops with the
registry's ops on Tensors (eager, differentiable, traceable by ``jax.jit`` and ``to_static``).
``ProgramArtifact`` gives ``serving``'s Predictor the same program as a compiled
``f(params, inputs) -> outputs`` with the saved model's interface (specs, ``arrays()``,
``callable()``).
"""

from __future__ import annotations

import warnings
from collections import ChainMap

import jax.numpy as jnp
import numpy as np

from ..._core import autograd as _ag
from ..._core import trace_state
from ..._core.registry import call_op
from ..._core.tensor import Parameter, Tensor, _unique_name
from ...jit._save_load import TranslatedLayer
from ...jit.dy2static.lax_control import is_traced
from ..artifact import IOSpec
from ..checks import check_input, shape_matches
from . import control_flow, detection_ops, index_ops, math_ops, op_table, segments
from .control_flow import TensorArray
from .program import Program, ProgramError

# every Paddle op the replay runs: op_table's rows, index_ops', math_ops', detection_ops' and
# control_flow's
ROWS = {
    **op_table.ROWS, **index_ops.ROWS, **math_ops.ROWS, **detection_ops.ROWS,
    **control_flow.ROWS,
}  # fmt: skip


def check_ops(program: Program, path: str) -> None:
    """Every op of the program has a row, else one error naming all the missing ones."""
    missing = [t for t in program.op_types() if t not in ROWS]
    if missing:
        raise ProgramError(
            f"(Unimplemented) {path} uses {len(missing)} Paddle op(s) that paddle-compat cannot "
            f"run yet: {', '.join(missing)}."
        )


def _spec(v) -> IOSpec:
    return IOSpec(v.name, [int(d) for d in v.shape], str(np.dtype(v.dtype)))


def replay(program: Program, params: list, inputs: list) -> list:
    """Run the program's ops on Tensors: ``params`` in ``program.params`` order, ``inputs`` in
    ``program.inputs`` order; returns the fetched values in order."""
    env = {}
    for v, t in zip(program.params, params):
        env[v.key] = t
    for v in program.consts:  # e.g. an RNN's dropout state: never read at inference
        env[v.key] = np.zeros([0], np.dtype(v.dtype))
    for v, t in zip(program.inputs, inputs):
        env[v.key] = t
    for name in program.arrays:  # a 2.x tensor array exists before its first write
        env[name] = TensorArray(None)
    with control_flow.compiling(any(is_traced(t) for t in inputs)):
        _run_ops(program.ops, env, program.format == "legacy", [v.key for v in program.outputs])
    out = []
    for v in program.outputs:
        if v.key not in env:
            raise ProgramError(f"(InvalidArgument) the program never computes output {v.name!r}")
        val = env[v.key]
        out.append(val if isinstance(val, Tensor) else Tensor(np.asarray(val)))
    return out


def _run_ops(ops: list, env, legacy: bool, results=()) -> None:
    """Run ``ops`` in order, reading and writing values in ``env`` (in compiled segments
    while ``segments.active()``: the Predictor's op-by-op mode; ``results``: the keys read
    after the block, its yields or the program's outputs)."""
    if segments.active():
        segments.run_block(ops, env, legacy, results, _run_op)
        return
    for op in ops:
        _run_op(op, env, legacy)


def _run_op(op, env, legacy: bool) -> None:
    """Run one op, reading its inputs from ``env`` and writing its outputs there."""
    row = ROWS[op.type]
    if legacy and row.blocks:  # 2.x control flow and tensor arrays: by variable name
        row.fn(op, env, _block_runner(env, True))
        return
    try:
        if legacy:
            args = []
            for slot in row.ins:
                names = op.inputs.get(slot.rstrip("*")) or []
                if slot.endswith("*"):
                    args.append([env[n] for n in names])
                else:
                    args.append(env[names[0]] if names else None)
        else:
            args = [None if k is None else env[k] for k in op.inputs]
        if row.blocks:
            res = row.fn(args, op.attrs, op.blocks, _block_runner(env, False))
        else:
            res = row.fn(args, op.attrs)
    except KeyError as e:
        raise ProgramError(
            f"(InvalidArgument) op {op.type} reads the value {e} that no earlier op "
            "computes: the program is damaged."
        ) from None
    if legacy:
        res = res if isinstance(res, tuple) else (res,)
        for slot, val in zip(row.outs, res):
            names = op.outputs.get(slot) or []
            if isinstance(val, list):
                env.update(zip(names, val))
            elif names:
                env[names[0]] = val
    else:
        if not isinstance(res, tuple):
            res = (res,)
        if row.blocks and len(res) != len(op.outputs):
            raise ProgramError(
                f"(InvalidArgument) {op.type} yields {len(res)} values for its "
                f"{len(op.outputs)} results: the program is damaged."
            )
        for k, val in zip(op.outputs, res):
            env[k] = val


def _block_runner(env, legacy: bool):
    """``run(block, values)`` for a control-flow op: the block's ops in a scope of their own
    (reading the enclosing blocks' values), its arguments bound to ``values``; returns what
    its ``cf.yield`` hands back."""

    def run(block, values):
        scope = ChainMap(dict(zip(block.args, values)), env)
        try:
            _run_ops(block.ops, scope, legacy, block.yields)
            return [scope[k] for k in block.yields]
        except KeyError as e:
            raise ProgramError(
                f"(InvalidArgument) a block yields the value {e} that none of its ops "
                "computes: the program is damaged."
            ) from None
        except BaseException:
            # a traced if/while retries a branch that raised (learning its outputs); the
            # traceback it keeps must not keep this run's Tensors alive past the trace
            scope.maps[0].clear()
            raise

    return run


class PaddleProgramLayer(TranslatedLayer):
    """A ``TranslatedLayer`` running an inference program exported by real Paddle
    (``paddle.jit.save``'s PIR ``.json`` or 2.x ``.pdmodel`` with its ``.pdiparams``).
    Parameters are ``param_0``, ... in the params file's order (their Paddle names are the
    Parameters' names). Eval only. An eager call runs the program in compiled segments
    (``segments``: the whole program, for one without control flow on data), each one node
    of the autograd tape; under ``to_static`` the ops are traced into the caller's program."""

    def __init__(self, program: Program, arrays: list[np.ndarray], path: str = ""):
        super().__init__(None)
        self.__dict__["_program"] = program
        self.__dict__["_path"] = path
        # its specs, where TranslatedLayer (input_names, extra_repr) and
        # paddle.static.load_inference_model read a loaded layer's
        self.__dict__["_artifact"] = ProgramArtifact(program, None, path)
        self.__dict__["_plans"] = segments.Plans(ROWS)  # its eager calls' compiled segments
        for i, (v, arr) in enumerate(zip(program.params, arrays)):
            p = Parameter(jnp.asarray(arr), name=_unique_name(v.name), trainable=True)
            self.add_parameter(f"param_{i}", p)
        self.eval()

    @property
    def program_format(self) -> str:
        return self._program.format

    def program(self, method_name: str = "forward") -> str:
        """The loaded program as text: one line per op (Paddle returns its Program here)."""
        lines = [f"{self._program.format} program {self._path}"]
        for op in self._program.ops:
            lines.append(f"  {op.type}({op.inputs}) -> {op.outputs}")
        return "\n".join(lines)

    @property
    def input_specs(self) -> list[IOSpec]:
        return self._artifact.inputs

    @property
    def output_specs(self) -> list[IOSpec]:
        return self._artifact.outputs

    def forward(self, *inputs, **kwargs):
        names = self.input_names
        if kwargs:
            extra = [k for k in kwargs if k not in names]
            if extra:
                raise TypeError(f"unexpected input(s) {extra}; the program's inputs are {names}.")
            full = list(inputs) + [None] * (len(names) - len(inputs))
            for k, v in kwargs.items():
                full[names.index(k)] = v
            inputs = tuple(full)
        if len(inputs) != len(names) or any(x is None for x in inputs):
            raise ValueError(
                f"The program takes {len(names)} input(s) {names}, but "
                f"{sum(x is not None for x in inputs)} were given."
            )
        ts = []
        for spec, x in zip(self.input_specs, inputs):
            t = x if isinstance(x, Tensor) else Tensor(np.asarray(x))
            if not _fits(spec, t):  # raises for a wrong shape or dtype kind, else casts
                check_input(spec, trace_state.read(t), "PaddleProgramLayer")
                t = call_op("cast", t, spec.dtype)
            ts.append(t)
        params = list(self._parameters.values())
        if trace_state.current() is not None or any(is_traced(t) for t in ts):
            outs = replay(self._program, params, ts)  # to_static traces the ops themselves
        else:  # eager: compiled segments (differentiable, one tape node each)
            with segments.segmented(self._plans):
                outs = replay(self._program, params, ts)
        return outs[0] if len(outs) == 1 else outs


def _fits(spec: IOSpec, t: Tensor) -> bool:
    return shape_matches(spec, list(t.shape)) and trace_state.read(t).dtype == np.dtype(spec.dtype)


class ProgramArtifact:
    """What ``serving``'s Predictor reads from a saved model, for a Paddle-exported program."""

    def __init__(self, program: Program, arrays: list[np.ndarray], path: str):
        self.program, self._arrays, self.path = program, arrays, path
        self.inputs = [_spec(v) for v in program.inputs]
        self.outputs = [_spec(v) for v in program.outputs]
        self._callable = {}
        self._op_by_op = False  # a step needs data-dependent values: no compiled program
        self._plans = segments.Plans(ROWS)  # that mode's compiled segments

    @property
    def input_names(self) -> list[str]:
        return [s.name for s in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return [s.name for s in self.outputs]

    def arrays(self) -> list[np.ndarray]:
        return self._arrays

    @property
    def exported(self):
        raise ProgramError(
            "(Unimplemented) batch buckets need a model saved by paddle-compat's "
            f"paddle.jit.save; {self.path} was exported by Paddle."
        )

    def callable(self, compiler_options: dict | None = None):
        """``jax.jit`` of the replay: ``f(params, inputs) -> list of arrays``. A program whose
        steps need values computed from tensor data while compiling (a tensor array appended
        in a data-dependent loop) runs its control flow on the host instead, as Paddle's
        executor does, the ops between two host steps compiled together (``segments``), with
        a warning once."""
        key = tuple(sorted((compiler_options or {}).items()))
        fn = self._callable.get(key)
        if fn is None:
            import jax

            program = self.program

            def pure(params, inputs):
                with _ag.no_grad():
                    outs = replay(program, [Tensor(p) for p in params], [Tensor(x) for x in inputs])
                return [o._value for o in outs]

            jitted = jax.jit(pure, compiler_options=dict(key) or None)

            def op_by_op(params, inputs):
                with segments.segmented(self._plans):
                    return pure(params, inputs)

            def fn(params, inputs):
                if self._op_by_op:
                    return op_by_op(params, inputs)
                try:
                    return jitted(params, inputs)
                except trace_state.DataDependentError as e:
                    warnings.warn(
                        f"{self.path} cannot run as one compiled program ({e}); its control "
                        "flow runs on the host, as Paddle's executor runs it, and the ops "
                        "between two host steps run as compiled segments.",
                        stacklevel=2,
                    )
                    self._op_by_op = True
                    return op_by_op(params, inputs)

            self._callable[key] = fn
        return fn
