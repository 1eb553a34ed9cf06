"""paddle.inference over a model saved by paddle.jit.save in another process: Config forms,
handles, run() and run(list), clone/pool, options, errors."""

from __future__ import annotations

import os
import threading
import time
import warnings

import numpy as np
import paddle.inference as pi
import pytest
from _serving_model import IN, OUT, save_model

import paddle


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return save_model(tmp_path_factory.mktemp("inference"))


def _predictor(prefix):
    return pi.create_predictor(pi.Config(prefix + ".json", prefix + ".pdiparams"))


def test_handles_run_matches_eager(model):
    prefix, d = model
    p = _predictor(prefix)
    assert p.get_input_names() == ["x"] and p.get_output_names() == ["fetch_name_0"]
    h = p.get_input_handle("x")
    assert h.shape() == [0] and h.type() == pi.DataType.FLOAT32
    o = p.get_output_handle("fetch_name_0")
    for x, y in ((d["x"][:1], d["y1"]), (d["x"][:64], d["y64"])):  # one artifact, any batch
        h.reshape(list(x.shape))
        h.copy_from_cpu(x)
        assert h.shape() == list(x.shape)
        assert p.run() is None
        assert o.shape() == [len(x), OUT] and o.type() == pi.DataType.FLOAT32
        got = o.copy_to_cpu()
        np.testing.assert_allclose(got, y, rtol=1e-5, atol=1e-5)
    got[0, 0] = 123.0  # copy_to_cpu gives a fresh writable array
    assert o.copy_to_cpu()[0, 0] != 123.0
    assert o.lod() == []


def test_copy_from_cpu_copies(model):
    prefix, d = model
    p = _predictor(prefix)
    x = d["x"][:4].copy()
    p.get_input_handle("x").copy_from_cpu(x)
    x[:] = 0.0  # changing the caller's buffer after the copy does not reach the model
    p.run()
    np.testing.assert_allclose(
        p.get_output_handle("fetch_name_0").copy_to_cpu(), d["y"][:4], rtol=1e-5, atol=1e-5
    )


