"""The global random generator: a JAX PRNG key held in a Tensor, so ``to_static`` threads it
through compiled functions as state (dropout differs from step to step)."""

from __future__ import annotations

import jax
import numpy as np

from . import trace_state
from .tensor import Tensor


@jax.jit
def _split(data):
    """Raw key -> (next state, subkey), compiled once (eager split costs ~90us)."""
    new, sub = jax.random.split(jax.random.wrap_key_data(data))
    return jax.random.key_data(new), jax.random.key_data(sub)


class Generator:
    """Holds the key; every random op splits it once."""

    def __init__(self, seed: int | None = None):
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**63))
        self._seed = seed
        self._key = Tensor(jax.random.key_data(jax.random.key(seed)))
        self._key.persistable = True

    def manual_seed(self, seed: int) -> Generator:
        self._seed = int(seed)
        self._key._set_value(jax.random.key_data(jax.random.key(int(seed))))
        return self

    def initial_seed(self) -> int:
        return self._seed

    def next_key(self):
        """A fresh raw key (uint32 array) and advance the state."""
        new, sub = _split(trace_state.read(self._key))
        self._key._set_value(new)
        return sub

    def get_state(self) -> Tensor:
        trace_state.check_concrete(self._key, "get_rng_state()")
        return Tensor(self._key._value)

    def set_state(self, state) -> None:
        v = state._value if isinstance(state, Tensor) else np.asarray(state)
        self._key._set_value(jax.numpy.asarray(v, dtype=np.uint32))


default_generator = Generator()


def seed(s: int) -> Generator:
    """Seed the global generator (``paddle.seed``)."""
    return default_generator.manual_seed(s)


def next_key():
    return default_generator.next_key()


def get_rng_state(device=None) -> list[Tensor]:
    return [default_generator.get_state()]


def set_rng_state(state_list, device=None) -> None:
    st = state_list[0] if isinstance(state_list, list | tuple) else state_list
    default_generator.set_state(st)


def get_cuda_rng_state() -> list[Tensor]:
    return get_rng_state()


def set_cuda_rng_state(state_list) -> None:
    set_rng_state(state_list)
