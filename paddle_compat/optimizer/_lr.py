"""Learning-rate schedulers, part 1: the base class and the step/decay schedules
(``paddle.optimizer.lr``; the cyclic, annealing and metric-driven ones are in
``_lr_cyclic.py``): host-side Python floats, stepped by the
user; the value an optimizer uses also lives in a scalar Tensor (``_lr_var``), so a compiled
``to_static`` train step reads the current rate as state instead of baking it in."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from .._core.tensor import to_device

__all__ = [
    "LRScheduler",
    "NoamDecay",
    "PiecewiseDecay",
    "NaturalExpDecay",
    "InverseTimeDecay",
    "PolynomialDecay",
    "LinearWarmup",
    "ExponentialDecay",
    "MultiStepDecay",
    "StepDecay",
    "LambdaDecay",
    "MultiplicativeDecay",
]


def _lr_store_dtype():
    return jnp.float64 if jax.config.jax_enable_x64 else jnp.float32


def _lr_array(value: float):
    """The learning rate as a device array, made on the host (``jnp.asarray`` of a Python float
    runs a convert kernel, traced in every process)."""
    return to_device(np.asarray(value, _lr_store_dtype()), owned=True)


class LRScheduler:
    """Base class of learning-rate schedulers: subclasses implement ``get_lr()`` from
    ``last_epoch``; ``step()`` advances the epoch and ``scheduler()`` returns the current rate."""

    def __init__(
        self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        if not isinstance(learning_rate, float | int):
            raise TypeError(
                f"The type of learning rate must be float, but received {type(learning_rate)}"
            )
        if learning_rate < 0:
            raise ValueError(f"Invalid learning rate: {learning_rate}")
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name = None
        self.step()

    # -- the current rate, mirrored into a Tensor for compiled steps ------------------------
    @property
    def last_lr(self) -> float:
        return self.__dict__.get("_last_lr")

    @last_lr.setter
    def last_lr(self, value) -> None:
        self.__dict__["_last_lr"] = value
        var = self.__dict__.get("_lr_var")
        if var is not None:
            var._set_value(_lr_array(float(value)))

    def _lr_tensor(self):
        """Scalar Tensor holding ``last_lr`` (created on first use by an optimizer)."""
        var = self.__dict__.get("_lr_var")
        if var is None:
            from .._core.tensor import Tensor

            var = Tensor(_lr_array(float(self.last_lr)), name="learning_rate")
            var.persistable = True
            self.__dict__["_lr_var"] = var
        return var

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (or jump to ``epoch``) and recompute the learning rate."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            self.last_lr = closed() if closed is not None else self.get_lr()
        if self.verbose:
            print(
                f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                f"{self.last_lr}."
            )

    def state_keys(self) -> None:
        """Names of the attributes saved by ``state_dict`` (``self.keys``)."""
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self) -> dict:
        """The scheduler's state (``last_epoch``, ``last_lr``, ...) as plain Python values."""
        self.state_keys()
        out = {}
        for key in self.keys:
            if key == "last_lr":
                value = self.last_lr
            elif key in self.__dict__:
                value = self.__dict__[key]
            else:
                continue
            if hasattr(value, "numpy") and hasattr(value, "stop_gradient"):
                assert value.size == 1, "numel of Tensor in state_dict must be 1"
                value = float(value)
            out[key] = value
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        """Restore the state saved by ``state_dict``."""
        self.state_keys()
        for key in self.keys:
            if key not in state_dict:
                raise RuntimeError(
                    "Please check whether state_dict is correct for optimizer. Can't find "
                    f"[ {key} ] in state_dict"
                )
            setattr(self, key, state_dict[key])
        if len(state_dict) > len(self.keys):
            warnings.warn(
                "There are some unused values in state_dict. Maybe the optimizer have "
                "different 'LearningRateDecay' when invoking state_dict and set_dict",
                stacklevel=2,
            )

    set_dict = set_state_dict

    def get_lr(self) -> float:
        """The learning rate at ``last_epoch`` (subclasses implement it)."""
        raise NotImplementedError


