"""``paddle.optimizer.Optimizer``: parameter groups, accumulators (optimizer state held in
Tensors named like Paddle's), state_dict, learning rate, and the fused update.

Subclasses describe their update with three hooks:

* ``_acc_specs(param)``: the accumulators to create for a parameter, in Paddle's order:
  ``[(name, fill_value, shape or None, dtype or None), ...]``;
* ``_hyper(param, group)``: hashable hyperparameters of the rule for that parameter;
* ``_rule(p, g, states, lr, hp)`` (static): the pure update of one parameter.

``step()`` gathers (param, grad) pairs, creates missing accumulators, and runs ONE compiled
function (``_fused.build``) over the flat lists of parameters, gradients, accumulators, master
weights and the learning rate. Arrays are read through ``trace_state.read`` and written with
``_set_value``, so the same code runs inside ``paddle.jit.to_static`` (no host syncs on this
path; the learning rate is a Tensor, ``_lr_var``, not a baked constant).
"""

from __future__ import annotations

import logging
from collections import defaultdict

import jax
import jax.numpy as jnp
import numpy as np

from .._core import static_mode, trace_state
from .._core.autograd import no_grad
from .._core.tensor import Tensor, full_array, unique_name
from ..profiler._enums import TracerEventType
from ..profiler._events import model_span
from ..regularizer import L2Decay, WeightDecayRegularizer
from . import _fused
from ._lr import LambdaDecay, LRScheduler, _lr_array

__all__ = ["Optimizer"]


def _clip_base():
    from ..nn._clip import ClipGradBase

    return ClipGradBase


