"""``fleet.DistributedStrategy``: the switches and config dicts of Paddle's collective training.

Every attribute Paddle 3.3.1 has is accepted with its default (measured); assigning an unknown
attribute raises ``TypeError`` and an unknown config key ``AssertionError``, as in Paddle. On JAX
most switches have no effect: XLA's partitioner does the communication; ``hybrid_configs``
degrees describe the device mesh, ``sharding_configs['stage']`` the optimizer sharding.
"""

from __future__ import annotations

import copy
import logging

__all__ = ["DistributedStrategy"]

_logger = logging.getLogger("paddle.distributed.fleet")

# defaults measured on Paddle 3.3.1 (float configs keep Paddle's float32-rounded values)
_FLAGS = {
    "a_sync": True,
    "adam_d2sum": False,
    "adaptive_localsgd": False,
    "amp": False,
    "asp": False,
    "auto": False,
    "auto_search": False,
    "cudnn_batchnorm_spatial_persistent": False,
    "cudnn_exhaustive_search": False,
    "dgc": False,
    "elastic": False,
    "find_unused_parameters": False,
    "fp16_allreduce": False,
    "fuse_all_reduce_ops": True,
    "fuse_grad_merge": False,
    "gradient_merge": False,
    "heter_ccl_mode": False,
    "is_fl_ps_mode": False,
    "is_with_coordinator": False,
    "lamb": False,
    "lars": False,
    "localsgd": False,
    "pipeline": False,
    "qat": False,
    "recompute": False,
    "semi_auto": False,
    "sharding": False,
    "split_data": True,
    "sync_batch_norm": False,
    "sync_nccl_allreduce": True,
    "tensor_parallel": False,
    "use_hierarchical_allreduce": False,
    "without_graph_optimization": True,
}
_VALUES = {
    "conv_workspace_size_limit": 512,
    "fuse_grad_size_in_MB": 32,
    "fuse_grad_size_in_num": 8,
    "hierarchical_allreduce_inter_nranks": 1,
    "last_comm_group_size_MB": 1.0,
    "nccl_comm_num": 1,
    "hybrid_parallel_order": ["dp", "pp", "sharding", "sep", "cp", "mp"],
    "sync_param_name": ["embedding", "layer_norm", ".b_"],
    "build_strategy": None,
}
_CONFIGS = {
    "a_sync_configs": {
        "k_steps": -1,
        "max_merge_var_num": 1,
        "send_queue_size": 16,
        "independent_recv_thread": False,
        "min_send_grad_num_before_recv": 1,
        "thread_pool_size": 1,
        "send_wait_times": 1,
        "runtime_split_send_recv": False,
        "launch_barrier": True,
        "heter_worker_device_guard": "cpu",
        "lr_decay_steps": 10,
        "use_ps_gpu": 0,
        "use_gpu_graph": 0,
    },
    "adaptive_localsgd_configs": {"init_k_steps": 1, "begin_step": 1},
    "amp_configs": {
        "init_loss_scaling": 32768.0,
        "incr_every_n_steps": 1000,
        "decr_every_n_nan_or_inf": 2,
        "incr_ratio": 2.0,
        "decr_ratio": 0.800000011920929,
        "use_dynamic_loss_scaling": True,
        "custom_white_list": [],
        "custom_black_list": [],
        "custom_black_varnames": [],
        "use_pure_fp16": False,
        "use_fp16_guard": True,
        "use_optimizer_fp16": False,
        "use_pure_bf16": False,
    },
    "dgc_configs": {"rampup_begin_step": 0, "rampup_step": 1, "sparsity": []},
    "gradient_merge_configs": {"k_steps": 1, "avg": True},
    "gradient_scale_configs": {"scale_strategy": "avg", "scale_gradient": False},
    "hybrid_configs": {
        "dp_degree": -1,
        "mp_degree": 1,
        "pp_degree": 1,
        "sharding_degree": 1,
        "sep_degree": 1,
        "mp_configs": {},
        "pp_configs": {},
        "sharding_configs": {},
        "enable_optimizer_timer": False,
        "split_norm_comm": False,
        "ep_degree": 1,
        "moe_sharding_degree": 1,
        "dp_configs": {},
        "sep_configs": {},
        "dp_sep_configs": {},
        "pp_tp_configs": {},
        "ep_configs": {},
        "moe_sharding_configs": {},
        "default_comm_group_configs": {},
        "cp_degree": 1,
        "cp_sharding_degree": 1,
        "cp_configs": {},
        "cp_sharding_configs": {},
        "dp_cp_configs": {},
        "cp_mp_configs": {},
    },
    "lamb_configs": {"lamb_weight_decay": 0.009999999776482582, "exclude_from_weight_decay": []},
    "lars_configs": {
        "lars_coeff": 0.0010000000474974513,
        "lars_weight_decay": 0.0005000000237487257,
        "epsilon": 0.0,
        "exclude_from_weight_decay": [],
    },
    "localsgd_configs": {"k_steps": 1, "begin_step": 1},
    "pipeline_configs": {
        "micro_batch_size": 1,
        "accumulate_steps": 1,
        "schedule_mode": "1F1B",
        "p2p_cache_shape": True,
        "enable_partial_send_recv": True,
    },
    "qat_configs": {
        "channel_wise_abs_max": True,
        "weight_bits": 8,
        "activation_bits": 8,
        "not_quant_pattern": [],
        "algo": "",
    },
    "recompute_configs": {
        "checkpoints": [],
        "enable_offload": False,
        "checkpoint_shape": [],
        "enable_tuning": False,
        "refined_ops_patterns": [],
    },
    "sharding_configs": {
        "sharding_segment_strategy": "segment_broadcast_MB",
        "segment_broadcast_MB": 32.0,
        "segment_anchors": [],
        "sharding_degree": 8,
        "mp_degree": 1,
        "dp_degree": 1,
        "hybrid_dp": False,
        "gradient_merge_acc_step": 1,
        "optimize_offload": False,
        "pp_allreduce_in_optimize": False,
        "pp_degree": 1,
        "optimize_cast": False,
        "_dp_as_optimizer_sharding": False,
        "stage": 1,
        "enable_tuning": False,
        "use_calc_stream": False,
    },
    "tensor_parallel_configs": {"tensor_parallel_degree": 1, "tensor_init_seed": -1},
    "trainer_desc_configs": {
        "dump_fields_path": "",
        "dump_fields": [],
        "dump_param": [],
        "stat_var_names": [],
        "trainer": "",
        "device_worker": "",
        "local_sparse": [],
        "remote_sparse": [],
    },
}


