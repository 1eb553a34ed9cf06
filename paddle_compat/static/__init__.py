"""paddle.static: Paddle's static-graph mode (``paddle.enable_static()``, ``Program``,
``Executor``) on the registry's ops and ``jax.jit``, plus ``InputSpec`` and ``amp``."""

from .._core.tensor import Parameter  # noqa: E402
from ..framework._param_attr import ParamAttr, WeightNormParamAttr  # noqa: E402
from . import (
    _mode,  # noqa: F401 - installs the recorder of static mode
    amp,
    nn,
)
from ._backward import append_backward, gradients
from ._executor import (
    BuildStrategy,
    CompiledProgram,
    ExecutionStrategy,
    Executor,
    Scope,
    cpu_places,
    cuda_places,
    global_scope,
    scope_guard,
)
from ._extras import (
    Print,
    accuracy,
    create_global_var,
    create_parameter,
    device_guard,
    name_scope,
    py_func,
    xpu_places,
)
from ._input_spec import InputSpec
from ._io import (
    deserialize_persistables,
    deserialize_program,
    load,
    load_from_file,
    load_inference_model,
    load_program_state,
    normalize_program,
    save,
    save_inference_model,
    save_to_file,
    serialize_persistables,
    serialize_program,
    set_program_state,
)
from ._program import (
    Program,
    Variable,
    data,
    default_main_program,
    default_startup_program,
    program_guard,
)

__all__ = [
    "BuildStrategy", "CompiledProgram", "ExecutionStrategy", "Executor", "InputSpec",
    "ParamAttr", "Parameter", "Print", "Program", "Scope", "Variable", "WeightNormParamAttr",
    "accuracy", "amp", "append_backward", "cpu_places", "create_global_var",
    "create_parameter", "cuda_places", "data", "default_main_program",
    "default_startup_program", "deserialize_persistables", "deserialize_program",
    "device_guard", "global_scope", "gradients", "load", "load_from_file",
    "load_inference_model", "load_program_state", "name_scope", "nn", "normalize_program",
    "program_guard", "py_func", "save", "save_inference_model", "save_to_file", "scope_guard",
    "serialize_persistables", "serialize_program", "set_program_state", "xpu_places",
]  # fmt: skip
