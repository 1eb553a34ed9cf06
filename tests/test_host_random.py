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

    # raw draws and float32 canonical draws (their floats come from the device), with give_back
    steps = [("raw", 5), ("f32", 50000), ("back", 700), ("raw", 7), ("f32", 312 * 128 + 1)]
    steps += [("raw", 312 * 70), ("f64", 30000), ("f32", 3), ("back", 2), ("raw", 4)]

    floats = {"f32": np.float32, "f64": np.float64}

    def run():
        e, out = MT19937_64(3), []
        for kind, n in steps:
            if kind == "back":
                e.give_back(n)
            else:
                out.append(e.draw(n) if kind == "raw" else e.canonical(n, floats[kind]))
        return out

    mt.build_generator()
    assert mt._use_xla(64) and not mt._use_xla(63)
    compiled = run()
    monkeypatch.setattr(mt, "_XLA_MIN_BLOCKS", 10**9)
    plain = run()
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(compiled, plain))


GIVE_BACK_PROGRAMS = {  # (kind, n): draw n raw / float32 / float64 values, or give n back
    "back_within_block": [("raw", 100), ("back", 30), ("raw", 40)],
    "back_across_passes": [("raw", 5), ("raw", 312 * 9 + 7), ("back", 312 * 6), ("raw", 999)],
    "back_twice": [("f32", 312 * 70), ("back", 312 * 3 + 1), ("back", 312 * 50), ("f64", 500)],
    "back_whole_draw": [("raw", 17), ("raw", 312 * 130), ("back", 312 * 130), ("raw", 312 * 2)],
    "back_to_first_block": [("raw", 300), ("f32", 312 * 66), ("back", 312 * 66 - 1), ("raw", 3)],
    "many_compiled_calls": [("f32", 312 * 1300 + 5), ("back", 312 * 700), ("f64", 312 * 3)],
}


@pytest.mark.parametrize("path", ["numpy", "compiled"])
@pytest.mark.parametrize("program", list(GIVE_BACK_PROGRAMS), ids=str)
def test_draws_and_give_backs_follow_one_stream(monkeypatch, path, program):
    import paddle_compat._core.mt19937 as mt

    stream = MT19937_64(9).draw(312 * 1400)  # the reference: one draw, read by position
    if path == "numpy":  # many small passes
        monkeypatch.setattr(mt, "_NUMPY_CHUNK", 2)
        monkeypatch.setattr(mt, "_XLA_MIN_BLOCKS", 10**9)
    else:
        mt.build_generator()
        assert mt._use_xla(64)
    e, pos = MT19937_64(9), 0
    for kind, n in GIVE_BACK_PROGRAMS[program]:
        if kind == "back":
            e.give_back(n)
            pos -= n
            continue
        want = stream[pos : pos + n]
        got = (
            e.draw(n)
            if kind == "raw"
            else e.canonical(n, {"f32": np.float32, "f64": np.float64}[kind])
        )
        assert np.array_equal(got, want if kind == "raw" else mt.canonical(want, got.dtype))
        pos += n
    assert np.array_equal(e.draw(400), stream[pos : pos + 400])
    with pytest.raises(ValueError, match="past the latest draw"):
        e.give_back(401)


def _join_builder(mt):
    """Let a real builder thread from an earlier test finish first."""
    import threading

    builder = mt._xla_builder
    if builder is not None and builder is not threading.current_thread() and builder.is_alive():
        builder.join()


def test_generator_is_built_in_the_background_past_128k_words(monkeypatch):
    import paddle_compat._core.mt19937 as mt

    started = []
    _join_builder(mt)
    monkeypatch.setattr(mt, "_xla_builder", None)
    monkeypatch.setattr(mt, "_xla_generate", None)
    monkeypatch.setattr(mt, "_drawn_words", 0)
    monkeypatch.setattr(mt, "build_generator", lambda: started.append(1))
    monkeypatch.setattr(mt, "load_generator", lambda: False)  # not in the segment store
    e = MT19937_64(2)
    e.draw(100_000)  # a small model: numpy only, nothing built
    assert not started and not mt._use_xla(1000)
    e.draw(1 << 15)
    mt._xla_builder.join()
    assert started == [1]
    e.draw(1 << 20)  # one builder per process
    assert started == [1]


def test_a_stored_generator_is_read_by_the_draw_that_needs_it(monkeypatch):
    import threading

    import jax

    import paddle_compat._core.mt19937 as mt
    from paddle_compat._core import segment_store

    if segment_store.directory() is None:
        pytest.skip("the segment store is off")
    _join_builder(mt)
    mt.build_generator()  # compiles through the store (or finds it there)
    monkeypatch.setattr(mt, "_xla_builder", None)
    monkeypatch.setattr(mt, "_xla_generate", None)
    monkeypatch.setattr(mt, "_drawn_words", 0)
    want = MT19937_64(5).canonical(1 << 17, np.float32)  # numpy's numbers (no generator yet)
    monkeypatch.setattr(mt, "_xla_generate", None)
    monkeypatch.setattr(mt, "_xla_builder", None)
    monkeypatch.setattr(mt, "_drawn_words", 1 << 17)  # past the threshold: the next draw loads
    got = MT19937_64(5).canonical(1 << 17, np.float32)
    assert isinstance(mt._xla_generate[0], jax.stages.Compiled)
    assert mt._xla_builder is threading.current_thread()  # loaded, no thread started
    assert np.array_equal(got, want)


def test_a_failed_draw_leaves_the_engine_as_it_was(monkeypatch):
    import paddle_compat._core.mt19937 as mt

    e, ref = MT19937_64(4), MT19937_64(4)
    e.draw(100), ref.draw(100)

    def broken(*_):
        raise RuntimeError("device lost")

    monkeypatch.setattr(mt, "_twist_into", broken)
    with pytest.raises(RuntimeError, match="device lost"):
        e.draw(312 * 64)
    monkeypatch.undo()
    assert e.get_state()[1] == ref.get_state()[1]
    assert np.array_equal(e.draw(5000), ref.draw(5000))


def test_a_failing_compiled_generator_falls_back_to_numpy(monkeypatch):
    import paddle_compat._core.mt19937 as mt

    def broken(*_):
        raise RuntimeError("device lost")

    monkeypatch.setattr(mt, "_xla_generate", (broken, None))
    a = MT19937_64(6).canonical(312 * 70, np.float32)
    monkeypatch.setattr(mt, "_xla_generate", None)
    assert np.array_equal(a, MT19937_64(6).canonical(312 * 70, np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_in_chunks_equals_one_pass(monkeypatch, dtype):
    e = MT19937_64(8)
    whole = [host_random.normal(e, n, 0.5, 2.0, dtype) for n in (1001, 7, 4096)]
    monkeypatch.setattr(host_random, "_CHUNK_PAIRS", 37)
    monkeypatch.setattr(host_random, "_SUB_PAIRS", 5)
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
