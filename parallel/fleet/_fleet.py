"""``paddle.distributed.fleet``: collective training setup (``fleet.init``), the hybrid
topology of ranks, and the model/optimizer wrappers.

Ranks are JAX processes (see ``parallel._env``). ``distributed_model`` returns a
``DataParallel`` wrapper when data parallelism is on (several processes, or one process
driving several devices) and the model itself otherwise; ``distributed_optimizer`` returns the optimizer
itself, as Paddle does in a single process: gradients of data-parallel models are already
global, so the plain update is the distributed update.
"""

from __future__ import annotations

import itertools
import logging
import os

import numpy as np

from .. import _env
from ._strategy import DistributedStrategy

__all__ = [
    "CommunicateTopology",
    "Fleet",
    "HybridCommunicateGroup",
    "ParallelMode",
    "PaddleCloudRoleMaker",
    "Role",
    "UserDefinedRoleMaker",
]

_logger = logging.getLogger("paddle.distributed.fleet")


class ParallelMode:
    """The kind of parallelism a hybrid topology uses."""

    DATA_PARALLEL = 0
    TENSOR_PARALLEL = 1
    PIPELINE_PARALLEL = 2
    SHARDING_PARALLEL = 3
    SEGMENT_PARALLEL = 4


class Role:
    WORKER = 1
    SERVER = 2
    HETER_WORKER = 3
    ALL = 4
    COORDINATOR = 5


class PaddleCloudRoleMaker:
    """Role maker reading the launcher's environment (collective mode: every rank a worker)."""

    def __init__(self, is_collective: bool = False, **kwargs) -> None:
        self._is_collective = is_collective
        self._kwargs = kwargs

    def _worker_index(self) -> int:
        return _env.get_rank()

    def _worker_num(self) -> int:
        return _env.get_world_size()

    def _is_worker(self) -> bool:
        return True


class UserDefinedRoleMaker(PaddleCloudRoleMaker):
    """Role maker with explicit ``current_id``/``worker_num``."""

    def __init__(self, is_collective: bool = False, init_gloo: bool = False, **kwargs) -> None:
        super().__init__(is_collective, **kwargs)
        self._current_id = kwargs.get("current_id", 0)
        self._num = kwargs.get("worker_num", 1)

    def _worker_index(self) -> int:
        return self._current_id

    def _worker_num(self) -> int:
        return self._num


class CommunicateTopology:
    """Ranks laid out on a grid of named axes (``data``, ``pipe``, ``sharding``, ``sep``,
    ``context``, ``model``); rank = row-major index of its coordinate."""

    def __init__(
        self, hybrid_group_names: list[str] | None = None, dims: list[int] | None = None
    ) -> None:
        self._names = list(
            hybrid_group_names or ["data", "pipe", "sharding", "sep", "context", "model"]
        )
        self._dims = list(dims or [1] * len(self._names))
        self._grid = np.arange(int(np.prod(self._dims))).reshape(self._dims)

    def get_hybrid_group_names(self) -> list[str]:
        return list(self._names)

    def get_dim(self, axis_name: str) -> int:
        return self._dims[self._names.index(axis_name)]

    get_dim_size = get_dim

    def world_size(self) -> int:
        return int(self._grid.size)

    def get_rank(self, **coords) -> int:
        assert len(coords) == len(self._dims)
        return int(self._grid[tuple(coords[n] for n in self._names)])

    def get_coord(self, rank: int):
        return tuple(int(i) for i in np.unravel_index(rank, self._dims))

    def get_axis_list(self, axis_name: str, index: int) -> list[int]:
        axis = self._names.index(axis_name)
        return sorted(int(r) for r in np.take(self._grid, index, axis=axis).ravel())

    def get_comm_list(self, axis_name: str) -> list[list[int]]:
        """The rank lists that communicate along ``axis_name``."""
        axis = self._names.index(axis_name)
        moved = np.moveaxis(self._grid, axis, -1)
        return [list(map(int, row)) for row in moved.reshape(-1, self._dims[axis])]

    def get_rank_from_stage(self, global_rank: int, **kwargs) -> int:
        coord = dict(zip(self._names, self.get_coord(global_rank)))
        coord.update(kwargs)
        return self.get_rank(**coord)


