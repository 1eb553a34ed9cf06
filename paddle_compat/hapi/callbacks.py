"""``paddle.callbacks``: hooks ``paddle.Model.fit/evaluate/predict`` call around epochs and
batches (``Callback``), and Paddle's built-in ones: the progress logger, checkpoints, the LR
scheduler step, early stopping, LR reduction on a plateau, and metric logging to
VisualDL/TensorBoard or Weights & Biases."""

from __future__ import annotations

import numbers
import os
import time
import warnings

import numpy as np

from .progressbar import ProgressBar

__all__ = [
    "Callback",
    "EarlyStopping",
    "LRScheduler",
    "ModelCheckpoint",
    "ProgBarLogger",
    "ReduceLROnPlateau",
    "VisualDL",
    "WandbCallback",
]

_MODES = ("train", "eval", "predict")


def _local_rank() -> int:
    return int(os.environ.get("PADDLE_TRAINER_ID", "0"))


def config_callbacks(
    callbacks=None,
    model=None,
    batch_size=None,
    epochs=None,
    steps=None,
    log_freq: int = 2,
    verbose: int = 2,
    save_freq: int = 1,
    save_dir=None,
    metrics=None,
    mode: str = "train",
):
    """The callback list ``Model`` runs: the user's, plus a ``ProgBarLogger`` (when verbose),
    a ``ModelCheckpoint`` and an ``LRScheduler`` unless given."""
    cbks = list(
        callbacks if isinstance(callbacks, list | tuple) else [callbacks] if callbacks else []
    )
    if verbose and not any(isinstance(k, ProgBarLogger) for k in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose), *cbks]
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = [*cbks, ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = [*cbks, LRScheduler()]
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    metrics = (metrics or []) if mode != "test" else []
    cbk_list.set_params(
        {
            "batch_size": batch_size,
            "epochs": epochs,
            "steps": steps,
            "verbose": verbose,
            "metrics": metrics,
        }
    )
    return cbk_list


class CallbackList:
    """Calls one hook on every callback in order."""

    def __init__(self, callbacks=None) -> None:
        assert callbacks is not None
        self.callbacks = list(callbacks)
        self.params = {}
        self.model = None

    def append(self, callback) -> None:
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params) -> None:
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model) -> None:
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name: str, *args) -> None:
        for c in self.callbacks:
            getattr(c, name)(*args)

    def _check_mode(self, mode) -> None:
        assert mode in _MODES, "mode should be train, eval or predict"

    def on_begin(self, mode, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step=None, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step=None, logs=None) -> None:
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class: override any ``on_*`` hook; ``self.model`` is the ``paddle.Model`` and
    ``self.params`` holds batch_size, epochs, steps, verbose and the metric names."""

    def __init__(self) -> None:
        self.model = None
        self.params = {}

    def set_params(self, params) -> None:
        self.params = params

    def set_model(self, model) -> None:
        self.model = model

    def on_train_begin(self, logs=None) -> None: ...
    def on_train_end(self, logs=None) -> None: ...
    def on_eval_begin(self, logs=None) -> None: ...
    def on_eval_end(self, logs=None) -> None: ...
    def on_predict_begin(self, logs=None) -> None: ...
    def on_predict_end(self, logs=None) -> None: ...
    def on_epoch_begin(self, epoch=None, logs=None) -> None: ...
    def on_epoch_end(self, epoch=None, logs=None) -> None: ...
    def on_train_batch_begin(self, step=None, logs=None) -> None: ...
    def on_train_batch_end(self, step=None, logs=None) -> None: ...
    def on_eval_batch_begin(self, step=None, logs=None) -> None: ...
    def on_eval_batch_end(self, step=None, logs=None) -> None: ...
    def on_predict_batch_begin(self, step=None, logs=None) -> None: ...
    def on_predict_batch_end(self, step=None, logs=None) -> None: ...


def _new_timer() -> dict:
    return {"data_time": 0, "batch_time": 0, "count": 0, "samples": 0}


class ProgBarLogger(Callback):
    """Print loss and metrics every ``log_freq`` steps: verbose 0 silent, 1 a live progress
    bar, 2 a line per log, 3 a line with reader/batch cost and samples per second."""

    def __init__(self, log_freq: int = 1, verbose: int = 2) -> None:
        self.epochs = None
        self.steps = None
        self.progbar = None
        self.verbose = verbose
        self.log_freq = log_freq

    def _is_print(self) -> bool:
        return bool(self.verbose) and _local_rank() == 0

    def on_train_begin(self, logs=None) -> None:
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._train_timer = _new_timer()
        if self._is_print():
            print(
                "The loss value printed in the log is the current step, and the metric is "
                "the average value of previous steps."
            )

    def on_epoch_begin(self, epoch=None, logs=None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def _updates(self, logs, mode) -> None:
        metrics = getattr(self, f"{mode}_metrics")
        values = [(k, logs[k]) for k in metrics if k in logs]
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None:
            cnt = timer["count"] if timer["count"] > 0 else 1.0
            samples = timer["samples"] if timer["samples"] > 0 else 1.0
            values.append(("avg_reader_cost", "%.5f sec" % (timer["data_time"] / cnt)))
            values.append(("avg_batch_cost", "%.5f sec" % (timer["batch_time"] / cnt)))
            elapsed = timer["data_time"] + timer["batch_time"]
            values.append(("ips", "%.5f samples/sec" % (samples / elapsed)))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, mode) -> None:
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, mode, logs) -> int:
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        samples = logs.get("batch_size", 1)
        timer["samples"] += samples
        return samples

    def on_train_batch_begin(self, step, logs=None) -> None:
        self._batch_begin("train")

    def on_train_batch_end(self, step, logs=None) -> None:
        logs = logs or {}
        self.train_step += 1
        self._batch_end("train", logs)
        if self._is_print() and self.train_step % self.log_freq == 0:
            if self.steps is None or self.train_step < self.steps:
                self._updates(logs, "train")
        self._train_timer["batch_start_time"] = time.time()

    def on_epoch_end(self, epoch, logs=None) -> None:
        logs = logs or {}
        if self._is_print() and self.steps is not None:
            self._updates(logs, "train")

    def on_eval_begin(self, logs=None) -> None:
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self._eval_timer = _new_timer()
        self.eval_progbar = ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self._is_print():
            print("Eval begin...")
        self._eval_timer["batch_start_time"] = time.time()

    def on_eval_batch_begin(self, step, logs=None) -> None:
        self._batch_begin("eval")

    def on_eval_batch_end(self, step, logs=None) -> None:
        logs = logs or {}
        self.eval_step += 1
        self.evaled_samples += self._batch_end("eval", logs)
        if self._is_print() and self.eval_step % self.log_freq == 0:
            if self.eval_steps is None or self.eval_step < self.eval_steps:
                self._updates(logs, "eval")
        self._eval_timer["batch_start_time"] = time.time()

    def on_eval_end(self, logs=None) -> None:
        logs = logs or {}
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_begin(self, logs=None) -> None:
        self.test_steps = logs.get("steps", None)
        self.test_metrics = logs.get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self._test_timer = _new_timer()
        self.test_progbar = ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self._is_print():
            print("Predict begin...")
        self._test_timer["batch_start_time"] = time.time()

    def on_predict_batch_begin(self, step, logs=None) -> None:
        self._batch_begin("test")

    def on_predict_batch_end(self, step, logs=None) -> None:
        logs = logs or {}
        self.test_step += 1
        self.tested_samples += self._batch_end("test", logs)
        if self.test_step % self.log_freq == 0 and self._is_print():
            if self.test_steps is None or self.test_step < self.test_steps:
                self._updates(logs, "test")
        self._test_timer["batch_start_time"] = time.time()

    def on_predict_end(self, logs=None) -> None:
        logs = logs or {}
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Save the model (``model.save``) every ``save_freq`` epochs to ``save_dir/<epoch>`` and
    at the end to ``save_dir/final`` (nothing when ``save_dir`` is None)."""

    def __init__(self, save_freq: int = 1, save_dir: str | None = None) -> None:
        self.save_freq = save_freq
        self.save_dir = save_dir

    def on_epoch_begin(self, epoch=None, logs=None) -> None:
        self.epoch = epoch

    def _is_save(self) -> bool:
        return bool(self.model and self.save_dir and _local_rank() == 0)

    def _save(self, name) -> None:
        path = f"{self.save_dir}/{name}"
        print(f"save checkpoint at {os.path.abspath(path)}")
        self.model.save(path)

    def on_epoch_end(self, epoch, logs=None) -> None:
        if self._is_save() and self.epoch % self.save_freq == 0:
            self._save(epoch)

    def on_train_end(self, logs=None) -> None:
        if self._is_save():
            self._save("final")


