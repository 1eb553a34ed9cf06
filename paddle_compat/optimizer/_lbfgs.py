"""``paddle.optimizer.LBFGS``: limited-memory BFGS driven by a closure, as Paddle's (the
classic two-loop recursion over the last ``history_size`` steps, an optional strong-Wolfe
line search with cubic interpolation).

The algorithm is host-driven (each iteration branches on the loss): the flat gradient and
direction are float32 numpy vectors, scalars derived from them stay float32 as Paddle's 0-d
Tensors do, the loss is a Python float; only ``closure()`` runs on the device.
"""

from __future__ import annotations

from collections import defaultdict

import jax.numpy as jnp
import numpy as np

from .._core import autograd
from .._core.tensor import Tensor, to_device
from ..profiler._enums import TracerEventType
from ..profiler._events import model_span
from ._optimizer import Optimizer

__all__ = ["LBFGS"]


def _dot(x, y):
    return (x * y).sum(axis=-1)


def _cubic_min(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to
    ``bounds`` (default: between x1 and x2); their midpoint when the cubic has none."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (lo + hi) / 2.0
    d2 = np.sqrt(d2_square)
    if x1 <= x2:
        x = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        x = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(x, lo), hi)


def _zoom_step(bracket, f, gtd, insufficient):
    """The next trial step inside the bracket, kept away from its ends (returns the step and
    the new insufficient-progress flag)."""
    t = _cubic_min(bracket[0], f[0], gtd[0], bracket[1], f[1], gtd[1])
    top, bottom = max(bracket), min(bracket)
    eps = 0.1 * (top - bottom)
    if min(top - t, t - bottom) >= eps:
        return t, False
    if insufficient or t >= top or t <= bottom:
        t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
        return t, False
    return t, True


