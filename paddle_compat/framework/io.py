"""paddle.framework.io: save/load and the async save queue."""

from .._io.serialization import (  # noqa: F401
    async_save,
    clear_async_save_task_queue,
    load,
    save,
)
