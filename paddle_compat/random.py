"""``paddle.random``: the seed of the global generator (``paddle.seed`` sets it)."""

from __future__ import annotations

from ._core.random import default_generator


def initial_seed() -> int:
    """The seed the global generator was last seeded with (a random one before any
    ``paddle.seed``)."""
    return default_generator.initial_seed()
