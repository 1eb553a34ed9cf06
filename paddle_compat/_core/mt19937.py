"""Paddle's CPU random engine on the host: a 64-bit Mersenne Twister (``std::mt19937_64``)
seeded through ``std::seed_seq``, as real Paddle's ``paddle.seed`` does.

The twist runs vectorized over numpy uint64 arrays (a 312-word block in a few steps, about 20 ns
a word). Once a process has drawn a few million words (a model of that many parameters), draws
of 64 blocks (19,968 numbers) or more run the same recurrence as one compiled XLA loop, about 4x
faster; smaller programs never pay for compiling it. ``draw`` returns raw 64-bit outputs;
samplers that reject some draws ask for a few extra and hand the unused tail back with
``give_back``.
"""

from __future__ import annotations

import numpy as np

_N, _M = 312, 156
_MATRIX_A = np.uint64(0xB5026F5AA96619E9)
_UPPER = np.uint64(0xFFFFFFFF80000000)
_LOWER = np.uint64(0x7FFFFFFF)
_ONE = np.uint64(1)
_M32 = 0xFFFFFFFF
_UPPER_INT, _LOWER_INT, _MATRIX_A_INT = int(_UPPER), int(_LOWER), int(_MATRIX_A)


def _seed_seq(values: list[int], n: int) -> list[int]:
    """``std::seed_seq::generate``: n 32-bit words from 32-bit seed values."""
    b = [0x8B8B8B8B] * n
    s = len(values)
    t = 11 if n >= 623 else 7 if n >= 68 else 5 if n >= 39 else 3 if n >= 7 else (n - 1) // 2
    p = (n - t) // 2
    q = p + t
    m = max(s + 1, n)
    for k in range(m):
        v = b[k % n] ^ b[(k + p) % n] ^ b[(k - 1) % n]
        r1 = (1664525 * (v ^ (v >> 27))) & _M32
        r2 = (r1 + (s if k == 0 else (k % n + values[k - 1] if k <= s else k % n))) & _M32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & _M32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & _M32
        b[k % n] = r2
    for k in range(m, m + n):
        v = (b[k % n] + b[(k + p) % n] + b[(k - 1) % n]) & _M32
        r3 = (1566083941 * (v ^ (v >> 27))) & _M32
        r4 = (r3 - k % n) & _M32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[k % n] = r4
    return b


def _twist_blocks(x: np.ndarray, blocks: int) -> np.ndarray:
    """The next ``blocks`` 312-word blocks of state after block ``x``, as one array. New word k
    is ``old[k + 156] ^ f(old[k], old[k + 1])`` (``new[k - 156]`` in place of ``old[k + 156]``
    for the second half), so one pass computes f for words 0..310 from the old block, two XORs
    finish the block, and word 311, which needs new word 0, is done on Python ints."""
    buf = np.empty((blocks + 1) * _N, np.uint64)
    buf[:_N] = x
    y = np.empty(_N - 1, np.uint64)
    t = np.empty(_N - 1, np.uint64)
    for lo in range(0, blocks * _N, _N):
        old, new = buf[lo : lo + _N], buf[lo + _N : lo + 2 * _N]
        np.bitwise_and(old[:-1], _UPPER, out=y)
        np.bitwise_and(old[1:], _LOWER, out=t)
        np.bitwise_or(y, t, out=y)
        np.bitwise_and(y, _ONE, out=t)
        np.multiply(t, _MATRIX_A, out=t)
        np.right_shift(y, _ONE, out=y)
        np.bitwise_xor(y, t, out=y)
        np.bitwise_xor(old[_M:], y[:_M], out=new[:_M])
        np.bitwise_xor(new[: _M - 1], y[_M:], out=new[_M:-1])
        last = (int(old[-1]) & _UPPER_INT) | (int(new[0]) & _LOWER_INT)
        new[-1] = int(new[_M - 1]) ^ (last >> 1) ^ (_MATRIX_A_INT if last & 1 else 0)
    return buf[_N:]


def _temper(y: np.ndarray) -> np.ndarray:
    out = y >> np.uint64(29)
    out &= np.uint64(0x5555555555555555)
    out ^= y
    t = out << np.uint64(17)
    t &= np.uint64(0x71D67FFFEDA60000)
    out ^= t
    np.left_shift(out, np.uint64(37), out=t)
    t &= np.uint64(0xFFF7EEE000000000)
    out ^= t
    np.right_shift(out, np.uint64(43), out=t)
    out ^= t
    return out


_XLA_MIN_BLOCKS = 64  # smaller draws always twist in numpy
# Numpy-twisted words a process draws before it builds the compiled generator: loading it from
# the persistent cache costs ~50 ms (the numpy twist of ~2M words), compiling it ~0.2 s (~8M).
_XLA_AFTER_WORDS = {"cached": 2 << 20, "cold": 8 << 20}
_XLA_BLOCKS = 128  # blocks per call of the compiled generator
_xla_generate = None
_numpy_words = 0  # words twisted in numpy by this process