def _scheduler_of(model):
    from ..optimizer.lr import LRScheduler as Scheduler

    opt = model._optimizer
    lr = getattr(opt, "_learning_rate", None) if opt else None
    return lr if isinstance(lr, Scheduler) else None


class LRScheduler(Callback):
    """Step the optimizer's LR scheduler after every batch (``by_step``) or epoch
    (``by_epoch``)."""

    def __init__(self, by_step: bool = True, by_epoch: bool = False) -> None:
        if by_step and by_epoch:
            raise ValueError("by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def on_epoch_end(self, epoch, logs=None) -> None:
        if self.by_epoch and (s := _scheduler_of(self.model)) is not None:
            s.step()

    def on_train_batch_end(self, step, logs=None) -> None:
        if self.by_step and (s := _scheduler_of(self.model)) is not None:
            s.step()


def _monitored(logs, monitor):
    """The number logged under ``monitor`` (first item of a list), or None."""
    current = logs[monitor]
    if isinstance(current, list | tuple):
        return current[0]
    return current if isinstance(current, numbers.Number) else None


class EarlyStopping(Callback):
    """Stop training when the monitored loss/metric has not improved (by ``min_delta``) for
    ``patience`` evaluations; saves the best model to ``save_dir/best_model``."""

    def __init__(
        self,
        monitor: str = "loss",
        mode: str = "auto",
        patience: int = 0,
        verbose: int = 1,
        min_delta: float = 0,
        baseline: float | None = None,
        save_best_model: bool = True,
    ) -> None:
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir = None
        if mode not in ("auto", "min", "max"):
            warnings.warn(
                f"EarlyStopping mode {mode} is unknown, fallback to auto mode.", stacklevel=2
            )
            mode = "auto"
        maximize = mode == "max" or (mode == "auto" and "acc" in self.monitor)
        self.monitor_op = np.greater if maximize else np.less
        self.min_delta *= 1 if maximize else -1

    def on_train_begin(self, logs=None) -> None:
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op == np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None) -> None:
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of EarlyStopping should be loss or metric name.", stacklevel=2)
            return
        current = _monitored(logs, self.monitor)
        if current is None:
            return
        best_path = os.path.join(self.save_dir or "", "best_model")
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(best_path)
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    print(f"Best checkpoint has been saved at {os.path.abspath(best_path)}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiply a float learning rate by ``factor`` when the monitored value has not improved
    for ``patience`` evaluations (then wait ``cooldown`` evaluations; never below
    ``min_lr``)."""

    def __init__(
        self,
        monitor: str = "loss",
        factor: float = 0.1,
        patience: int = 10,
        verbose: int = 1,
        mode: str = "auto",
        min_delta: float = 1e-4,
        cooldown: int = 0,
        min_lr: float = 0,
    ) -> None:
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self.epoch = 0
        self._reset()

    def _reset(self) -> None:
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(
                f"Learning rate reduction mode {self.mode} is unknown, fallback to auto mode.",
                stacklevel=2,
            )
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None) -> None:
        self._reset()

    def on_eval_end(self, logs=None) -> None:
        if logs is None or self.monitor not in logs:
            warnings.warn(
                "Monitor of ReduceLROnPlateau should be loss or metric name.", stacklevel=2
            )
            return
        try:
            lr = self.model._optimizer._learning_rate
            if not isinstance(lr, float):
                warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.", stacklevel=2)
                return
        except Exception as e:  # noqa: BLE001 - Paddle warns and goes on
            warnings.warn(
                f"There are something wrong when get learning_rate from optimizer: {e}.",
                stacklevel=2,
            )
            return
        current = _monitored(logs, self.monitor)
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = self.model._optimizer.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model._optimizer._learning_rate = new_lr
                    if self.verbose > 0 and _local_rank() == 0:
                        print(
                            f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning "
                            f"rate to {new_lr}."
                        )
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0


class VisualDL(Callback):
    """Log the train and eval loss/metrics as scalars under ``log_dir``: through VisualDL
    when it is installed (as Paddle does), else as TensorBoard event files through
    ``tensorboardX`` (``pip install paddle-compat[tensorboard]``), so ``tensorboard --logdir``
    shows the curves."""

    def __init__(self, log_dir: str) -> None:
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0

    def on_train_begin(self, logs=None) -> None:
        self.epochs = self.params["epochs"]
        assert self.epochs
        self.train_metrics = self.params["metrics"]
        assert self.train_metrics
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _writer(self):
        if not hasattr(self, "writer"):
            self.writer = _scalar_writer(self.log_dir)
        return self.writer

    def _updates(self, logs, mode) -> None:
        if _local_rank() != 0:
            return
        writer = self._writer()
        step = getattr(self, f"{mode}_step") if mode == "train" else self.epoch
        for k in getattr(self, f"{mode}_metrics"):
            if k in logs:
                value = _monitored(logs, k)
                if value is not None:
                    writer.add_scalar(tag=f"{mode}/{k}", step=step, value=value)

    def on_train_batch_end(self, step, logs=None) -> None:
        self.train_step += 1
        self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None) -> None:
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def on_train_end(self, logs=None) -> None:
        if hasattr(self, "writer"):
            self.writer.close()
            del self.writer

    def on_eval_end(self, logs=None) -> None:
        self._updates(logs or {}, "eval")
        if not hasattr(self, "_is_fit") and hasattr(self, "writer"):
            self.writer.close()
            del self.writer


class _TensorboardXWriter:
    """VisualDL's ``add_scalar(tag, step, value)`` on a tensorboardX ``SummaryWriter``."""

    def __init__(self, log_dir) -> None:
        from tensorboardX import SummaryWriter

        self._w = SummaryWriter(log_dir)

    def add_scalar(self, tag, step, value) -> None:
        self._w.add_scalar(tag, float(value), global_step=step)

    def close(self) -> None:
        self._w.close()


def _scalar_writer(log_dir):
    try:
        import visualdl
    except ImportError:
        try:
            return _TensorboardXWriter(log_dir)
        except ImportError:
            raise ImportError(
                "The VisualDL callback needs `visualdl` (as in Paddle) or `tensorboardX`: "
                "pip install visualdl, or pip install 'paddle-compat[tensorboard]'."
            ) from None
    return visualdl.LogWriter(log_dir)


class WandbCallback(Callback):
    """Log to Weights & Biases: needs the ``wandb`` package (``pip install wandb``)."""

    def __init__(
        self,
        project=None,
        entity=None,
        name=None,
        dir=None,  # noqa: A002 - Paddle's name
        mode=None,
        job_type=None,
        **kwargs,
    ) -> None:
        try:
            import wandb
        except ImportError:
            raise ImportError(
                "You want to use `wandb` which is not installed yet install it with "
                "`pip install wandb`"
            ) from None
        self.wandb = wandb
        self.wandb_args = dict(
            project=project, name=name, entity=entity, dir=dir, mode=mode, job_type=job_type
        )
        self.wandb_args.update(**kwargs)
        self._run = None
        _ = self.run

    @property
    def run(self):
        if _local_rank() == 0 and self._run is None:
            if self.wandb.run is not None:
                warnings.warn(
                    "There is a wandb run already in progress and newly created instances of "
                    "`WandbCallback` will reuse this run. If this is not desired , call "
                    "`wandb.finish()` before instantiating `WandbCallback`.",
                    stacklevel=2,
                )
                self._run = self.wandb.run
            else:
                self._run = self.wandb.init(**self.wandb_args)
        return self._run

    def on_train_begin(self, logs=None) -> None:
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._is_fit = True
        self.train_step = 0
        if _local_rank() == 0:
            self.run.define_metric("train/step")
            self.run.define_metric("train/*", step_metric="train/step")
            self.run.define_metric("epoch")
            self.run.define_metric("eval/*", step_metric="epoch")

    def on_epoch_begin(self, epoch=None, logs=None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _updates(self, logs, mode) -> None:
        if _local_rank() != 0:
            return
        row = {"train/step": self.train_step} if mode == "train" else {"epoch": self.epoch}
        for k in getattr(self, f"{mode}_metrics"):
            if k in logs and (v := _monitored(logs, k)) is not None:
                row[f"{mode}/{k}"] = v
        self.run.log(row)

    def on_train_batch_end(self, step, logs=None) -> None:
        self.train_step += 1
        self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None) -> None:
        self.eval_metrics = logs.get("metrics", [])

    def on_eval_end(self, logs=None) -> None:
        self._updates(logs or {}, "eval")

    def on_train_end(self, logs=None) -> None:
        if _local_rank() == 0:
            self.run.finish()