def _strong_wolfe(evaluate, t, d, loss, grad, gtd, c1=1e-4, c2=0.9, tol=1e-9, max_ls=25):
    """Find a step ``t`` along ``d`` meeting the strong Wolfe conditions; returns (loss, flat
    gradient, step, evaluations)."""
    d_norm = np.abs(d).max()
    f_new, g_new = evaluate(t)
    evals, gtd_new = 1, _dot(g_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0, loss, grad.copy(), gtd
    done, it = False, 0
    while it < max_ls:  # bracketing
        too_high = f_new > loss + c1 * t * gtd or (it > 1 and f_new >= f_prev)
        if not too_high and abs(gtd_new) <= -c2 * gtd:
            bracket, bf, bg, done = [t], [f_new], [g_new], True
            break
        if too_high or gtd_new >= 0:
            bracket, bf, bg = [t_prev, t], [f_prev, f_new], [g_prev, g_new.copy()]
            bgtd = [gtd_prev, gtd_new]
            break
        t_next = _cubic_min(
            t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(t + 0.01 * (t - t_prev), t * 10)
        )
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new.copy(), gtd_new
        t = t_next
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = _dot(g_new, d)
        it += 1
    if it == max_ls:
        bracket, bf, bg = [0, t], [loss, f_new], [grad, g_new]
    insufficient = False
    low, high = (0, 1) if bf[0] <= bf[-1] else (1, 0)
    while not done and it < max_ls:  # zoom
        if abs(bracket[1] - bracket[0]) * d_norm < tol:
            break
        t, insufficient = _zoom_step(bracket, bf, bgtd, insufficient)
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = _dot(g_new, d)
        it += 1
        if f_new > loss + c1 * t * gtd or f_new >= bf[low]:
            bracket[high], bf[high], bg[high], bgtd[high] = t, f_new, g_new.copy(), gtd_new
            low, high = (0, 1) if bf[0] <= bf[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bf[high], bg[high], bgtd[high] = (
                    bracket[low],
                    bf[low],
                    bg[low],
                    bgtd[low],
                )
            bracket[low], bf[low], bg[low], bgtd[low] = t, f_new, g_new.copy(), gtd_new
    return bf[low], bg[low], bracket[low], evals


class LBFGS(Optimizer):
    """L-BFGS: ``opt.step(closure)`` where ``closure`` clears the gradients, computes the
    loss, calls ``backward()`` and returns it; runs up to ``max_iter`` iterations (and
    ``max_eval`` closure calls) per step. ``line_search_fn``: None (fixed step
    ``learning_rate``) or ``'strong_wolfe'``. Like Paddle's, ``weight_decay`` and
    ``grad_clip`` are accepted but not applied."""

    def __init__(
        self,
        learning_rate: float = 1.0,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
        parameters=None,
        weight_decay=None,
        grad_clip=None,
        name: str | None = None,
    ) -> None:
        if isinstance(parameters, Tensor):
            raise TypeError(
                "parameters argument given to the optimizer should be an iterable of Tensors "
                f"or dicts, but got {type(parameters)}"
            )
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        self.tolerance_grad = tolerance_grad
        self.tolerance_change = tolerance_change
        self.history_size = history_size
        self.line_search_fn = line_search_fn
        self.state = defaultdict(dict)
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        first = self._parameter_list[0] if self._parameter_list else None
        if isinstance(first, dict):
            self._params = list(self._param_groups[-1]["params"])
        else:
            self._params = list(self._parameter_list)

    def state_dict(self) -> dict:
        """``{'state': {...}}``: evaluation and iteration counts, the last direction, step,
        curvature history and previous gradient and loss."""
        return {"state": {k: _as_tensors(v) for k, v in self.state.items()}}

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        raise NotImplementedError(
            "LBFGS optimizer does not use this way to minimize loss. Please refer 'Examples' "
            "of LBFGS() for usage."
        )

    # -- flat views -------------------------------------------------------------------------------
    def _flat_grad(self) -> np.ndarray:
        parts = [
            np.zeros(int(np.prod(p.shape)), p.dtype.np)
            if p.grad is None
            else np.asarray(p.grad._value).reshape(-1)
            for p in self._params
        ]
        return np.concatenate(parts)

    def _values(self) -> list[np.ndarray]:
        return [np.array(p._value) for p in self._params]

    def _set_values(self, values) -> None:
        for p, v in zip(self._params, values):
            p._set_value(jnp.asarray(v))

    def _move(self, t, d) -> None:
        """Parameters += t * d (d flat, in parameter order)."""
        offset = 0
        for p in self._params:
            n = int(np.prod(p.shape))
            p._set_value(
                jnp.asarray(np.asarray(p._value) + d[offset : offset + n].reshape(p.shape) * t)
            )
            offset += n

    def _direction(self, flat_grad, state) -> np.ndarray:
        """The L-BFGS direction -H g by the two-loop recursion over the stored pairs."""
        yk, sk, ro = state["old_yk"], state["old_sk"], state["ro"]
        al = state.setdefault("al", [None] * self.history_size)
        q = -flat_grad
        for i in range(len(yk) - 1, -1, -1):
            al[i] = _dot(sk[i], q) * ro[i]
            q = q + yk[i] * -al[i]
        r = q * state["H_diag"]
        for i in range(len(yk)):
            be_i = _dot(yk[i], r) * ro[i]
            r = r + sk[i] * (al[i] - be_i)
        return r

    def _remember(self, flat_grad, state) -> None:
        """Store the newest (y, s) curvature pair when it is positive enough."""
        y = flat_grad - state["prev_flat_grad"]
        s = state["d"] * np.float32(state["alpha"])
        ys = _dot(y, s)
        if ys > 1e-10:
            if len(state["old_yk"]) == self.history_size:
                for k in ("old_yk", "old_sk", "ro"):
                    state[k].pop(0)
            state["old_yk"].append(y)
            state["old_sk"].append(s)
            state["ro"].append(np.float32(1.0) / ys)
            state["H_diag"] = ys / _dot(y, y)

    # -- the step ---------------------------------------------------------------------------------
    def step(self, closure):
        """Run L-BFGS iterations; returns the loss of the first ``closure()`` call."""
        with autograd.no_grad(), model_span(TracerEventType.Optimization, "Optimization Step"):
            return self._step(autograd.enable_grad()(closure))

    def _step(self, closure):
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = closure()
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= self.tolerance_grad:
            return orig_loss
        lr = self.learning_rate
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                state.update(d=-flat_grad, old_yk=[], old_sk=[], ro=[], H_diag=np.float32(1.0))
            else:
                self._remember(flat_grad, state)
                state["d"] = self._direction(flat_grad, state)
            state["prev_flat_grad"] = flat_grad.copy()
            state["prev_loss"] = loss
            if state["n_iter"] == 1:
                t = min(1.0, np.float32(1.0) / np.abs(flat_grad).sum()) * lr
            else:
                t = lr
            d = state["d"]
            gtd = _dot(flat_grad, d)
            if gtd > -self.tolerance_change:
                state["alpha"] = t
                break
            if self.line_search_fn is not None:
                if self.line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                start = self._values()

                def evaluate(step, start=start, d=d):
                    self._move(step, d)
                    f = float(closure())
                    g = self._flat_grad()
                    self._set_values(start)
                    return f, g

                loss, flat_grad, t, ls_evals = _strong_wolfe(evaluate, t, d, loss, flat_grad, gtd)
                self._move(t, d)
                converged = np.abs(flat_grad).max() <= self.tolerance_grad
            else:
                self._move(t, d)
                ls_evals, converged = 0, False
                if n_iter != self.max_iter:
                    with autograd.enable_grad():
                        loss = float(closure())
                    flat_grad = self._flat_grad()
                    converged = np.abs(flat_grad).max() <= self.tolerance_grad
                    ls_evals = 1
            state["alpha"] = t
            evals += ls_evals
            state["func_evals"] += ls_evals
            if (
                converged
                or np.abs(d * t).max() <= self.tolerance_change
                or abs(loss - state["prev_loss"]) < self.tolerance_change
                or evals >= self.max_eval
                or n_iter == self.max_iter
            ):
                break
        return orig_loss


def _as_tensors(v):
    """State values as Paddle has them: vectors and 0-d numbers as Tensors."""
    if isinstance(v, list):
        return [_as_tensors(x) for x in v]
    if isinstance(v, np.ndarray | np.generic) and not isinstance(v, np.bool_):
        return Tensor(to_device(np.asarray(v)))
    return v
