"""Paddle's CPU random engine on the host: a 64-bit Mersenne Twister (``std::mt19937_64``)
seeded through ``std::seed_seq``, as real Paddle's ``paddle.seed`` does.

The twist runs vectorized over numpy uint64 arrays (311 words in nine numpy calls, about 12 ns
a word), 64 blocks at a time, whose values go straight into the result while they are in
cache. Once a process has drawn 128k words it reads the same recurrence, compiled as one XLA
loop, from the segment store (or a background thread builds and stores it), and draws of 64
blocks (19,968 numbers) or more use it from then on (about 3-5 ns a word: calls chained on
the device, several in flight): small programs never pay for it, and the numbers are the
same. ``draw`` returns raw 64-bit outputs; samplers
that reject some draws ask for a few extra and hand the unused tail back with ``give_back``.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from .host_memory import aligned_empty

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


_BELOW_ONE_32 = np.nextafter(np.float32(1), np.float32(0))


def canonical(u: np.ndarray, dtype) -> np.ndarray:
    """Raw draws -> ``std::generate_canonical`` floats in [0, 1) of ``dtype`` (float32 or
    float64): one draw rounded to the float type, over 2**64, kept below 1."""
    dt = np.dtype(dtype).type
    f = u.astype(dt) / dt(2.0**64)
    return np.minimum(f, np.nextafter(dt(1), dt(0)))


_PASS = _N - 1  # words one numpy pass twists (see _twist_blocks)


class _Scratch(threading.local):
    """A thread's twist buffer and, per pass, the views its numpy calls read and write
    (made once: building ~10 views a block cost a third of the twist)."""

    capacity = 0

    def grow(self, blocks: int) -> None:
        self.capacity = blocks
        passes = -(-blocks * _N // _PASS)
        self.buf = buf = np.empty(_N + passes * _PASS, np.uint64)
        self.y, self.t = np.empty(_PASS, np.uint64), np.empty(_PASS, np.uint64)
        self.views = []
        for lo in range(0, passes * _PASS, _PASS):
            old, new = buf[lo : lo + _N], buf[lo + _N : lo + _N + _PASS]
            self.views.append((old[:-1], old[1:], old[_M:], new[:_M], new[: _M - 1], new[_M:]))


_scratch = _Scratch()


def _twist_blocks(x: np.ndarray, blocks: int) -> np.ndarray:
    """The next ``blocks`` 312-word blocks of state after block ``x``, as one array: a view
    into this thread's scratch buffer, valid until its next call (copy what you keep). Word
    k + 312 of the stream is ``word[k + 156] ^ f(word[k], word[k + 1])``, so the 311 words
    after any 312 known ones take one pass: f of all of them from the known words, then two
    XORs (the second half's ``word[k + 156]`` is in the first half). Passes of 311 words need
    no word computed on its own, as 312-word blocks do."""
    sc = _scratch
    if sc.capacity < blocks:
        sc.grow(max(blocks, _NUMPY_CHUNK))
    buf, y, t = sc.buf, sc.y, sc.t
    buf[:_N] = x
    y_lo, y_hi = y[:_M], y[_M:]
    band, bor, bxor = np.bitwise_and, np.bitwise_or, np.bitwise_xor
    passes = -(-blocks * _N // _PASS)
    for old_head, old_tail, old_far, new_lo, new_src, new_hi in sc.views[:passes]:
        band(old_head, _UPPER, y)
        band(old_tail, _LOWER, t)
        bor(y, t, y)
        band(y, _ONE, t)
        np.multiply(t, _MATRIX_A, t)
        np.right_shift(y, _ONE, y)
        bxor(y, t, y)
        bxor(old_far, y_lo, new_lo)
        bxor(new_src, y_hi, new_hi)
    return buf[_N : (blocks + 1) * _N]


def _temper(y):
    """The output transform of a state word (numpy or jax uint64 arrays)."""
    if isinstance(y, np.ndarray):  # in place on one scratch array: less memory traffic
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
    y = y ^ ((y >> np.uint64(29)) & np.uint64(0x5555555555555555))
    y = y ^ ((y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000))
    y = y ^ ((y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000))
    return y ^ (y >> np.uint64(43))


_NUMPY_CHUNK = 64  # blocks per numpy pass: a pass's temporaries stay in the CPU's cache
_XLA_MIN_BLOCKS = 64  # smaller draws always twist in numpy
# Words drawn after which a process reads the compiled generator from the segment store (~6
# ms), or builds it in a background thread and twists in numpy until it is ready: a small
# model (an MNIST MLP) never pays for it. Compiling costs 0.1-0.2 s, loading it from JAX's
# persistent cache 25-50 ms.
_XLA_AFTER_WORDS = 1 << 17
_XLA_BLOCKS = 256  # blocks per call of the compiled generator
_XLA_IN_FLIGHT = 4  # calls queued on the device ahead of the one being read back
_xla_generate = None  # the compiled generator, once built
_xla_builder: threading.Thread | None = None
_drawn_words = 0  # words twisted by this process (counted until the generator is there)


def _step(word, nxt, far):  # word k + 312 from words k, k + 1 and k + 156
    y = (word & _UPPER) | (nxt & _LOWER)
    return far ^ (y >> _ONE) ^ ((y & _ONE) * _MATRIX_A)


def _generate(x):
    """``_XLA_BLOCKS`` blocks after state ``x``: their state words, outputs, float32
    ``canonical`` values (XLA's uint64 -> float32 conversion rounds as C's does) and the last
    block's state (the next call's input, kept on the device)."""
    import jax
    import jax.numpy as jnp

    def block(prev, _):
        first = _step(prev[:_M], prev[1 : _M + 1], prev[_M:])
        nxt = jnp.concatenate([prev[_M + 1 :], first[:1]])
        new = jnp.concatenate([first, _step(prev[_M:], nxt, first)])
        return new, new

    last, words = jax.lax.scan(block, x, None, length=_XLA_BLOCKS)
    words = words.reshape(-1)
    outs = _temper(words)
    floats = jnp.minimum(outs.astype(jnp.float32) * np.float32(2.0**-64), _BELOW_ONE_32)
    return words, outs, floats, last


def _generator_inputs():
    """(the CPU device, a state on it): host numbers stay on the host, and XLA's CPU
    uint64 -> float32 conversion is the one checked."""
    import jax

    cpu = jax.devices("cpu")[0]
    return cpu, jax.device_put(np.zeros(_N, np.uint64), cpu)


def _generator_key(x) -> str | None:
    """The generator's store key: it always runs on the CPU device, so the user's default
    device (``paddle.set_device``) is not part of it."""
    from . import segment_store

    return segment_store.pinned_text(f"mt19937_64.generate/{_XLA_BLOCKS}", [x], x.device)


def load_generator() -> bool:
    """Read the compiled generator from the segment store (a few ms, against 25-50 ms for
    ``jax.jit`` to find it in JAX's cache): True when it was there."""
    global _xla_generate
    from . import segment_store

    try:
        cpu, x = _generator_inputs()
        key = _generator_key(x)
        prog = None if key is None else segment_store.load_program(key, 1, cpu, in_order=False)
    except Exception:  # noqa: BLE001 - no stored generator: build_generator compiles it
        return False
    if prog is None:
        return False
    _xla_generate = (prog, cpu)
    return True


def build_generator() -> None:
    """Compile the XLA generator (through the segment store and JAX's persistent cache, so
    a later process loads it); the draws that follow use it. Runs in the background thread,
    or directly. Without JAX's 64-bit mode there is no uint64, so nothing is built."""
    global _xla_generate
    import jax

    from . import segment_store

    if not _x64():
        return
    try:
        cpu, x = _generator_inputs()
        key = _generator_key(x)
        fn = jax.jit(_generate)
        if key is not None:
            fn = segment_store.program(key, fn, [x], cpu, in_order=False)
        jax.block_until_ready(fn(x))
    except Exception:  # noqa: BLE001 - no compiled generator: numpy keeps twisting
        return
    _xla_generate = (fn, cpu)


def prepare() -> None:
    """At import: where the store lacks the compiled generator (the first process of this
    version on this machine), build and store it on a background thread now, while the
    import's own Python keeps one core busy, rather than amid the first model build. Where it
    is stored, nothing happens until a process draws enough to read it (a few ms)."""
    global _xla_builder
    from . import segment_store  # imported here, not on the thread (import locks)

    if _xla_builder is not None or not _x64() or segment_store.directory() is None:
        return
    # not a daemon: exit waits for it (a daemon thread stopped inside XLA aborts the process)
    builder = threading.Thread(target=_build_if_missing, name="paddle_compat-mt19937")
    _xla_builder = builder
    try:
        builder.start()
    except RuntimeError:
        _xla_builder = None


def wait_prepared() -> None:
    """Wait until a generator build on a background thread is done (code that counts the
    compiles of a block of its own)."""
    b = _xla_builder
    if isinstance(b, threading.Thread) and b is not threading.current_thread() and b.is_alive():
        b.join()


def _build_if_missing() -> None:
    global _xla_builder
    from . import segment_store

    try:
        key = _generator_key(_generator_inputs()[1])
    except Exception:  # noqa: BLE001 - no device yet: the first large draw decides
        key = None
    if key is None or segment_store.stored(key):
        _xla_builder = None  # the first large draw reads it
        return
    build_generator()


def _count_words(n: int) -> None:
    """Count a draw's words; the one that takes the process past ``_XLA_AFTER_WORDS`` loads
    the stored generator, or starts a thread that builds it (numpy twists meanwhile)."""
    global _drawn_words, _xla_builder
    _drawn_words += n
    if _xla_builder is None and _drawn_words >= _XLA_AFTER_WORDS and _x64():
        if load_generator():
            _xla_builder = threading.current_thread()  # nothing left to build
            return
        builder = threading.Thread(target=build_generator, name="paddle_compat-mt19937")
        _xla_builder = builder  # one attempt per process, even if it cannot start
        try:
            builder.start()
        except RuntimeError:  # no new threads (interpreter shutting down): stay on numpy
            pass


def _x64() -> bool:
    import jax

    return bool(jax.config.jax_enable_x64)  # uint64 needs JAX's 64-bit mode


def _use_xla(blocks: int) -> bool:
    return blocks >= _XLA_MIN_BLOCKS and _xla_generate is not None and _x64()


def _xla_chunks(x: np.ndarray, blocks: int):
    """``_numpy_chunks`` on the compiled generator, about 3-5 ns a word against 20-30: each
    call starts from the previous call's last state on the device, and up to
    ``_XLA_IN_FLIGHT`` calls run ahead of the one being read back. Outputs and floats stay
    device arrays until ``_fill`` reads the ones it needs."""
    import jax

    fn, cpu = _xla_generate
    calls = -(-blocks // _XLA_BLOCKS)
    queue: list = []
    cur = jax.device_put(x, cpu)
    for i in range(calls):
        words, outs, floats, nxt = fn(cur)
        queue.append((cur, words, outs, floats))
        cur = nxt
        while len(queue) > _XLA_IN_FLIGHT or (queue and i == calls - 1):
            start, words, outs, floats = queue.pop(0)
            nb = min(_XLA_BLOCKS, blocks)
            blocks -= nb
            yield np.asarray(start), nb, words, outs, floats


def _numpy_chunks(x: np.ndarray, blocks: int):
    """The next ``blocks`` blocks after state ``x`` in passes of ``_NUMPY_CHUNK`` blocks: (state
    before the pass, blocks in it, their state words, their outputs, float32 values or None)
    per pass."""
    for done in range(0, blocks, _NUMPY_CHUNK):
        nb = min(_NUMPY_CHUNK, blocks - done)
        words = _twist_blocks(x, nb)  # a scratch view: what is kept is copied
        yield x, nb, words, _temper(words), None
        x = words[-_N:].copy()


def _scaled(values: np.ndarray, affine) -> np.ndarray:
    """``values * scale + shift`` in place (``affine`` None: unchanged)."""
    if affine is not None:
        values *= affine[0]
        values += affine[1]
    return values


def _twist_into(x: np.ndarray, blocks: int, dest: np.ndarray, dtype, affine=None) -> tuple:
    """Fill ``dest`` with the outputs (``dtype`` None) or ``canonical`` values of the next
    ``blocks`` blocks after state ``x``; returns (last state, its outputs or None, the
    (start state, blocks) of each pass for ``give_back``). The compiled generator when it is
    ready, else numpy (the same numbers; numpy also when the compiled call fails)."""
    _count_words(blocks * _N)
    if _use_xla(blocks):
        try:
            return _fill(_xla_chunks(x, blocks), dest, dtype, affine)
        except Exception:  # noqa: BLE001 - a device error: numpy gives the same numbers
            pass
    return _fill(_numpy_chunks(x, blocks), dest, dtype, affine)


def _fill(chunks, dest: np.ndarray, dtype, affine) -> tuple:
    pos, passes, chunk = 0, [], None
    for chunk in chunks:
        start, nb, _, outs, floats = chunk
        k = min(nb * _N, len(dest) - pos)
        if floats is not None and dtype == np.float32:
            dest[pos : pos + k] = np.asarray(floats)[:k]
        elif dtype is None:
            dest[pos : pos + k] = np.asarray(outs)[:k]
        else:
            dest[pos : pos + k] = canonical(np.asarray(outs)[:k], dtype)
        _scaled(dest[pos : pos + k], affine)
        pos += k
        passes.append((start, nb))
    _, nb, words, outs, floats = chunk  # the draw's last block: the engine's next state
    last = slice((nb - 1) * _N, nb * _N)
    return np.array(np.asarray(words)[last]), None if floats is not None else outs[last], passes


def _forget_generator_in_child() -> None:
    """A forked child never runs XLA (unsupported after fork) and never starts a builder."""
    global _xla_generate, _xla_builder
    _xla_generate = None
    _xla_builder = threading.current_thread()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_generator_in_child)


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
        self._undo: list = [x, _N, None, [], _N]  # see _draw

    def seed_plain(self, seed: int) -> None:
        """``std::mt19937_64(seed)``'s own seeding (Paddle's ops with a nonzero ``seed``)."""
        x, v = [], int(seed) & 0xFFFFFFFFFFFFFFFF
        for i in range(_N):
            x.append(v)
            v = (6364136223846793005 * (v ^ (v >> 62)) + i + 1) & 0xFFFFFFFFFFFFFFFF
        self._x, self._p = np.array(x, np.uint64), _N
        self._out = None
        self._undo = [self._x, _N, None, [], _N]

    def draw(self, n: int) -> np.ndarray:
        """The next ``n`` raw 64-bit outputs (uint64)."""
        return self._draw(int(n), None)

    def canonical(self, n: int, dtype, scale=None, shift=None) -> np.ndarray:
        """``canonical(self.draw(n), dtype)``, times ``scale`` plus ``shift`` when given (two
        roundings in ``dtype``, as ``scale * u + shift`` in numpy; applied pass by pass while the
        values are in cache). Large float32 draws get their floats from the compiled
        generator."""
        affine = (
            None if scale is None else (np.dtype(dtype).type(scale), np.dtype(dtype).type(shift))
        )
        return self._draw(int(n), np.dtype(dtype), affine)

    def _draw(self, n: int, dtype, affine=None) -> np.ndarray:
        # the new state is computed first and stored last: a draw that raises changes nothing
        x, p, out_now = self._x, self._p, self._out
        if out_now is None:
            out_now = _temper(x)
        head = out_now[p : p + n]
        need = n - len(head)
        if need <= 0:
            self._undo = [x, p, out_now, [], p + len(head)]
            self._out, self._p = out_now, p + len(head)
            return head.copy() if dtype is None else _scaled(canonical(head, dtype), affine)
        blocks = -(-need // _N)
        result = aligned_empty(n, np.uint64 if dtype is None else dtype)
        h = len(head)
        result[:h] = head if dtype is None else canonical(head, dtype)
        _scaled(result[:h], affine)
        last, last_out, passes = _twist_into(x, blocks, result[h:], dtype, affine)
        # give_back's record: the state the draw started from and each pass's start state
        # (a block's state is twisted again from there when a give_back reaches it)
        self._undo = [x, p, out_now, passes, p + n]
        self._x, self._out = last, last_out
        self._p = need - (blocks - 1) * _N
        return result

    def give_back(self, k: int) -> None:
        """Un-draw the last ``k`` outputs of the latest ``draw`` (rejection samplers)."""
        x0, p0, out0, passes, pos = self._undo
        t = pos - int(k)  # position counted from the start of the draw's first block
        if t < p0:
            raise ValueError(f"give_back({k}) goes back past the latest draw")
        self._undo[4] = t
        if t <= _N:
            self._x, self._out, self._p = x0, out0, t
            return
        block = (t - 1) // _N
        if pos > _N and block == (pos - 1) // _N:  # still in the current block
            self._p = t - block * _N
            return
        first = 1
        for start, nb in passes:
            if block < first + nb:
                self._x = _twist_blocks(start, block - first + 1)[-_N:].copy()
                break
            first += nb
        self._out, self._p = None, t - block * _N

    def get_state(self) -> tuple[np.ndarray, int]:
        return self._x.copy(), self._p

    def set_state(self, words, index: int) -> None:
        x = np.asarray(words, dtype=np.uint64).reshape(-1)
        if x.shape != (_N,) or not 0 <= int(index) <= _N:
            raise ValueError(
                f"an mt19937_64 state is {_N} words and an index in [0, {_N}], got "
                f"{x.shape[0]} words and index {index}"
            )
        self._x, self._p, self._out = x.copy(), int(index), None
        self._undo = [self._x, self._p, None, [], self._p]
