"""Backward in static Programs: ``append_backward``, ``gradients`` and ``optimizer.minimize``.

Each records a marker into the Program; when an Executor replays it, the marker runs the
eager autograd (``paddle.grad``) on the replayed values (traced under ``jax.jit``) and binds
the gradient Variables (named ``<var>@GRAD`` as in Paddle); ``minimize`` then sets the
parameters' gradients and runs the optimizer's step.
"""

from __future__ import annotations

from .._core.tensor import Parameter, Tensor
from ._program import Program, Variable, _Op, default_main_program


def _program_of(t) -> Program:
    p = getattr(t, "program", None) if isinstance(t, Variable) else None
    return p if p is not None else default_main_program()


def _params_of(prog: Program, loss) -> list:
    """The trainable parameters ``loss`` depends on, in the order backward meets them (from
    the last op to the first, as Paddle lists them)."""
    needed = {id(t) for t in loss}
    found = {}
    for op in reversed(prog._ops):
        if any(id(v) in needed for v in op.output_vars()):
            for t in op.inputs():
                needed.add(id(t))
                if isinstance(t, Parameter) and not t.stop_gradient:
                    found[id(t)] = t
    return list(found.values())


def _grad_var(prog: Program, t) -> Variable:
    v = Variable(t._val.shape, t._val.dtype, name=f"{t.name}@GRAD", program=prog)
    v.__dict__["_op"] = None
    return v


def _names(no_grad_set) -> set:
    if not no_grad_set:
        return set()
    return {x.name if isinstance(x, Tensor) else str(x) for x in no_grad_set}


def _record(kind, loss: list, wrt: list, **extra) -> list:
    prog = _program_of(loss[0])
    grad_vars = [_grad_var(prog, t) for t in wrt]
    seeds = [g for g in extra.get("target_grads", ()) if g is not None]
    reads = loss + wrt + seeds + list(extra.get("no_grad", ()))
    op = _Op(kind, inputs=reads, loss=loss, wrt=wrt, grad_vars=grad_vars, **extra)
    for gv in grad_vars:
        gv.__dict__["_op"] = op
    prog._add(op)
    return grad_vars


def append_backward(
    loss,
    parameter_list=None,
    no_grad_set=None,
    callbacks=None,
    checkpoints=None,
    distop_context=None,
):
    """Add the gradients of ``loss`` with respect to the parameters (default: every trainable
    one it depends on) to its Program; returns ``[(parameter, gradient Variable)]``."""
    if not isinstance(loss, Variable):
        raise TypeError(
            f"The type of 'loss' in append_backward must be Variable, but received {type(loss)}"
        )
    prog = _program_of(loss)
    if parameter_list:
        params = [prog._lookup(p) if isinstance(p, str) else p for p in parameter_list]
    else:
        params = _params_of(prog, [loss])
    skip = _names(no_grad_set)
    params = [p for p in params if p.name not in skip]
    grads = _record("backward", [loss], params)
    return list(zip(params, grads))


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """Gradient Variables of the sum of ``targets`` (each weighted by its entry of
    ``target_gradients``, ones where None) with respect to each of ``inputs``, none flowing
    through the Variables of ``no_grad_set``."""
    targets = list(targets) if isinstance(targets, list | tuple) else [targets]
    inputs = list(inputs) if isinstance(inputs, list | tuple) else [inputs]
    extra = {}
    if no_grad_set:  # Variables (or names) the gradients do not flow through
        prog = _program_of(targets[0])
        extra["no_grad"] = [prog._lookup(v) if isinstance(v, str) else v for v in no_grad_set]
    if target_gradients is None:
        return _record("backward", targets, inputs, **extra)
    tg = (
        list(target_gradients) if isinstance(target_gradients, list | tuple) else [target_gradients]
    )
    if len(tg) != len(targets):
        raise ValueError(
            "Should have the same number of target_gradients as targets, but received "
            f"{len(tg)} target_gradients and {len(targets)} targets."
        )
    for t, g in zip(targets, tg):
        if g is not None and list(g.shape) != list(t.shape):
            raise ValueError(
                f"The shapes of target {t.name} {list(t.shape)} and its target_gradient "
                f"{list(g.shape)} differ."
            )
    return _record("backward", targets, inputs, target_grads=tg, **extra)


def minimize(optimizer, loss, startup_program=None, parameters=None, no_grad_set=None):
    """``optimizer.minimize(loss)`` in static mode: backward plus the optimizer's update each
    time an Executor runs the Program; returns ``(optimize_ops, params_grads)``."""
    if not isinstance(loss, Variable):
        raise TypeError(f"The loss should be a static Variable, but received {type(loss)}")
    prog = _program_of(loss)
    if parameters:
        params = [prog._lookup(p) if isinstance(p, str) else p for p in parameters]
    elif optimizer._parameter_list:
        params = [p for _, ps in optimizer._groups() for p in ps]
    else:
        params = _params_of(prog, [loss])
    skip = _names(no_grad_set)
    params = [p for p in params if p.name not in skip and not p.stop_gradient]
    if not optimizer._parameter_list:
        optimizer._parameter_list = list(params)
        optimizer._param_groups = optimizer._parameter_list
    if optimizer._dtype is None:
        optimizer._dtype = loss.dtype
    grads = _record("minimize", [loss], params, optimizer=optimizer)
    return [], list(zip(params, grads))
