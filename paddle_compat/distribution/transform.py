"""``paddle.distribution`` transforms: differentiable maps of random variables with their inverses,
log-det-Jacobians and shape rules (``Transform`` and its twelve subclasses), written with public
Paddle ops so gradients and ``to_static`` work through them."""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from typing import Any

import paddle_compat as paddle
import paddle_compat.nn.functional as F

from .._core.tensor import Tensor
from . import constraint, variable
from .distribution import Distribution

__all__ = [
    "Transform",
    "AbsTransform",
    "AffineTransform",
    "ChainTransform",
    "ExpTransform",
    "IndependentTransform",
    "PowerTransform",
    "ReshapeTransform",
    "SigmoidTransform",
    "SoftmaxTransform",
    "StackTransform",
    "StickBreakingTransform",
    "TanhTransform",
]


class Type(enum.Enum):
    """How a transform maps its domain onto its codomain."""

    BIJECTION = "bijection"
    INJECTION = "injection"
    SURJECTION = "surjection"
    OTHER = "other"

    @classmethod
    def is_injective(cls, _type: Type) -> bool:
        """Bijections and injections are one-to-one."""
        return _type in (cls.BIJECTION, cls.INJECTION)


def _require_tensor(value: Any, name: str) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"Expected '{name}' is a Tensor, but got {type(value)}.")


def _require_shape(shape: Any) -> None:
    if not isinstance(shape, Sequence):
        raise TypeError(f"Expected shape is Sequence[int] type, but got {type(shape)}.")


def _sum_rightmost(value: Tensor, n: int) -> Tensor:
    """``value`` summed over its ``n`` rightmost axes."""
    return value.sum(list(range(-n, 0))) if n > 0 else value


def _countdown(n: int) -> Tensor:
    """``[n, n-1, ..., 1]`` in the default float dtype (as Paddle builds its stick offsets)."""
    return n + 1 - paddle.ones([n]).cumsum(-1)


class Transform:
    """Base class of the transforms of random variables: ``forward`` maps x to y = f(x),
    ``inverse`` maps back, and the log-det-Jacobians give the density change. Subclasses write
    ``_forward``, ``_inverse``, ``_forward_log_det_jacobian`` (or
    ``_inverse_log_det_jacobian``) and, when the shape changes, ``_forward_shape`` and
    ``_inverse_shape``."""

    _type = Type.INJECTION

    def __init__(self) -> None:
        super().__init__()

    @classmethod
    def _is_injective(cls) -> bool:
        return Type.is_injective(cls._type)

    def __call__(self, input):
        """A Distribution gives ``TransformedDistribution(input, [self])``, a Transform gives
        ``ChainTransform([self, input])``, anything else ``self.forward(input)``."""
        if isinstance(input, Distribution):
            from .transformed_distribution import TransformedDistribution

            return TransformedDistribution(input, [self])
        if isinstance(input, Transform):
            return ChainTransform([self, input])
        return self.forward(input)

    def _check_rank(self, value: Tensor, name: str, var: variable.Variable) -> None:
        if value.dim() < var.event_rank:
            raise ValueError(
                f"The dimensions of {name}({value.dim()}) should be greater than or equal to "
                f"{var.event_rank}"
            )

    def forward(self, x: Tensor) -> Tensor:
        """``y = f(x)``."""
        _require_tensor(x, "x")
        self._check_rank(x, "x", self._domain)
        return self._forward(x)

    def inverse(self, y: Tensor) -> Tensor:
        """``x = f^{-1}(y)``."""
        _require_tensor(y, "y")
        self._check_rank(y, "y", self._codomain)
        return self._inverse(y)

    def forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        """``log|det J_f(x)|``; NotImplementedError for transforms that are not one-to-one."""
        _require_tensor(x, "x")
        self._check_rank(x, "x", self._domain)
        if not self._is_injective():
            raise NotImplementedError(
                "forward_log_det_jacobian can't be implemented for non-injective transforms."
            )
        return self._call_forward_log_det_jacobian(x)

    def inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        """``log|det J_{f^{-1}}(y)|``, the negative forward one at ``f^{-1}(y)``."""
        _require_tensor(y, "y")
        self._check_rank(y, "y", self._codomain)
        return self._call_inverse_log_det_jacobian(y)

    def forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        """The shape ``forward`` gives for an input of ``shape``."""
        _require_shape(shape)
        return self._forward_shape(shape)

    def inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        """The shape ``inverse`` gives for an input of ``shape``."""
        _require_shape(shape)
        return self._inverse_shape(shape)

    @property
    def _domain(self) -> variable.Variable:
        return variable.real

    @property
    def _codomain(self) -> variable.Variable:
        return variable.real

    def _forward(self, x: Tensor) -> Tensor:
        raise NotImplementedError("Forward not implemented")

    def _inverse(self, y: Tensor) -> Tensor:
        raise NotImplementedError("Inverse not implemented")

    def _call_forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        if hasattr(self, "_forward_log_det_jacobian"):
            return self._forward_log_det_jacobian(x)
        if hasattr(self, "_inverse_log_det_jacobian"):
            return -self._inverse_log_det_jacobian(self.forward(x))
        raise NotImplementedError(
            "Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. "
            "One of them is required."
        )

    def _call_inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        if hasattr(self, "_inverse_log_det_jacobian"):
            return self._inverse_log_det_jacobian(y)
        if hasattr(self, "_forward_log_det_jacobian"):
            return -self._forward_log_det_jacobian(self._inverse(y))
        raise NotImplementedError(
            "Neither _forward_log_det_jacobian nor _inverse_log_det_jacobian is implemented. "
            "One of them is required."
        )

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return shape

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return shape


