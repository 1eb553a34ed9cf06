"""read_file (a file's bytes as a uint8 Tensor) and decode_jpeg (those bytes decoded with
Pillow into a [C, H, W] uint8 image). Paddle decodes JPEG only on GPU (nvJPEG) and raises on
CPU; here it works on every device."""

from __future__ import annotations

import io

import numpy as np

from ..._core.tensor import Tensor
from ._common import dtype_name, host, host_op, to_tensor

__all__ = ["read_file", "decode_jpeg"]

_MODES = {"unchanged": None, "gray": "L", "rgb": "RGB"}


@host_op("read_file", tensors=())
def read_file(filename: str) -> Tensor:
    """The bytes of ``filename`` as a 1-D uint8 Tensor (on the CPU)."""
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RuntimeError(
            f"(PreconditionNotMet) read_file cannot read '{filename}': {e.strerror or e}"
        ) from None
    return to_tensor(np.frombuffer(data, np.uint8).copy())


@host_op("decode_jpeg", tensors=("x",))
def decode_jpeg(x: Tensor, mode: str = "unchanged") -> Tensor:
    """Decode the JPEG bytes in ``x`` (1-D uint8) into a uint8 image [C, H, W]: mode
    'unchanged' keeps the file's channels (1 for grayscale, else 3), 'gray' gives 1, 'rgb' 3."""
    if mode not in _MODES:
        raise ValueError(
            f"(InvalidArgument) The read mode of decode_jpeg must be one of 'unchanged', "
            f"'gray' or 'rgb', but received '{mode}'."
        )
    data = host(x, "decode_jpeg")
    if data.dtype != np.uint8 or data.ndim != 1:
        raise ValueError(
            f"(InvalidArgument) decode_jpeg expects a 1-D uint8 Tensor of JPEG bytes, got "
            f"{dtype_name(data.dtype)} of shape {list(data.shape)}"
        )
    from PIL import Image, UnidentifiedImageError

    try:
        img = Image.open(io.BytesIO(data.tobytes()), formats=["JPEG"])  # JPEG only, as Paddle
        img.load()
    except (UnidentifiedImageError, OSError) as e:
        raise RuntimeError(f"(External) decode_jpeg failed to decode the image: {e}") from None
    target = _MODES[mode] or ("L" if img.mode in ("L", "1", "I;16") else "RGB")
    arr = np.asarray(img.convert(target), np.uint8)
    if arr.ndim == 2:
        arr = arr[None]
    else:
        arr = arr.transpose(2, 0, 1)
    return to_tensor(np.ascontiguousarray(arr))
