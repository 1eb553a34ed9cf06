"""``paddle.distributed.to_static`` -> ``DistModel``, and ``dist.Strategy``.

A ``DistModel`` compiles the whole training step (forward, loss, backward, optimizer update)
into ONE XLA program with ``paddle.jit.to_static``; the parameters, optimizer state and inputs
carry their shardings, and GSPMD partitions the program and inserts the collectives. ``eval``
and ``predict`` compile the forward (plus loss) the same way.

As in Paddle 3.3.1: a mode must be chosen with ``train()``/``eval()``/``predict()`` before the
first call; arguments are Tensors or lists of Tensors (the first ones are the model's inputs,
the rest its labels); a call returns the loss (train/eval) or the model output (predict) as a
numpy array; ``state_dict()`` holds the parameters under their structured names and, in train
mode, the optimizer state under Paddle's accumulator names. A plain optimizer is wrapped with
``shard_optimizer`` so its state takes the parameters' placements (what Paddle's completion
pass does); ``strategy.sharding`` picks a ``ShardingStage`` and ``strategy.gradient_merge``
accumulates gradients over ``k_steps`` calls. ``dist_main_program()`` and the other program
accessors have no equivalent (there is no Paddle Program) and raise.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from paddle_compat._core.seams import Tensor, no_grad, state_of

from ._optimizer import (
    ShardingStage1,
    ShardingStage2,
    ShardingStage3,
    _ShardOptimizer,
    shard_optimizer,
)

__all__ = ["DistModel", "Strategy", "to_static"]


# -- Strategy --------------------------------------------------------------------------------
class _Config:
    """One section of a Strategy (attributes with defaults, measured on Paddle 3.3.1)."""

    def __init__(self, name: str, defaults: dict, values: dict | None = None) -> None:
        self.__dict__["_name"] = name
        self.__dict__.update(copy.deepcopy(defaults))
        for k, v in (values or {}).items():
            setattr(self, k, v)

    def to_dict(self) -> dict:
        return {k: copy.deepcopy(v) for k, v in self.__dict__.items() if k != "_name"}

    def get(self, key, default=None):
        return self.__dict__.get(key, default)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items())
        return f"{type(self).__name__}({self._name}: {body})"


_SECTIONS = {
    "sharding": {
        "enable": False,
        "stage": 1,
        "degree": 8,
        "enable_overlap": False,
        "param_comm_stream_num": 1,
        "grad_comm_stream_num": 1,
        "param_bucket_size_numel": 1,
        "grad_bucket_size_numel": 1,
        "enable_hierarchical_comm": False,
        "partition_algor": "greedy_even",
        "enable_tuning": False,
        "tuning_range": [],
        "release_gradients": False,
        "comm_buffer_size_MB": 256,
        "enable_tensor_fusion": False,
        "save_unbalanced_param": True,
    },
    "gradient_merge": {"enable": False, "k_steps": 1, "avg": True},
    "pipeline": {
        "enable": False,
        "schedule_mode": "1F1B",
        "pp_degree": 1,
        "vpp_degree": 1,
        "vpp_seg_method": "",
        "micro_batch_size": 1,
        "accumulate_steps": 1,
        "generation_batch_size": 1,
        "enable_send_recv_overlap": False,
        "job_schedule_profiler_start": -1,
        "job_schedule_profiler_stop": -1,
        "program_runtimes": [61, 72, 71, 34, 3],
        "memory_limit_times": -1,
        "split_backward": False,
        "auto_parallel_sync_shared_params": False,
    },
    "amp": {
        "enable": False,
        "dtype": "float16",
        "level": "o1",
        "init_loss_scaling": 32768.0,
        "incr_every_n_steps": 1000,
        "decr_every_n_nan_or_inf": 2,
        "incr_ratio": 2.0,
        "decr_ratio": 0.8,
        "use_dynamic_loss_scaling": True,
        "custom_white_list": [],
        "custom_black_list": [],
        "custom_black_varnames": [],
        "use_fp16_guard": False,
        "use_bf16_guard": False,
        "use_master_grad": False,
        "use_promote": True,
    },
    "recompute": {
        "enable": False,
        "checkpoints": [],
        "no_recompute_segments": [],
        "sr": 0,
        "refined_ops_patterns": [],
        "enable_tuning": False,
    },
    "fused_passes": {"enable": False, "gemm_epilogue": False, "dropout_add": False},
    "mp_optimization": {
        "allreduce_matmul_grad_overlapping": False,
        "replace_with_c_embedding": False,
        "replace_with_parallel_cross_entropy": False,
    },
    "dp_optimization": {
        "enable": False,
        "fuse_all_reduce_ops": True,
        "fuse_grad_size_in_MB": 32,
        "overlap_comm_cacl": True,
        "gradient_sync_after_accumulate": False,
    },
    "sp_optimization": {"enable": True},
}
_TOP = {
    "auto_mode": "semi",
    "gradient_scale": True,
    "gradient_scale_using_allreduce_avg": False,
    "use_cache": True,
    "return_numpy": True,
    "all_ranks": False,
    "split_data": True,
    "seed": None,
    "reinit": False,
}


class Strategy:
    """Settings of ``dist.to_static``: sections ``sharding``, ``gradient_merge``, ``pipeline``,
    ``amp``, ``fused_passes`` (each with an ``enable`` switch), plus ``full_graph``.
    ``config`` is a dict of sections (``{"sharding": {"enable": True, "stage": 2}}``)."""

    def __init__(self, config: dict | None = None) -> None:
        config = dict(config or {})
        for k, v in _TOP.items():
            setattr(self, k, config.pop(k, v))
        self._full_graph = bool(config.pop("full_graph", True))
        for name, defaults in _SECTIONS.items():
            values = config.pop(name, None) or config.pop("_" + name, None)
            setattr(self, "_" + name, _Config(name, defaults, values))
        self._config_dict = config  # unknown sections are kept, as Paddle does

    sharding = property(lambda self: self._sharding)
    gradient_merge = property(lambda self: self._gradient_merge)
    pipeline = property(lambda self: self._pipeline)
    amp = property(lambda self: self._amp)
    fused_passes = property(lambda self: self._fused_passes)

    @property
    def full_graph(self) -> bool:
        return self._full_graph

    @full_graph.setter
    def full_graph(self, value: bool) -> None:
        self._full_graph = bool(value)

    def get(self, key, default=None):
        return getattr(self, key, default)

    def to_dict(self) -> dict:
        out = {k: getattr(self, k) for k in _TOP}
        for name in _SECTIONS:
            out["_" + name] = getattr(self, "_" + name).to_dict()
        return out

    @classmethod
    def from_dict(cls, config: dict) -> Strategy:
        return cls(config)

    def __repr__(self) -> str:
        return f"Strategy({self.to_dict()!r})"


# -- DistModel -------------------------------------------------------------------------------
def _to_list(x) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, list | tuple) else [x]


def _numpy(x):
    if isinstance(x, Tensor):
        return np.asarray(x._value)
    if isinstance(x, list | tuple):
        return type(x)(_numpy(v) for v in x)
    if isinstance(x, dict):
        return {k: _numpy(v) for k, v in x.items()}
    return x


def _snapshot(t: Tensor) -> Tensor:
    out = Tensor(t._value, stop_gradient=True, name=t.name)
    out.persistable = t.persistable
    return out


def _count_inputs(loader, input_spec) -> int | None:
    """How many of a call's Tensors are model inputs (the rest are labels)."""
    if input_spec is not None:
        return len(_to_list(input_spec[0]))
    if loader is None:
        return None
    dataset = getattr(loader, "dataset", None)
    if dataset is not None and hasattr(dataset, "__getitem__") and hasattr(dataset, "__len__"):
        try:
            sample = dataset[0]
        except Exception:  # noqa: BLE001 - an unusual dataset: fall back to the call
            return None
        if isinstance(sample, dict):
            return max(len(sample) - 1, 1)
        if isinstance(sample, list | tuple) and len(sample) >= 2:
            if len(sample) == 2:
                return len(_to_list(sample[0]))
            return len(sample) - 1
    return None