class AbsTransform(Transform):
    """``y = |x|``; ``inverse(y)`` is the pair ``(-y, y)`` and so is its log-det-Jacobian
    (two zeros); not one-to-one, so there is no forward log-det-Jacobian."""

    _type = Type.SURJECTION

    def _forward(self, x: Tensor) -> Tensor:
        return x.abs()

    def _inverse(self, y: Tensor) -> tuple[Tensor, Tensor]:
        return -y, y

    def _inverse_log_det_jacobian(self, y: Tensor) -> tuple[Tensor, Tensor]:
        zero = paddle.zeros([], dtype=y.dtype)
        return zero, zero

    @property
    def _codomain(self) -> variable.Variable:
        return variable.positive


class AffineTransform(Transform):
    """``y = loc + scale * x`` (``loc`` and ``scale`` are Tensors)."""

    _type = Type.BIJECTION

    def __init__(self, loc: Tensor, scale: Tensor) -> None:
        _require_tensor(loc, "loc")
        _require_tensor(scale, "scale")
        self._loc = loc
        self._scale = scale
        super().__init__()

    @property
    def loc(self) -> Tensor:
        return self._loc

    @property
    def scale(self) -> Tensor:
        return self._scale

    def _forward(self, x: Tensor) -> Tensor:
        return self._loc + self._scale * x

    def _inverse(self, y: Tensor) -> Tensor:
        return (y - self._loc) / self._scale

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return paddle.abs(self._scale).log()

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        with_loc = paddle.broadcast_shape(list(shape), list(self._loc.shape))
        return tuple(paddle.broadcast_shape(with_loc, list(self._scale.shape)))

    _inverse_shape = _forward_shape