class HybridCommunicateGroup:
    """This rank's groups and coordinates in a ``CommunicateTopology``."""

    _AXES = {"data": "data", "model": "model", "pipe": "pipe", "sharding": "sharding", "sep": "sep"}

    def __init__(self, topology: CommunicateTopology, hybrid_configs=None) -> None:
        self._topo = topology
        self.global_rank = _env.get_rank()
        self.nranks = topology.world_size()
        self._coord = dict(
            zip(
                topology.get_hybrid_group_names(),
                topology.get_coord(min(self.global_rank, self.nranks - 1)),
            )
        )
        self._groups = {}
        ids = itertools.count(100)
        for name in topology.get_hybrid_group_names():
            for ranks in topology.get_comm_list(name):
                if self.global_rank in ranks:
                    member = ranks.index(self.global_rank)
                    self._groups[name] = _env.Group(member, next(ids), ranks)

    def topology(self) -> CommunicateTopology:
        return self._topo

    def get_global_rank(self) -> int:
        return self.global_rank

    def _size(self, axis: str) -> int:
        return self._topo.get_dim(axis)

    def _rank(self, axis: str) -> int:
        return self._coord[axis]

    def _group(self, axis: str):
        return self._groups.get(axis)

    def get_parallel_mode(self):
        """The dominant parallelism (None when every degree is 1, as in Paddle)."""
        if self._size("pipe") > 1:
            return ParallelMode.PIPELINE_PARALLEL
        if self._size("sep") > 1:
            return ParallelMode.SEGMENT_PARALLEL
        if self._size("model") > 1:
            return ParallelMode.TENSOR_PARALLEL
        if self._size("sharding") > 1:
            return ParallelMode.SHARDING_PARALLEL
        if self._size("data") > 1:
            return ParallelMode.DATA_PARALLEL
        return None

    def get_data_parallel_world_size(self) -> int:
        return self._size("data")

    def get_data_parallel_rank(self) -> int:
        return self._rank("data")

    def get_data_parallel_group(self):
        return self._group("data")

    def get_data_parallel_group_src_rank(self) -> int:
        return self._group("data").ranks[0]

    def get_model_parallel_world_size(self) -> int:
        return self._size("model")

    def get_model_parallel_rank(self) -> int:
        return self._rank("model")

    def get_model_parallel_group(self):
        return self._group("model")

    def get_model_parallel_group_src_rank(self) -> int:
        return self._group("model").ranks[0]

    def get_pipe_parallel_world_size(self) -> int:
        return self._size("pipe")

    def get_stage_id(self) -> int:
        return self._rank("pipe")

    def get_pipe_parallel_group(self):
        return self._group("pipe")

    def get_sharding_parallel_world_size(self) -> int:
        return self._size("sharding")

    def get_sharding_parallel_rank(self) -> int:
        return self._rank("sharding")

    def get_sharding_parallel_group(self):
        return self._group("sharding")

    def get_sharding_parallel_group_src_rank(self) -> int:
        return self._group("sharding").ranks[0]

    def get_sep_parallel_world_size(self) -> int:
        return self._size("sep")

    def get_sep_parallel_rank(self) -> int:
        return self._rank("sep")

    def get_sep_parallel_group(self):
        return self._group("sep")

    def get_check_parallel_group(self, sharding: bool = False):
        return _env.Group(self.global_rank, 99, list(range(self.nranks)))


_ORDER_TO_NAME = {
    "dp": "data",
    "pp": "pipe",
    "sharding": "sharding",
    "sep": "sep",
    "cp": "context",
    "mp": "model",
}
_DEGREE_KEY = {
    "data": "dp_degree",
    "pipe": "pp_degree",
    "sharding": "sharding_degree",
    "sep": "sep_degree",
    "context": "cp_degree",
    "model": "mp_degree",
}


