"""``paddle.Model``: Paddle's high-level training API (``prepare``, ``fit``, ``evaluate``,
``predict``, ``save``/``load``) around a Layer, with callbacks and a progress bar.

Paddle runs every batch eagerly; here the train, eval and predict batches are compiled with
``paddle.jit.to_static`` (forward, loss, backward and the optimizer update in one XLA program;
metrics run eagerly on its outputs). The numbers are Paddle's to float rounding;
``paddle.jit.enable_to_static(False)`` runs them eagerly instead.
"""

from __future__ import annotations

import inspect
import os
import warnings

import numpy as np

from .. import jit
from .._core.autograd import no_grad
from .._core.tensor import Tensor
from ..io import DataLoader, Dataset, DistributedBatchSampler
from ..metric import Metric
from ..static import InputSpec
from .callbacks import EarlyStopping, config_callbacks

__all__ = ["Model"]

Input = InputSpec


def to_list(value):
    if value is None:
        return value
    if isinstance(value, list | tuple):
        return list(value)
    return [value]


def to_numpy(var):
    return var.numpy() if isinstance(var, Tensor) else np.asarray(var)


def _flatten(data) -> list:
    """A batch's nested lists/tuples/dicts as one flat list (dict values by sorted key)."""
    if isinstance(data, list | tuple):
        return [x for d in data for x in _flatten(d)]
    if isinstance(data, dict):
        return [x for k in sorted(data) for x in _flatten(data[k])]
    return [data]


def _input_info(inputs):
    """(shapes, dtypes) of a batch's inputs, for saving an inference model."""
    tensors = [x for x in inputs if isinstance(x, Tensor | np.ndarray)]
    return [list(x.shape) for x in tensors], [str(x.dtype).replace("paddle.", "") for x in tensors]


def _to_tensor(x) -> Tensor:
    from .. import to_tensor

    return x if isinstance(x, Tensor) else to_tensor(x)


