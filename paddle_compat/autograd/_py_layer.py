"""PyLayer: a user-defined op with a Python forward and backward (Paddle's eager PyLayer).

What Paddle 3.3.1 does, as measured:
- ``forward`` runs without grad; with grad enabled every Tensor output gets
  ``stop_gradient=False`` (ints too, even when no input needs grad), except the outputs passed
  to ``ctx.mark_non_differentiable``.
- ``backward`` gets one gradient per Tensor output: a received one has ``stop_gradient=False``;
  an output that received none gets zeros (``stop_gradient=True``), or None after
  ``ctx.set_materialize_grads(False)``. A gradient is cast to its output's dtype unless
  ``ctx.set_grad_in_dtype_consistent(False)``.
- ``backward`` returns one Tensor or None per Tensor input of ``forward``; a gradient for an
  input whose ``stop_gradient`` is True is an error.
- An input returned as-is is in place: that Tensor takes the PyLayer's history (a leaf that
  needs grad cannot). Marked with ``ctx.mark_not_inplace`` it is returned as a new Tensor
  holding the same values, which Paddle leaves unconnected to the graph.
- ``save_for_backward`` goes through the active ``saved_tensors_hooks`` (pack at save time,
  unpack on each ``saved_tensor()``).
"""

from __future__ import annotations

import weakref

from .._core import autograd as _ag
from .._core.dtype import is_inexact_np
from .._core.tensor import Tensor


class PyLayerContext:
    """The ``ctx`` passed to ``forward`` and ``backward``; user attributes set on it in
    ``forward`` are there in ``backward``."""

    def save_for_backward(self, *tensors) -> None:
        """Keep ``tensors`` for ``backward`` (a later call replaces them)."""
        self.container = tuple(_ag.pack_saved(t) if isinstance(t, Tensor) else t for t in tensors)

    def saved_tensor(self):
        """The tuple given to ``save_for_backward`` (None when nothing was saved)."""
        saved = self.__dict__.get("container", _UNSET)
        if saved is _UNSET:
            if type(self) is PyLayerContext:  # a context no PyLayer made
                raise AttributeError("'PyLayerContext' object has no attribute 'container'")
            return None
        return tuple(p.tensor() if isinstance(p, _ag.Packed) else p for p in saved)

    def mark_not_inplace(self, *args) -> None:
        """Inputs that ``forward`` returns as-is come back as new Tensors."""
        self.not_inplace_tensors = args

    def mark_non_differentiable(self, *args) -> None:
        """Outputs that get ``stop_gradient=True`` (their gradient is zeros or None)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """False: ``backward`` gets None instead of zeros for outputs that received none."""
        self.materialize_grads = value

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
        """False: ``backward``'s gradients are not cast to the outputs' dtypes."""
        self.grad_in_dtype_consistent = flag


_UNSET = object()


class _Ctx(PyLayerContext):
    def __init__(self):
        self.non_differentiable = ()
        self.not_inplace_tensors = ()
        self.materialize_grads = True
        self.grad_in_dtype_consistent = True


_CTX_CLASSES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # PyLayer -> ctx class


def _ctx_class(cls) -> type:
    """The context class of ``cls``: named ``<cls>_backward``, as Paddle's."""
    hit = _CTX_CLASSES.get(cls)
    if hit is None:
        hit = _CTX_CLASSES[cls] = type(f"{cls.__name__}_backward", (_Ctx,), {})
    return hit


def _leaf_inplace_error(name):
    return ValueError(
        f"(InvalidArgument) {name} : Leaf Var () that doesn't stop gradient can't use inplace "
        "strategy."
    )


