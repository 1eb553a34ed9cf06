"""``BaseTransform`` (one call transforms a tuple of inputs by their ``keys``) and ``Compose``,
plus the small argument helpers the transform classes share."""

from __future__ import annotations

import numbers
import traceback
from collections.abc import Sequence

from . import functional as F


def _get_image_size(img) -> tuple[int, int]:
    """(width, height) of a PIL image, an HWC array or a CHW/NCHW Tensor."""
    if F._is_pil_image(img):
        return img.size
    if F._is_numpy_image(img):
        return img.shape[:2][::-1]
    if F._is_tensor_image(img):
        if len(img.shape) == 3:
            return img.shape[1:][::-1]
        if len(img.shape) == 4:
            return img.shape[2:][::-1]
        raise ValueError(
            f"The dim for input Tensor should be 3-D or 4-D, but received {len(img.shape)}"
        )
    raise TypeError(f"Unexpected type {type(img)}")


def _check_input(value, name, center=1, bound=(0, float("inf")), clip_first_on_zero=True):
    """A jitter amount -> its [low, high] range (None when it is the identity)."""
    if isinstance(value, numbers.Number):
        if value < 0:
            raise ValueError(f"If {name} is a single number, it must be non negative.")
        value = [center - value, center + value]
        if clip_first_on_zero:
            value[0] = max(value[0], 0)
    elif isinstance(value, tuple | list) and len(value) == 2:
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}")
    else:
        raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
    if value[0] == value[1] == center:
        value = None
    return value


def _check_sequence_input(x, name: str, req_sizes) -> None:
    msg = req_sizes[0] if len(req_sizes) < 2 else " or ".join(str(s) for s in req_sizes)
    if not isinstance(x, Sequence):
        raise TypeError(f"{name} should be a sequence of length {msg}.")
    if len(x) not in req_sizes:
        raise ValueError(f"{name} should be sequence of length {msg}.")


def _setup_angle(x, name: str, req_sizes=(2,)) -> list[float]:
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        x = [-x, x]
    else:
        _check_sequence_input(x, name, req_sizes)
    return [float(d) for d in x]


class Compose:
    """Apply ``transforms`` in order; a failing one is reported (with its traceback) on
    stdout before the error propagates, as Paddle does."""

    def __init__(self, transforms) -> None:
        self.transforms = transforms

    def __call__(self, data):
        for f in self.transforms:
            try:
                data = f(data)
            except Exception as e:
                stack_info = traceback.format_exc()
                print(f"fail to perform transform [{f}] with error: {e} and stack:\n{stack_info}")
                raise e
        return data

    def __repr__(self) -> str:
        lines = "".join(f"\n    {t}" for t in self.transforms)
        return f"{self.__class__.__name__}({lines}\n)"


class BaseTransform:
    """Base of the transform classes. ``keys`` names what each element of a tuple input is
    ('image', 'coords', 'boxes', 'mask'); each is handled by ``_apply_<key>``, elements past
    the keys pass through. ``_get_params(inputs)`` runs once per call and is kept in
    ``self.params`` (so every key sees the same random draw)."""

    def __init__(self, keys=None) -> None:
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, Sequence):
            raise ValueError(f"keys should be a sequence, but got keys={keys}")
        for k in keys:
            if self._get_apply(k) is None:
                raise NotImplementedError(f"{k} is unsupported data structure")
        self.keys = keys
        self.params = None

    def _get_params(self, inputs):
        pass

    def __call__(self, inputs):
        items = inputs if isinstance(inputs, tuple) else (inputs,)
        self.params = self._get_params(items)
        # the i-th input is transformed as keys[i] says; inputs beyond the keys pass through
        out = tuple(self._apply_key(k, x) for k, x in zip(self.keys, items))
        out += items[len(self.keys) :]
        return out[0] if len(out) == 1 else out

    def _apply_key(self, key, item):
        fn = self._get_apply(key)
        return item if fn is None else fn(item)

    def _get_apply(self, key):
        return getattr(self, f"_apply_{key}", None)

    def _apply_image(self, image):
        raise NotImplementedError

    def _apply_boxes(self, boxes):
        raise NotImplementedError

    def _apply_mask(self, mask):
        raise NotImplementedError

    def _apply_coords(self, coords):
        raise NotImplementedError