class DistributedStrategy:
    """Settings for ``fleet.init`` / ``fleet.distributed_optimizer`` (amp, recompute, sharding,
    pipeline, ``hybrid_configs`` degrees...)."""

    def __init__(self) -> None:
        d = self.__dict__
        d["_flags"] = dict(_FLAGS)
        d["_values"] = copy.deepcopy(_VALUES)
        d["_configs"] = copy.deepcopy(_CONFIGS)

    def __getattr__(self, name: str):
        d = self.__dict__
        if name.startswith("__") or "_flags" not in d:
            raise AttributeError(name)
        if name in d["_flags"]:
            return d["_flags"][name]
        if name in d["_values"]:
            return d["_values"][name]
        if name in d["_configs"]:
            return copy.deepcopy(d["_configs"][name])
        raise AttributeError(f"'DistributedStrategy' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        if name in d["_flags"]:
            if isinstance(value, bool):
                d["_flags"][name] = value
            else:
                _logger.warning("%s should have value of bool type", name)
        elif name in d["_values"]:
            d["_values"][name] = value
        elif name in d["_configs"]:
            if not isinstance(value, dict):
                raise TypeError(f"{name} should be a dict, got {type(value).__name__}")
            cfg = d["_configs"][name]
            for k, v in value.items():
                assert k in cfg, f"key:{k} not in {name}"
                if isinstance(cfg[k], dict) and isinstance(v, dict):
                    cfg[k] = {**cfg[k], **v}
                else:
                    cfg[k] = v
        elif name.startswith("_"):
            d[name] = value
        else:
            raise TypeError(f"{name} is not a attribute of DistributedStrategy")

    def __repr__(self) -> str:
        changed = [f"{k}={v!r}" for k, v in self._flags.items() if v != _FLAGS[k]]
        changed += [f"{k}={v!r}" for k, v in self._values.items() if v != _VALUES[k]]
        for name, cfg in self._configs.items():
            diff = {k: v for k, v in cfg.items() if v != _CONFIGS[name][k]}
            if diff:
                changed.append(f"{name}={diff!r}")
        return "DistributedStrategy(" + ", ".join(changed) + ")"

    def save_to_prototxt(self, output: str) -> None:
        """Write the settings to a text file (JSON here, not protobuf text)."""
        import json

        with open(output, "w") as f:
            json.dump(
                {"flags": self._flags, "values": self._values, "configs": self._configs},
                f,
                indent=1,
                default=str,
            )

    def load_from_prototxt(self, pb_file: str) -> None:
        """Read settings written by ``save_to_prototxt``."""
        import json

        with open(pb_file) as f:
            data = json.load(f)
        self._flags.update(data.get("flags", {}))
        self._values.update(data.get("values", {}))
        for name, cfg in data.get("configs", {}).items():
            self._configs.setdefault(name, {}).update(cfg)