class NoamDecay(LRScheduler):
    """Transformer ("Noam") schedule: linear warmup then inverse square-root decay."""

    def __init__(
        self,
        d_model: int,
        warmup_steps: int,
        learning_rate: float = 1.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if d_model <= 0:
            raise ValueError("d_model should be grater than 0")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e = self.last_epoch
        a = 1 if e == 0 else e**-0.5
        b = self.warmup_steps**-1.5 * e
        return self.base_lr * (self.d_model**-0.5) * min(a, b)


class PiecewiseDecay(LRScheduler):
    """``values[i]`` while the epoch is below ``boundaries[i]``, the last value after."""

    def __init__(
        self,
        boundaries: Sequence[int],
        values: Sequence[float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if len(boundaries) == 0:
            raise ValueError("The boundaries cannot be empty.")
        if len(values) <= len(boundaries):
            raise ValueError(
                "The values have one more element than boundaries, but received "
                f"len(values) [{len(values)}] < len(boundaries) + 1 [{len(boundaries) + 1}]."
            )
        self.boundaries = boundaries
        self.values = values
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for bound, value in zip(self.boundaries, self.values):
            if self.last_epoch < bound:
                return value
        return self.values[len(self.values) - 1]


class NaturalExpDecay(LRScheduler):
    """``base_lr * exp(-gamma * epoch)``."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        assert gamma > 0.0, (
            " 'gamma' must be a positive number so that the learning rate will decay."
        )
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """``base_lr / (1 + gamma * epoch)``."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    """Polynomial decay from ``learning_rate`` to ``end_lr`` over ``decay_steps`` (optionally
    restarting with a longer period when ``cycle``)."""

    def __init__(
        self,
        learning_rate: float,
        decay_steps: int,
        end_lr: float = 0.0001,
        power: float = 1.0,
        cycle: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        assert decay_steps > 0 and isinstance(decay_steps, int), (
            " 'decay_steps' must be a positive integer."
        )
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        assert power > 0.0, (
            " 'power' must be greater than 0.0 so that the learning rate will decay."
        )
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            periods = 1 if epoch == 0 else math.ceil(float(epoch) / float(steps))
            steps = self.decay_steps * periods
        else:
            epoch = min(epoch, steps)
        frac = 1 - float(epoch) / float(steps)
        return (self.base_lr - self.end_lr) * (frac**self.power) + self.end_lr


class LinearWarmup(LRScheduler):
    """Linear warmup from ``start_lr`` to ``end_lr`` over ``warmup_steps``, then
    ``learning_rate`` (a float, or a scheduler stepped from 0 after the warmup)."""

    def __init__(
        self,
        learning_rate: float | LRScheduler,
        warmup_steps: int,
        start_lr: float,
        end_lr: float,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(learning_rate, float | int | LRScheduler):
            raise TypeError(
                "the type of learning_rate should be [int, float or LRScheduler], the "
                f"current type is {learning_rate}"
            )
        self.learning_rate = learning_rate
        assert warmup_steps > 0 and isinstance(warmup_steps, int), (
            " 'warmup_steps' must be a positive integer."
        )
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        assert end_lr > start_lr, f"end_lr {end_lr} must be greater than start_lr {start_lr}"
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self) -> dict:
        out = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            out["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return out

    def set_state_dict(self, state_dict: dict) -> None:
        super().set_state_dict(state_dict)
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    def get_lr(self) -> float:
        e = self.last_epoch
        if e < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(e) / float(
                self.warmup_steps
            ) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(e - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    """``base_lr * gamma ** epoch``."""

    def __init__(
        self, learning_rate: float, gamma: float, last_epoch: int = -1, verbose: bool = False
    ) -> None:
        assert 0.0 < gamma < 1.0, (
            " 'gamma' must be in interval (0.0, 1.0) so that the learning rate will decay."
        )
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma**self.last_epoch)


class MultiStepDecay(LRScheduler):
    """Multiply the rate by ``gamma`` at each epoch listed in ``milestones``."""

    def __init__(
        self,
        learning_rate: float,
        milestones: Sequence[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(milestones, tuple | list):
            raise TypeError(
                "The type of 'milestones' in 'MultiStepDecay' must be 'tuple, list', but "
                f"received {type(milestones)}."
            )
        if any(a >= b for a, b in zip(milestones, milestones[1:])):
            raise ValueError("The elements of milestones must be incremented")
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        self.milestones = milestones
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        passed = next(
            (i for i, m in enumerate(self.milestones) if self.last_epoch < m), len(self.milestones)
        )
        return self.base_lr * (self.gamma**passed)


class StepDecay(LRScheduler):
    """Multiply the rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(
        self,
        learning_rate: float,
        step_size: int,
        gamma: float = 0.1,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(step_size, int):
            raise TypeError(
                f"The type of 'step_size' must be 'int', but received {type(step_size)}."
            )
        if gamma >= 1.0:
            raise ValueError("gamma should be < 1.0.")
        assert step_size > 0, " 'step_size' must be a positive integer."
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class LambdaDecay(LRScheduler):
    """``base_lr * lr_lambda(epoch)``."""

    def __init__(
        self,
        learning_rate: float,
        lr_lambda: Callable[[int], float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not callable(lr_lambda):
            raise TypeError(
                "The type of 'lr_lambda' in 'LambdaDecay' must be 'function', but received "
                f"{type(lr_lambda)}."
            )
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    """``base_lr`` times the product of ``lr_lambda(e)`` for epochs ``1..epoch``."""

    def __init__(
        self,
        learning_rate: float,
        lr_lambda: Callable[[int], float],
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not callable(lr_lambda):
            raise TypeError(
                "The type of 'lr_lambda' in 'MultiplicativeDecay' must be 'function', but "
                f"received {type(lr_lambda)}."
            )
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        lr = self.base_lr
        for e in range(1, self.last_epoch + 1):
            lr = lr * self.lr_lambda(e)
        return lr
