"""``paddle.incubate.LookAhead``: an inner optimizer updates the (fast) parameters every step;
every ``k`` steps the slow copies move ``alpha`` of the way to them and the parameters are
reset to the slow copies (Zhang et al., 2019, https://arxiv.org/abs/1907.08610)."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import trace_state
from ..._core.autograd import no_grad
from ..._core.tensor import Tensor, unique_name
from ...optimizer import Optimizer

__all__: list[str] = []


def _scaled(c: float, x):
    """``c * x`` rounded to float32 once, as Paddle's scale kernel: under jit XLA would fuse
    ``a * x + b * y`` into an FMA, rounding differently. The float32 product is computed exactly
    in float64 and rounded by ``reduce_precision``, which XLA keeps."""
    if x.dtype != jnp.float32:
        return c * x
    exact = x.astype(jnp.float64) * float(np.float32(c))
    return jax.lax.reduce_precision(exact, exponent_bits=8, mantissa_bits=23).astype(x.dtype)


@functools.partial(jax.jit, static_argnames=("alpha", "k"))
def _lookahead_update(params, slows, step, alpha: float, k: int):
    """Paddle's masked update: at step 1 the slow copy starts from the parameter; at steps
    that are multiples of ``k`` both become ``alpha * param + (1 - alpha) * slow``."""
    new_params, new_slows = [], []
    for p, slow in zip(params, slows):
        first = (step == 1).astype(p.dtype)
        sync = (step % k == 0).astype(p.dtype)
        slow = first * p + (1 - first) * slow
        mixed = _scaled(alpha, p) + _scaled(1.0 - alpha, slow)
        new_params.append(sync * mixed + (1 - sync) * p)
        new_slows.append(sync * mixed + (1 - sync) * slow)
    return new_params, new_slows


def _flat(parameters) -> list:
    """The parameters of a list of Tensors or of parameter-group dicts."""
    out = []
    for p in parameters or []:
        out.extend(p["params"] if isinstance(p, dict) else [p])
    return out


def _trainable(p) -> bool:
    return getattr(p, "trainable", not p.stop_gradient)


class LookAhead(Optimizer):
    """Lookahead around ``inner_optimizer``: ``step()`` runs the inner step, then every ``k``
    steps sets slow = param = ``alpha * param + (1 - alpha) * slow``. Its state dict holds the
    slow copies (the inner optimizer keeps its own)."""

    _slow_str = "slow"

    def __init__(
        self, inner_optimizer: Optimizer, alpha: float = 0.5, k: int = 5, name: str | None = None
    ) -> None:
        assert inner_optimizer is not None, "inner optimizer can not be None"
        assert 0.0 <= alpha <= 1.0, (
            "alpha should be larger or equal to 0.0, and less or equal than 1.0"
        )
        assert isinstance(k, int) and k > 0, "k should be a positive integer"
        self.inner_optimizer = inner_optimizer
        super().__init__(
            learning_rate=alpha,
            parameters=inner_optimizer._parameter_list,
            weight_decay=None,
            grad_clip=None,
            name=name,
        )
        self.alpha = alpha
        self.k = k
        self.type = "lookahead"
        self._global_step_var: Tensor | None = None
        self._k_var = None

    def _set_auxiliary_var(self, key, val) -> None:
        super()._set_auxiliary_var(key, val)
        self.inner_optimizer._set_auxiliary_var(key, val)

    def _increment_global_var(self) -> None:
        if self._global_step_var is None:
            self._global_step_var = Tensor(
                jnp.zeros([1], jnp.int32), name=unique_name("lookahead_step")
            )
            self._global_step_var.persistable = True
        step = self._global_step_var
        step._set_value(trace_state.read(step) + 1)

    def _lookahead(self, params_grads) -> None:
        params = [p for p, g in params_grads if g is not None and _trainable(p)]
        if not params:
            return
        slows = [self._add_accumulator(self._slow_str, p) for p in params]
        read = trace_state.read
        new_params, new_slows = _lookahead_update(
            [read(p) for p in params],
            [read(s) for s in slows],
            read(self._global_step_var),
            alpha=float(self.alpha),
            k=int(self.k),
        )
        for t, a in zip(params + slows, new_params + new_slows):
            t._set_value(a)

    @no_grad()
    def step(self) -> None:
        """The inner optimizer's step, then the lookahead update."""
        self.inner_optimizer.step()
        self._increment_global_var()
        params = _flat(self._parameter_list)
        self._lookahead([(p, p.grad) for p in params if _trainable(p)])

    @no_grad()
    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        """The inner optimizer's ``minimize``, then the lookahead update; returns the inner
        ``(optimize_ops, params_grads)``."""
        assert isinstance(loss, Tensor), "The loss should be an Tensor."
        optimize_ops, params_grads = self.inner_optimizer.minimize(
            loss,
            startup_program=startup_program,
            parameters=parameters,
            no_grad_set=no_grad_set,
        )
        self._increment_global_var()
        self._lookahead(params_grads)
        return optimize_ops, params_grads
