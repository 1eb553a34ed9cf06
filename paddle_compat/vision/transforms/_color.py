"""Random color transforms: brightness, contrast, saturation, hue and ``ColorJitter``. Each
draws its factor with Python's ``random.uniform`` (and ``ColorJitter`` its order with
``random.shuffle``), as Paddle does, so ``random.seed`` reproduces Paddle's draws."""

from __future__ import annotations

import random

from . import functional as F
from ._base import BaseTransform, Compose, _check_input


class BrightnessTransform(BaseTransform):
    """Scale brightness by a factor ~ U(max(0, 1 - value), 1 + value)."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "brightness")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_brightness(img, random.uniform(self.value[0], self.value[1]))


class ContrastTransform(BaseTransform):
    """Scale contrast by a factor ~ U(max(0, 1 - value), 1 + value)."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        if value < 0:
            raise ValueError("contrast value should be non-negative")
        self.value = _check_input(value, "contrast")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_contrast(img, random.uniform(self.value[0], self.value[1]))


class SaturationTransform(BaseTransform):
    """Scale saturation by a factor ~ U(max(0, 1 - value), 1 + value)."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        self.value = _check_input(value, "saturation")

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_saturation(img, random.uniform(self.value[0], self.value[1]))


class HueTransform(BaseTransform):
    """Shift hue by a factor ~ U(-value, value) (value in [0, 0.5])."""

    def __init__(self, value: float, keys=None) -> None:
        super().__init__(keys)
        self.value = _check_input(
            value, "hue", center=0, bound=(-0.5, 0.5), clip_first_on_zero=False
        )

    def _apply_image(self, img):
        if self.value is None:
            return img
        return F.adjust_hue(img, random.uniform(self.value[0], self.value[1]))


class ColorJitter(BaseTransform):
    """Brightness, contrast, saturation and hue jitter, applied in a random order."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None) -> None:
        super().__init__(keys)
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.hue = hue

    def _get_param(self, brightness, contrast, saturation, hue) -> Compose:
        """The four jitter transforms (those given) in a shuffled order."""
        transforms = []
        if brightness is not None:
            transforms.append(BrightnessTransform(brightness, self.keys))
        if contrast is not None:
            transforms.append(ContrastTransform(contrast, self.keys))
        if saturation is not None:
            transforms.append(SaturationTransform(saturation, self.keys))
        if hue is not None:
            transforms.append(HueTransform(hue, self.keys))
        random.shuffle(transforms)
        return Compose(transforms)

    def _apply_image(self, img):
        transform = self._get_param(self.brightness, self.contrast, self.saturation, self.hue)
        return transform(img)
