"""``paddle.MmapStorage``: a file mapped into memory, read as Tensors with ``get_slice``."""

from __future__ import annotations

import math

import numpy as np

from .._core import dtype as _dt


class MmapStorage:
    """Map the first ``size`` bytes of ``filename`` (read-only). ``get_slice`` copies the
    elements into a Tensor: in Paddle the Tensor shares the mapped memory, so writes to it
    reach the file; here they do not (a JAX array is immutable)."""

    def __init__(self, filename: str, size: int):
        try:
            self._map = np.memmap(filename, dtype=np.uint8, mode="r")
        except (FileNotFoundError, IsADirectoryError, PermissionError):
            raise RuntimeError(
                f"(Unavailable) unable to open file <{filename}> in read-only mode."
            ) from None
        except ValueError:  # an empty file cannot be mapped
            self._map = np.zeros((0,), np.uint8)
        if self._map.size < size:
            raise RuntimeError(
                f"(Unavailable) file <{filename}> size <{self._map.size}> is smaller than the "
                f"required mapping size <{size}>"
            )
        self._map = self._map[:size]

    def get_slice(self, dtype="uint8", start: int = 0, stop: int = -1, step: int = 1):
        """``ceil((stop - start) / step)`` elements of ``dtype`` read from byte ``start``
        (as Paddle 3.3.1 counts them; the default ``stop=-1`` reads one element)."""
        from .._core.tensor import Tensor, to_device

        npd = _dt.to_dtype(dtype).np
        if step <= 0:
            raise ValueError(f"get_slice: step must be a positive integer, but got {step}")
        n = 1 if stop == -1 else max(0, math.ceil((stop - start) / step))
        end = start + n * npd.itemsize
        if start < 0 or end > self._map.size:
            raise ValueError(
                f"get_slice: {n} elements of {np.dtype(npd).name} from byte {start} read past "
                f"the {self._map.size} mapped bytes."
            )
        data = np.frombuffer(self._map[start:end].tobytes(), npd)
        return Tensor(to_device(data))