class DistModel:
    """A Layer with its loss and optimizer compiled into distributed programs; call
    ``train()``/``eval()``/``predict()`` first, then ``dist_model(inputs..., labels...)``."""

    def __init__(
        self,
        layer,
        loader=None,
        loss: Callable | None = None,
        optimizer=None,
        strategy: Strategy | None = None,
        metrics=None,
        input_spec=None,
    ) -> None:
        if strategy is not None and not isinstance(strategy, Strategy):
            raise TypeError(
                f"strategy must be a paddle.distributed.Strategy, got {type(strategy).__name__}"
            )
        self._layer = layer
        self._loss = loss
        self._strategy = strategy or Strategy()
        self._metrics = metrics
        self._input_spec = input_spec
        self._optimizer = self._wrap_optimizer(optimizer)
        self._n_inputs = _count_inputs(loader, input_spec)
        self._mode = None
        self._fns: dict = {}
        self._merge_count = 0
        self.outs = None
        self._structured_to_parameter_name = {k: v.name for k, v in layer.state_dict().items()}
        self._parameter_to_structured_name = {
            v: k for k, v in self._structured_to_parameter_name.items()
        }

    def _wrap_optimizer(self, optimizer):
        if optimizer is None:
            return None
        sharding = self._strategy.sharding
        if sharding.enable and sharding.stage in (1, 2, 3):
            inner = optimizer._inner_opt if isinstance(optimizer, _ShardOptimizer) else optimizer
            mesh = next((p.process_mesh for p in self._layer.parameters() if p.is_dist()), None)
            if mesh is None:
                raise ValueError(
                    "strategy.sharding needs the model's parameters on a "
                    "ProcessMesh (shard_layer / shard_tensor)."
                )
            dim = "dp" if "dp" in mesh.dim_names else 0
            stage = {1: ShardingStage1, 2: ShardingStage2, 3: ShardingStage3}[sharding.stage]
            return shard_optimizer(inner, stage(dim, mesh))
        if isinstance(optimizer, _ShardOptimizer):
            return optimizer
        return shard_optimizer(optimizer)

    # -- modes ------------------------------------------------------------------------------
    def train(self) -> None:
        """Calls run forward, backward and the optimizer update, and return the loss."""
        self._mode = "train"
        self._layer.train()

    def eval(self) -> None:
        """Calls return the loss (no update)."""
        self._mode = "eval"
        self._layer.eval()

    def predict(self) -> None:
        """Calls return the model's output."""
        self._mode = "predict"
        self._layer.eval()

    def _validate_mode(self, mode):
        if mode is None and self._mode is None:
            raise ValueError("Please set the mode or call train()/eval()/predict() first.")
        mode = self._mode if mode is None else mode
        if mode not in ("train", "eval", "predict"):
            raise ValueError("mode can only be 'train', 'eval' or 'predict'.")
        return mode

    def dist_main_program(self, mode=None):
        self._validate_mode(mode)
        raise NotImplementedError(
            "DistModel.dist_main_program: there is no Paddle Program on JAX; the step is one "
            "XLA program compiled by paddle.jit.to_static."
        )

    dist_startup_program = serial_main_program = serial_startup_program = dist_main_program

    # -- calls ------------------------------------------------------------------------------
    def __call__(self, *args):
        if self._mode is None:
            raise ValueError("Please call train()/eval()/predict() first.")
        if self._mode == "train" and (self._optimizer is None or self._loss is None):
            raise ValueError("Please set optimizer and loss function before training.")
        if self._mode == "eval" and self._loss is None:
            raise ValueError("Please set loss function before evaluation.")
        feeds = []
        for item in args:
            if isinstance(item, list | tuple):
                feeds += list(item)
            elif isinstance(item, Tensor):
                feeds.append(item)
            else:
                raise TypeError(
                    f"The inputs of DistModel should be list or tensor, but got {type(item)}"
                )
        if self._mode == "predict":
            n = len(feeds) if self._n_inputs is None else self._n_inputs
        else:
            n = self._n_inputs if self._n_inputs is not None else max(len(feeds) - 1, 1)
        inputs, labels = feeds[:n], feeds[n:]
        if self._mode == "train":
            out = self._train_call(inputs, labels)
        else:
            out = self._fn(self._mode)(inputs, labels)
        self.outs = {"loss" if self._mode != "predict" else "outputs": out}
        if self._mode == "predict" and isinstance(out, list | tuple) and len(out) == 1:
            out = out[0]
        return _numpy(out) if self._strategy.return_numpy else out

    def _train_call(self, inputs, labels):
        gm = self._strategy.gradient_merge
        k = int(gm.k_steps) if gm.enable else 1
        if k <= 1:
            return self._fn("train")(inputs, labels)
        self._merge_count += 1
        last = self._merge_count % k == 0
        return self._fn("train_update" if last else "train_accumulate")(inputs, labels)

    def _fn(self, kind: str):
        fn = self._fns.get(kind)
        if fn is None:
            from paddle_compat.jit import to_static as _jit_to_static

            fn = self._fns[kind] = _jit_to_static(
                self._make_step(kind), full_graph=self._strategy.full_graph
            )
        return fn

    def _make_step(self, kind: str):
        layer, loss_fn, opt = self._layer, self._loss, self._optimizer
        gm = self._strategy.gradient_merge
        scale = 1.0 / int(gm.k_steps) if gm.enable and gm.avg and gm.k_steps > 1 else 1.0

        def forward(inputs, labels):
            outs = layer(*inputs)
            if kind == "predict":
                return outs
            return loss_fn(*_to_list(outs), *labels)

        def train_step(inputs, labels):
            loss = forward(inputs, labels)
            (loss * scale if scale != 1.0 else loss).backward()
            if kind != "train_accumulate":
                opt.step()
                opt.clear_grad(set_to_zero=False)
            return loss

        def eval_step(inputs, labels):
            with no_grad():
                return forward(inputs, labels)

        step = train_step if kind.startswith("train") else eval_step
        step.__name__ = f"dist_model_{kind}"
        return step

    # -- state ------------------------------------------------------------------------------
    def _opt_tensors(self) -> dict:
        return {} if self._optimizer is None else state_of(self._optimizer)

    def state_dict(self, mode: str = "all", split_fusion: bool = True) -> dict:
        """Parameters by structured name (``mode='param'``), optimizer state by accumulator
        name (``'opt'``, train mode only), or both (``'all'``); the values are snapshots
        (``stop_gradient=True``) with the live layouts."""
        if mode not in ("opt", "param", "all"):
            raise ValueError(f"mode should be 'opt', 'param' or 'all', but got {mode!r}")
        live = {}
        if mode in ("param", "all"):
            live.update(self._layer.state_dict())
        if mode in ("opt", "all") and self._mode == "train":
            live.update(self._opt_tensors())
        # the values held now (Paddle returns the program's variables, stop_gradient=True)
        return {k: _snapshot(t) for k, t in live.items()}

    def set_state_dict(self, state_dict: dict) -> None:
        """Load values by the names ``state_dict()`` uses (layouts are kept)."""
        params = self._layer.state_dict()
        opt = self._opt_tensors()
        for k, v in state_dict.items():
            target = params.get(k) if k in params else opt.get(k)
            if target is None and k in self._parameter_to_structured_name:
                target = params.get(self._parameter_to_structured_name[k])
            if target is None:
                raise ValueError(f"DistModel.set_state_dict: unknown key {k!r}")
            target.set_value(v)


def to_static(
    layer, loader=None, loss=None, optimizer=None, strategy: Strategy | None = None, input_spec=None
) -> DistModel:
    """Turn a (sharded) Layer, its loss and optimizer into a ``DistModel`` whose steps run as
    compiled, GSPMD-partitioned programs."""
    return DistModel(layer, loader, loss, optimizer, strategy, input_spec=input_spec)
