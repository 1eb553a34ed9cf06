"""``paddle.nn.Layer``: the base class of every model block.

Attribute assignment registers Parameters, sublayers and Tensors (buffers) in ordered dicts,
as Paddle does; ``state_dict`` keys, parameter names (``linear_0.w_0``), ``repr`` text and hook
semantics follow Paddle 3.3.1.
"""

from __future__ import annotations

import collections
import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any

import jax.numpy as jnp

from .._core import deferred, trace_state
from .._core import dtype as _dt
from .._core.tensor import Parameter, Tensor, _unique_name
from ..framework._param_attr import _make_parameter
from ..profiler import _events as _profiler_events
from ..profiler._enums import TracerEventType
from ._layer_state import LayerStateMixin

_Forward = TracerEventType.Forward

__all__ = ["Layer"]

_hook_ids = itertools.count()


def _camel_to_snake(name: str) -> str:
    s = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s).lower()


def _addindent(s: str, n: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    pad = " " * n
    return lines[0] + "\n" + "\n".join(pad + ln for ln in lines[1:])


class HookRemoveHelper:
    """Handle returned by ``register_forward_*_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, hooks: dict, *extra_dicts: dict) -> None:
        self._hooks = hooks
        self._extra = extra_dicts
        self._hook_id = next(_hook_ids)

    def remove(self) -> None:
        self._hooks.pop(self._hook_id, None)
        for d in self._extra:
            d.pop(self._hook_id, None)


def _check_member_name(kind: str, name) -> None:
    """Paddle's checks on the name of a parameter or buffer being registered."""
    if not isinstance(name, str):
        raise TypeError(
            f"The name of {kind} should be a string, but received {type(name).__name__}."
        )
    if "." in name:
        raise KeyError(
            f"The name of {kind} can not contain `.`, because when you access the "
            f"newly added {kind} in the form of `self.**.**`, it will cause "
            "AttributeError."
        )
    if name == "":
        raise KeyError(f"The name of {kind} can not be empty.")


def _remove_from(name: str, *dicts) -> None:
    for d in dicts:
        if d is not None and name in d:
            if isinstance(d, dict):
                del d[name]
            else:  # a set
                d.discard(name)


# set by paddle.jit while it converts control flow (jit/dy2static/convert.py)
_CONVERT_HOOK: list = [None]


class Layer(LayerStateMixin):
    """Base class for neural-network layers: holds parameters, buffers and sublayers, runs
    ``forward`` through ``__call__`` with forward pre/post hooks (state methods such as
    ``state_dict`` and ``to`` come from ``LayerStateMixin``)."""

    def __init__(self, name_scope: str | None = None, dtype: Any = "float32") -> None:
        d = self.__dict__
        d["_training"] = True
        if name_scope is None:
            name_scope = _camel_to_snake(self.__class__.__name__)
        d["_full_name"] = _unique_name(name_scope)
        d["_dtype"] = dtype
        d["_built"] = False
        d["_parameters"] = collections.OrderedDict()
        d["_buffers"] = collections.OrderedDict()
        d["_non_persistable_buffer_names_set"] = set()
        d["_sub_layers"] = collections.OrderedDict()
        d["_loaddict_holder"] = collections.OrderedDict()
        d["_forward_pre_hooks"] = collections.OrderedDict()
        d["_forward_post_hooks"] = collections.OrderedDict()
        d["_forward_pre_hooks_with_kwargs_flag"] = {}
        d["_forward_post_hooks_with_kwargs_flag"] = {}
        d["_forward_post_hooks_always_called"] = {}
        d["_state_dict_hooks"] = collections.OrderedDict()
        d["_casted_by_pure_fp16"] = False
        d["_cast_to_low_precision"] = True  # paddle.amp.decorate(excluded_layers=...) clears it

    # -- training flag ----------------------------------------------------------------------
    @property
    def training(self) -> bool:
        v = self.__dict__.get("_training", True)
        trace_state.note_guard(self, "training", v)
        return v

    @training.setter
    def training(self, value: bool) -> None:
        self.__dict__["_training"] = value

    def train(self, mode: bool = True) -> Layer:
        """Put this layer and every sublayer in training mode (``mode=False``: eval)."""
        for layer in self.sublayers(include_self=True):
            layer.training = bool(mode)
        return self

    def eval(self) -> Layer:
        """Put this layer and every sublayer in evaluation mode."""
        return self.train(False)

    # -- naming -----------------------------------------------------------------------------
    def full_name(self) -> str:
        """The unique name of this layer (snake-case class name + counter, e.g. ``linear_0``)."""
        return self._full_name

    def _get_name(self) -> str:
        return self.__class__.__name__

    # -- forward ----------------------------------------------------------------------------
    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        """The computation; subclasses override it."""
        raise NotImplementedError

    def backward(self, *inputs: Any) -> Any:
        raise ValueError("Layer shouldn't implement backward")

    def _build_once(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        if deferred._enabled and not deferred.in_layer():  # the outermost call: one program
            return deferred.outermost_call(self.__call_forward, inputs, kwargs)
        return self.__call_forward(*inputs, **kwargs)

    def __call_forward(self, *inputs: Any, **kwargs: Any) -> Any:  # private to Layer (mangled)
        if _CONVERT_HOOK[0] is not None:  # inside to_static: the converted forward (dy2static)
            return _CONVERT_HOOK[0](self, self._dygraph_call_func, inputs, kwargs)
        d = self.__dict__
        if _profiler_events.STATE.profiler_used:  # a Forward range named after the class
            with _profiler_events.model_span(_Forward, type(self).__name__):
                return self._dygraph_call_func(*inputs, **kwargs)
        if not d["_forward_pre_hooks"] and not d["_forward_post_hooks"] and d["_built"]:
            return self.forward(*inputs, **kwargs)
        return self._dygraph_call_func(*inputs, **kwargs)

    def _dygraph_call_func(self, *inputs: Any, **kwargs: Any) -> Any:
        for hid, hook in list(self._forward_pre_hooks.items()):
            if self._forward_pre_hooks_with_kwargs_flag.get(hid):
                res = hook(self, inputs, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of (new_args, "
                            f"new_kwargs), but got {res}."
                        )
                    inputs, kwargs = res
                    if not isinstance(inputs, tuple):
                        inputs = (inputs,)
            else:
                res = hook(self, inputs)
                if res is not None:
                    inputs = res if isinstance(res, tuple) else (res,)
        if not self._built:
            self._build_once(*inputs, **kwargs)
            self.__dict__["_built"] = True
        always = self._forward_post_hooks_always_called
        try:
            outputs = self.forward(*inputs, **kwargs)
        except Exception:
            for hid, hook in list(self._forward_post_hooks.items()):
                if always.get(hid):
                    self._run_post_hook(hid, hook, inputs, kwargs, None)
            raise
        for hid, hook in list(self._forward_post_hooks.items()):
            res = self._run_post_hook(hid, hook, inputs, kwargs, outputs)
            if res is not None:
                outputs = res
        return outputs

    def _run_post_hook(self, hid, hook, inputs, kwargs, outputs):
        if self._forward_post_hooks_with_kwargs_flag.get(hid):
            return hook(self, inputs, kwargs, outputs)
        return hook(self, inputs, outputs)

    # -- hooks ------------------------------------------------------------------------------
    def register_forward_pre_hook(
        self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False
    ) -> HookRemoveHelper:
        """Call ``hook(layer, inputs)`` before ``forward``; a non-None result replaces the
        inputs. With ``with_kwargs`` the hook gets and may return ``(args, kwargs)``."""
        h = HookRemoveHelper(self._forward_pre_hooks, self._forward_pre_hooks_with_kwargs_flag)
        self._forward_pre_hooks[h._hook_id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs_flag[h._hook_id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(h._hook_id, last=False)
        return h

    def register_forward_post_hook(
        self,
        hook: Callable,
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> HookRemoveHelper:
        """Call ``hook(layer, inputs, outputs)`` after ``forward``; a non-None result replaces
        the outputs."""
        h = HookRemoveHelper(
            self._forward_post_hooks,
            self._forward_post_hooks_with_kwargs_flag,
            self._forward_post_hooks_always_called,
        )
        self._forward_post_hooks[h._hook_id] = hook
        if with_kwargs:
            self._forward_post_hooks_with_kwargs_flag[h._hook_id] = True
        if always_call:
            self._forward_post_hooks_always_called[h._hook_id] = True
        if prepend:
            self._forward_post_hooks.move_to_end(h._hook_id, last=False)
        return h

    register_forward_hook = register_forward_post_hook

    def register_state_dict_hook(self, hook: Callable) -> HookRemoveHelper:
        """Call ``hook(state_dict)`` on the result of ``state_dict()``."""
        h = HookRemoveHelper(self._state_dict_hooks)
        self._state_dict_hooks[h._hook_id] = hook
        return h

    # -- creation ---------------------------------------------------------------------------
    def create_parameter(
        self,
        shape,
        attr=None,
        dtype=None,
        is_bias: bool = False,
        default_initializer=None,
        device=None,
    ) -> Parameter | None:
        """Create a Parameter named ``<full_name>.w_N`` (``.b_N`` for biases); weights default
        to XavierUniform, biases to zeros; ``attr=False`` returns None."""
        return _make_parameter(shape, dtype, attr, is_bias, default_initializer, self._full_name)

    def create_variable(
        self, name: str | None = None, persistable: bool | None = None, dtype=None
    ) -> Tensor:
        """Create an empty Tensor attribute (Paddle's variable placeholder)."""
        dt = _dt.to_dtype(dtype) if dtype is not None else _dt.to_dtype(self._dtype)
        t = Tensor(jnp.zeros((0,), dt.np), name=name or _unique_name(f"{self._full_name}.tmp"))
        t.persistable = bool(persistable)
        return t

    create_tensor = create_variable

    # -- registration -----------------------------------------------------------------------
    def add_sublayer(self, name: str, sublayer: Layer | None) -> Layer | None:
        """Register ``sublayer`` under ``name`` (accessible as ``self.<name>``)."""
        assert isinstance(sublayer, Layer) or sublayer is None
        self._sub_layers[name] = sublayer
        return sublayer

    def add_module(self, name: str, module: Layer | None) -> None:
        self.add_sublayer(name, module)

    register_module = add_module

    def add_parameter(self, name: str, parameter: Parameter | None) -> Parameter | None:
        """Register ``parameter`` under ``name``."""
        if "_parameters" not in self.__dict__:
            raise RuntimeError("super().__init__() should be called firstly.")
        _check_member_name("parameter", name)
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"The parameter '{name}' already exists.")
        if parameter is not None and not isinstance(parameter, Parameter):
            raise TypeError(
                f"The parameter to be added should be a Parameter, but received "
                f"{_type_name(parameter)}."
            )
        if len(self._loaddict_holder) > 0 and parameter is not None:
            if parameter.name in self._loaddict_holder:
                parameter.set_value(self._loaddict_holder[parameter.name])
        self._parameters[name] = parameter
        return parameter

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        self.add_parameter(name, param)

    def register_buffer(self, name: str, tensor: Tensor | None, persistable: bool = True) -> None:
        """Register a non-parameter Tensor; persistable buffers appear in ``state_dict``."""
        if "_buffers" not in self.__dict__:
            raise ValueError("super().__init__() should be called first")
        _check_member_name("buffer", name)
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"The registered buffer should be a Paddle.Tensor, but received "
                f"{_type_name(tensor)}."
            )
        self._buffers[name] = tensor
        if persistable:
            self._non_persistable_buffer_names_set.discard(name)
        else:
            self._non_persistable_buffer_names_set.add(name)

    # -- attribute protocol -----------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_sub_layers", "_buffers"):
            s = d.get(store)
            if s is not None and name in s:
                return s[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        if isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
            return
        params = d.get("_parameters")
        layers = d.get("_sub_layers")
        buffers = d.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise ValueError("super().__init__() should be called first")
            _remove_from(name, d, layers, buffers, d.get("_non_persistable_buffer_names_set"))
            if len(d["_loaddict_holder"]) > 0 and value.name in d["_loaddict_holder"]:
                value.set_value(d["_loaddict_holder"][value.name])
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"assignment to parameter '{name}' should be of type Parameter "
                    f"or None, but got '{_type_name(value)}'"
                )
            params[name] = None
        elif isinstance(value, Layer):
            if layers is None:
                raise ValueError("super().__init__() should be called first")
            _remove_from(name, d, params, buffers, d.get("_non_persistable_buffer_names_set"))
            layers[name] = value
        elif layers is not None and name in layers:
            if value is not None:
                raise TypeError(
                    f"assignment to sublayer '{name}' should be of type Layer or "
                    f"None, but got '{_type_name(value)}'"
                )
            layers[name] = None
        elif isinstance(value, Tensor):
            if buffers is None:
                raise ValueError("super().__init__() should be called first")
            if name not in buffers:
                _remove_from(name, d, params, layers)
                d["_non_persistable_buffer_names_set"].add(name)
            buffers[name] = value
        elif buffers is not None and name in buffers:
            if value is not None:
                raise TypeError(
                    f"assignment to buffers '{name}' should be of type "
                    f"core.DenseTensor or None, but got '{_type_name(value)}'"
                )
            buffers[name] = None
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        if name in d.get("_parameters", ()):
            del d["_parameters"][name]
        elif name in d.get("_sub_layers", ()):
            del d["_sub_layers"][name]
        elif name in d.get("_buffers", ()):
            del d["_buffers"][name]
            d["_non_persistable_buffer_names_set"].discard(name)
        else:
            object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        attrs = set(dir(self.__class__)) | set(self.__dict__)
        attrs |= set(self._parameters) | set(self._sub_layers) | set(self._buffers)
        return sorted(attrs)

    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    # -- traversal --------------------------------------------------------------------------
    def parameters(self, include_sublayers: bool = True) -> list[Parameter]:
        """All parameters (each once), own first then sublayers' in registration order."""
        return [p for _, p in self.named_parameters(include_sublayers=include_sublayers)]

    def named_parameters(
        self, prefix: str = "", include_sublayers: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(qualified_name, parameter)`` pairs."""
        return self._named_members("_parameters", prefix, include_sublayers, remove_duplicate)

    def buffers(self, include_sublayers: bool = True) -> list[Tensor]:
        """All buffers (persistable or not)."""
        return [b for _, b in self.named_buffers(include_sublayers=include_sublayers)]

    def named_buffers(
        self, prefix: str = "", include_sublayers: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """Yield ``(qualified_name, buffer)`` pairs."""
        return self._named_members("_buffers", prefix, include_sublayers, remove_duplicate)

    def _named_members(
        self, attr: str, prefix: str, include_sublayers: bool, remove_duplicate: bool
    ) -> Iterator[tuple[str, Tensor]]:
        """``(qualified_name, tensor)`` for the entries of each layer's ``attr`` dict
        (``_parameters`` or ``_buffers``), skipping None and (optionally) repeats."""
        seen = set()
        layers = (
            self.named_sublayers(
                prefix=prefix, include_self=True, remove_duplicate=remove_duplicate
            )
            if include_sublayers
            else [(prefix, self)]
        )
        for lprefix, layer in layers:
            for name, t in getattr(layer, attr).items():
                if t is None or (remove_duplicate and id(t) in seen):
                    continue
                seen.add(id(t))
                yield (lprefix + ("." if lprefix else "") + name), t

    def children(self) -> Iterator[Layer]:
        """Direct sublayers."""
        for _, layer in self.named_children():
            yield layer

    def named_children(self) -> Iterator[tuple[str, Layer]]:
        """Yield ``(name, sublayer)`` for direct sublayers (each once)."""
        seen = set()
        for name, layer in self._sub_layers.items():
            if layer is not None and id(layer) not in seen:
                seen.add(id(layer))
                yield name, layer

    def sublayers(self, include_self: bool = False) -> list[Layer]:
        """All sublayers, depth first (pre-order)."""
        return [la for _, la in self.named_sublayers(include_self=include_self)]

    def named_sublayers(
        self,
        prefix: str = "",
        include_self: bool = False,
        layers_set: set | None = None,
        remove_duplicate: bool = True,
    ) -> Iterator[tuple[str, Layer]]:
        """Yield ``(qualified_name, layer)`` for every sublayer, depth first."""
        if layers_set is None:
            layers_set = set()
        if include_self and (not remove_duplicate or id(self) not in layers_set):
            if remove_duplicate:
                layers_set.add(id(self))
            yield prefix, self
        for key, layer in self._sub_layers.items():
            if layer is None:
                continue
            p = prefix + ("." if prefix else "") + key
            yield from layer.named_sublayers(
                prefix=p,
                include_self=True,
                layers_set=layers_set,
                remove_duplicate=remove_duplicate,
            )

    def modules(self) -> Iterator[Layer]:
        for _, m in self.named_modules():
            yield m

    def named_modules(
        self, memo: set | None = None, prefix: str = "", remove_duplicate: bool = True
    ):
        return self.named_sublayers(
            prefix=prefix, include_self=True, layers_set=memo, remove_duplicate=remove_duplicate
        )

    def get_sublayer(self, target: str) -> Layer:
        """The sublayer at dotted path ``target`` ('' is self)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Layer):
                raise AttributeError(f"`{item}` is not an nn.Layer")
        return mod

    get_submodule = get_sublayer

    def set_sublayer(self, target: str, layer: Layer, strict: bool = False) -> None:
        """Replace the sublayer at dotted path ``target``."""
        *path, last = target.split(".")
        parent = self.get_sublayer(".".join(path))
        if strict and not hasattr(parent, last):
            raise AttributeError(f"{parent._get_name()} has no attribute `{last}`")
        setattr(parent, last, layer)

    set_submodule = set_sublayer

    def get_parameter(self, target: str) -> Parameter:
        *path, last = target.split(".")
        mod = self.get_sublayer(".".join(path))
        if last not in mod._parameters:
            raise AttributeError(f"{mod._get_name()} has no parameter `{last}`")
        return mod._parameters[last]

    def get_buffer(self, target: str) -> Tensor:
        *path, last = target.split(".")
        mod = self.get_sublayer(".".join(path))
        if last not in mod._buffers:
            raise AttributeError(f"{mod._get_name()} has no buffer `{last}`")
        return mod._buffers[last]

    def apply(self, fn: Callable[[Layer], None]) -> Layer:
        """Call ``fn`` on every sublayer (children first) and then on self."""
        for layer in self.children():
            layer.apply(fn)
        fn(self)
        return self

    # -- repr -------------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """Extra text shown inside this layer's ``repr`` (subclasses override)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for name, layer in self._sub_layers.items():
            child_lines.append(f"({name}): " + _addindent(repr(layer), 2))  # None too, as Paddle
        s = self._get_name() + "("
        if len(extra_lines) == 1:
            s += extra_lines[0]
        elif extra_lines:
            s += "\n  " + "\n  ".join(extra_lines) + "\n"
        if child_lines:
            s += "\n  " + "\n  ".join(child_lines) + "\n"
        return s + ")"

    # -- gradients --------------------------------------------------------------------------
    def clear_gradients(self, set_to_zero: bool = True) -> None:
        """Clear the gradients of all trainable parameters (zero them, or drop them)."""
        for p in self.parameters():
            if p.trainable:
                p.clear_gradient(set_to_zero)

    def zero_grad(self, set_to_none: bool = True) -> None:
        self.clear_gradients(set_to_zero=not set_to_none)

    def requires_grad_(self, requires_grad: bool = True) -> Layer:
        for p in self.parameters():
            p.stop_gradient = not requires_grad
        return self


def _type_name(v) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    return type(v).__name__
