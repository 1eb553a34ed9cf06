"""PyLayer: a user-defined op with a Python forward and backward."""

from __future__ import annotations

from .._core import autograd as _ag
from .._core.dtype import is_inexact_np
from .._core.tensor import Tensor


class PyLayerContext:
    """The ``ctx`` passed to ``forward`` and ``backward``."""

    def __init__(self):
        self._saved: tuple = ()
        self._non_differentiable: set[int] = set()
        self.materialize_grads = True

    def save_for_backward(self, *tensors) -> None:
        self._saved = tensors

    def saved_tensor(self):
        return self._saved

    def mark_not_inplace(self, *tensors) -> None:
        pass

    def mark_non_differentiable(self, *tensors) -> None:
        self._non_differentiable.update(id(t) for t in tensors)

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)


class PyLayer:
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; call
    ``apply``. ``backward`` returns one gradient per Tensor input of ``forward``."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("PyLayer subclasses must define forward(ctx, ...)")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("PyLayer subclasses must define backward(ctx, ...)")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = PyLayerContext()
        with _ag.no_grad():
            outs = cls.forward(ctx, *args, **kwargs)
        single = not isinstance(outs, list | tuple)
        out_list = [outs] if single else list(outs)
        inputs = [a for a in list(args) + list(kwargs.values()) if isinstance(a, Tensor)]
        mask = tuple(not t.stop_gradient and is_inexact_np(t._value.dtype) for t in inputs)
        if not (_ag.is_grad_enabled() and any(mask)):
            return outs
        # fresh output Tensors so an input returned as-is keeps its own history
        wrapped = [Tensor(o._value) if isinstance(o, Tensor) else o for o in out_list]
        diff_outs = [
            w
            for w, o in zip(wrapped, out_list)
            if isinstance(o, Tensor) and id(o) not in ctx._non_differentiable
        ]

        def custom(cts, create_graph):
            ct_tensors = [c if isinstance(c, Tensor) else Tensor(c) for c in cts]
            with _ag.set_grad_enabled(create_graph):
                grads = cls.backward(ctx, *ct_tensors)
            if isinstance(grads, Tensor) or grads is None:
                grads = (grads,)
            grads = list(grads)
            if len(grads) != len(inputs):
                raise ValueError(
                    f"(InvalidArgument) {cls.__name__}.backward returned {len(grads)} "
                    f"gradient(s), but forward received {len(inputs)} Tensor input(s)."
                )
            picked = [g for g, m in zip(grads, mask) if m]
            if create_graph:
                return picked
            return [None if g is None else g._value for g in picked]

        _ag.record(
            ("pylayer", cls),
            None,
            inputs,
            [t._value for t in inputs],
            mask,
            diff_outs,
            custom=custom,
        )
        return wrapped[0] if single else type(outs)(wrapped)
