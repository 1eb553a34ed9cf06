"""``paddle.distributed.fleet``: collective training on JAX (see ``_fleet.py``)."""

from __future__ import annotations

from . import dataset as dataset
from . import recompute, utils
from ._fleet import (
    CommunicateTopology,
    Fleet,
    HybridCommunicateGroup,
    PaddleCloudRoleMaker,
    ParallelMode,
    Role,
    UserDefinedRoleMaker,
)
from ._strategy import DistributedStrategy

# the datasets are fleet attributes but not in its __all__, as in Paddle
from .dataset import DatasetBase as DatasetBase
from .dataset import InMemoryDataset as InMemoryDataset
from .dataset import QueueDataset as QueueDataset

fleet = Fleet()
init = fleet.init
is_first_worker = fleet.is_first_worker
worker_index = fleet.worker_index
worker_num = fleet.worker_num
worker_endpoints = fleet.worker_endpoints
is_worker = fleet.is_worker
is_server = fleet.is_server
is_coordinator = fleet.is_coordinator
local_rank = fleet.local_rank
world_size = fleet.world_size
node_num = fleet.node_num
server_num = fleet.server_num
server_index = fleet.server_index
server_endpoints = fleet.server_endpoints
barrier_worker = fleet.barrier_worker
init_worker = fleet.init_worker
stop_worker = fleet.stop_worker
get_hybrid_communicate_group = fleet.get_hybrid_communicate_group
distributed_model = fleet.distributed_model
distributed_optimizer = fleet.distributed_optimizer
distributed_scaler = fleet.distributed_scaler

__all__ = [
    "CommunicateTopology",
    "DistributedStrategy",
    "Fleet",
    "HybridCommunicateGroup",
    "PaddleCloudRoleMaker",
    "ParallelMode",
    "Role",
    "UserDefinedRoleMaker",
    "barrier_worker",
    "distributed_model",
    "distributed_optimizer",
    "distributed_scaler",
    "fleet",
    "get_hybrid_communicate_group",
    "init",
    "init_worker",
    "is_coordinator",
    "is_first_worker",
    "is_server",
    "is_worker",
    "local_rank",
    "node_num",
    "recompute",
    "server_endpoints",
    "server_index",
    "server_num",
    "stop_worker",
    "utils",
    "worker_endpoints",
    "worker_index",
    "worker_num",
    "world_size",
]