def test_run_with_tensor_list(model):
    prefix, d = model
    p = _predictor(prefix)
    outs = p.run([paddle.to_tensor(d["x"][:64])])
    assert isinstance(outs, list) and len(outs) == 1
    assert isinstance(outs[0], paddle.Tensor) and outs[0].stop_gradient
    np.testing.assert_allclose(outs[0].numpy(), d["y64"], rtol=1e-5, atol=1e-5)
    # the output handle holds the same result
    np.testing.assert_allclose(
        p.get_output_handle("fetch_name_0").copy_to_cpu(), d["y64"], rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize("form", ["prefix", "dir", "pdmodel", "json1"])
def test_config_forms(model, form):
    prefix, d = model
    cfg = {
        "prefix": lambda: pi.Config(prefix),
        "dir": lambda: pi.Config(os.path.dirname(prefix)),
        "pdmodel": lambda: pi.Config(prefix + ".pdmodel", prefix + ".pdiparams"),
        "json1": lambda: pi.Config(prefix + ".json"),
    }[form]()
    p = pi.create_predictor(cfg)
    np.testing.assert_allclose(
        p.run([paddle.to_tensor(d["x"][:1])])[0].numpy(), d["y1"], rtol=1e-5, atol=1e-5
    )
    c = pi.Config()
    c.set_model(prefix + ".json", prefix + ".pdiparams")
    assert c.prog_file() == prefix + ".json" and c.params_file() == prefix + ".pdiparams"
    assert c.model_dir() == ""
    assert pi.Config(prefix).model_dir() == prefix


def test_options_accepted(model):
    prefix, d = model
    c = pi.Config(prefix + ".json", prefix + ".pdiparams")
    assert not c.use_gpu() and c.ir_optim() and c.mkldnn_enabled()
    assert c.cpu_math_library_num_threads() == 1
    c.set_cpu_math_library_num_threads(4)
    c.switch_ir_optim(False)
    c.enable_memory_optim()
    c.disable_glog_info()
    c.enable_mkldnn()
    c.disable_mkldnn()
    c.switch_use_feed_fetch_ops(False)
    c.switch_specify_input_names(True)
    assert c.cpu_math_library_num_threads() == 4 and not c.ir_optim()
    assert c.glog_info_disabled() and not c.mkldnn_enabled()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        c.enable_tensorrt_engine(workspace_size=1 << 30, max_batch_size=8)
        c.enable_use_gpu(100, 0)  # this machine's JAX has no GPU: stays on CPU, as Paddle's
        # CPU build does
    assert not c.tensorrt_engine_enabled()
    assert any("TensorRT" in str(x.message) for x in w)
    assert not c.use_gpu() and c.memory_pool_init_size_mb() == 100
    c.disable_gpu()
    assert "model_file" in c.summary() and "cpu_math_thread" in c.summary()
    p = pi.create_predictor(c)
    np.testing.assert_allclose(
        p.run([paddle.to_tensor(d["x"][:2])])[0].numpy(), d["y"][:2], rtol=1e-5, atol=1e-5
    )
    assert "version: 3.3.1" in pi.get_version()
    assert pi.get_num_bytes_of_data_type(pi.DataType.INT64) == 8
    assert str(pi.DataType.FLOAT32) == "PaddleDType.FLOAT32" and int(pi.DataType.FLOAT32) == 0
    assert [m for m in pi.PrecisionType.__members__] == ["Float32", "Int8", "Half", "Bfloat16"]


def test_errors(model):
    prefix, d = model
    p = _predictor(prefix)
    with pytest.raises(RuntimeError, match="not found"):
        p.get_input_handle("nope")
    with pytest.raises(RuntimeError, match="copy_from_cpu"):
        p.run()
    h = p.get_input_handle("x")
    h.copy_from_cpu(np.ones((2, IN + 1), "float32"))
    with pytest.raises(ValueError, match=r"shape \[2, 17\].*\[-1, 16\]"):
        p.run()
    h.copy_from_cpu(np.ones((2, IN), "int64"))
    with pytest.raises(ValueError, match="dtype int64.*float32"):
        p.run()
    h.copy_from_cpu(d["x"][:2].astype("float64"))  # same kind: cast, as Paddle's feed does
    p.run()
    np.testing.assert_allclose(
        p.get_output_handle("fetch_name_0").copy_to_cpu(), d["y"][:2], rtol=1e-5, atol=1e-5
    )
    with pytest.raises(ValueError, match="wrong feed input size, need 1 but get 2"):
        p.run([paddle.ones([1, IN]), paddle.ones([1, IN])])
    with pytest.raises(TypeError, match="numpy"):
        h.copy_from_cpu([[1.0] * IN])
    with pytest.raises(RuntimeError, match="NotFound"):
        pi.create_predictor(pi.Config(prefix + "_missing"))


def test_clone_pool_and_threads(model):
    prefix, d = model
    p = _predictor(prefix)
    q = p.clone()
    assert q.get_input_handle("x") is not p.get_input_handle("x")
    pool = pi.PredictorPool(pi.Config(prefix), 3)
    preds = [pool.retrieve(i) for i in range(3)] + [q]
    errors = []

    def work(pred, k):
        try:
            for i in range(10):
                lo = (k * 10 + i) % 190
                x = d["x"][lo : lo + 3]
                pred.get_input_handle("x").copy_from_cpu(x)
                pred.run()
                got = pred.get_output_handle("fetch_name_0").copy_to_cpu()
                np.testing.assert_allclose(got, d["y"][lo : lo + 3], rtol=1e-5, atol=1e-5)
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(pr, k)) for k, pr in enumerate(preds)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors[0]
    assert not any(t.is_alive() for t in threads)