class ChainTransform(Transform):
    """The composition of ``transforms``, applied first to last."""

    def __init__(self, transforms: Sequence[Transform]) -> None:
        if not isinstance(transforms, Sequence):
            raise TypeError(
                f"Expected type of 'transforms' is Sequence, but got {type(transforms)}"
            )
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("All elements of transforms should be Transform type.")
        self.transforms = transforms
        super().__init__()

    def _is_injective(self) -> bool:
        return all(t._is_injective() for t in self.transforms)

    def _forward(self, x: Tensor) -> Tensor:
        for t in self.transforms:
            x = t.forward(x)
        return x

    def _inverse(self, y: Tensor) -> Tensor:
        for t in reversed(self.transforms):
            y = t.inverse(y)
        return y

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        # each link's term is summed over the event axes the chain has that the link lacks
        total = 0.0
        rank = self._domain.event_rank
        for t in self.transforms:
            total += _sum_rightmost(t.forward_log_det_jacobian(x), rank - t._domain.event_rank)
            x = t.forward(x)
            rank += t._codomain.event_rank - t._domain.event_rank
        return total

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        for t in self.transforms:
            shape = t.forward_shape(shape)
        return shape

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        # Paddle 3.3.1 asks the links in forward order here too; kept for equal results
        for t in self.transforms:
            shape = t.inverse_shape(shape)
        return shape

    def _sum_rightmost(self, value: Tensor, n: int) -> Tensor:
        return _sum_rightmost(value, n)

    @property
    def _domain(self) -> variable.Independent:
        # the smallest input rank every link accepts, found walking back from the last link
        first = self.transforms[0]._domain
        rank = self.transforms[-1]._codomain.event_rank
        for t in reversed(self.transforms):
            rank = max(rank - (t._codomain.event_rank - t._domain.event_rank), t._domain.event_rank)
        return variable.Independent(first, rank - first.event_rank)

    @property
    def _codomain(self) -> variable.Independent:
        last = self.transforms[-1]._codomain
        rank = self.transforms[0]._domain.event_rank
        for t in self.transforms:
            rank = max(rank + t._codomain.event_rank - t._domain.event_rank, t._codomain.event_rank)
        return variable.Independent(last, rank - last.event_rank)


class ExpTransform(Transform):
    """``y = exp(x)``."""

    _type = Type.BIJECTION

    def __init__(self) -> None:
        super().__init__()

    @property
    def _codomain(self) -> variable.Variable:
        return variable.positive

    def _forward(self, x: Tensor) -> Tensor:
        return x.exp()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return x


class IndependentTransform(Transform):
    """``base`` with its ``reinterpreted_batch_rank`` rightmost batch axes read as event axes:
    same forward and inverse, log-det-Jacobians summed over those axes."""

    def __init__(self, base: Transform, reinterpreted_batch_rank: int) -> None:
        if not isinstance(base, Transform):
            raise TypeError(f"Expected 'base' is Transform type, but get {type(base)}")
        if reinterpreted_batch_rank <= 0:
            raise ValueError(
                "Expected 'reinterpreted_batch_rank' is greater than zero, but got "
                f"{reinterpreted_batch_rank}"
            )
        self._base = base
        self._reinterpreted_batch_rank = reinterpreted_batch_rank
        super().__init__()

    def _is_injective(self) -> bool:
        return self._base._is_injective()

    def _forward(self, x: Tensor) -> Tensor:
        if x.dim() < self._domain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.forward(x)

    def _inverse(self, y: Tensor) -> Tensor:
        if y.dim() < self._codomain.event_rank:
            raise ValueError("Input dimensions is less than event dimensions.")
        return self._base.inverse(y)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        n = self._reinterpreted_batch_rank
        return self._base.forward_log_det_jacobian(x).sum(list(range(-n, 0)))

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._base.forward_shape(shape)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._base.inverse_shape(shape)

    @property
    def _domain(self) -> variable.Independent:
        return variable.Independent(self._base._domain, self._reinterpreted_batch_rank)

    @property
    def _codomain(self) -> variable.Independent:
        return variable.Independent(self._base._codomain, self._reinterpreted_batch_rank)


class PowerTransform(Transform):
    """``y = x ** power`` (``power`` is a Tensor)."""

    _type = Type.BIJECTION

    def __init__(self, power: Tensor) -> None:
        _require_tensor(power, "power")
        self._power = power
        super().__init__()

    @property
    def power(self) -> Tensor:
        return self._power

    @property
    def _codomain(self) -> variable.Variable:
        return variable.positive

    def _forward(self, x: Tensor) -> Tensor:
        return x.pow(self._power)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.pow(1 / self._power)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return (self._power * x.pow(self._power - 1)).abs().log()

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return tuple(paddle.broadcast_shape(list(shape), list(self._power.shape)))

    _inverse_shape = _forward_shape


