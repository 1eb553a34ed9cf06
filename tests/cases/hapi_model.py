"""paddle.Model: LeNet on the bundled 8x8 digits through fit/evaluate/predict with Paddle's
progress log, the batch APIs, save/load, and the built-in callbacks (goldens from real
Paddle; printed step times are masked)."""

import contextlib
import io
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import paddle.nn as nn
from _util import expect_error, rng
from paddle.io import Dataset

import paddle

TOLERANCE = {"case_lenet_fit_digits": (1e-4, 1e-6), "case_model_batches": (1e-5, 1e-6)}
DIGITS = Path(__file__).resolve().parents[2] / "paddle_compat" / "demo" / "data" / "digits.npz"


class Digits(Dataset):
    def __init__(self, start, stop):
        d = np.load(DIGITS)
        self.x = (d["images"][start:stop].astype("float32") / 16.0)[:, None]
        self.y = d["labels"][start:stop].astype("int64")[:, None]

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.y)


def _lenet(seed=1):
    net = nn.Sequential(
        nn.Conv2D(1, 6, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2D(2),
        nn.Conv2D(6, 16, 3),
        nn.ReLU(),
        nn.Flatten(),
        nn.Linear(16 * 2 * 2, 10),
    )
    r = rng(seed)
    for p in net.parameters():
        p.set_value((r.standard_normal(p.shape) * 0.2).astype("float32"))
    return net


def _model(net, lr=0.01, metrics=True):
    model = paddle.Model(net)
    opt = paddle.optimizer.Adam(learning_rate=lr, parameters=model.parameters())
    model.prepare(opt, nn.CrossEntropyLoss(), paddle.metric.Accuracy() if metrics else None)
    return model


def _masked(text):
    """Printed log with the timings (``- 12ms/step``, ETA) and temp paths masked."""
    text = re.sub(r" - \d+(us|ms|s)/step", " - T/step", text)
    text = re.sub(r" - ETA: [0-9:]+s?", " - ETA: T", text)
    text = re.sub(r"\x08+", "<bs>", text)  # the redraw's widths depend on the timings
    text = re.sub(r" +(\n|<bs>|$)", r"\1", text)
    return re.sub(r"/tmp/[^ \n]*/", "<dir>/", text)


def _run(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn()
    return result, _masked(out.getvalue())


class Recorder(paddle.callbacks.Callback):
    """Records the hooks called and the loss/acc at the end of each epoch and evaluation."""

    def __init__(self):
        super().__init__()
        self.calls, self.epochs, self.evals = [], [], []

    def on_train_begin(self, logs=None):
        self.calls.append("train_begin")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.calls.append(f"epoch_begin {epoch}")

    def on_train_batch_end(self, step, logs=None):
        self.calls.append(f"batch_end {step}")

    def on_epoch_end(self, epoch=None, logs=None):
        self.calls.append(f"epoch_end {epoch}")
        self.epochs.append([float(logs["loss"][0]), float(logs["acc"])])

    def on_eval_end(self, logs=None):
        self.calls.append("eval_end")
        self.evals.append([float(logs["loss"][0]), float(logs["acc"])])

    def on_train_end(self, logs=None):
        self.calls.append("train_end")


def case_lenet_fit_digits():
    model = _model(_lenet())
    rec = Recorder()

    def fit():
        model.fit(
            Digits(0, 160), Digits(160, 224), batch_size=32, epochs=2, log_freq=2, callbacks=[rec]
        )
        return model.evaluate(Digits(160, 224), batch_size=32, verbose=0)

    result, log = _run(fit)
    return {
        "epochs": rec.epochs,
        "evals": rec.evals,
        "calls": rec.calls,
        "evaluate": [float(result["loss"][0]), float(result["acc"])],
        "log": log,
    }


def case_model_batches():
    model = _model(_lenet(2))
    x, y = Digits(0, 8).x, Digits(0, 8).y
    train = model.train_batch([x], [y])
    acc_train = model.train_batch([x], [y], update=False)
    evaled = model.eval_batch([x], [y])
    pred = model.predict_batch([x])
    no_loss = paddle.Model(_lenet(3))
    no_loss.prepare(metrics=paddle.metric.Accuracy())
    outs, log = _run(lambda: model.predict(Digits(0, 10), batch_size=4, stack_outputs=True))
    return {
        "train": [train[0][0], train[1]],
        "accumulate": [acc_train[0][0], acc_train[1]],
        "eval": [evaled[0][0], evaled[1]],
        "pred": pred[0],
        "metrics_only_eval": no_loss.eval_batch([x], [y]),
        "predict_stacked": [o.shape for o in outs],
        "predict_log": log,
        "names": model._metrics_name(),
        "n_params": len(model.parameters()),
    }


def case_save_load_and_checkpoints():
    with tempfile.TemporaryDirectory() as d:
        model = _model(_lenet(4), metrics=False)
        _, log = _run(
            lambda: model.fit(Digits(0, 64), batch_size=32, epochs=2, verbose=0, save_dir=d)
        )
        files = sorted(os.listdir(d))
        fresh = _model(_lenet(5), metrics=False)
        fresh.load(os.path.join(d, "final"))
        x = Digits(0, 4).x
        same = np.allclose(fresh.predict_batch([x])[0], model.predict_batch([x])[0])
        missing = expect_error(lambda: fresh.load(os.path.join(d, "nothing")))
        bad = paddle.Model(nn.Sequential(nn.Linear(3, 2)))
        bad.prepare()
        mismatch = expect_error(lambda: bad.load(os.path.join(d, "final")))
    return {"files": files, "log": log, "same": same, "missing": missing, "mismatch": mismatch}


def case_callbacks_early_stop_and_lr():
    model = paddle.Model(_lenet(6))
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.05, step_size=1, gamma=0.5)
    opt = paddle.optimizer.SGD(learning_rate=sched, parameters=model.parameters())
    model.prepare(opt, nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    lrs = []

    class LR(paddle.callbacks.Callback):
        def on_epoch_end(self, epoch=None, logs=None):
            lrs.append(opt.get_lr())

    stop = paddle.callbacks.EarlyStopping(
        monitor="acc", mode="max", patience=0, save_best_model=False
    )
    cbs = [stop, paddle.callbacks.LRScheduler(by_step=False, by_epoch=True), LR()]
    _, log = _run(
        lambda: model.fit(
            Digits(0, 64), Digits(64, 96), batch_size=32, epochs=4, verbose=0, callbacks=cbs
        )
    )
    plateau_model = _model(_lenet(7), lr=0.1)
    plateau = paddle.callbacks.ReduceLROnPlateau(
        monitor="loss", patience=0, factor=0.5, min_delta=10.0
    )
    _, plateau_log = _run(
        lambda: plateau_model.fit(
            Digits(0, 32), Digits(32, 64), batch_size=32, epochs=2, verbose=0, callbacks=[plateau]
        )
    )
    return {
        "lrs": lrs,
        "early_log": log,
        "stopped": model.stop_training,
        "plateau_log": plateau_log,
        "plateau_lr": plateau_model._optimizer.get_lr(),
        "both_steps": expect_error(
            lambda: paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)
        ),
        "bad_factor": expect_error(lambda: paddle.callbacks.ReduceLROnPlateau(factor=1.5)),
    }


def case_progress_bar_verbose_1_and_3():
    model = _model(_lenet(8))
    _, log1 = _run(lambda: model.fit(Digits(0, 96), batch_size=32, epochs=1, verbose=1, log_freq=1))
    _, log3 = _run(lambda: model.fit(Digits(0, 64), batch_size=32, epochs=1, verbose=3, log_freq=1))
    log3 = re.sub(r"\d+\.\d+ (sec|samples/sec)", r"N \1", log3)
    return {"verbose1": log1, "verbose3": log3}


def case_model_errors():
    model = paddle.Model(_lenet(9))
    return {
        "bad_loss": expect_error(lambda: model.prepare(loss=3)),
        "bad_metric": expect_error(lambda: model.prepare(metrics=[3])),
        "not_prepared": expect_error(lambda: model.train_batch([Digits(0, 2).x])),
        "no_train_data": expect_error(lambda: model.fit()),
        "bad_amp_level": expect_error(lambda: model.prepare(amp_configs="O3")),
        "bad_amp_key": expect_error(lambda: model.prepare(amp_configs={"level": "O1", "foo": 1})),
        "bad_batch_size": expect_error(lambda: model.fit(Digits(0, 4), batch_size=[1, 2, 3])),
    }
