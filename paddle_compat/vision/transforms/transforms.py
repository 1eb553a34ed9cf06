"""``paddle.vision.transforms.transforms``: the transform classes. Each takes a PIL image, an
HWC numpy array or a CHW Tensor (or a tuple of inputs named by ``keys``) and calls the
functional API; random ones draw from Python's ``random`` / ``np.random`` as Paddle does."""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Iterable, Sequence

import numpy as np

from . import functional as F
from ._base import BaseTransform, Compose, _get_image_size
from ._color import (
    BrightnessTransform,
    ColorJitter,
    ContrastTransform,
    HueTransform,
    SaturationTransform,
)
from ._random_geometry import RandomAffine, RandomErasing, RandomPerspective, RandomRotation

__all__ = []


class ToTensor(BaseTransform):
    """PIL image or HWC array -> Tensor in ``data_format`` (uint8 scaled to [0, 1])."""

    def __init__(self, data_format: str = "CHW", keys=None) -> None:
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)


class Resize(BaseTransform):
    """Resize to (h, w) = ``size``, or the shorter side to an int ``size``."""

    def __init__(self, size, interpolation: str = "bilinear", keys=None) -> None:
        super().__init__(keys)
        assert isinstance(size, int) or (isinstance(size, Iterable) and len(size) == 2)
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    """Crop a random box (area ~ U(scale) of the image, aspect ratio ~ logU(ratio); the
    draws use ``np.random``, the position ``random.randint``; after 10 misses a center crop)
    and resize it to ``size``."""

    def __init__(
        self,
        size,
        scale=(0.08, 1.0),
        ratio=(3.0 / 4, 4.0 / 3),
        interpolation: str = "bilinear",
        keys=None,
    ) -> None:
        super().__init__(keys)
        self.size = (size, size) if isinstance(size, int) else size
        assert scale[0] <= scale[1], "scale should be of kind (min, max)"
        assert ratio[0] <= ratio[1], "ratio should be of kind (min, max)"
        self.scale = scale
        self.ratio = ratio
        self.interpolation = interpolation

    def _dynamic_get_param(self, image, attempts: int = 10):
        width, height = _get_image_size(image)
        area = height * width
        for _ in range(attempts):
            target_area = np.random.uniform(*self.scale) * area
            log_ratio = tuple(math.log(x) for x in self.ratio)
            aspect_ratio = math.exp(np.random.uniform(*log_ratio))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                i = random.randint(0, height - h)
                j = random.randint(0, width - w)
                return i, j, h, w
        in_ratio = float(width) / float(height)
        if in_ratio < min(self.ratio):
            w = width
            h = int(round(w / min(self.ratio)))
        elif in_ratio > max(self.ratio):
            h = height
            w = int(round(h * max(self.ratio)))
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def _apply_image(self, img):
        i, j, h, w = self._dynamic_get_param(img)
        return F.resize(F.crop(img, i, j, h, w), self.size, self.interpolation)


class CenterCrop(BaseTransform):
    """Crop the center to ``size`` (an int or (h, w))."""

    def __init__(self, size, keys=None) -> None:
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size

    def _apply_image(self, img):
        return F.center_crop(img, self.size)


class RandomHorizontalFlip(BaseTransform):
    """Flip left-right when ``random.random() < prob``."""

    def __init__(self, prob: float = 0.5, keys=None) -> None:
        super().__init__(keys)
        assert 0 <= prob <= 1, "probability must be between 0 and 1"
        self.prob = prob

    def _apply_image(self, img):
        return F.hflip(img) if random.random() < self.prob else img


class RandomVerticalFlip(BaseTransform):
    """Flip top-bottom when ``random.random() < prob``."""

    def __init__(self, prob: float = 0.5, keys=None) -> None:
        super().__init__(keys)
        assert 0 <= prob <= 1, "probability must be between 0 and 1"
        self.prob = prob

    def _apply_image(self, img):
        return F.vflip(img) if random.random() < self.prob else img


class Normalize(BaseTransform):
    """(img - mean) / std per channel (a number applies to 3 channels); ``to_rgb`` reverses
    the channel axis of numpy/PIL images first."""

    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None) -> None:
        super().__init__(keys)
        if isinstance(mean, numbers.Number):
            mean = [mean, mean, mean]
        if isinstance(std, numbers.Number):
            std = [std, std, std]
        self.mean = mean
        self.std = std
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img):
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


class Transpose(BaseTransform):
    """Permute the axes (default HWC -> CHW); PIL images become arrays, 2-D ones get a
    channel axis first."""

    def __init__(self, order: Sequence[int] = (2, 0, 1), keys=None) -> None:
        super().__init__(keys)
        self.order = order

    def _apply_image(self, img):
        if F._is_tensor_image(img):
            return img.transpose(self.order)
        if F._is_pil_image(img):
            img = np.asarray(img)
        if len(img.shape) == 2:
            img = img[..., np.newaxis]
        return img.transpose(self.order)


class RandomCrop(BaseTransform):
    """Crop a ``size`` box at a random position (``random.randint``), after optional
    ``padding`` and, with ``pad_if_needed``, padding up to the crop size."""

    def __init__(
        self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant", keys=None
    ) -> None:
        super().__init__(keys)
        self.size = (int(size), int(size)) if isinstance(size, numbers.Number) else size
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _get_param(self, img, output_size):
        """(top, left, h, w) of the crop."""
        w, h = _get_image_size(img)
        th, tw = output_size
        if w == tw and h == th:
            return 0, 0, h, w
        i = random.randint(0, h - th)
        j = random.randint(0, w - tw)
        return i, j, th, tw

    def _apply_image(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        w, h = _get_image_size(img)
        if self.pad_if_needed and w < self.size[1]:
            img = F.pad(img, (self.size[1] - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < self.size[0]:
            img = F.pad(img, (0, self.size[0] - h), self.fill, self.padding_mode)
        return F.crop(img, *self._get_param(img, self.size))


class Pad(BaseTransform):
    """Pad the borders (see ``functional.pad``)."""

    def __init__(self, padding, fill=0, padding_mode="constant", keys=None) -> None:
        assert isinstance(padding, numbers.Number | list | tuple)
        assert isinstance(fill, numbers.Number | str | list | tuple)
        assert padding_mode in ["constant", "edge", "reflect", "symmetric"]
        if isinstance(padding, list):
            padding = tuple(padding)
        if isinstance(fill, list):
            fill = tuple(fill)
        if isinstance(padding, Sequence) and len(padding) not in [2, 4]:
            raise ValueError(
                "Padding must be an int or a 2, or 4 element tuple, not a "
                f"{len(padding)} element tuple"
            )
        super().__init__(keys)
        self.padding = padding
        self.fill = fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)


class Grayscale(BaseTransform):
    """Convert to grayscale with 1 or 3 output channels."""

    def __init__(self, num_output_channels: int = 1, keys=None) -> None:
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return F.to_grayscale(img, self.num_output_channels)


for _cls in (
    BaseTransform, Compose, BrightnessTransform, ColorJitter, ContrastTransform, HueTransform,
    SaturationTransform, RandomAffine, RandomErasing, RandomPerspective, RandomRotation,
):  # fmt: skip
    _cls.__module__ = __name__  # Paddle defines every class in this module
del _cls
