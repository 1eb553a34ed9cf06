"""``paddle.static.amp``: mixed precision for static Programs.

``decorate(optimizer, amp_lists, ...)`` wraps an optimizer: its ``minimize(loss)`` records the
update as the plain optimizer does, and marks the Program, so that ``Executor.run`` replays
the Program's ops under ``paddle.amp.auto_cast`` (O1: Paddle's white-list ops in float16 /
bfloat16, black-list ops in float32; O2: everything but the black list) and scales the loss
with dynamic loss scaling (``paddle.amp.GradScaler``: gradients unscaled, a step with inf/nan
gradients skipped and the scale cut, the scale grown after ``incr_every_n_steps`` good steps;
by default for float16 only, as Paddle: bfloat16 needs no loss scaling).
Parameters stay float32 (the master weights); O2 casts them where they are used, so
``amp_init`` has nothing to cast. ``fp16_guard`` marks nothing: O2 casts every op off the black
list, as Paddle does without ``use_fp16_guard``.

Paddle 3.3.1 on CPU warns that no white-list op supports float16/bfloat16 there and runs the
Program in float32; here the Program runs in the chosen precision on any device, as dynamic
mode's ``auto_cast`` does.
"""

from __future__ import annotations

import contextlib

import numpy as np

__all__ = ["AutoMixedPrecisionLists", "CustomOpLists", "decorate", "fp16_guard"]


@contextlib.contextmanager
def fp16_guard():
    """Marks the ops a static-mode AMP program may cast to float16; in dynamic mode it does
    nothing (as in Paddle: the dtypes inside are unchanged)."""
    yield


class AutoMixedPrecisionLists:
    """Paddle's AMP op lists for ``dtype`` with the custom additions: ``white_list`` (run in
    low precision), ``black_list`` (float32), ``gray_list`` (the others: their inputs'
    precision). An op in both custom lists is a ``ValueError``."""

    def __init__(
        self,
        custom_white_list=None,
        custom_black_list=None,
        custom_black_varnames=None,
        dtype: str = "float16",
    ):
        from ..amp.amp_lists import _names, black_list, white_list

        white, black = set(custom_white_list or ()), set(custom_black_list or ())
        both = white & black
        if both:
            raise ValueError(
                f"The given custom_white_list overlaps custom_black_list with < "
                f"{', '.join(sorted(both))} >!"
            )
        self.amp_dtype = dtype
        self._custom_white_list, self._custom_black_list = white, black
        self.black_varnames = set(custom_black_varnames or ())
        self.white_list = (white_list()[dtype]["O1"] - black) | white
        self.black_list = (black_list()[dtype]["O1"] - white) | black
        # the other registered ops follow their inputs' precision (Paddle's gray list)
        self.gray_list = set(_names("promote")) - self.white_list - self.black_list
        self.unsupported_list = set()
        self.all_list = self.white_list | self.black_list


CustomOpLists = AutoMixedPrecisionLists


class OptimizerWithMixedPrecision:
    """``decorate``'s optimizer: ``minimize`` records the scaled update; everything else is
    the wrapped optimizer's."""

    def __init__(self, optimizer, amp_lists, level, dtype, scaler):
        self._optimizer, self._amp_lists = optimizer, amp_lists
        self._level, self._dtype, self._scaler = level, dtype, scaler

    def __getattr__(self, name):
        return getattr(self.__dict__["_optimizer"], name)

    def _amp_config(self) -> dict:
        lists = self._amp_lists
        return {
            "level": self._level,
            "dtype": self._dtype,
            "custom_white_list": sorted(lists._custom_white_list) if lists else None,
            "custom_black_list": sorted(lists._custom_black_list) if lists else None,
        }

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        """Record the update of ``loss``'s Program: its ops run under ``auto_cast``, the loss
        is scaled, the gradients unscaled and checked before the step. Returns
        ``(optimize_ops, params_grads)``."""
        from .._core import static_mode
        from ._program import Variable

        if not isinstance(loss, Variable):
            raise TypeError(f"The loss should be a static Variable, but received {type(loss)}")
        prog = loss.program
        out = static_mode.minimize(
            self._optimizer, loss, startup_program, parameter_list, no_grad_set
        )
        prog._amp = self._amp_config()
        if self._scaler is not None:
            op = next(o for o in reversed(prog._ops) if o.kind == "minimize")
            op.extra["scaler"] = self._scaler
        return out

    def amp_init(self, place, scope=None, test_program=None, use_fp16_test=False) -> None:
        """Nothing to cast: parameters stay float32 masters (O2 casts them where used)."""
        if test_program is not None and use_fp16_test:
            test_program._amp = self._amp_config()

    def get_loss_scaling(self):
        """The current loss scale (a float32 Tensor of shape [1]; 1 without loss scaling)."""
        from .._core.tensor import Tensor

        if self._scaler is None:
            return Tensor(np.ones([1], np.float32))
        return self._scaler._scale

    def get_scaled_loss(self):
        raise NotImplementedError(
            "paddle.static.amp: the scaled loss is not a Variable of the Program here; "
            "fetch the loss and get_loss_scaling() instead."
        )


def decorate(
    optimizer,
    amp_lists=None,
    init_loss_scaling: float = 2.0**16,
    incr_every_n_steps: int = 1000,
    decr_every_n_nan_or_inf: int = 2,
    incr_ratio: float = 2.0,
    decr_ratio: float = 0.8,
    use_dynamic_loss_scaling=None,
    use_pure_fp16: bool = False,
    use_fp16_guard=None,
    use_bf16: bool = False,
    use_promote: bool = False,
    level=None,
    dtype=None,
    master_weight=None,
    master_grad: bool = False,
    use_amp_guard=None,
):
    """Mixed precision for ``optimizer.minimize`` in static mode: ``level`` O1 (default) or O2
    (``use_pure_fp16``), ``dtype`` float16 (default) or bfloat16 (``use_bf16``), dynamic loss
    scaling from ``init_loss_scaling`` (Paddle 3.3.1's default 2**16; for bfloat16 off unless
    asked for, where Paddle keeps a fixed power-of-two scale, which changes no gradient, and
    here the loss is not scaled)."""
    from ..amp import GradScaler

    level = level or ("O2" if use_pure_fp16 else "O1")
    if level not in ("O1", "O2"):
        raise ValueError(f"level should be O1 or O2, but received {level}.")
    dtype = dtype or (amp_lists.amp_dtype if amp_lists is not None else None)
    dtype = dtype or ("bfloat16" if use_bf16 else "float16")
    if dtype not in ("float16", "bfloat16"):
        raise ValueError(f"dtype should be float16 or bfloat16, but received {dtype}.")
    if amp_lists is None:
        amp_lists = AutoMixedPrecisionLists(dtype=dtype)
    if use_dynamic_loss_scaling is None:  # Paddle: on for float16 only
        use_dynamic_loss_scaling = dtype == "float16"
    if dtype == "bfloat16" and not use_dynamic_loss_scaling:
        return OptimizerWithMixedPrecision(optimizer, amp_lists, level, dtype, None)
    scaler = GradScaler(
        enable=True,
        init_loss_scaling=init_loss_scaling,
        incr_ratio=incr_ratio,
        decr_ratio=decr_ratio,
        incr_every_n_steps=incr_every_n_steps,
        decr_every_n_nan_or_inf=decr_every_n_nan_or_inf,
        use_dynamic_loss_scaling=bool(use_dynamic_loss_scaling),
    )
    return OptimizerWithMixedPrecision(optimizer, amp_lists, level, dtype, scaler)
