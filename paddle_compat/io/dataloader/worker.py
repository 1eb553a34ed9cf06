"""paddle.io.dataloader.worker."""

from ..._io.dataloader import WorkerInfo, get_worker_info  # noqa: F401
