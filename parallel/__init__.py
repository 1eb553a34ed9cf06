"""``parallel``: Paddle's ``paddle.distributed`` on JAX shardings (see ../shared/DESIGN.md).

``import paddle.distributed as dist`` gives this package. Tests and benchmarks that want an
8-device CPU mesh set ``XLA_FLAGS=--xla_force_host_platform_device_count=8`` before jax starts
(``tests/conftest.py`` does); importing this package changes no JAX setting.
"""

from paddle_compat._core.seams import (
    Partial,
    Placement,
    ProcessMesh,
    ReduceType,
    Replicate,
    Shard,
)

from ._api import (
    dtensor_from_fn,
    reshard,
    shard_layer,
    shard_tensor,
    unshard_dtensor,
)
from ._mesh import get_mesh, set_mesh

__all__ = [
    "Partial",
    "Placement",
    "ProcessMesh",
    "ReduceType",
    "Replicate",
    "Shard",
    "dtensor_from_fn",
    "get_mesh",
    "reshard",
    "set_mesh",
    "shard_layer",
    "shard_tensor",
    "unshard_dtensor",
]

# -- environment, data parallel, fleet, recompute, optimizer sharding, DistModel -------------
from . import fleet  # noqa: E402
from ._data_parallel import DataParallel  # noqa: E402
from ._dataset import InMemoryDataset, QueueDataset  # noqa: E402
from ._dist_attr import DistAttr  # noqa: E402
from ._dist_model import DistModel, Strategy, to_static  # noqa: E402
from ._env import (  # noqa: E402
    Group,
    ParallelEnv,
    barrier,
    destroy_process_group,
    get_backend,
    get_group,
    get_rank,
    get_world_size,
    init_parallel_env,
    is_available,
    is_initialized,
    new_group,
)
from ._optimizer import (  # noqa: E402
    ShardingStage1,
    ShardingStage2,
    ShardingStage3,
    shard_optimizer,
)
from ._scaler import shard_scaler  # noqa: E402
from ._shard_dataloader import ShardDataloader, shard_dataloader  # noqa: E402

__all__ += [
    "DataParallel",
    "DistAttr",
    "DistModel",
    "Group",
    "InMemoryDataset",
    "ParallelEnv",
    "QueueDataset",
    "ShardDataloader",
    "ShardingStage1",
    "ShardingStage2",
    "ShardingStage3",
    "Strategy",
    "barrier",
    "destroy_process_group",
    "fleet",
    "get_backend",
    "get_group",
    "get_rank",
    "get_world_size",
    "init_parallel_env",
    "is_available",
    "is_initialized",
    "new_group",
    "shard_dataloader",
    "shard_optimizer",
    "shard_scaler",
    "to_static",
]
