"""paddle.device.cuda.graphs: CUDA graphs are not available. XLA compiles a whole
``to_static`` program instead (which is what a captured graph buys); so
``is_cuda_graph_supported()`` is False and ``CUDAGraph`` raises."""

from __future__ import annotations


def is_cuda_graph_supported() -> bool:
    return False


class CUDAGraph:
    """Raises: capture and replay need CUDA streams, which JAX does not expose."""

    def __init__(self, place=None, mode: str = "thread_local", pool_id=None):
        raise RuntimeError(
            "(Unavailable) CUDA Graph is not supported by paddle-compat: JAX exposes no CUDA "
            "stream to capture. Compile the step with paddle.jit.to_static instead."
        )
