"""paddle.inference over a model saved by paddle.jit.save in another process: Config forms,
handles, run() and run(list), clone/pool, options, errors."""

from __future__ import annotations

import os
import threading
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