# -- batch buckets (paddle-compat extension: Config.enable_batch_buckets) ----------------------
def test_batch_buckets_knob(model):
    prefix, d = model
    cfg = pi.Config(prefix)
    assert not cfg.batch_buckets_enabled()  # off by default: Paddle's behaviour
    assert pi.create_predictor(cfg)._exec is None
    with pytest.raises(ValueError, match="max_batch and cache_size must be >= 1"):
        cfg.enable_batch_buckets(0)
    cfg.enable_batch_buckets(max_batch=16, cache_size=8)
    assert cfg.batch_buckets_enabled()
    p = pi.create_predictor(cfg)
    h, o = p.get_input_handle("x"), p.get_output_handle("fetch_name_0")
    for n in (1, 2, 3, 5, 7, 9, 13, 16):  # padded to 1, 2, 4, 8, 8, 16, 16, 16
        h.copy_from_cpu(d["x"][:n])
        p.run()
        assert o.shape() == [n, OUT]
        np.testing.assert_allclose(o.copy_to_cpu(), d["y"][:n], rtol=1e-5, atol=1e-5)
    outs = p.clone().run([paddle.to_tensor(d["x"][:6])])  # clones share the executables
    np.testing.assert_allclose(outs[0].numpy(), d["y"][:6], rtol=1e-5, atol=1e-5)
    st = p._exec.stats()
    assert st["buckets"] == [1, 2, 4, 8, 16] and st["compiles"] == 5, st
    h.copy_from_cpu(d["x"][:17])
    with pytest.raises(ValueError, match="17 rows exceeds the largest batch bucket"):
        p.run()
    cfg.disable_batch_buckets()
    assert not cfg.batch_buckets_enabled()


