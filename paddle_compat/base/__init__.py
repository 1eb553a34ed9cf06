"""``paddle.base``: the framework internals that scripts and libraries import (``core``,
``framework``, ``dygraph``, ``unique_name``, ``data_feeder``, ``param_attr``, places, flags).
Everything here re-exports paddle-compat's own objects; the static-graph machinery
(``Executor``, ``Scope``, ``program_guard``, ``global_scope``, ``scope_guard``) is
``paddle.static``'s. ``paddle.base.Program`` / ``default_main_program`` are still the empty
program that dynamic-mode Tensors report (``Tensor.block``), not ``paddle.static``'s."""

from __future__ import annotations

import contextlib
import os

from .._api_extra import (  # noqa: F401
    get_flags,
    is_compiled_with_cinn,
    is_compiled_with_rocm,
    is_compiled_with_xpu,
    set_flags,
)
from .._core.place import CPUPlace, CUDAPinnedPlace, CUDAPlace, is_compiled_with_cuda  # noqa: F401
from .._core.tensor_api import DenseTensor  # noqa: F401
from ..framework._param_attr import ParamAttr, WeightNormParamAttr  # noqa: F401
from . import core, data_feeder, dygraph, framework, libpaddle, param_attr, unique_name  # noqa: F401
from ._program import Program, default_main_program, default_startup_program  # noqa: F401
from .dygraph.base import disable_dygraph, enable_dygraph  # noqa: F401
from .framework import Variable, in_dygraph_mode, in_dynamic_or_pir_mode, in_pir_mode  # noqa: F401

Tensor = DenseTensor  # as in Paddle: paddle.base.Tensor is the DenseTensor class
disable_imperative = disable_dygraph
enable_imperative = enable_dygraph


def cpu_places(device_count: int | None = None) -> list:
    """``device_count`` CPU places (default: the ``CPU_NUM`` environment variable, else 1)."""
    if device_count is None:
        device_count = int(os.environ.get("CPU_NUM", "1"))
    return [CPUPlace() for _ in range(device_count)]


def xpu_places(device_ids=None) -> list:
    """[]: no XPU is available to JAX here."""
    return []


def cuda_pinned_places(device_count: int | None = None) -> list:
    """``device_count`` CUDAPinnedPlaces (default: ``CPU_NUM``, else 1)."""
    if device_count is None:
        device_count = int(os.environ.get("CPU_NUM", "1"))
    return [CUDAPinnedPlace() for _ in range(device_count)]


def cuda_places(device_ids=None) -> list:
    """The CUDAPlaces of ``device_ids`` (default: every GPU JAX sees)."""
    if device_ids is None:
        device_ids = range(core.get_cuda_device_count())
    return [CUDAPlace(i) for i in device_ids]


@contextlib.contextmanager
def name_scope(prefix: str | None = None):
    """Static-graph name scopes: in dynamic mode Paddle ignores them, and so does this."""
    yield


def require_version(min_version: str, max_version: str | None = None) -> None:
    from ..utils import require_version as _require

    _require(min_version, max_version)


_FROM_STATIC = ("Executor", "Scope", "global_scope", "program_guard", "scope_guard")


def __getattr__(name):
    if name in _FROM_STATIC:  # imported when first used (paddle.static imports this package)
        from .. import static

        return getattr(static, name)
    raise AttributeError(f"module 'paddle.base' has no attribute '{name}'")
