"""``paddle.base.framework``: mode queries, the legacy default programs, ``Parameter``
(``EagerParamBase``), flags and dtype conversion, as dynamic-mode scripts read them."""

from __future__ import annotations

import functools

from .._api_extra import (  # noqa: F401
    get_flags,
    is_compiled_with_cinn,
    is_compiled_with_rocm,
    is_compiled_with_xpu,
    set_flags,
)
from .._core import dtype as _dt
from .._core.autograd import no_grad  # noqa: F401
from .._core.place import current_device, is_compiled_with_cuda, place_of_device  # noqa: F401
from .._core.tensor import Parameter, Tensor  # noqa: F401
from . import core, unique_name  # noqa: F401
from ._program import Block, Program, default_main_program, default_startup_program  # noqa: F401

EagerParamBase = Parameter


class Variable:
    """A static-graph variable. paddle-compat builds no static graphs (programs come from
    ``paddle.jit.to_static``), so no object is ever a ``Variable``; ``isinstance`` checks
    against it are False, as for dynamic-mode Tensors in Paddle."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError(
            "paddle.base.framework.Variable (a static-graph variable) cannot be created: "
            "paddle-compat has no static graphs; use paddle.jit.to_static."
        )


def in_dygraph_mode() -> bool:
    """True unless ``paddle.enable_static()`` is in effect."""
    from .._core import static_mode

    return not static_mode.is_static()


in_dynamic_mode = in_dygraph_mode


def in_dynamic_or_pir_mode() -> bool:
    """True: dynamic mode, or static mode (whose programs are PIR programs in Paddle 3)."""
    return True


def in_pir_mode() -> bool:
    """True in static mode (Paddle 3's static programs are PIR programs)."""
    return not in_dygraph_mode()


def use_pir_api() -> bool:
    return True


def _current_expected_place():
    """The Place new Tensors are created on."""
    return place_of_device(current_device())


_current_expected_place_ = _current_expected_place


def convert_np_dtype_to_dtype_(np_dtype) -> _dt.DType:
    """A numpy dtype (or name) as a paddle dtype."""
    return _dt.to_dtype(np_dtype)


def _mode_decorator(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapper


dygraph_only = _mode_decorator  # dynamic mode is the only mode: the checks always pass
non_static_only = _mode_decorator


def dygraph_not_support(func):
    """Paddle's marker for static-only APIs: calling one raises in dynamic mode (the only
    mode here)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        raise AssertionError(f"We don't support {func.__name__} in dynamic graph mode")

    return wrapper


static_only = dygraph_not_support


def in_pir_executor_mode() -> bool:
    return False


def in_cinn_mode() -> bool:
    return False


def is_parameter(var) -> bool:
    return isinstance(var, Parameter)


def is_persistable(var) -> bool:
    return bool(getattr(var, "persistable", False))


def is_belong_to_optimizer(var) -> bool:
    """False: optimizer state here is never a Parameter or a persistable program variable."""
    return False


def cpu_places(device_count: int | None = None) -> list:
    from . import cpu_places as _cpu_places

    return _cpu_places(device_count)


def cuda_places(device_ids=None) -> list:
    from . import cuda_places as _cuda_places

    return _cuda_places(device_ids)


def _dygraph_tracer():
    """The dynamic-mode tracer (``paddle.base.dygraph.tracer.Tracer``)."""
    from .dygraph.tracer import _dygraph_tracer as tracer

    return tracer()


_dygraph_tracer_ = _dygraph_tracer
