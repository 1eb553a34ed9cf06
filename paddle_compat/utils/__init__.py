"""``paddle.utils``: nested-structure helpers, ``deprecated``, ``try_import``,
``require_version``, ``run_check``, ``unique_name``, ``dlpack``, ``download`` (local cache
only) and ``cpp_extension`` (not supported).

Not provided (static-graph internals of Paddle's ``dir(paddle.utils)``):
``OpLastCheckpointChecker``, ``op_version``, ``get_inputs_outputs_in_block``,
``capture_forward_subgraph_guard``, ``capture_backward_subgraph_guard``, ``fwd_graph_utils``,
``bwd_graph_utils``, ``get_shape_tensor_inputs``, ``get_int_tensor_list``,
``try_get_constant_shape_from_tensor``, ``hold_mutable_vars``, ``copy_mutable_vars``,
``inplace_utils``, ``decorator_utils``, ``image_util``, ``gast``, ``flops`` (the module;
``paddle.flops`` counts a model's FLOPs)."""

from __future__ import annotations

import importlib
import re

from . import cpp_extension, dlpack, download, environments, layers_utils, unique_name  # noqa: F401
from .deprecated import deprecated  # noqa: F401
from .environments import strtobool  # noqa: F401
from .install_check import run_check  # noqa: F401
from .layers_utils import (  # noqa: F401
    assert_same_structure,
    check_shape,
    convert_shape_to_list,
    convert_to_list,
    flatten,
    is_same_shape,
    is_sequence,
    map_structure,
    pack_sequence_as,
    padding_to_same_structure,
    to_sequence,
)


def try_import(module_name: str, err_msg: str | None = None):
    """Import ``module_name``, or raise ImportError saying which package to install."""
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if err_msg is None:
            err_msg = (
                f"Failed importing {module_name}. This likely means that some paddle modules "
                "require additional dependencies that have to be manually installed (usually "
                f"with `pip install {module_name}`). "
            )
        raise ImportError(err_msg) from None


_VERSION = re.compile(r"\d+(\.\d+){0,3}")


def require_version(min_version: str, max_version: str | None = None) -> None:
    """Raise unless the Paddle version this package follows (``paddle.__version__``, 3.3.1)
    is in ``[min_version, max_version]``; versions compare by up to four numbers."""
    from .. import __version__

    if not isinstance(min_version, str):
        raise TypeError(
            "The type of 'min_version' in require_version must be str, but received "
            f"{type(min_version)}."
        )
    if not isinstance(max_version, str | type(None)):
        raise TypeError(
            "The type of 'max_version' in require_version must be str or type(None), but "
            f"received {type(max_version)}."
        )
    for arg, v in (("min_version", min_version), ("max_version", max_version)):
        if v is not None and not _VERSION.fullmatch(v):
            raise ValueError(
                f"The value of '{arg}' in require_version must be in format "
                f"'\\d+(\\.\\d+){{0,3}}', like '1.5.2.0', but received {v}"
            )

    def key(v: str) -> list[int]:
        parts = [int(p) for p in v.split(".")]
        return parts + [0] * (4 - len(parts))

    cur = key(__version__)
    if max_version is not None and not key(min_version) <= cur <= key(max_version):
        raise Exception(
            f"VersionError: PaddlePaddle version in [{min_version}, {max_version}] required, "
            f"but {__version__} installed."
        )
    if cur < key(min_version):
        raise Exception(
            f"VersionError: PaddlePaddle version {min_version} or higher is required, but "
            f"{__version__} installed, please upgrade your PaddlePaddle to {min_version} or "
            "other higher version."
        )


__all__ = [
    "deprecated",
    "run_check",
    "require_version",
    "try_import",
    "flatten",
    "map_structure",
    "pack_sequence_as",
    "unique_name",
    "dlpack",
    "download",
    "cpp_extension",
]