class PyLayer:
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; call
    ``apply``. ``backward`` returns one gradient per Tensor input of ``forward``."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = _ctx_class(cls)()
        with _ag.no_grad():
            outs = cls.forward(ctx, *args, **kwargs)
        inputs = [a for a in list(args) + list(kwargs.values()) if isinstance(a, Tensor)]
        if not _ag.is_grad_enabled() or all(t.stop_gradient for t in inputs):
            return outs  # untouched when nothing needs grad
        single = not isinstance(outs, list | tuple)
        out_list = [outs] if single else list(outs)
        mask = tuple(not t.stop_gradient and is_inexact_np(t._value.dtype) for t in inputs)
        in_ids = {id(t) for t in inputs}
        not_inplace = {id(t) for t in ctx.not_inplace_tensors if isinstance(t, Tensor)}
        non_diff = {id(t) for t in ctx.non_differentiable if isinstance(t, Tensor)}
        connected = []  # Tensor outputs the node gives gradients to, in order
        for k, o in enumerate(out_list):
            if not isinstance(o, Tensor):
                continue
            if id(o) in in_ids and id(o) in not_inplace:
                o = out_list[k] = Tensor(o._value, stop_gradient=False)  # unconnected (Paddle)
                continue
            if id(o) in in_ids:  # in place: this Tensor takes the PyLayer's history
                if o._node is None and not o.stop_gradient:
                    if not cls.__module__.startswith("paddle_compat."):
                        raise _leaf_inplace_error(cls.__name__)
                    # a PyLayer of ours standing in for a Paddle C++ op (amp.debugging's
                    # checker toggles): a new Tensor carries the history instead
                    o = out_list[k] = Tensor(o._value)
            elif o._node is not None:  # a Tensor with history made elsewhere: a fresh one
                o = out_list[k] = Tensor(o._value)
            connected.append(o)
        tensor_outs = [o for o in out_list if isinstance(o, Tensor)]
        slots = [
            t for t in connected if is_inexact_np(t._value.dtype) and id(t) not in non_diff
        ]  # the node's outputs: what record() gives a history
        if any(mask):
            node_inputs = list(inputs)
            _ag.record(
                ("pylayer", cls),
                None,
                node_inputs,
                [t._value for t in inputs],
                mask,
                slots,
                custom=_backward_fn(cls, ctx, tensor_outs, slots, inputs, mask),
            )
        for t in tensor_outs:
            t.stop_gradient = id(t) in non_diff
        if single:
            return out_list[0]
        return type(outs)(out_list)


def _backward_fn(cls, ctx, tensor_outs, slots, inputs, mask):
    """The node's Python backward: cotangents of ``slots`` -> gradients of the inputs."""
    slot_of = {id(t): i for i, t in enumerate(slots)}
    specs = [(tuple(t._value.shape), t._value.dtype, slot_of.get(id(t))) for t in tensor_outs]
    name = f"GradNodePyLayer_{cls.__name__}"

    def custom(cts, create_graph):
        grads_in = []
        for shape, dt, slot in specs:
            c = None if slot is None else cts[slot]
            if c is None:
                grads_in.append(_zeros(shape, dt) if ctx.materialize_grads else None)
                continue
            # an op's gradient has stop_gradient=False; a PyLayer's keeps its own flag
            c = c if isinstance(c, Tensor) else Tensor(c, stop_gradient=False)
            if ctx.grad_in_dtype_consistent and c._value.dtype != dt:
                c = Tensor(c._value.astype(dt))  # a cast copy: stop_gradient=True (Paddle)
            grads_in.append(c)
        with _ag.set_grad_enabled(create_graph):
            try:
                grads = cls.backward(ctx, *grads_in)
            except Exception as e:  # Paddle reports what backward raised as an OSError
                raise OSError(
                    f"(External) Error message in backward of {name}: {type(e).__name__}: {e}"
                ) from e
        if not isinstance(grads, tuple):
            grads = (grads,)
        if len(grads) > len(inputs):
            raise ValueError(
                f"(InvalidArgument) {name} : The number of outputs of `PyLayer.backward` "
                f"should be {len(inputs)}, but received {len(grads)}."
            )
        picked = []
        for i, (t, m) in enumerate(zip(inputs, mask)):
            if i >= len(grads):  # missing: allowed only for inputs that need no gradient
                if not t.stop_gradient:
                    raise ValueError(
                        f"(InvalidArgument) {name}'s backward function should not return "
                        f"empty at {i} position."
                    )
                continue
            g = grads[i]
            if g is not None and t.stop_gradient:
                raise ValueError(
                    f"(InvalidArgument) {name}'s backward function should return None at "
                    f"{i} position, because it's forward Tensor's stopgradient is true."
                )
            if g is not None and not isinstance(g, Tensor):
                raise ValueError(
                    f"(InvalidArgument) {name} : We can only support Tensor or None for "
                    f"backward output, but got {type(g).__name__}, please check your PyLayer "
                    "code and make it fits"
                )
            if m:
                picked.append(g)
        return picked  # Tensors: the core keeps a first gradient's stop_gradient

    return custom


def _zeros(shape, dt) -> Tensor:
    from .._core.tensor import constant_array

    return Tensor(constant_array(shape, 0, dt))
