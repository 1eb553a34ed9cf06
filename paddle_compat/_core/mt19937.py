"""Paddle's CPU random engine on the host: a 64-bit Mersenne Twister (``std::mt19937_64``)
seeded through ``std::seed_seq``, as real Paddle's ``paddle.seed`` does.

The twist runs vectorized over numpy uint64 arrays (156 words per step), so drawing n numbers
costs about n / 156 small numpy steps; draws of 64 blocks (19,968 numbers) or more run the same
recurrence as one compiled XLA loop, about 10x faster. ``draw`` returns raw 64-bit outputs; samplers
that reject some draws ask for a few extra and hand the unused tail back with ``give_back``.
"""

from __future__ import annotations

import numpy as np

_N, _M = 312, 156
_MATRIX_A = np.uint64(0xB5026F5AA96619E9)
_UPPER = np.uint64(0xFFFFFFFF80000000)
_LOWER = np.uint64(0x7FFFFFFF)
_ONE = np.uint64(1)
_M32 = 0xFFFFFFFF


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
    """The next ``blocks`` 312-word blocks of state after block ``x``, as one array. Word k + 312
    comes from words k, k + 1 and k + 156, so each step computes 156 words at once."""
    buf = np.empty((blocks + 1) * _N, np.uint64)
    buf[:_N] = x
    y = np.empty(_M, np.uint64)
    t = np.empty(_M, np.uint64)
    for lo in range(0, blocks * _N, _M):
        np.bitwise_and(buf[lo : lo + _M], _UPPER, out=y)
        np.bitwise_and(buf[lo + 1 : lo + _M + 1], _LOWER, out=t)
        np.bitwise_or(y, t, out=y)
        np.bitwise_and(y, _ONE, out=t)
        np.multiply(t, _MATRIX_A, out=t)
        np.right_shift(y, _ONE, out=y)
        np.bitwise_xor(y, t, out=y)
        np.bitwise_xor(y, buf[lo + _M : lo + _N], out=buf[lo + _N : lo + _N + _M])
    return buf[_N:]


def _temper(y: np.ndarray) -> np.ndarray:
    y = y ^ ((y >> np.uint64(29)) & np.uint64(0x5555555555555555))
    y = y ^ ((y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000))
    y = y ^ ((y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000))
    return y ^ (y >> np.uint64(43))


_XLA_MIN_BLOCKS = 64  # draws this large (19,968 outputs) use the compiled generator
_XLA_BLOCKS = 128  # blocks per call of the compiled generator
_xla_generate = None


def _xla_twist_temper(x: np.ndarray, blocks: int) -> tuple[np.ndarray, np.ndarray]:
    """``_twist_blocks`` and ``_temper`` as one XLA program, for large draws: numpy pays ~0.6us
    per ufunc call on a 156-word slice, the compiled loop ~10x less per word. The program is
    compiled once per process, or read from the persistent compilation cache."""
    global _xla_generate
    if _xla_generate is None:
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
            return words, _temper(words)

        _xla_generate = jax.jit(generate)
    words, outs, cur = [], [], x
    for _ in range(-(-blocks // _XLA_BLOCKS)):
        w, o = _xla_generate(cur)
        w, o = np.asarray(w), np.asarray(o)
        words.append(w)
        outs.append(o)
        cur = w[-_N:]
    return np.concatenate(words)[: blocks * _N], np.concatenate(outs)[: blocks * _N]


def _use_xla(blocks: int) -> bool:
    if blocks < _XLA_MIN_BLOCKS:
        return False
    import jax

    return bool(jax.config.jax_enable_x64)  # uint64 needs JAX's 64-bit mode


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
