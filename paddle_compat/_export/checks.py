"""Input checks against a saved model's input specs, shared by the loader
(``paddle.jit.load``'s ``TranslatedLayer``) and the readers in ``serving`` (Predictor, HTTP)."""

from __future__ import annotations

import re

import jax.numpy as jnp
import numpy as np

from .artifact import IOSpec, np_dtype


def dtype_kind(dt) -> str:
    """``"bool"``, ``"int"``, ``"float"`` or ``"complex"`` (else the dtype's name): casts stay
    within a kind."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        return "bool"
    if jnp.issubdtype(dt, jnp.complexfloating):
        return "complex"
    if jnp.issubdtype(dt, jnp.floating):
        return "float"
    if jnp.issubdtype(dt, jnp.integer):
        return "int"
    return str(dt)


def shape_matches(spec: IOSpec, shape) -> bool:
    """Whether ``shape`` fits ``spec.shape`` (-1 matches any size)."""
    return len(shape) == len(spec.shape) and all(
        w == -1 or w == d for w, d in zip(spec.shape, shape)
    )


def check_input(spec: IOSpec, value, who: str = "Predictor", cast: bool = True):
    """``value`` (numpy or jax array) checked against ``spec``: shape must fit (-1 = any size
    but 0, which jax.export's symbolic dimensions do not take),
    dtype is cast within its kind (int64 -> int32, float64 -> float32, like Paddle's feed);
    a different kind (float data for an int input), or any other dtype when ``cast`` is False
    (Paddle's loaded layers), is a ValueError."""
    shape = tuple(value.shape)
    if not shape_matches(spec, shape):
        raise ValueError(
            f"(InvalidArgument) {who}: input '{spec.name}' has shape {list(shape)}, but the "
            f"saved model expects {spec.shape} (-1: any size)."
        )
    empty = [i for i, (w, d) in enumerate(zip(spec.shape, shape)) if w == -1 and d == 0]
    if empty:
        raise ValueError(
            f"(InvalidArgument) {who}: input '{spec.name}' has size 0 in dimension {empty[0]} "
            f"(shape {list(shape)}); the saved model's dynamic (-1) dimensions take sizes >= 1."
        )
    want = np_dtype(spec.dtype)
    if value.dtype != want:
        if not cast or dtype_kind(value.dtype) != dtype_kind(want):
            raise ValueError(
                f"(InvalidArgument) {who}: input '{spec.name}' has dtype {np.dtype(value.dtype)}"
                f", but the saved model expects {want}."
            )
        value = value.astype(want)
    return value


def shape_error_text(e: Exception, names: list[str]) -> str:
    """jax.export's shape-check message, shortened and with input names."""
    text = str(e).splitlines()[0].split(". Using the following")[0]
    if "Expected value >= 1 for dimension variable" in text:
        return (
            "an input has size 0 in a dynamic (-1) dimension; the saved model's dynamic "
            "dimensions take sizes >= 1"
        )
    return re.sub(
        r"args\[1\]\[(\d+)\]\.shape",
        lambda m: (
            f"input '{names[int(m.group(1))]}'.shape"
            if int(m.group(1)) < len(names)
            else m.group(0)
        ),
        text,
    )
