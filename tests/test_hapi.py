"""paddle.Model beyond the goldens (tests/cases/hapi_model.py): compiled batches equal eager
ones, the per-epoch history, AMP through amp_configs, the inference-model save, gradient
accumulation, num_iters, and the VisualDL callback writing TensorBoard event files."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np
import pytest

import paddle

sys.path.insert(0, str(Path(__file__).parent / "cases"))
from hapi_model import Digits, _lenet, _model  # noqa: E402


def _fit_losses(**fit_kwargs):
    model = _model(_lenet(11))
    rec = []

    class Rec(paddle.callbacks.Callback):
        def on_train_batch_end(self, step, logs=None):
            rec.append(float(logs["loss"][0]))

    model.fit(Digits(0, 96), batch_size=32, epochs=1, verbose=0, callbacks=[Rec()], **fit_kwargs)
    return model, rec


def test_compiled_batches_equal_eager():
    _, compiled = _fit_losses()
    paddle.jit.enable_to_static(False)
    try:
        _, eager = _fit_losses()
    finally:
        paddle.jit.enable_to_static(True)
    np.testing.assert_allclose(compiled, eager, rtol=1e-5)


def test_history_num_iters_and_accumulation():
    model = _model(_lenet(12))
    model.fit(Digits(0, 64), Digits(64, 96), batch_size=32, epochs=2, verbose=0)
    assert set(model.history) == {"loss", "acc", "eval_loss", "eval_acc"}
    assert all(len(v) == 2 and all(isinstance(x, float) for x in v) for v in model.history.values())
    steps = []

    class Count(paddle.callbacks.Callback):
        def on_train_batch_end(self, step, logs=None):
            steps.append(step)

    model.fit(Digits(0, 64), batch_size=16, epochs=5, verbose=0, num_iters=3, callbacks=[Count()])
    assert steps == [0, 1, 2] and model.stop_training
    model.stop_training = False
    before = [p.numpy().copy() for p in model.parameters()]
    model.fit(Digits(0, 32), batch_size=16, epochs=1, verbose=0, accumulate_grad_batches=4)
    # 2 batches of 4 to accumulate: the last batch of the epoch still updates
    assert any(not np.array_equal(a, p.numpy()) for a, p in zip(before, model.parameters()))


def test_amp_configs_train_in_float16():
    model = paddle.Model(_lenet(13))
    opt = paddle.optimizer.SGD(0.05, parameters=model.parameters())
    model.prepare(
        opt, paddle.nn.CrossEntropyLoss(), amp_configs={"level": "O1", "init_loss_scaling": 128}
    )
    out = model.train_batch([Digits(0, 16).x], [Digits(0, 16).y])
    assert np.isfinite(out[0]).all()
    assert model._scaler is not None and model._scaler.get_init_loss_scaling() == 128
    o2 = paddle.Model(_lenet(14))
    o2.prepare(
        paddle.optimizer.Adam(parameters=o2.parameters()),
        paddle.nn.CrossEntropyLoss(),
        amp_configs="O2",
    )
    assert o2.network[0].weight.dtype == paddle.float16 and o2._optimizer._multi_precision
    assert np.isfinite(o2.train_batch([Digits(0, 16).x], [Digits(0, 16).y])[0]).all()


def test_save_inference_model(tmp_path):
    model = _model(_lenet(15))
    with pytest.raises(RuntimeError, match="Saving inference model needs 'inputs'"):
        model.save(str(tmp_path / "infer"), training=False)
    x = Digits(0, 4).x
    want = model.predict_batch([x])[0]
    with pytest.warns(UserWarning, match="'inputs' was not specified"):
        model.save(str(tmp_path / "infer"), training=False)
    loaded = paddle.jit.load(str(tmp_path / "infer"))
    np.testing.assert_allclose(loaded(paddle.to_tensor(x)).numpy(), want, rtol=1e-5)
    spec = paddle.static.InputSpec([None, 1, 8, 8], "float32", "image")
    named = paddle.Model(_lenet(15), inputs=spec)
    named.save(str(tmp_path / "named"), training=False)
    assert paddle.jit.load(str(tmp_path / "named"))(paddle.to_tensor(x)).shape == [4, 10]


def _tfrecord_scalars(path):
    from tensorboardX.proto import event_pb2

    data, out, i = path.read_bytes(), [], 0
    while i < len(data):
        (n,) = struct.unpack("<Q", data[i : i + 8])
        event = event_pb2.Event.FromString(data[i + 12 : i + 12 + n])
        i += 12 + n + 4
        out += [(v.tag, event.step, v.simple_value) for v in event.summary.value]
    return out


def test_visualdl_writes_tensorboard_events(tmp_path):
    model = _model(_lenet(16))
    cb = paddle.callbacks.VisualDL(log_dir=str(tmp_path))
    model.fit(Digits(0, 64), Digits(64, 96), batch_size=32, epochs=2, verbose=0, callbacks=[cb])
    (events,) = list(tmp_path.glob("events.out.tfevents.*"))
    scalars = _tfrecord_scalars(events)
    tags = {t for t, _, _ in scalars}
    assert tags == {"train/loss", "train/acc", "eval/loss", "eval/acc"}
    assert [s for t, s, _ in scalars if t == "train/loss"] == [1, 2, 3, 4]
    assert [s for t, s, _ in scalars if t == "eval/acc"] == [0, 1]
    np.testing.assert_allclose(
        [v for t, _, v in scalars if t.startswith("eval/")][-2:],
        [model.history["eval_loss"][-1], model.history["eval_acc"][-1]],
        rtol=1e-6,
    )


def test_wandb_absent_and_progress_bar_without_length(capsys):
    with pytest.raises(ImportError, match="pip install wandb"):
        paddle.callbacks.WandbCallback()
    from paddle_compat.hapi.progressbar import ProgressBar

    bar = ProgressBar(num=None, verbose=2)
    bar.update(3, [("loss", 0.5), ("acc", 0.00012)])
    assert capsys.readouterr().out.startswith("step   3 - loss: 0.5000 - acc: 1.2000e-04 - ")
    with pytest.raises(TypeError, match="num should be None or integer"):
        ProgressBar(num=0)


def test_early_stopping_without_eval_data_warns():
    model = _model(_lenet(17))
    with pytest.warns(UserWarning, match="EarlyStopping needs validation data"):
        model.fit(
            Digits(0, 32), batch_size=32, verbose=0, callbacks=[paddle.callbacks.EarlyStopping()]
        )


def test_o2_model_evaluates_and_accumulates():
    """amp_configs='O2' decorates the network, so eval/predict run under the same auto_cast;
    gradient accumulation with Adam (its moments are born in the first update) compiles."""
    model = paddle.Model(_lenet(18))
    opt = paddle.optimizer.Adam(parameters=model.parameters())
    model.prepare(opt, paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy(), amp_configs="O2")
    model.fit(Digits(0, 64), batch_size=16, epochs=1, verbose=0, accumulate_grad_batches=2)
    result = model.evaluate(Digits(64, 96), batch_size=16, verbose=0)
    assert np.isfinite(result["loss"][0])
    (out,) = model.predict(Digits(0, 8), batch_size=4, verbose=0, stack_outputs=True)
    assert out.shape == (8, 10)
    no_opt = paddle.Model(paddle.nn.Sequential(paddle.nn.Linear(3, 2)))
    no_opt.prepare(None, paddle.nn.MSELoss(), amp_configs="O2")
    assert isinstance(no_opt.network, paddle.nn.Sequential)


def test_eval_runs_without_grad_and_saves_first_batch_shape(tmp_path):
    model = _model(_lenet(19))
    model.fit(Digits(0, 40), batch_size=12, epochs=1, verbose=0)  # batches 12, 12, 12, 4
    loss, _ = model.eval_batch([Digits(0, 4).x], [Digits(0, 4).y])
    with pytest.warns(UserWarning, match=r"\[\[12, 1, 8, 8\]\]"):
        model.save(str(tmp_path / "infer"), training=False)
    d = Digits(0, 4)
    outs, losses = model._compiled("eval")([paddle.to_tensor(d.x)], [paddle.to_tensor(d.y)])
    assert outs[0].stop_gradient and losses[0].stop_gradient
