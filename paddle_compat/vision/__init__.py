"""``paddle.vision``: image transforms, model zoo architectures, datasets read from local
files, detection ops, and image loading. Submodules import on first use."""

from __future__ import annotations

import importlib

from .image import get_image_backend, image_load, set_image_backend

__all__ = ["set_image_backend", "get_image_backend", "image_load"]

_SUBMODULES = ("datasets", "models", "ops", "transforms")
# names Paddle re-exports at paddle.vision from each submodule
_REEXPORTS = {
    "datasets": (
        "MNIST", "VOC2012", "Cifar10", "Cifar100", "DatasetFolder", "FashionMNIST", "Flowers",
        "ImageFolder",
    ),
    "transforms": (
        "BaseTransform", "BrightnessTransform", "CenterCrop", "ColorJitter", "Compose",
        "ContrastTransform", "Grayscale", "HueTransform", "Normalize", "Pad", "RandomCrop",
        "RandomHorizontalFlip", "RandomResizedCrop", "RandomRotation", "RandomVerticalFlip",
        "Resize", "SaturationTransform", "ToTensor", "Transpose", "adjust_brightness",
        "adjust_contrast", "adjust_hue", "center_crop", "crop", "hflip", "normalize", "pad",
        "resize", "rotate", "to_grayscale", "to_tensor", "vflip",
    ),
}  # fmt: skip
_MODEL_NAMES = None


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    for module, names in _REEXPORTS.items():
        if name in names:
            return getattr(importlib.import_module(f"{__name__}.{module}"), name)
    if not name.startswith("_"):
        models = importlib.import_module(f"{__name__}.models")
        if name in getattr(models, "__all__", ()):
            return getattr(models, name)
    raise AttributeError(f"module 'paddle.vision' has no attribute '{name}'")
