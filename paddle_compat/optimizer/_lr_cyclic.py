"""Learning-rate schedulers, part 2: cosine annealing (with warm restarts), one-cycle, cyclic,
linear and the metric-driven ReduceOnPlateau (``paddle.optimizer.lr``)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ._lr import LRScheduler

__all__ = [
    "ReduceOnPlateau",
    "CosineAnnealingDecay",
    "OneCycleLR",
    "CyclicLR",
    "LinearLR",
    "CosineAnnealingWarmRestarts",
]


class ReduceOnPlateau(LRScheduler):
    """Multiply the rate by ``factor`` when a metric passed to ``step(metrics)`` stops
    improving for ``patience`` epochs."""

    def __init__(
        self,
        learning_rate: float,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float = 0,
        epsilon: float = 1e-8,
        verbose: bool = False,
    ) -> None:
        mode = mode.lower()
        if mode not in ("min", "max"):
            raise ValueError("mode: " + mode + " is unknown!")
        self.mode = mode
        if factor >= 1.0:
            raise ValueError("new_lr = origin_lr * gamma and gamma should be < 1.0.")
        self.factor = factor
        threshold_mode = threshold_mode.lower()
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode: " + threshold_mode + " is unknown!")
        self.threshold_mode = threshold_mode
        if not isinstance(learning_rate, float | int):
            raise TypeError(
                "The type of 'learning_rate' in 'ReduceOnPlateau' must be 'float', but "
                f"received {type(learning_rate)}."
            )
        self.patience = patience
        self.threshold = threshold
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        # no base __init__: the first step needs a metric
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = 0
        self.verbose = verbose
        self._var_name = None

    def state_keys(self) -> None:
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics, epoch: int | None = None) -> None:
        """Record ``metrics`` (a float, or a 1-element array/Tensor) for this epoch."""
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if isinstance(metrics, np.ndarray) or (
            hasattr(metrics, "numpy") and hasattr(metrics, "stop_gradient")
        ):
            assert metrics.size == 1, (
                f"the size of metrics must be 1, but the current metrics.size is "
                f"{metrics.size}. Maybe that you should call paddle.mean to process it first."
            )
        elif not isinstance(metrics, int | float | np.float32 | np.float64):
            raise TypeError(
                "metrics must be 'int', 'float', 'np.float64', 'numpy.ndarray' or "
                f"'paddle.Tensor', but receive {type(metrics)}"
            )
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(metrics, self.best):
            self.best = metrics
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
            new_lr = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - new_lr > self.epsilon:
                self.last_lr = new_lr
                if self.verbose:
                    print(
                        f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate "
                        f"to {self.last_lr}."
                    )

    def _is_better(self, current, best) -> bool:
        current, best = float(np.asarray(current).reshape(())), float(np.asarray(best).reshape(()))
        if self.threshold_mode == "rel":
            margin = best * self.threshold
        else:
            margin = self.threshold
        if self.mode == "min":
            return current < best - margin
        return current > best + margin


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing between ``learning_rate`` and ``eta_min`` with period ``2*T_max``
    (computed recursively from the previous rate, like Paddle)."""

    def __init__(
        self,
        learning_rate: float,
        T_max: int,
        eta_min: float = 0,  # noqa: N803
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(T_max, int):
            raise TypeError(
                "The type of 'T_max' in 'CosineAnnealingDecay' must be 'int', but received "
                f"{type(T_max)}."
            )
        if not isinstance(eta_min, float | int):
            raise TypeError(
                "The type of 'eta_min' in 'CosineAnnealingDecay' must be 'float, int', but "
                f"received {type(eta_min)}."
            )
        assert T_max > 0, " 'T_max' must be a positive integer."
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e, t = self.last_epoch, self.T_max
        if e == 0:
            return self.base_lr
        if (e - 1 - t) % (2 * t) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * (1 - math.cos(math.pi / t)) / 2
        ratio = (1 + math.cos(math.pi * e / t)) / (1 + math.cos(math.pi * (e - 1) / t))
        return ratio * (self.last_lr - self.eta_min) + self.eta_min

    def _get_closed_form_lr(self) -> float:
        cos = 1 + math.cos(math.pi * self.last_epoch / self.T_max)
        return self.eta_min + (self.base_lr - self.eta_min) * cos / 2


class OneCycleLR(LRScheduler):
    """One-cycle policy: warm up to ``max_learning_rate`` then anneal to
    ``end_learning_rate`` (optionally in three phases)."""

    def __init__(
        self,
        max_learning_rate: float,
        total_steps: int,
        divide_factor: float = 25.0,
        end_learning_rate: float = 0.0001,
        phase_pct: float = 0.3,
        anneal_strategy: str = "cos",
        three_phase: bool = False,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(max_learning_rate, float | int):
            raise TypeError(
                "'max_learning_rate' must be 'float' or 'int', but received "
                f"{type(max_learning_rate)}"
            )
        if max_learning_rate < 0:
            raise ValueError("'max_learning_rate' must be a positive integer.")
        if not isinstance(end_learning_rate, float | int):
            raise TypeError(
                "'end_learning_rate' must be 'float' or 'int', but received "
                f"{type(end_learning_rate)}"
            )
        if end_learning_rate < 0:
            raise ValueError("'end_learning_rate' must be a positive integer.")
        if not isinstance(total_steps, int):
            raise TypeError(f"'total_step' must be 'int', but received {type(total_steps)}")
        if total_steps <= 0:
            raise ValueError("'total_step' must be a positive integer.")
        self.total_steps = total_steps
        if not isinstance(phase_pct, float):
            raise TypeError(f"'phase_pct' must be 'float', but received {type(phase_pct)}")
        if phase_pct < 0 or phase_pct > 1:
            raise ValueError(f"'phase_pct' must be between 0 and 1, but received {phase_pct}")
        if not isinstance(divide_factor, float | int):
            raise TypeError(
                f"'divide_factor' must be 'float' or 'int', but received {type(divide_factor)}"
            )
        initial_lr = max_learning_rate / float(divide_factor)
        min_lr = float(end_learning_rate)
        n = self.total_steps
        if three_phase:
            if phase_pct >= 0.5:
                raise ValueError("When three_phase is True, 'phase_pct' must be less than 0.5")
            ends = [0, phase_pct * n - 1, 2 * phase_pct * n - 2, n - 1, n - 1]
            sizes = [ends[1] - ends[0], ends[2] - ends[1], ends[3] - ends[2], ends[3] - ends[2]]
            lrs = [initial_lr, max_learning_rate, initial_lr, min_lr]
        else:
            ends = [0, phase_pct * n - 1, n - 1, n - 1]
            sizes = [ends[1] - ends[0], ends[2] - ends[1], ends[2] - ends[1]]
            lrs = [initial_lr, max_learning_rate, min_lr]
        self._step_config, self._steps_size, self._lr_config = ends, sizes, lrs
        if anneal_strategy == "cos":
            self.anneal_func = self._cos_annealing
        elif anneal_strategy == "linear":
            self.anneal_func = self._linear_annealing
        else:
            raise ValueError(
                "'anneal_strategy' must by one of 'cos' or 'linear', but "
                f"received {anneal_strategy}"
            )
        super().__init__(initial_lr, last_epoch, verbose)

    def _cos_annealing(self, start_lr: float, end_lr: float, pct: float) -> float:
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    def _linear_annealing(self, start_lr: float, end_lr: float, pct: float) -> float:
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self) -> float:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(
                f"Tried to step {step} times. However the number of total steps "
                f"is {self.total_steps}"
            )
        last_phase = len(self._lr_config) - 2
        for i, (end, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if step <= end or i == last_phase:
                pct = (step - self._step_config[i]) / size
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], pct)
        return None