class ReshapeTransform(Transform):
    """Reshapes the event part of a Tensor from ``in_event_shape`` to ``out_event_shape``
    (same number of elements)."""

    _type = Type.BIJECTION

    def __init__(self, in_event_shape: Sequence[int], out_event_shape: Sequence[int]) -> None:
        if not isinstance(in_event_shape, Sequence) or not isinstance(out_event_shape, Sequence):
            raise TypeError(
                "Expected type of 'in_event_shape' and 'out_event_shape' is Sequence[int], "
                f"but got 'in_event_shape': {in_event_shape}, "
                f"'out_event_shape': {out_event_shape}"
            )
        in_size, out_size = math.prod(in_event_shape), math.prod(out_event_shape)
        if in_size != out_size:
            raise ValueError(
                "The numel of 'in_event_shape' should be 'out_event_shape', "
                f"but got {in_size}!={out_size}"
            )
        self._in_event_shape = tuple(in_event_shape)
        self._out_event_shape = tuple(out_event_shape)
        super().__init__()

    @property
    def in_event_shape(self) -> tuple[int, ...]:
        return self._in_event_shape

    @property
    def out_event_shape(self) -> tuple[int, ...]:
        return self._out_event_shape

    @property
    def _domain(self) -> variable.Independent:
        return variable.Independent(variable.real, len(self._in_event_shape))

    @property
    def _codomain(self) -> variable.Independent:
        return variable.Independent(variable.real, len(self._out_event_shape))

    def _forward(self, x: Tensor) -> Tensor:
        batch = tuple(x.shape)[: x.dim() - len(self._in_event_shape)]
        return x.reshape(batch + self._out_event_shape)

    def _inverse(self, y: Tensor) -> Tensor:
        batch = tuple(y.shape)[: y.dim() - len(self._out_event_shape)]
        return y.reshape(batch + self._in_event_shape)

    @staticmethod
    def _swap_event(shape: Sequence[int], old: tuple, new: tuple) -> tuple:
        if len(shape) < len(old):
            raise ValueError(
                f"Expected length of 'shape' is not less than {len(old)}, but got {len(shape)}"
            )
        tail = shape[len(shape) - len(old) :]
        if tuple(tail) != old:
            raise ValueError(f"Event shape mismatch, expected: {old}, but got {tail}")
        return tuple(shape[: len(shape) - len(old)]) + new

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._swap_event(shape, self._in_event_shape, self._out_event_shape)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        return self._swap_event(shape, self._out_event_shape, self._in_event_shape)

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        batch = x.shape[: x.dim() - len(self._in_event_shape)]
        return paddle.zeros(batch, dtype=x.dtype)


