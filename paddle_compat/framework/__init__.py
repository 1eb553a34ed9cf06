"""paddle.framework: save/load, ParamAttr, create_parameter and framework helpers."""

from .._io.serialization import (  # noqa: F401
    async_save,
    clear_async_save_task_queue,
    load,
    save,
)
from . import io  # noqa: F401,E402  (paddle.framework.io)
from ._param_attr import ParamAttr, WeightNormParamAttr, create_parameter  # noqa: F401
