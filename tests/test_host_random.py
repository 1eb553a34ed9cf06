"""The host random engine and samplers under the seeded goldens (tests/cases/seeded_random.py):
the Mersenne Twister against the C++ standard's check value, its draw/give-back bookkeeping,
glibc's logf, and the eager/compiled boundary."""

from __future__ import annotations

import ctypes
import ctypes.util

import jax
import numpy as np
import pytest
from compile_count import count_compiles

import paddle
from paddle_compat._core import host_random, libm
from paddle_compat._core import random as _random
from paddle_compat._core.mt19937 import MT19937_64


def test_mt19937_64_standard_check_value():
    # [rand.predef]: the 10000th output of a default-constructed std::mt19937_64
    assert MT19937_64(5489, seed_seq=False).draw(10000)[-1] == 9981545732273789042


@pytest.mark.parametrize(
    "sizes",
    [(1, 311, 312, 313, 1000, 5, 624), (312,) * 4, (7, 0, 2000, 1)],
    ids=["mixed", "blocks", "zero"],
)
def test_draws_in_pieces_equal_one_draw(sizes):
    e = MT19937_64(3)
    pieces = np.concatenate([e.draw(n) for n in sizes])
    assert np.array_equal(pieces, MT19937_64(3).draw(sum(sizes)))


def test_compiled_generator_equals_numpy(monkeypatch):
    import paddle_compat._core.mt19937 as mt

    sizes = (5, 50000, 7, 312 * 128 + 1, 3)
    monkeypatch.setitem(mt._XLA_AFTER_WORDS, "cached", 0)
    monkeypatch.setitem(mt._XLA_AFTER_WORDS, "cold", 0)
    e = MT19937_64(3)
    compiled = [e.draw(n) for n in sizes]
    monkeypatch.setattr(mt, "_XLA_MIN_BLOCKS", 10**9)
    e = MT19937_64(3)
    assert all(np.array_equal(a, e.draw(n)) for a, n in zip(compiled, sizes))


@pytest.mark.parametrize(
    "blocks,numpy_words,built,cached,expected",
    [
        (63, 10**9, True, True, False),  # small draws always twist in numpy
        (64, 0, True, False, True),  # the generator exists: use it
        (64, 0, False, True, False),  # a small program never loads it
        (64, 2 << 20, False, True, True),  # past the cached threshold
        (64, 2 << 20, False, False, False),  # cold: compiling costs more
        (64, 8 << 20, False, False, True),
    ],
)
def test_when_the_compiled_generator_is_used(
    monkeypatch, tmp_path, blocks, numpy_words, built, cached, expected
):
    import paddle_compat._core.mt19937 as mt

    marker = tmp_path / "marker"
    if cached:
        marker.touch()
    monkeypatch.setattr(mt, "_cache_marker", lambda: marker)
    monkeypatch.setattr(mt, "_numpy_words", numpy_words)
    monkeypatch.setattr(mt, "_xla_generate", object() if built else None)
    assert mt._use_xla(blocks) is expected


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_in_chunks_equals_one_pass(monkeypatch, dtype):
    e = MT19937_64(8)
    whole = [host_random.normal(e, n, 0.5, 2.0, dtype) for n in (1001, 7, 4096)]
    monkeypatch.setattr(host_random, "_CHUNK_PAIRS", 37)
    e = MT19937_64(8)
    for a, n in zip(whole, (1001, 7, 4096)):
        assert np.array_equal(a, host_random.normal(e, n, 0.5, 2.0, dtype))


@pytest.mark.parametrize("n,back", [(10, 3), (700, 500), (313, 313), (1000, 1)])
def test_give_back_rewinds(n, back):
    e = MT19937_64(11)
    e.draw(5)
    a = e.draw(n)
    e.give_back(back)
    assert np.array_equal(e.draw(back), a[n - back :])


def test_state_round_trip_and_bad_state():
    e = MT19937_64(1)
    e.draw(100)
    words, index = e.get_state()
    a = e.draw(500)
    e.set_state(words, index)
    assert np.array_equal(e.draw(500), a)
    with pytest.raises(ValueError, match="312 words"):
        e.set_state(words[:10], 0)


def _glibc_logf():
    name = ctypes.util.find_library("m")
    if name is None:
        return None
    f = ctypes.CDLL(name).logf
    f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
    return f


@pytest.mark.skipif(_glibc_logf() is None, reason="no C math library to compare with")
def test_logf_equals_the_c_library():
    f = _glibc_logf()
    r = np.random.default_rng(0)
    x = np.concatenate(
        [
            r.random(20000).astype(np.float32),
            (r.random(2000) * 1e-38).astype(np.float32),  # subnormals
            np.float32([1.0, 0.5, 2.0, 1e-45, 3.4e38]),
        ]
    )
    x = x[x > 0]
    want = np.array([f(float(v)) for v in x], np.float32)
    assert np.array_equal(libm.logf(x), want)


def test_log_equals_math_log():
    import math

    x = np.random.default_rng(1).random(20000)
    assert np.array_equal(libm.log(x), np.array([math.log(v) for v in x]))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 99, 100])
def test_permutation_is_a_permutation(n):
    p = host_random.permutation(MT19937_64(5), n)
    assert sorted(p.tolist()) == list(range(n))


def test_compiled_code_draws_from_the_key():
    # inside a JAX trace the host stream is untouched; the op draws from the key
    paddle.seed(4)
    before = _random.host_state()
    jax.jit(lambda: paddle.rand([3])._value)()
    after = _random.host_state()
    assert np.array_equal(before[0], after[0]) and before[1] == after[1]
    assert _random.eager()


def test_seeded_layer_construction_compiles_nothing():
    with count_compiles() as compiles:
        paddle.seed(9)
        paddle.nn.Sequential(
            paddle.nn.Conv2D(3, 7, 3),
            paddle.nn.BatchNorm2D(7),
            paddle.nn.Linear(13, 11),
            paddle.nn.LayerNorm(11),
            paddle.nn.Embedding(17, 5),
        )
    assert compiles == []
