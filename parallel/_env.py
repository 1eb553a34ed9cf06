"""The parallel environment: ranks, world size, groups and barriers (``paddle.distributed``).

Paddle runs one process per device; here a *rank* is a JAX process. In a single process the
rank is 0 and the world size 1 (or what ``PADDLE_TRAINER_ID`` / ``PADDLE_TRAINERS_NUM`` say, as
in Paddle); once ``jax.distributed`` is initialized (by ``init_parallel_env`` under a launcher,
or by the user) they are ``jax.process_index()`` / ``jax.process_count()``. The devices of all
processes form the global device list that meshes and ``DataParallel`` use.
"""

from __future__ import annotations

import datetime
import itertools
import os
import warnings

import jax

__all__ = [
    "Group",
    "ParallelEnv",
    "barrier",
    "destroy_process_group",
    "get_backend",
    "get_group",
    "get_rank",
    "get_world_size",
    "init_parallel_env",
    "is_available",
    "is_initialized",
    "new_group",
]

_state = {"env_called": False, "global_group": None}
_groups: dict[int, Group] = {}
_group_ids = itertools.count(1)


def _dist_ready() -> bool:
    return bool(jax.distributed.is_initialized())


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _global_rank() -> int:
    if _dist_ready():
        return jax.process_index()
    return _env_int("PADDLE_TRAINER_ID", 0)


def _global_world() -> int:
    if _dist_ready():
        return jax.process_count()
    return _env_int("PADDLE_TRAINERS_NUM", 1)


class Group:
    """A communication group: the global ranks it holds and this process's rank in it (-1 when
    this process is not a member)."""

    def __init__(
        self,
        rank_in_group: int,
        id: int,
        ranks: list[int],  # noqa: A002
        pg=None,
        name: str | None = None,
    ) -> None:
        self._rank_in_group = rank_in_group
        self._world_size = len(ranks) if rank_in_group >= 0 else -1
        self._id = id
        self._ranks = list(ranks)
        self._pg = pg
        self._name = name if name is not None else f"_default_pg{id}"
        self.backend = "xla"

    @property
    def rank(self) -> int:
        return self._rank_in_group

    @property
    def ranks(self) -> list[int]:
        return self._ranks

    @property
    def nranks(self) -> int:
        return len(self._ranks)

    @property
    def world_size(self) -> int:
        return self._world_size

    @property
    def id(self) -> int:
        return self._id

    @property
    def name(self) -> str:
        return self._name

    @property
    def process_group(self):
        return self._pg

    def is_member(self) -> bool:
        return self._rank_in_group >= 0

    def get_group_rank(self, rank: int) -> int:
        return self._ranks.index(rank) if rank in self._ranks else -1

    def get_global_rank(self, rank: int) -> int:
        return self._ranks[rank]

    def __repr__(self) -> str:
        ranks = ", ".join(str(r) for r in self._ranks)
        return (
            f"rank: {self.rank}, nranks: {self.nranks}, id: {self.id}, ranks: {ranks}; "
            f"name: {self.name}"
        )


def is_available() -> bool:
    """Whether the distributed package can be used (always True)."""
    return True


def is_initialized() -> bool:
    """Whether the global group exists (``init_parallel_env`` in a multi-process run)."""
    return _state["global_group"] is not None


def launch_args() -> dict | None:
    """``jax.distributed.initialize`` arguments from Paddle's launcher environment
    (``PADDLE_TRAINERS_NUM`` > 1, ``PADDLE_TRAINER_ID``, ``PADDLE_TRAINER_ENDPOINTS`` or
    ``PADDLE_MASTER``), or None outside a multi-process launch."""
    world = _env_int("PADDLE_TRAINERS_NUM", 1)
    if world <= 1:
        return None
    endpoints = [e for e in os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",") if e]
    coordinator = os.environ.get("PADDLE_MASTER") or (endpoints[0] if endpoints else None)
    if coordinator is None:
        raise RuntimeError(
            "PADDLE_TRAINERS_NUM > 1 but neither PADDLE_TRAINER_ENDPOINTS nor PADDLE_MASTER "
            "names the coordinator; start the job with `python -m paddle.distributed.launch` "
            "or set them."
        )
    return {
        "coordinator_address": coordinator,
        "num_processes": world,
        "process_id": _env_int("PADDLE_TRAINER_ID", 0),
    }


