"""paddle.framework: save/load, ParamAttr, create_parameter and framework helpers."""

from .._io.serialization import (  # noqa: F401
    async_save,
    clear_async_save_task_queue,
    load,
    save,
)
from . import io  # noqa: F401,E402  (paddle.framework.io)
from ._param_attr import ParamAttr, WeightNormParamAttr, create_parameter  # noqa: F401

# names of Paddle's paddle.framework that live in paddle.base or the top level, resolved on
# first use (paddle.base imports this package)
_FROM_BASE_FRAMEWORK = (
    "Block",
    "Program",
    "Parameter",
    "convert_np_dtype_to_dtype_",
    "dygraph_only",
    "dygraph_not_support",
    "in_pir_executor_mode",
    "is_belong_to_optimizer",
    "in_dynamic_or_pir_mode",
    "in_pir_mode",
    "is_parameter",
    "is_persistable",
    "use_pir_api",
    "_current_expected_place",
    "_current_expected_place_",
    "_dygraph_tracer",
)
_FROM_PADDLE = (
    "CPUPlace",
    "CUDAPinnedPlace",
    "CUDAPlace",
    "disable_signal_handler",
    "disable_static",
    "dtype",
    "enable_static",
    "get_default_dtype",
    "get_flags",
    "grad",
    "in_dynamic_mode",
    "no_grad",
    "seed",
    "set_default_dtype",
    "set_flags",
)


def __getattr__(name: str):
    import importlib

    if name in ("core", "framework", "base"):
        mod = importlib.import_module(f"{__package__.rsplit('.', 1)[0]}.base")
        return mod if name == "base" else getattr(mod, name)
    if name in _FROM_BASE_FRAMEWORK:
        return getattr(
            importlib.import_module(f"{__package__.rsplit('.', 1)[0]}.base.framework"), name
        )
    if name in _FROM_PADDLE:
        return getattr(importlib.import_module(__package__.rsplit(".", 1)[0]), name)
    if name == "recall_error":
        return importlib.import_module(f"{__package__}.recall_error")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
