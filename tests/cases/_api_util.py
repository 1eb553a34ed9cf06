"""Helpers for the api_* case programs (runs under real Paddle and paddle_compat); their
forward+backward helper is ``_util.backprop``."""

from __future__ import annotations

from _util import randn

import paddle


def t(*shape, dtype="float32", seed=0, grad=False):
    return paddle.to_tensor(randn(*shape, seed=seed, dtype=dtype), stop_gradient=not grad)