def init_parallel_env(nccl_config=None) -> Group | None:
    """Set up the parallel environment and return the global group (None in a single
    process, as in Paddle, where it also makes ``DataParallel`` use every local device).

    Several processes talk through ``jax.distributed``. JAX only allows initializing it
    before the first array exists, i.e. before ``import paddle``: the launcher (or the user,
    with ``jax.distributed.initialize(**parallel._env.launch_args())``) does it; this function
    tries it too and explains the fix when it is too late."""
    _state["env_called"] = True
    if not _dist_ready():
        args = launch_args()
        if args is None:
            if len(jax.local_devices()) <= 1:
                warnings.warn(
                    "Currently not a parallel execution environment, "
                    "`paddle.distributed.init_parallel_env` will not do anything.",
                    stacklevel=2,
                )
            return None
        try:
            jax.distributed.initialize(**args)
        except RuntimeError as e:
            raise RuntimeError(
                f"init_parallel_env: could not start jax.distributed ({e}). JAX must be "
                "initialized for several processes before any array is created, i.e. before "
                "`import paddle`: launch with `python -m paddle.distributed.launch`, or call "
                "`jax.distributed.initialize(...)` first."
            ) from None
    if jax.process_count() <= 1:
        return None
    if _state["global_group"] is None:
        g = Group(jax.process_index(), 0, list(range(jax.process_count())), name="_default_pg")
        _state["global_group"] = _groups[0] = g
    return _state["global_group"]


def _env_called() -> bool:
    return _state["env_called"] or _dist_ready()


def get_rank(group: Group | None = None) -> int:
    """This process's rank in ``group`` (default: the global rank; 0 in a single process)."""
    if group is not None:
        return group.rank
    return _global_rank()


def get_world_size(group: Group | None = None) -> int:
    """The number of ranks in ``group`` (default: all processes; 1 in a single process)."""
    if group is not None:
        return group.world_size
    return _global_world()


def _require_global(group=None) -> None:
    if group is None and _state["global_group"] is None:
        raise RuntimeError("The global group is not initialized.")


def get_backend(group: Group | None = None) -> str:
    """The communication backend name (``"xla"``: JAX's collectives)."""
    _require_global(group)
    return "xla"


def get_group(id: int = 0) -> Group | None:  # noqa: A002 - Paddle's signature
    """The group with this id (0: the global group), or None."""
    return _groups.get(id)


def new_group(
    ranks: list[int] | None = None,
    backend: str | None = None,
    timeout: datetime.timedelta = datetime.timedelta(seconds=1800),
    nccl_comm_init_option: int = 0,
    nccl_config=None,
) -> Group:
    """A group over ``ranks`` (default: all ranks)."""
    world = _global_world()
    ranks = sorted(range(world) if ranks is None else [int(r) for r in ranks])
    me = _global_rank()
    member = is_initialized() and me in ranks
    gid = next(_group_ids)
    g = Group(ranks.index(me) if member else -1, gid, ranks)
    _groups[gid] = g
    return g


def destroy_process_group(group: Group | None = None) -> None:
    """Forget ``group`` (default: every group, and the global group)."""
    if group is None:
        _groups.clear()
        _state["global_group"] = None
    else:
        _groups.pop(group.id, None)


def barrier(group: Group | None = None) -> None:
    """Wait until every process reaches this point (a no-op with one process)."""
    _require_global(group)
    if jax.process_count() > 1:
        from jax.experimental import multihost_utils

        multihost_utils.sync_global_devices("paddle.distributed.barrier")


class ParallelEnv:
    """The parallel environment as Paddle's launcher describes it (ranks, endpoints)."""

    def __init__(self) -> None:
        self._rank = _global_rank()
        self._world_size = _global_world()
        self._device_type = os.environ.get("PADDLE_XCCL_BACKEND", "")
        self._device_id = _env_int("FLAGS_selected_gpus", 0)
        self._trainer_endpoints = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",")
        self._current_endpoint = os.environ.get("PADDLE_CURRENT_ENDPOINT", "")
        self._nrings = _env_int("FLAGS_nccl_nrings", 1)
        self._pg_timeout = _env_int("PADDLE_PG_TIMEOUT", 1800000)

    @property
    def rank(self) -> int:
        return self._rank

    @property
    def world_size(self) -> int:
        return self._world_size

    @property
    def local_rank(self) -> int:
        return self._rank

    @property
    def nranks(self) -> int:
        return self._world_size

    @property
    def device_id(self) -> int:
        return self._device_id

    dev_id = device_id

    @property
    def device_type(self) -> str:
        return self._device_type

    @property
    def current_endpoint(self) -> str:
        return self._current_endpoint

    @property
    def trainer_endpoints(self) -> list[str]:
        return self._trainer_endpoints

    @property
    def nrings(self) -> int:
        return self._nrings

    @property
    def pg_timeout(self) -> int:
        return self._pg_timeout