def test_padded_rows_do_not_change_real_rows(model):
    """Bucketing pads with zero rows and slices: valid because this model (like any inference
    model without batch-mixing ops) computes each row on its own; the bucket's executable
    gives the real rows the same values whatever the padding holds."""
    prefix, d = model
    cfg = pi.Config(prefix)
    cfg.enable_batch_buckets(8)
    p = pi.create_predictor(cfg)
    x = d["x"][:3]
    zero_pad = p.run([paddle.to_tensor(x)])[0].numpy()
    ex = p._exec
    key = (((4, IN), np.dtype("float32")),)
    junk = np.concatenate([x, np.full((1, IN), 1e6, "float32")])
    junk_pad = np.asarray(ex.executable(key)(p._params, [junk])[0])[:3]
    np.testing.assert_allclose(junk_pad, zero_pad, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(zero_pad, d["y"][:3], rtol=1e-5, atol=1e-5)


def _seq_model():
    """A jax.export'ed ``(params, [x[b, s]]) -> [x * w, x.sum(1)]`` with two dynamic dims."""
    import jax
    import jax.numpy as jnp

    from paddle_compat._export import IOSpec

    b, s = jax.export.symbolic_shape("b, s")
    fn = jax.jit(lambda ps, xs: [xs[0] * ps[0], xs[0].sum(1)])
    exp = jax.export.export(fn)(
        [jax.ShapeDtypeStruct((), jnp.float32)], [jax.ShapeDtypeStruct((b, s), jnp.float32)]
    )
    return exp, [np.float32(2.0)], [IOSpec("x", [-1, -1], "float32")]


def test_compile_cache_is_bounded_lru():
    from serving._buckets import Executables

    exp, params, specs = _seq_model()
    ex = Executables(exp, params, specs, max_batch=8, cache_size=3)
    assert ex.bucketing  # b leads every output; s is compiled per exact size
    for s in (1, 2, 3, 4, 5, 1, 5):
        x = np.arange(3 * s, dtype="float32").reshape(3, s)
        y, tot = ex.run([x])
        np.testing.assert_array_equal(y, x * 2)
        np.testing.assert_array_equal(tot, x.sum(1))
    st = ex.stats()  # 1..5 compiled (bucket 4); 1 was evicted: compiled again; 5 a hit
    assert st["compiles"] == 6 and st["evictions"] == 3 and st["compiled_shapes"] == 3, st


def test_compile_runs_outside_the_execution_lock():
    from serving._buckets import Executables

    exp, params, specs = _seq_model()
    ex = Executables(exp, params, specs, max_batch=8, cache_size=8)
    lock = threading.Lock()
    warm = np.ones((1, 4), "float32")
    ex.run([warm], lock)
    gate, real = threading.Event(), ex._compile
    entered = threading.Event()

    def slow_compile(key):
        entered.set()
        assert gate.wait(30)
        return real(key)

    ex._compile = slow_compile
    new = np.ones((3, 4), "float32")  # bucket 4: not compiled yet
    results = []
    threads = [threading.Thread(target=lambda: results.append(ex.run([new], lock)))]
    threads.append(threading.Thread(target=lambda: results.append(ex.run([new], lock))))
    for t in threads:
        t.start()
    assert entered.wait(30)
    t0 = time.perf_counter()
    np.testing.assert_array_equal(ex.run([warm], lock)[0], warm * 2)  # not behind the compile
    assert time.perf_counter() - t0 < 5 and all(t.is_alive() for t in threads)
    gate.set()
    for t in threads:
        t.join(30)
    assert len(results) == 2 and ex.stats()["compiles"] == 2  # the new shape compiled once
    np.testing.assert_array_equal(results[0][0], new * 2)


def test_bucketing_needs_a_leading_batch_dim():
    import jax
    import jax.numpy as jnp

    from paddle_compat._export import IOSpec
    from serving._buckets import Executables, batch_layout, bucket_of, bucket_sizes

    assert bucket_sizes(64) == [1, 2, 4, 8, 16, 32, 64] and bucket_sizes(48)[-2:] == [32, 48]
    assert [bucket_of(n, 48) for n in (0, 1, 3, 33, 48)] == [1, 1, 4, 48, 48]
    (b,) = jax.export.symbolic_shape("b")
    f32 = jnp.float32
    cases = [  # (function, input shape, bucketed?)
        (lambda ps, xs: [xs[0] + 1], (b, 3), True),
        (lambda ps, xs: [xs[0].sum(0)], (b, 3), False),  # an output without the batch dim
        (lambda ps, xs: [xs[0] @ xs[0]], (b, b), False),  # b elsewhere
        (lambda ps, xs: [xs[0] + 1], (3, b), False),  # not leading
    ]
    for fn, shape, want in cases:
        exp = jax.export.export(jax.jit(fn))([], [jax.ShapeDtypeStruct(shape, f32)])
        assert (batch_layout(exp, 1) is not None) is want, shape
        ex = Executables(
            exp, [], [IOSpec("x", [-1 if not isinstance(d, int) else d for d in shape], "float32")]
        )
        assert ex.bucketing is want


def test_buckets_two_batched_inputs():
    import jax
    import jax.numpy as jnp

    from paddle_compat._export import IOSpec
    from serving._buckets import Executables

    (b,) = jax.export.symbolic_shape("b")
    f32 = jnp.float32
    exp = jax.export.export(jax.jit(lambda ps, xs: [xs[0] * xs[1], xs[1] + ps[0]]))(
        [jax.ShapeDtypeStruct((3,), f32)],
        [jax.ShapeDtypeStruct((b, 3), f32), jax.ShapeDtypeStruct((b, 3), f32)],
    )
    specs = [IOSpec("x", [-1, 3], "float32"), IOSpec("y", [-1, 3], "float32")]
    ex = Executables(exp, [np.ones(3, "float32")], specs, max_batch=8)
    assert ex.batched == [True, True]
    x, y = np.arange(15, dtype="float32").reshape(5, 3), np.full((5, 3), 2.0, "float32")
    prod, plus = ex.run([x, y])  # both padded to 8 rows, sliced back to 5
    np.testing.assert_array_equal(prod, x * y)
    np.testing.assert_array_equal(plus, y + 1)
    with pytest.raises(ValueError, match=r"share the batch dimension but have \[2, 5\] rows"):
        ex.run([x[:2], y])
