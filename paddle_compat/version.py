"""``paddle.version``: the Paddle version paddle-compat follows and its build facts.

``full_version`` is the Paddle API version this package emulates (3.3.1, also
``paddle.__version__``); ``compat_version`` is paddle-compat's own version. The build facts
are this package's real ones: no CUDA/cuDNN/NCCL/TensorRT/XPU/CINN/MKL is linked (XLA, through
JAX, runs the kernels), so those queries answer as Paddle's CPU build does."""

from __future__ import annotations

from . import __compat_version__, __version__

full_version = __version__
major, minor, patch = __version__.split(".")
rc = "0"
is_tagged = True
compat_version = __compat_version__
commit = f"paddle-compat {__compat_version__}"  # no Paddle build commit: this is not a Paddle build
with_mkl = "OFF"
with_hml = ""
with_pip_cuda_libraries = "OFF"
with_pip_tensorrt = "OFF"
cuda_version = "False"
cudnn_version = "False"
nccl_version = "0"
hip_version = None
cinn_version = "False"
tensorrt_version = "None"
xpu_xre_version = "False"
xpu_xccl_version = "False"
xpu_xhpc_version = "False"
compiled_cuda_archs: list = []


def cuda() -> str:
    """'False': paddle-compat links no CUDA (JAX's own CUDA plugin, if any, runs GPU work)."""
    return cuda_version


def cudnn() -> str:
    return cudnn_version


def nccl() -> str:
    return nccl_version


def xpu() -> str:
    return xpu_xre_version


def xpu_xre() -> str:
    return xpu_xre_version


def xpu_xccl() -> str:
    return xpu_xccl_version


def xpu_xhpc() -> str:
    return xpu_xhpc_version


def cinn() -> str:
    return cinn_version


def tensorrt() -> str:
    return tensorrt_version


def mkl() -> str:
    return with_mkl


def hml() -> str:
    return with_hml


def cuda_archs() -> list:
    return compiled_cuda_archs


def show() -> None:
    """Print the version and build facts (as Paddle's ``paddle.version.show()``)."""
    if is_tagged:
        print(f"full_version: {full_version}")
        print(f"major: {major}")
        print(f"minor: {minor}")
        print(f"patch: {patch}")
        print(f"rc: {rc}")
    else:
        print(f"commit: {commit}")
    print(f"cuda: {cuda_version}")
    print(f"cudnn: {cudnn_version}")
    print(f"hip: {hip_version}")
    print(f"nccl: {nccl_version}")
    print(f"xpu_xre: {xpu_xre_version}")
    print(f"xpu_xccl: {xpu_xccl_version}")
    print(f"xpu_xhpc: {xpu_xhpc_version}")
    print(f"cinn: {cinn_version}")
    print(f"tensorrt_version: {tensorrt_version}")
    print(f"cuda_archs: {compiled_cuda_archs}")
