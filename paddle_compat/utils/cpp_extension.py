"""``paddle.utils.cpp_extension``: building C++/CUDA custom operators. Not supported:
paddle-compat runs on JAX/XLA and cannot load Paddle's compiled operator libraries. Write the
operator as a function of paddle ops (or of ``jax.numpy`` through ``paddle.Tensor``'s
``__jax_array__``), or as a ``paddle.autograd.PyLayer`` for a custom gradient."""

from __future__ import annotations

_WHY = (
    "paddle.utils.cpp_extension.{name} is not supported by paddle-compat: it runs on JAX/XLA "
    "and cannot build or load Paddle C++/CUDA custom operators. Write the operator with "
    "paddle ops (a paddle.autograd.PyLayer for a custom gradient) instead."
)


def _unsupported(name: str):
    def fn(*args, **kwargs):
        raise NotImplementedError(_WHY.format(name=name))

    fn.__name__ = name
    fn.__doc__ = f"Not supported: {_WHY.format(name=name)}"
    return fn


setup = _unsupported("setup")
load = _unsupported("load")
CppExtension = _unsupported("CppExtension")
CUDAExtension = _unsupported("CUDAExtension")
BuildExtension = _unsupported("BuildExtension")
load_op_meta_info_and_register_op = _unsupported("load_op_meta_info_and_register_op")


def get_build_directory(verbose: bool = False) -> str:
    """Where Paddle builds extensions (``PADDLE_EXTENSION_DIR`` or ~/.cache/paddle_extensions)."""
    import os

    return os.environ.get(
        "PADDLE_EXTENSION_DIR", os.path.join(os.path.expanduser("~"), ".cache", "paddle_extensions")
    )


__all__ = [
    "CppExtension",
    "CUDAExtension",
    "BuildExtension",
    "load",
    "setup",
    "get_build_directory",
]
