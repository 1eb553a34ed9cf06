"""The global random generator.

It holds two streams seeded by ``paddle.seed``:

- the host engine (``MT19937_64``): real Paddle's CPU stream. Eager random ops and parameter
  initializers draw from it with Paddle's samplers (``host_random``), so after ``paddle.seed(n)``
  they give real Paddle's numbers, and creating a parameter compiles nothing;
- a JAX PRNG key held in a Tensor, for random ops inside compiled code: ``to_static`` threads it
  through the compiled function as state (dropout differs from step to step). Compiled code
  draws different numbers from eager code (the same distributions).
"""

from __future__ import annotations

import jax
import numpy as np

from . import trace_state
from .mt19937 import MT19937_64
from .tensor import Tensor


def eager() -> bool:
    """True when random ops run eagerly (they draw from the host stream): JAX is not tracing
    and no ``to_static`` call is being recorded or traced (a ``recompute`` block's eager
    recording counts as eager; to_static's first, eager call draws from the key like its
    compiled calls, so a seeded to_static function gives the same numbers every time)."""
    ctx = trace_state.current()
    return (ctx is None or ctx.host_random) and trace_state.jax_idle()


class GeneratorState:
    """A snapshot of a generator (Paddle's ``GeneratorState``): the seed, the host engine's
    words and index, and the compiled-code key."""

    def __init__(self, seed: int, words: np.ndarray, index: int, key: np.ndarray):
        self._seed, self._words, self._index, self._key = seed, words, index, key

    def current_seed(self) -> int:
        return self._seed

    def __repr__(self) -> str:
        return f"GeneratorState(current_seed={self._seed}, index={self._index})"


@jax.jit
def _split(data):
    """Raw key -> (next state, subkey), compiled once (eager split costs ~90us)."""
    new, sub = jax.random.split(jax.random.wrap_key_data(data))
    return jax.random.key_data(new), jax.random.key_data(sub)


def key_data_of(seed: int):
    """``jax.random.key_data(jax.random.key(seed))`` computed on the host (no compiled kernel):
    threefry's key is the seed's high and low 32-bit words."""
    if jax.config.jax_enable_x64 and jax.config.jax_default_prng_impl == "threefry2x32":
        s = int(seed)
        return jax.device_put(np.array([(s >> 32) & 0xFFFFFFFF, s & 0xFFFFFFFF], np.uint32))
    return jax.random.key_data(jax.random.key(seed))


class Generator:
    """Paddle's generator: the host engine (eager draws) and a key (compiled draws)."""

    def __init__(self, seed: int | None = None):
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**63))
        self._seed = int(seed)
        self.engine = MT19937_64(self._seed)
        self._key = Tensor(key_data_of(self._seed))
        self._key.persistable = True

    def manual_seed(self, seed: int) -> Generator:
        """Seed both streams; Paddle's seed is an unsigned 64-bit integer."""
        if not 0 <= int(seed) < 2**64:
            raise TypeError(
                f"manual_seed(): the seed must be an integer in [0, 2**64), but received {seed}"
            )
        self._seed = int(seed)
        self.engine.seed(self._seed)
        self._key._set_value(key_data_of(self._seed))
        return self

    def seed(self) -> int:
        """Reseed from entropy and return the new seed."""
        self.manual_seed(int(np.random.SeedSequence().entropy % (2**63)))
        return self._seed

    def initial_seed(self) -> int:
        return self._seed

    def random(self) -> int:
        """The host engine's next raw 64-bit output (as Paddle's ``Generator.random``)."""
        return int(self.engine.draw(1)[0])

    # Paddle's registered states (its distributed RNG tracker switches between them)
    def get_state_index(self) -> int:
        return self.__dict__.get("_index", 0)

    def register_state_index(self, state: GeneratorState) -> int:
        """Add ``state`` as a new registered state and make it current; returns its index."""
        slots = self._slots()
        slots[self.get_state_index()] = self.get_state()
        slots.append(state)
        self.set_state(state)
        self._index = len(slots) - 1
        return self._index

    def set_state_index(self, index: int) -> None:
        """Make registered state ``index`` current (the current one is kept in its slot)."""
        slots = self._slots()
        if not 0 <= int(index) < len(slots):
            raise ValueError(
                f"(InvalidArgument) state index {index} is out of range: {len(slots)} states "
                "are registered"
            )
        slots[self.get_state_index()] = self.get_state()
        self.set_state(slots[int(index)])
        self._index = int(index)

    def _slots(self) -> list:
        if "_states" not in self.__dict__:
            self._states = [None]
        return self._states

    def next_key(self):
        """A fresh raw key (uint32 array) and advance the state."""
        new, sub = _split(trace_state.read(self._key))
        self._key._set_value(new)
        return sub

    def get_state(self) -> GeneratorState:
        trace_state.check_concrete(self._key, "get_rng_state()")
        words, index = self.engine.get_state()
        return GeneratorState(self._seed, words, index, np.asarray(self._key._value))

    def set_state(self, state: GeneratorState) -> None:
        if not isinstance(state, GeneratorState):
            raise TypeError(
                f"set_rng_state expects the GeneratorState objects returned by get_rng_state, "
                f"got {type(state).__name__}"
            )
        self._seed = state._seed
        self.engine.set_state(state._words, state._index)
        self._key._set_value(jax.numpy.asarray(state._key, dtype=np.uint32))


default_generator = Generator()


class DeviceGenerator:
    """``paddle.Generator(device=None)``: the generator of ``device`` (Paddle returns the
    device's global generator; JAX programs here draw from one host stream and one key)."""

    def __new__(cls, device=None):
        from ..device import device_to_place  # checks the device as Paddle does

        device_to_place(device)
        return default_generator


def seed(seed: int) -> Generator:
    """Seed the global generator (``paddle.seed``)."""
    return default_generator.manual_seed(seed)


def next_key():
    return default_generator.next_key()


def host_engine(seed: int = 0) -> MT19937_64 | None:
    """The engine an eager random op draws from: a fresh ``std::mt19937_64(seed)`` for a nonzero
    ``seed`` (as Paddle's ops with a ``seed`` argument), else the global one; None while
    tracing (the op then draws from the key)."""
    if not eager():
        return None
    if seed:
        return MT19937_64(int(seed), seed_seq=False)
    if trace_state.current() is not None:  # a recording: the key is state of the compiled call
        trace_state.read(default_generator._key)
    return default_generator.engine


def host_state() -> tuple:
    """The global host engine's position (``recompute`` replays a block's draws from it)."""
    return default_generator.engine.get_state()


def set_host_state(state: tuple) -> None:
    default_generator.engine.set_state(*state)


def get_rng_state(device=None) -> list[GeneratorState]:
    return [default_generator.get_state()]


def set_rng_state(state_list, device=None) -> None:
    st = state_list[0] if isinstance(state_list, list | tuple) else state_list
    default_generator.set_state(st)


def get_cuda_rng_state() -> list[GeneratorState]:
    return get_rng_state()


def set_cuda_rng_state(state_list) -> None:
    set_rng_state(state_list)