class SigmoidTransform(Transform):
    """``y = 1 / (1 + exp(-x))``, inverse ``logit(y)``."""

    @property
    def _codomain(self) -> variable.Variable:
        return variable.Variable(False, 0, constraint.Range(0.0, 1.0))

    def _forward(self, x: Tensor) -> Tensor:
        return F.sigmoid(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log() - (-y).log1p()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return -F.softplus(-x) - F.softplus(x)


class SoftmaxTransform(Transform):
    """``y = exp(x)`` normalized on the last axis (onto the simplex); inverse ``log(y)``. Not
    one-to-one, so it has no log-det-Jacobian."""

    _type = Type.OTHER

    @property
    def _domain(self) -> variable.Independent:
        return variable.Independent(variable.real, 1)

    @property
    def _codomain(self) -> variable.Variable:
        return variable.Variable(False, 1, constraint.simplex)

    def _forward(self, x: Tensor) -> Tensor:
        # Paddle shifts every row by the first row's maximum (index 0 of the row maxima)
        e = (x - x.max(-1, keepdim=True)[0]).exp()
        return e / e.sum(-1, keepdim=True)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        if len(shape) < 1:
            raise ValueError(f"Expected length of shape is greater than 1, but got {len(shape)}")
        return shape

    _inverse_shape = _forward_shape


class StackTransform(Transform):
    """Applies ``transforms[i]`` to slice ``i`` along ``axis``."""

    def __init__(self, transforms: Sequence[Transform], axis: int = 0) -> None:
        if not transforms or not isinstance(transforms, Sequence):
            raise TypeError(
                f"Expected 'transforms' is Sequence[Transform], but got {type(transforms)}."
            )
        if not all(isinstance(t, Transform) for t in transforms):
            raise TypeError("Expected all element in transforms is Transform Type.")
        if not isinstance(axis, int):
            raise TypeError(f"Expected 'axis' is int, but got{type(axis)}.")
        self._transforms = transforms
        self._axis = axis

    def _is_injective(self) -> bool:
        return all(t._is_injective() for t in self._transforms)

    @property
    def transforms(self) -> Sequence[Transform]:
        return self._transforms

    @property
    def axis(self) -> int:
        return self._axis

    def _each(self, value: Tensor, method: str) -> Tensor:
        self._check_size(value)
        parts = paddle.unstack(value, self._axis)
        outs = [getattr(t, method)(p) for p, t in zip(parts, self._transforms, strict=False)]
        return paddle.stack(outs, self._axis)

    def _forward(self, x: Tensor) -> Tensor:
        return self._each(x, "forward")

    def _inverse(self, y: Tensor) -> Tensor:
        return self._each(y, "inverse")

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        return self._each(x, "forward_log_det_jacobian")

    def _check_size(self, v: Tensor) -> None:
        if not -v.dim() <= self._axis < v.dim():
            raise ValueError(
                f"Input dimensions {v.dim()} should be greater than stack transform axis "
                f"{self._axis}."
            )
        if v.shape[self._axis] != len(self._transforms):
            raise ValueError(
                f"Input size along {self._axis} should be equal to the length of transforms."
            )

    @property
    def _domain(self) -> variable.Stack:
        return variable.Stack([t._domain for t in self._transforms], self._axis)

    @property
    def _codomain(self) -> variable.Stack:
        return variable.Stack([t._codomain for t in self._transforms], self._axis)


class StickBreakingTransform(Transform):
    """Maps an unconstrained vector of length K onto the K+1 simplex by stick breaking."""

    _type = Type.BIJECTION

    def _forward(self, x: Tensor) -> Tensor:
        n = x.shape[-1]
        z = F.sigmoid(x - _countdown(n).log())
        remaining = (1 - z).cumprod(-1)
        batch = list(x.shape[:-1])
        ones = paddle.ones([*batch, 1], dtype=z.dtype)
        # piece i is z_i times what earlier pieces left; the last piece is all that is left
        return paddle.concat([z, ones], -1) * paddle.concat([ones, remaining], -1)

    def _inverse(self, y: Tensor) -> Tensor:
        pieces = y[..., :-1]
        left = 1 - pieces.cumsum(-1)
        return pieces.log() - left.log() + _countdown(y.shape[-1] - 1).log()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        y = self.forward(x)
        shifted = x - _countdown(x.shape[-1]).log()
        return (-shifted + F.log_sigmoid(shifted) + y[..., :-1].log()).sum(-1)

    def _forward_shape(self, shape: Sequence[int]) -> Sequence[int]:
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] + 1)

    def _inverse_shape(self, shape: Sequence[int]) -> Sequence[int]:
        if not shape:
            raise ValueError(f"Expected 'shape' is not empty, but got {shape}")
        return (*shape[:-1], shape[-1] - 1)

    @property
    def _domain(self) -> variable.Independent:
        return variable.Independent(variable.real, 1)

    @property
    def _codomain(self) -> variable.Variable:
        return variable.Variable(False, 1, constraint.simplex)


class TanhTransform(Transform):
    """``y = tanh(x)``, inverse ``atanh(y)``."""

    _type = Type.BIJECTION

    @property
    def _codomain(self) -> variable.Variable:
        return variable.Variable(False, 0, constraint.Range(-1.0, 1.0))

    def _forward(self, x: Tensor) -> Tensor:
        return x.tanh()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.atanh()

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        # log(1 - tanh(x)^2) in the stable form 2 * (log 2 - x - softplus(-2x))
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))