class CyclicLR(LRScheduler):
    """Cyclical learning rate between ``base_learning_rate`` and ``max_learning_rate``."""

    def __init__(
        self,
        base_learning_rate: float,
        max_learning_rate: float,
        step_size_up: int,
        step_size_down: int | None = None,
        mode: str = "triangular",
        exp_gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: str = "cycle",
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if not isinstance(max_learning_rate, float | int):
            raise TypeError(
                "'max_learning_rate' must be 'float' or 'int', but received "
                f"{type(max_learning_rate)}"
            )
        if max_learning_rate < 0:
            raise ValueError(
                f"'max_learning_rate' must be a positive integer, but received {max_learning_rate}"
            )
        if not isinstance(step_size_up, int):
            raise TypeError(
                f"The type of 'step_size_up' must be int, but received {type(step_size_up)}"
            )
        if step_size_up <= 0:
            raise ValueError(
                f"'step_size_up' must be a positive integer, but received {step_size_up}"
            )
        if step_size_down is not None:
            if not isinstance(step_size_down, int):
                raise TypeError(
                    f"The type of 'step_size_down' must be int, but received {type(step_size_down)}"
                )
            if step_size_down <= 0:
                raise ValueError(
                    f"'step_size_down' must be a positive integer, but received {step_size_down}"
                )
        if not isinstance(exp_gamma, float):
            raise TypeError(
                f"The type of 'exp_gamma' must be float, but received {type(exp_gamma)}"
            )
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.cycle_size = up + down
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(
                "'mode' is invalid and 'scale_fn' is not specified, make sure "
                "one of 'mode' or 'scale_fn' is valid"
            )
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError("'scale_mode' must be one of 'cycle' or 'iterations")
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is None:
            self.scale_fn, self.scale_mode = {
                "triangular": (self._triangular_scale_fn, "cycle"),
                "triangular2": (self._triangular2_scale_fn, "cycle"),
                "exp_range": (self._exp_range_scale_fn, "iterations"),
            }[mode]
        else:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(base_learning_rate, last_epoch, verbose)

    def _triangular_scale_fn(self, x: float) -> float:
        return 1.0

    def _triangular2_scale_fn(self, x: float) -> float:
        return 1 / (2.0 ** (x - 1))

    def _exp_range_scale_fn(self, x: float) -> float:
        return self.gamma**x

    def get_lr(self) -> float:
        it = self.last_epoch
        cycle = 1 + it // self.cycle_size
        pct = 1.0 + it / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            scale = pct / self.step_up_pct
        else:
            scale = (1 - pct) / (1 - self.step_up_pct)
        x = cycle if self.scale_mode == "cycle" else it
        return self.base_lr + self.amplitude * scale * self.scale_fn(x)


class LinearLR(LRScheduler):
    """Scale the rate linearly from ``start_factor`` to ``end_factor`` over ``total_steps``."""

    def __init__(
        self,
        learning_rate: float,
        total_steps: int,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "`start_factor` must be greater than 0 and less or equal to 1, "
                f"but got {start_factor}"
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError(
                f"`end_factor` must be greater than 0 and less than 1, but got {end_factor}"
            )
        if total_steps <= 0:
            raise ValueError(f"`total_steps` must be greater than 0, but got {total_steps}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        e = self.last_epoch
        if e == 0:
            return self.base_lr * self.start_factor
        if e > self.total_steps:
            return self.last_lr
        span = self.end_factor - self.start_factor
        start = self.total_steps * self.start_factor
        return self.last_lr * (1.0 + span / (start + (e - 1) * span))


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_0 * T_mult**k`` epochs (SGDR)."""

    def __init__(
        self,
        learning_rate: float,
        T_0: int,
        T_mult: int = 1,  # noqa: N803
        eta_min: float = 0,
        last_epoch: int = -1,
        verbose: bool = False,
    ) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        cos = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return self.eta_min + (self.base_lr - self.eta_min) * cos / 2

    def step(self, epoch: int | None = None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            if epoch < self.T_0:
                self.T_i = self.T_0
                self.T_cur = epoch
            elif self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                m = self.T_mult
                n = int(math.log(epoch / self.T_0 * (m - 1) + 1, m))
                self.T_cur = epoch - self.T_0 * (m**n - 1) / (m - 1)
                self.T_i = self.T_0 * m**n
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()
        if self.verbose:
            print(
                f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                f"{self.last_lr}."
            )