class Optimizer:
    """Base class of optimizers: holds the parameters (or parameter groups), learning rate
    (float or ``LRScheduler``), weight decay and gradient clipping; ``step()`` updates the
    parameters from their ``.grad``."""

    _group_decay_is_regularizer = True  # group 'weight_decay' -> param.regularizer (Paddle)

    def __init__(
        self,
        learning_rate,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
    ) -> None:
        if parameters is not None:
            if isinstance(parameters, Tensor):
                raise TypeError(
                    "`parameters` argument given to the optimizer should be an iterable of "
                    f"paddle Tensors, but got argument type is `{type(parameters)}`."
                )
            if isinstance(parameters, dict):
                raise TypeError(
                    "`parameters` argument should not get dict type, if parameter groups is "
                    "needed, please set `parameters` as list of dict"
                )
            self._parameter_list = list(parameters)
        else:
            self._parameter_list = None
        self._name = name
        if self._parameter_list is None and not static_mode.is_static():
            raise AttributeError(
                "parameters argument given to the Optimizer should not be None in dygraph mode."
            )
        if (
            weight_decay is not None
            and self._parameter_list
            and not isinstance(self._parameter_list[0], dict)
        ):
            if any(getattr(p, "regularizer", None) is not None for p in self._parameter_list):
                logging.info(
                    "If regularizer of a Parameter has been set by 'paddle.ParamAttr' already. "
                    f"The weight_decay[{weight_decay}] in Optimizer will not take effect, and "
                    "it will only be applied to other Parameters!"
                )
        if not isinstance(learning_rate, float | LRScheduler):
            raise TypeError(
                f"learning rate should be float or LRScheduler, got {type(learning_rate)} here"
            )
        if grad_clip is not None and not isinstance(grad_clip, _clip_base()):
            raise TypeError("'grad_clip' should be an instance of GradientClipBase's derived class")
        if isinstance(weight_decay, float | int) and not isinstance(weight_decay, bool):
            self.regularization = L2Decay(float(weight_decay))
        else:
            self.regularization = weight_decay
        self._grad_clip = grad_clip
        self._lr_var = Tensor(_lr_array(0.0), name=unique_name("learning_rate"))
        self._lr_var.persistable = True
        self._learning_rate = learning_rate
        self._dtype = None
        if self._parameter_list:
            first = self._parameter_list[0]
            if isinstance(first, dict):
                for group in self._parameter_list:
                    assert "params" in group, (
                        "params should be set in parameters if parameter groups are optimized "
                        "in different options"
                    )
                first = list(first["params"])[0]
            self._dtype = first.dtype
        self._accumulators = defaultdict(dict)
        self._accumulators_holder = {}
        self._opti_name_list = []
        self._already_create_accumulator = set()
        self._state_lists = {}  # param name -> its accumulators in _acc_specs order
        self._master_weights = {}
        self._multi_precision = False
        self._auxiliary_vars = {}
        self.helper = None
        self.clear_gradients = self.clear_grad
        if "_default_dict" not in self.__dict__:  # AdamW sets its own before groups are added
            self._default_dict = {"weight_decay": self.regularization, "grad_clip": grad_clip}
        self._param_groups = []
        if self._parameter_list and isinstance(self._parameter_list[0], dict):
            for group in self._parameter_list:
                self._add_param_group(group.copy())
        else:
            self._param_groups = self._parameter_list

    # -- learning rate ------------------------------------------------------------------------
    @property
    def _learning_rate(self):
        return self.__dict__["_learning_rate_value"]

    @_learning_rate.setter
    def _learning_rate(self, value) -> None:
        self.__dict__["_learning_rate_value"] = value
        if not isinstance(value, LRScheduler):
            self._lr_var._set_value(_lr_array(float(value)))

    def _lr_tensor(self) -> Tensor:
        lr = self._learning_rate
        return lr._lr_tensor() if isinstance(lr, LRScheduler) else self._lr_var

    def _lr_dtype(self):
        if self._dtype is not None and self._dtype.name == "float64":
            return jnp.float64
        return jnp.float32

    def _global_learning_rate(self, program=None) -> Tensor:
        """The current learning rate as a scalar Tensor of the parameters' float dtype."""
        return Tensor(trace_state.read(self._lr_tensor()).astype(self._lr_dtype()))

    def get_lr(self) -> float:
        """The current learning rate (the scheduler's value when one is used)."""
        lr = self._learning_rate
        return lr if isinstance(lr, float) else lr()

    def set_lr(self, value: float) -> None:
        """Set a float learning rate (not allowed when an LRScheduler is used)."""
        if not isinstance(value, int | float):
            raise TypeError(
                "The type of 'value' in optimizer.set_lr must be float, but received "
                f"{type(value)}."
            )
        if isinstance(self._learning_rate, LRScheduler):
            raise RuntimeError(
                "optimizer's learning rate can't be LRScheduler when invoke this API, because "
                "this will lead to conflict."
            )
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler: LRScheduler) -> None:
        """Use ``scheduler`` for the learning rate from now on."""
        if not isinstance(scheduler, LRScheduler):
            raise TypeError(
                "The type of 'scheduler' in optimizer.set_lr_scheduler must be LRScheduler, "
                f"but received {type(scheduler)}."
            )
        self._learning_rate = scheduler

    # -- parameter groups ---------------------------------------------------------------------
    def _add_param_group(self, group: dict) -> None:
        params = group["params"]
        if isinstance(params, Tensor):
            group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters should be in ordered collections,but received set, "
                "please use list instead."
            )
        else:
            group["params"] = list(params)
        for k, v in self._default_dict.items():
            group.setdefault(k, v)
        seen = set()
        for g in self._param_groups:
            seen.update(id(p) for p in g["params"])
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        for p in group["params"]:
            if self._group_decay_is_regularizer:
                wd = group["weight_decay"]
                p.regularizer = L2Decay(wd) if isinstance(wd, float) else wd
            attr = getattr(p, "optimize_attr", None)
            if attr is None:
                p.optimize_attr = attr = {"learning_rate": 1.0}
            attr["learning_rate"] = group.get("learning_rate", 1.0)
        self._param_groups.append(group)

    def _groups(self):
        """[(group dict or None, params)] in update order."""
        if self._param_groups and isinstance(self._param_groups[0], dict):
            return [(g, g["params"]) for g in self._param_groups]
        return [(None, self._param_groups or [])]

    # -- accumulators -------------------------------------------------------------------------
    def _acc_specs(self, param) -> list:
        return []

    def _add_accumulator(
        self, name, param, dtype=None, fill_value=0.0, shape=None, type=None, device=None
    ):  # noqa: A002 - Paddle's signature
        """Create (or return) the accumulator ``name`` of ``param``."""
        if self._name is not None:
            name = self._name + "_" + name
        if param.name in self._accumulators.get(name, {}):
            return self._accumulators[name][param.name]
        shape = list(param.shape) if shape is None else list(shape)
        dt = (
            jnp.dtype(param._val.dtype)
            if dtype is None
            else jnp.dtype(dtype.np if hasattr(dtype, "np") else dtype)
        )
        var_name = unique_name(param.name + "_" + name)
        self._opti_name_list.append(var_name)
        var = Tensor(full_array(shape, fill_value, dt), name=var_name)
        var.persistable = True
        if self._accumulators_holder:
            assert var_name in self._accumulators_holder, (
                f"Optimizer set error, {var_name} should in state dict"
            )
            var.set_value(_as_array(self._accumulators_holder.pop(var_name)))
        self._accumulators[name][param.name] = var
        return var

    def _get_accumulator(self, name, param) -> Tensor:
        if self._name is not None:
            name = self._name + "_" + name
        accs = self._accumulators.get(name, {})
        if param.name not in accs:
            raise Exception(f"Accumulator {name} does not exist for parameter {param.name}")
        return accs[param.name]

    def _get_accumulator_master(self, name, param) -> Tensor:
        target = self._master_weights.get(param.name) if self._uses_master(param) else None
        return self._get_accumulator(name, target if target is not None else param)

    def _uses_master(self, param) -> bool:
        return self._multi_precision and _fused.is_low_precision(param)

    def _create_master_weight(self, param) -> Tensor:
        var = self._master_weights.get(param.name)
        if var is None:
            var = Tensor(
                trace_state.read(param).astype(jnp.float32),
                name=unique_name(param.name + "_fp32_master"),
            )
            var.persistable = True
            self._master_weights[param.name] = var
        return var

    def _create_accumulators(self, block, parameters) -> None:
        for p in parameters:
            if p.name in self._already_create_accumulator:
                continue
            target = self._create_master_weight(p) if self._uses_master(p) else p
            self._state_lists[p.name] = [
                self._add_accumulator(name, target, dtype=dtype, fill_value=fill, shape=shape)
                for name, fill, shape, dtype in self._acc_specs(target)
            ]
            self._already_create_accumulator.add(p.name)

    # -- state dict ---------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Accumulators by Paddle name (e.g. ``linear_0.w_0_moment1_0``), ``master_weights``
        and ``LR_Scheduler`` (the scheduler's state) when used."""
        out = {}
        if not self._accumulators and self._accumulators_holder:
            out.update(self._accumulators_holder)
        else:
            for accs in self._accumulators.values():
                for var in accs.values():
                    out[var.name] = var
        if self._master_weights:
            out["master_weights"] = self._master_weights
        if isinstance(self._learning_rate, LRScheduler):
            out["LR_Scheduler"] = self._learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        """Load a state dict from ``state_dict()`` (or a ``.pdopt`` file via paddle.load);
        accumulators not created yet are filled when first created."""
        lr = self._learning_rate
        if isinstance(lr, LRScheduler):
            lr_state = state_dict.get("LR_Scheduler", None)
            if not isinstance(lr, LambdaDecay):
                assert lr_state is not None, (
                    "LR_Scheduler state must be included in the state dict except LambdaDecay"
                )
            if lr_state:
                lr.set_state_dict(lr_state)
        state_dict = dict(state_dict)
        state_dict.pop("LR_Scheduler", None)
        if "master_weights" in state_dict:
            masters = state_dict.pop("master_weights")
            for pname, value in masters.items():
                var = self._master_weights.get(pname)
                if var is not None:
                    var.set_value(_as_array(value))
                else:
                    if not isinstance(value, Tensor):
                        value = Tensor(
                            jnp.asarray(_as_array(value)), name=unique_name(pname + "_fp32_master")
                        )
                    self._master_weights[pname] = value
        self._accumulators_holder = state_dict
        for accs in self._accumulators.values():
            for var in accs.values():
                assert var.name in state_dict, f"optimizer Tensor {var.name} not found"
                var.set_value(_as_array(state_dict[var.name]))

    load_state_dict = set_state_dict

    def get_opti_var_name_list(self) -> list[str]:
        return self._opti_name_list

    # -- auxiliary (AMP's found_inf) ----------------------------------------------------------
    def _set_auxiliary_var(self, key, val) -> None:
        self._auxiliary_vars[key] = val

    def _get_auxiliary_var(self, key):
        return self._auxiliary_vars.get(key)

    # -- gradients ----------------------------------------------------------------------------
    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Clear the gradients of all optimized parameters (zero them, or drop them when
        ``set_to_zero=False``)."""
        for _, params in self._groups():
            for p in params:
                if not p.stop_gradient:
                    p.clear_gradient(set_to_zero)

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.clear_grad(set_to_zero=not set_to_none)

    def backward(
        self, loss, startup_program=None, parameters=None, no_grad_set=None, callbacks=None
    ) -> list:
        """The (param, grad) pairs of the parameters that have a gradient (dygraph mode does
        not run backward here; call ``loss.backward()`` first)."""
        if self._dtype is None:
            self._dtype = loss.dtype
        params = parameters if parameters else self._parameter_list
        return [(p, p.grad) for p in params if p.grad is not None]

    def apply_gradients(self, params_grads: list) -> list:
        """Update parameters from explicit (param, grad) pairs (sorted by name, like Paddle)."""
        params_grads = sorted(params_grads, key=lambda pg: pg[0].name)
        self._apply([(None, params_grads)])
        return []

    @no_grad()
    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """Apply the existing gradients of ``parameters`` (default: all); returns
        ``(optimize_ops, params_grads)`` (ops is an empty list in dynamic mode)."""
        if static_mode.is_static():  # record the update into the Program (paddle.static)
            return static_mode.minimize(self, loss, startup_program, parameters, no_grad_set)
        assert isinstance(loss, Tensor), "The loss should be an Tensor."
        # like Paddle's dynamic mode, no_grad_set is not consulted here
        params_grads = self.backward(loss, startup_program, parameters, no_grad_set)
        self._apply([(None, params_grads)])
        return [], params_grads

    @no_grad()
    def step(self) -> None:
        """Update every parameter that has a gradient, in one compiled call."""
        batches = []
        for group, params in self._groups():
            pairs = [(p, p.grad) for p in params if not p.stop_gradient and p.grad is not None]
            batches.append((group, pairs))
        with model_span(TracerEventType.Optimization, "Optimization Step"):
            self._apply(batches)

    # -- the fused update ---------------------------------------------------------------------
    _param_dependent_hyper = False  # True: _hyper reads the parameter (else once per group)

    def _hyper(self, param, group) -> tuple:
        """Hashable hyperparameters of ``_rule`` (``param`` is None when they do not depend
        on the parameter)."""
        return ()

    @staticmethod
    def _rule(p, g, states, lr, hp):
        raise NotImplementedError(
            'Class "Optimizer" cannot be used directly as an optimizer, please use its '
            'subclasses such as "Adam"'
        )

    def _grad_regularizer(self, param, group):
        """The regularizer whose term is added to ``param``'s gradient, or None."""
        reg = getattr(param, "regularizer", None)
        return reg if reg is not None else self.regularization

    def _apply(self, batches) -> None:
        entries = []  # (group, clip, [(param, grad Tensor)])
        for group, pairs in batches:
            pairs = [(p, g) for p, g in pairs if g is not None and not p.stop_gradient]
            if not pairs:
                continue
            clip = self._grad_clip if group is None else group.get("grad_clip", self._grad_clip)
            if clip is not None and clip._fused_key() is None:
                pairs = clip(pairs)  # a user-defined strategy: run it eagerly
                clip = None
            entries.append((group, clip, pairs))
        if not entries:
            return
        if type(self)._rule is Optimizer._rule:
            Optimizer._rule(None, None, None, None, None)
        created = self._already_create_accumulator
        missing = [p for _, _, pairs in entries for p, _ in pairs if p.name not in created]
        if missing:
            self._create_accumulators(None, missing)
        found_inf = self._get_auxiliary_var("found_inf")
        if found_inf is not None and not isinstance(found_inf, Tensor):
            if found_inf:
                return
            found_inf = None
        read = trace_state.read
        Slot, RegRef = _fused.Slot, _fused._RegRef  # noqa: N806
        per_param_hp = self._param_dependent_hyper
        clips, slots, params, grads, grad_tensors, states, masters = [], [], [], [], [], [], []
        for group, clip, pairs in entries:
            ci = -1
            inplace = False
            if clip is not None:
                clips.append(_fused._ClipRef(clip))
                ci = len(clips) - 1
                inplace = clip._inplace()
            gdict = group or {}
            group_hp = None if per_param_hp else self._hyper(None, gdict)
            for p, g in pairs:
                g_arr = read(g)
                reg = self._grad_regularizer(p, group)
                if reg is not None:
                    if type(reg)._term is WeightDecayRegularizer._term:
                        g_arr = g_arr + read(reg(p, g))  # user-defined: eager term
                        reg = None
                    else:
                        reg = RegRef(reg)
                need_clip = getattr(p, "need_clip", True) is not False
                master = self._uses_master(p)
                slots.append(
                    Slot(
                        _lr_scale(p),
                        reg,
                        ci,
                        need_clip,
                        self._hyper(p, gdict) if per_param_hp else group_hp,
                        master,
                        inplace and need_clip and g._value.ndim != 0,
                    )
                )
                params.append(p)
                grads.append(g_arr)
                grad_tensors.append(g)
                st = self._state_lists[p.name]
                states.append(st)
                masters.append(self._master_weights[p.name] if master else None)
        key = _fused.Key(
            type(self)._rule,
            tuple(slots),
            tuple(clips),
            jnp.dtype(self._lr_dtype()),
            found_inf is not None,
        )
        _fused.stats["compiled_calls"] += 1
        new_p, new_s, new_m, clipped = _fused.run(
            key,
            [read(p) for p in params],
            grads,
            [[read(t) for t in st] for st in states],
            [read(m) if m is not None else None for m in masters],
            read(self._lr_tensor()),
            read(found_inf) if found_inf is not None else None,
        )
        for p, a in zip(params, new_p):
            p._set_value(a)
        for st, arrs in zip(states, new_s):
            for t, a in zip(st, arrs):
                t._set_value(a)
        for m, a in zip(masters, new_m):
            if m is not None:
                m._set_value(a)
        if clipped:
            written = [g for g, s in zip(grad_tensors, slots) if s.write_grad]
            for g, a in zip(written, clipped):
                g._set_value(a)


def _lr_scale(p) -> float:
    attr = getattr(p, "optimize_attr", None)
    if not attr:
        return 1.0
    v = attr.get("learning_rate", 1.0)
    if isinstance(v, Tensor):
        return float(v)
    return v


def _as_array(v):
    if isinstance(v, Tensor):
        return v._value
    if isinstance(v, jax.Array):
        return v
    return np.asarray(v)