def _xla_twist_temper(x: np.ndarray, blocks: int) -> tuple[np.ndarray, np.ndarray]:
    """``_twist_blocks`` and ``_temper`` as one XLA program, for large draws: about 5 ns a word
    against 20 in numpy. The program is compiled once per process, or read from the persistent
    compilation cache (a marker file there says it was written)."""
    global _xla_generate
    fresh = _xla_generate is None
    if fresh:
        import jax
        import jax.numpy as jnp

        def step(word, nxt, far):  # word k + 312 from words k, k + 1 and k + 156
            y = (word & _UPPER) | (nxt & _LOWER)
            return far ^ (y >> _ONE) ^ ((y & _ONE) * _MATRIX_A)

        def generate(x):
            def block(prev, _):
                first = step(prev[:_M], prev[1 : _M + 1], prev[_M:])
                nxt = jnp.concatenate([prev[_M + 1 :], first[:1]])
                new = jnp.concatenate([first, step(prev[_M:], nxt, first)])
                return new, new

            _, words = jax.lax.scan(block, x, None, length=_XLA_BLOCKS, unroll=4)
            words = words.reshape(-1)
            return words, _temper_jax(words)

        _xla_generate = jax.jit(generate)
    words, outs, cur = [], [], x
    for _ in range(-(-blocks // _XLA_BLOCKS)):
        w, o = _xla_generate(cur)
        w, o = np.asarray(w), np.asarray(o)
        words.append(w)
        outs.append(o)
        cur = w[-_N:]
    if fresh:  # compiled or loaded: the persistent cache holds it now
        _mark_cached()
    return np.concatenate(words)[: blocks * _N], np.concatenate(outs)[: blocks * _N]


def _temper_jax(y):
    y = y ^ ((y >> np.uint64(29)) & np.uint64(0x5555555555555555))
    y = y ^ ((y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000))
    y = y ^ ((y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000))
    return y ^ (y >> np.uint64(43))


def _count_numpy_words(n: int) -> None:
    global _numpy_words
    _numpy_words += n


def _mark_cached() -> None:
    marker = _cache_marker()
    if marker is not None:
        try:
            marker.touch()
        except OSError:  # a read-only cache: later processes decide as if it were cold
            pass


def _cache_marker():
    """The file in JAX's persistent cache directory that says the generator is stored there."""
    import jax

    cache_dir = jax.config.jax_compilation_cache_dir
    if not cache_dir:
        return None
    from pathlib import Path

    return Path(cache_dir) / f"paddle_compat-mt19937_64-{jax.__version__}"


def _use_xla(blocks: int) -> bool:
    if blocks < _XLA_MIN_BLOCKS:
        return False
    import jax

    if not jax.config.jax_enable_x64:  # uint64 needs JAX's 64-bit mode
        return False
    if _xla_generate is not None:
        return True
    marker = _cache_marker()
    warm = marker is not None and marker.exists()
    return _numpy_words + blocks * _N > _XLA_AFTER_WORDS["cached" if warm else "cold"]


class MT19937_64:
    """The engine state: 312 words and the index of the next one (``_M_x``, ``_M_p``)."""

    def __init__(self, seed: int = 5489, seed_seq: bool = True):
        if seed_seq:
            self.seed(seed)
        else:
            self.seed_plain(seed)

    def seed(self, seed: int) -> None:
        """Seed as Paddle does: ``std::seed_seq{seed}`` (the seed taken mod 2**32)."""
        words = np.array(_seed_seq([int(seed) & _M32], 2 * _N), np.uint64)
        x = words[0::2] | (words[1::2] << np.uint64(32))
        if not (x[0] & _UPPER) and not x[1:].any():
            x[0] = np.uint64(1 << 63)
        self._x, self._p = x, _N
        self._out = None  # tempered outputs of the current block
        self._undo: list = []

    def seed_plain(self, seed: int) -> None:
        """``std::mt19937_64(seed)``'s own seeding (Paddle's ops with a nonzero ``seed``)."""
        x, v = [], int(seed) & 0xFFFFFFFFFFFFFFFF
        for i in range(_N):
            x.append(v)
            v = (6364136223846793005 * (v ^ (v >> 62)) + i + 1) & 0xFFFFFFFFFFFFFFFF
        self._x, self._p = np.array(x, np.uint64), _N
        self._out = None
        self._undo = []

    def draw(self, n: int) -> np.ndarray:
        """The next ``n`` raw 64-bit outputs (uint64)."""
        n = int(n)
        self._undo = [(self._x, self._p, self._out)]
        if self._out is None:
            self._out = _temper(self._x)
        head = self._out[self._p : self._p + n]
        self._p += len(head)
        need = n - len(head)
        if need <= 0:
            return head.copy()
        blocks = -(-need // _N)
        if _use_xla(blocks):
            words, out = _xla_twist_temper(self._x, blocks)
        else:
            _count_numpy_words(blocks * _N)
            words = _twist_blocks(self._x, blocks)
            out = _temper(words)
        for b in range(blocks):  # each block's state, for give_back and the next draw
            lo = b * _N
            self._undo.append((words[lo : lo + _N], 0, out[lo : lo + _N]))
        self._x, self._out = self._undo[-1][0], self._undo[-1][2]
        self._p = need - (blocks - 1) * _N
        return np.concatenate([head, out[:need]])

    def give_back(self, k: int) -> None:
        """Un-draw the last ``k`` outputs of the latest ``draw`` (rejection samplers)."""
        while k > 0:
            _, p0, _ = self._undo[-1]
            used = self._p - p0
            if k <= used:
                self._p -= k
                return
            k -= used
            self._undo.pop()
            self._x, _, self._out = self._undo[-1]
            self._p = _N

    def get_state(self) -> tuple[np.ndarray, int]:
        return self._x.copy(), self._p

    def set_state(self, words, index: int) -> None:
        x = np.asarray(words, dtype=np.uint64).reshape(-1)
        if x.shape != (_N,) or not 0 <= int(index) <= _N:
            raise ValueError(
                f"an mt19937_64 state is {_N} words and an index in [0, {_N}], got "
                f"{x.shape[0]} words and index {index}"
            )
        self._x, self._p, self._out, self._undo = x.copy(), int(index), None, []