class Model:
    """A ``network`` (Layer) with the training loop Paddle's tutorials use:
    ``model.prepare(optimizer, loss, metrics)`` then ``model.fit(train_data, eval_data,
    epochs=..., batch_size=...)``. ``inputs``/``labels`` are ``paddle.static.InputSpec``s
    (only needed to save an inference model before any batch has run)."""

    def __init__(self, network, inputs=None, labels=None) -> None:
        self.mode = "train"
        self.network = network
        self._inputs = None
        self._labels = None
        self._loss = None
        self._loss_weights = None
        self._optimizer = None
        self._metrics = []
        self._input_info = None  # (shapes, dtypes) of the first batch run
        self._is_shape_inferred = False
        self._test_dataloader = None
        self.stop_training = False
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        self._amp_level = "O0"
        self._amp_configs = {}
        self._amp_custom_lists = {}
        self._scaler = None
        self._steps = {}
        self._logs = {}
        self.history = {}

    # -- one batch ------------------------------------------------------------------------------
    def _compiled(self, kind):
        """The batch function ``kind`` (train/eval/predict), compiled once per Model."""
        fn = self._steps.get(kind)
        if fn is None:
            fn = self._steps[kind] = jit.to_static(getattr(self, f"_{kind}_step"))
        return fn

    def _train_step(self, inputs, labels, update):
        from .. import add_n

        with self._amp():
            outputs = self.network(*inputs)
        losses = to_list(self._loss(*(to_list(outputs) + labels)))
        final_loss = add_n(losses)
        if self._amp_level != "O0":
            scaled = self._scaler.scale(final_loss)
            scaled.backward()
            if update:
                self._scaler.minimize(self._optimizer, scaled)
                self.network.clear_gradients()
        else:
            final_loss.backward()
            if update:
                self._optimizer.minimize(final_loss)
                self.network.clear_gradients()
        return to_list(outputs), losses

    def _amp(self):
        """The ``auto_cast`` block the batches run in (a decorated O2 network needs it for
        evaluation too)."""
        from .. import amp

        return amp.auto_cast(
            enable=self._amp_level != "O0", **self._amp_custom_lists, level=self._amp_level
        )

    def _eval_step(self, inputs, labels):
        with no_grad(), self._amp():
            outputs = to_list(self.network(*inputs))
        with no_grad():
            losses = to_list(self._loss(*(outputs + labels))) if self._loss else []
        return outputs, losses

    def _predict_step(self, inputs):
        with no_grad(), self._amp():
            return to_list(self.network(*inputs))

    def _update_metrics(self, outputs, labels) -> list:
        metrics = []
        for metric in self._metrics:
            outs = metric.compute(*(outputs + labels))
            metrics.append(metric.update(*[to_numpy(m) for m in to_list(outs)]))
        return metrics

    def train_batch(self, inputs, labels=None, update: bool = True):
        """Run one optimization step on a batch (``update=False``: only accumulate gradients);
        returns the losses (numpy), and the metrics' ``update`` results when there are
        metrics."""
        assert self._optimizer, "model not ready, please call `model.prepare()` first"
        self.network.train()
        self.mode = "train"
        inputs = [_to_tensor(x) for x in to_list(inputs)]
        if self._input_info is None:  # the first batch's shapes, for save(training=False)
            self._input_info = _input_info(inputs)
        labels = [_to_tensor(x) for x in to_list(labels or [])]
        if self._amp_level != "O0" and self._scaler is None:
            from .. import amp

            self._scaler = amp.GradScaler(**self._amp_configs)
        outputs, losses = self._compiled("train")(inputs, labels, bool(update))
        metrics = self._update_metrics(outputs, labels)
        losses = [to_numpy(x) for x in losses]
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs, labels=None):
        """Run the network (and loss, metrics) on a batch in eval mode."""
        self.network.eval()
        self.mode = "eval"
        inputs = [_to_tensor(x) for x in to_list(inputs)]
        if self._input_info is None:  # the first batch's shapes, for save(training=False)
            self._input_info = _input_info(inputs)
        labels = [_to_tensor(x) for x in to_list(labels or [])]
        outputs, losses = self._compiled("eval")(inputs, labels)
        metrics = self._update_metrics(outputs, labels)
        losses = [to_numpy(x) for x in losses]
        if self._loss and metrics:
            return losses, metrics
        return losses if self._loss else metrics

    def predict_batch(self, inputs) -> list:
        """The network's outputs (numpy) on a batch, in eval mode."""
        self.network.eval()
        self.mode = "test"
        inputs = [_to_tensor(x) for x in to_list(inputs)]
        if self._input_info is None:  # the first batch's shapes, for save(training=False)
            self._input_info = _input_info(inputs)
        return [to_numpy(o) for o in self._compiled("predict")(inputs)]

    # -- state ----------------------------------------------------------------------------------
    def save(self, path: str, training: bool = True) -> None:
        """``training=True``: ``path.pdparams`` (+ ``.pdopt``, ``.pdscaler``) for resuming;
        ``False``: an inference model through ``paddle.jit.save``."""
        from .. import save

        if int(os.environ.get("PADDLE_TRAINER_ID", "0")) != 0:
            return
        if not training:
            return self._save_inference_model(path)
        save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None and self._optimizer.state_dict():
            save(self._optimizer.state_dict(), path + ".pdopt")
        if self._scaler is not None and self._scaler.state_dict():
            save(self._scaler.state_dict(), path + ".pdscaler")

    def _save_inference_model(self, path: str) -> None:
        specs = self._inputs
        if not specs or any(tuple(s.shape) == (-1,) for s in specs):
            if self._input_info is None:
                raise RuntimeError(
                    "Saving inference model needs 'inputs' or running before saving. Please "
                    "specify 'inputs' in Model initialization or input training data and "
                    "perform a training for shape derivation."
                )
            shapes, dtypes = self._input_info
            warnings.warn(
                "'inputs' was not specified when Model initialization, so the input shape to "
                "be saved will be the shape derived from the user's actual inputs. The input "
                f"shape to be saved is {shapes}. For saving correct input shapes, please "
                "provide 'inputs' for Model initialization.",
                stacklevel=3,
            )
            names = [s.name for s in specs] if specs else [None] * len(shapes)
            specs = [InputSpec(s, d, n) for s, d, n in zip(shapes, dtypes, names)]
        jit.save(self.network, path, input_spec=specs)

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False):
        """Load ``path.pdparams`` (and ``.pdopt`` unless ``reset_optimizer``; ``.pdscaler``)
        written by ``save``; a missing or mis-shaped parameter raises ValueError unless
        ``skip_mismatch``."""
        from .. import load

        base, ext = os.path.splitext(path)
        assert ext in ("", ".pdparams", ".pdopt", ".pdmodel"), f"Unknown postfix {ext} from weights"
        param_state = load(base + ".pdparams") if os.path.exists(base + ".pdparams") else None
        assert param_state, "Failed to load parameters, please check path."
        matched = []
        for key, param in self.network.state_dict().items():
            state = param_state.get(key)
            try:
                if state is None:
                    raise ValueError(f"{key} is not found in the providing file.")
                if list(state.shape) != list(param.shape):
                    raise ValueError(
                        f"{key} receives a shape {list(state.shape)}, but the expected shape is "
                        f"{list(param.shape)}."
                    )
            except ValueError as err:
                if not skip_mismatch:
                    raise
                warnings.warn(f"Skip loading for {key}. " + str(err), stacklevel=2)
                reset_optimizer = True
                continue
            matched.append((param, state))
        for param, state in matched:
            param.set_value(state)
        if self._scaler is not None and os.path.exists(base + ".pdscaler"):
            self._scaler.load_state_dict(load(base + ".pdscaler"))
        opt_path = base + ".pdopt"
        if self._optimizer and not reset_optimizer and os.path.exists(opt_path):
            self._optimizer.set_state_dict(load(opt_path))

    def parameters(self, *args, **kwargs):
        return self.network.parameters(*args, **kwargs)

    # -- configuration --------------------------------------------------------------------------
    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None) -> None:
        """Set the optimizer, the loss (a Layer or callable of outputs and labels), metrics
        (``paddle.metric.Metric``s) and AMP (``'O1'``/``'O2'`` or a dict of ``level``, custom
        lists and GradScaler settings)."""
        self._optimizer = optimizer
        if loss is not None and not callable(loss):
            raise TypeError(
                "'loss' must be sub classes of `paddle.nn.Layer` or any callable function."
            )
        self._loss = loss
        for metric in to_list(metrics or []):
            assert isinstance(metric, Metric), (
                f"{metric.__class__.__name__} is not sub class of Metric"
            )
        self._metrics = to_list(metrics or [])
        self._prepare_amp(amp_configs)
        if self._amp_level == "O2" and self.mode == "train":
            from .. import amp

            if self._optimizer is None:
                self.network = amp.decorate(models=self.network, level="O2")
            else:
                self.network, self._optimizer = amp.decorate(
                    models=self.network, optimizers=self._optimizer, level="O2"
                )
        if self._amp_level != "O0":
            self._scaler = None
        self._steps = {}

    def _prepare_amp(self, amp_configs) -> None:
        self._amp_custom_lists, self._amp_configs = {}, {}
        if not amp_configs:
            self._amp_level = "O0"
            return
        if isinstance(amp_configs, str):
            if amp_configs not in ("O0", "O1", "O2"):
                raise ValueError("The level of amp_configs should be 'O0', 'O1' or 'O2'.")
            self._amp_level = amp_configs
            self._check_pure_fp16_configs()
            return
        level = amp_configs.get("level", "O1")
        if level not in ("O0", "O1", "O2"):
            raise ValueError("amp_configs['level'] should be 'O0', 'O1' or 'O2'.")
        self._amp_level = level
        keys = set(amp_configs) - {"level"}
        if not keys or level == "O0":
            return
        if "use_pure_fp16" in amp_configs:
            raise ValueError(
                "'use_pure_fp16' is an invalid parameter, the level of mixed precision training "
                "only depends on 'O1' or 'O2'."
            )
        self._check_pure_fp16_configs()
        for name in ("custom_white_list", "custom_black_list", "custom_black_varnames"):
            if name in keys:
                if name != "custom_black_varnames":  # a static-graph option
                    self._amp_custom_lists[name] = amp_configs[name]
                keys.discard(name)
        accepted = {
            "init_loss_scaling",
            "incr_ratio",
            "decr_ratio",
            "incr_every_n_steps",
            "decr_every_n_nan_or_inf",
            "use_dynamic_loss_scaling",
            "use_fp16_guard",
        }
        if keys - accepted:
            raise ValueError(
                "Except for 'level', the keys of 'amp_configs' must be accepted by mixed "
                f"precision APIs, but {tuple(keys - accepted)} could not be recognized."
            )
        if "use_fp16_guard" in keys:
            raise ValueError("'use_fp16_guard' is supported in static graph mode only.")
        self._amp_configs = {k: amp_configs[k] for k in keys}

    def _check_pure_fp16_configs(self) -> None:
        from ..nn import ClipGradByGlobalNorm, ClipGradByNorm

        clip = getattr(self._optimizer, "_grad_clip", None)
        if self._amp_level == "O2" and clip:
            assert isinstance(clip, ClipGradByGlobalNorm | ClipGradByNorm), (
                "Only ClipGradByNorm and ClipGradByGlobalNorm are supported in amp training "
                "with level=O2 currently."
            )

    # -- loops ----------------------------------------------------------------------------------
    def _loader(self, data, batch_size, shuffle=False, drop_last=False, num_workers=0):
        if not isinstance(data, Dataset):
            return data
        sampler = DistributedBatchSampler(
            data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last
        )
        return DataLoader(data, batch_sampler=sampler, num_workers=num_workers, return_list=True)

    def fit(
        self,
        train_data=None,
        eval_data=None,
        batch_size=1,
        epochs: int = 1,
        eval_freq: int = 1,
        log_freq: int = 10,
        save_dir: str | None = None,
        save_freq: int = 1,
        verbose: int = 2,
        drop_last: bool = False,
        shuffle: bool = True,
        num_workers: int = 0,
        callbacks=None,
        accumulate_grad_batches: int = 1,
        num_iters: int | None = None,
    ) -> None:
        """Train for ``epochs`` over ``train_data`` (a Dataset or DataLoader), evaluating on
        ``eval_data`` every ``eval_freq`` epochs, logging through callbacks (a progress bar by
        default). Per-epoch values are kept in ``model.history``."""
        assert train_data is not None, "train_data must be given!"
        if isinstance(batch_size, list | tuple) and all(isinstance(x, int) for x in batch_size):
            assert len(batch_size) == 2, (
                "batch_size length error, expected train_batch_size and eval_batch_size."
            )
            train_bs, eval_bs = batch_size
        else:
            train_bs = eval_bs = batch_size
        train_loader = self._loader(train_data, train_bs, shuffle, drop_last, num_workers)
        eval_loader = None
        if eval_data is not None:
            eval_loader = self._loader(eval_data, eval_bs, num_workers=num_workers)
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            epochs = (num_iters // steps) + 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(
            callbacks,
            model=self,
            epochs=epochs,
            steps=steps,
            log_freq=log_freq,
            save_freq=save_freq,
            save_dir=save_dir,
            verbose=verbose,
            metrics=self._metrics_name(),
        )
        if any(isinstance(k, EarlyStopping) for k in cbks) and not do_eval:
            warnings.warn("EarlyStopping needs validation data.", stacklevel=2)
        self.history = {}
        cbks.on_begin("train")
        logs = {}
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            self._record(logs, "")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                eval_steps = self._len_data_loader(eval_loader)
                cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                self._record(eval_logs, "eval_")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def _record(self, logs, prefix) -> None:
        for k in self._metrics_name():
            if k in logs:
                v = logs[k]
                self.history.setdefault(prefix + k, []).append(
                    float(v[0] if isinstance(v, list | tuple) else v)
                )

    def evaluate(
        self,
        eval_data,
        batch_size: int = 1,
        log_freq: int = 10,
        verbose: int = 2,
        num_workers: int = 0,
        callbacks=None,
        num_iters: int | None = None,
    ) -> dict:
        """Loss and metrics over ``eval_data``: ``{'loss': [value], 'acc': value, ...}``."""
        eval_loader = self._loader(eval_data, batch_size, num_workers=num_workers)
        self._test_dataloader = eval_loader
        cbks = config_callbacks(
            callbacks, model=self, log_freq=log_freq, verbose=verbose, metrics=self._metrics_name()
        )
        eval_steps = self._len_data_loader(eval_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(eval_steps, int):
            assert num_iters > 0, "num_iters must be greater than 0!"
            eval_steps = min(num_iters, eval_steps)
            self.num_iters = eval_steps
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(eval_loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name()}

    def predict(
        self,
        test_data,
        batch_size: int = 1,
        num_workers: int = 0,
        stack_outputs: bool = False,
        verbose: int = 1,
        callbacks=None,
    ) -> list:
        """The network's outputs over ``test_data``: one list per output, of per-batch numpy
        arrays (``stack_outputs=True``: one stacked array per output)."""
        test_loader = self._loader(test_data, batch_size, num_workers=num_workers)
        self._test_dataloader = test_loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        logs = {"steps": self._len_data_loader(test_loader)}
        cbks.on_begin("predict", logs)
        logs, outputs = self._run_one_epoch(test_loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(outs) for outs in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode):
        logs, outputs = self._logs, []  # one dict per Model, shared by every loop as in Paddle
        n_inputs = len(self._inputs)
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            batch_size = data[0].shape[0]
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                args = [data[:n_inputs], data[n_inputs:]]
                if mode == "train":
                    args.append((step + 1) % self._accumulate == 0 or step + 1 == len(data_loader))
                outs = getattr(self, mode + "_batch")(*args)
                if self._metrics and self._loss:
                    metrics = [[float(x) for x in outs[0]]]
                elif self._loss:
                    metrics = [[float(x) for x in outs]]
                else:
                    metrics = []
                for metric in self._metrics:
                    metrics.extend(to_list(metric.accumulate()))
                assert len(self._metrics_name()) == len(metrics)
                logs.update(zip(self._metrics_name(), metrics))
            else:
                outputs.append(self.predict_batch(data[:n_inputs]))
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if getattr(self, "num_iters", None) is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    del self.num_iters
                    break
        self._reset_metrics()
        return (logs, outputs) if mode == "predict" else logs

    # -- helpers --------------------------------------------------------------------------------
    def summary(self, input_size=None, dtype=None):
        """``paddle.summary`` of the network (``input_size`` defaults to the Model's
        ``inputs``)."""
        from .model_summary import summary

        assert input_size is not None or self._inputs is not None, (
            "'input_size' or 'self._input' must be set"
        )
        return summary(
            self.network, input_size if input_size is not None else self._inputs, dtypes=dtype
        )

    def _verify_spec(self, specs, is_input=False):
        if specs is None:
            if not is_input:
                return []
            names = inspect.getfullargspec(self.network.forward)[0][1:]
            out = [Input(name=n, shape=[None]) for n in names]
        elif isinstance(specs, dict):
            assert is_input is False
            names = inspect.getfullargspec(self.network.forward)[0]
            out = [specs[n] for n in names if n != "self"]
        else:
            out = to_list(specs)
        for i, spec in enumerate(out):
            assert isinstance(spec, Input)
            if spec.name is None:
                raise ValueError(
                    f"Requires Input[{i}].name != None, but receive `None` with {spec}."
                )
        return out

    def _reset_metrics(self) -> None:
        for metric in self._metrics:
            metric.reset()

    def _metrics_name(self) -> list[str]:
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(to_list(m.name()))
        return names

    def _len_data_loader(self, data_loader):
        try:
            return len(data_loader)
        except Exception:  # noqa: BLE001 - an iterable without a length
            return None