class Fleet:
    """The object behind ``paddle.distributed.fleet``'s module functions."""

    def __init__(self) -> None:
        self._role_maker = None
        self._is_collective = False
        self._user_defined_strategy = DistributedStrategy()
        self._hcg = None
        self._topology = None
        self.user_defined_optimizer = None

    def init(self, role_maker=None, is_collective: bool = False, strategy=None, log_level="INFO"):
        """Set up collective training: the parallel environment and the hybrid topology from
        ``strategy.hybrid_configs`` (``dp_degree=-1`` takes the remaining ranks)."""
        if strategy is not None and not isinstance(strategy, DistributedStrategy):
            raise TypeError("strategy must be an instance of DistributedStrategy")
        if isinstance(log_level, str | int):
            _logger.setLevel(log_level if isinstance(log_level, int) else log_level.upper())
        self._role_maker = role_maker or PaddleCloudRoleMaker(is_collective=is_collective)
        self._is_collective = bool(is_collective or getattr(role_maker, "_is_collective", False))
        if strategy is not None:
            self._user_defined_strategy = strategy
        if self._is_collective:
            _env.init_parallel_env()
            self._build_topology()
        return self

    def _build_topology(self) -> None:
        hc = self._user_defined_strategy.hybrid_configs
        world = _env.get_world_size()
        order = self._user_defined_strategy.hybrid_parallel_order
        names = [_ORDER_TO_NAME[o] for o in order]
        degrees = {n: int(hc[_DEGREE_KEY[n]]) for n in names}
        other = int(np.prod([d for n, d in degrees.items() if n != "data"]))
        if degrees["data"] == -1:
            if world % other:
                raise ValueError(
                    f"The product of the parallel degrees ({other}) must divide the world size "
                    f"({world})."
                )
            degrees["data"] = world // other
        if int(np.prod(list(degrees.values()))) != world:
            raise ValueError(
                f"The product of hybrid_configs degrees {degrees} must equal the number of "
                f"ranks ({world})."
            )
        self._topology = CommunicateTopology(names, [degrees[n] for n in names])
        self._hcg = HybridCommunicateGroup(self._topology, hc)

    # -- roles ------------------------------------------------------------------------------
    def is_first_worker(self) -> bool:
        return self.worker_index() == 0

    def worker_index(self) -> int:
        return self._role_maker._worker_index() if self._role_maker else _env.get_rank()

    def worker_num(self) -> int:
        return self._role_maker._worker_num() if self._role_maker else _env.get_world_size()

    def worker_endpoints(self, to_string: bool = False):
        eps = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",")
        return ",".join(eps) if to_string else eps

    def is_worker(self) -> bool:
        return True

    def is_server(self) -> bool:
        return False

    def is_coordinator(self) -> bool:
        return False

    def local_rank(self) -> int:
        return _env.ParallelEnv().local_rank

    def world_size(self) -> int:
        return _env.get_world_size()

    def node_num(self) -> int:
        return 1

    def server_num(self) -> int:
        return 0

    def server_index(self) -> int:
        return 0

    def server_endpoints(self, to_string: bool = False):
        return "" if to_string else []

    def barrier_worker(self) -> None:
        if _env.is_initialized():
            _env.barrier()

    def init_worker(self, scopes=None) -> None:
        """Parameter-server mode only: nothing to do in collective mode."""

    def stop_worker(self) -> None:
        """Parameter-server mode only: nothing to do in collective mode."""

    def get_hybrid_communicate_group(self) -> HybridCommunicateGroup | None:
        return self._hcg

    # -- wrappers ---------------------------------------------------------------------------
    def distributed_model(self, model):
        """The model to train: a ``DataParallel`` wrapper when several processes or devices
        take part, else ``model`` itself."""
        assert model is not None, "model should not be None"
        import jax

        from .._data_parallel import DataParallel, _dp_mesh

        if _dp_mesh() is not None or jax.process_count() > 1:
            return DataParallel(
                model, find_unused_parameters=(self._user_defined_strategy.find_unused_parameters)
            )
        return model

    def distributed_optimizer(self, optimizer, strategy=None):
        """The optimizer to use (the same object: gradients are already global)."""
        self.user_defined_optimizer = optimizer
        if strategy is not None:
            if self._is_collective:
                _logger.warning(
                    "It is recommended to use DistributedStrategy in fleet.init(). The "
                    "strategy here is only for compatibility."
                )
            self._user_defined_strategy = strategy
        return optimizer

    def distributed_scaler(self, scaler):
        """The AMP GradScaler to use (unchanged)."""
        return scaler
