"""``DatasetFolder`` (``root/<class>/<file>`` -> (sample, class index)) and ``ImageFolder``
(every image under ``root`` -> [sample])."""

from __future__ import annotations

import os

from ...io import Dataset
from ._local import default_dtype

__all__ = ["DatasetFolder", "ImageFolder"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename: str, extensions) -> bool:
    assert isinstance(extensions, list | tuple), "`extensions` must be list or tuple."
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def _files(top: str, is_valid_file):
    """Files under ``top`` (links followed), directories and names in sorted order."""
    for root, _, names in sorted(os.walk(top, followlinks=True)):
        for name in sorted(names):
            path = os.path.join(root, name)
            if is_valid_file(path):
                yield path


def _validator(extensions, is_valid_file):
    if extensions is not None:
        return lambda x: has_valid_extension(x, extensions)
    return is_valid_file


def make_dataset(dir, class_to_idx, extensions, is_valid_file=None) -> list:
    top = os.path.expanduser(dir)
    valid = _validator(extensions, is_valid_file)
    items = []
    for target in sorted(class_to_idx):
        d = os.path.join(top, target)
        if os.path.isdir(d):
            items += [(path, class_to_idx[target]) for path in _files(d, valid)]
    return items


def pil_loader(path: str):
    from PIL import Image

    with open(path, "rb") as f:
        return Image.open(f).convert("RGB")


def cv2_loader(path: str):
    try:
        import cv2
    except ImportError:
        raise ImportError(
            "Failed importing cv2. This likely means that some paddle modules require "
            "additional dependencies that have to be manually installed (usually with "
            "`pip install opencv-python`)."
        ) from None
    return cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)


def default_loader(path: str):
    from ..image import get_image_backend

    return cv2_loader(path) if get_image_backend() == "cv2" else pil_loader(path)


class DatasetFolder(Dataset):
    """Samples in ``root/<class_name>/...``: items are (loader(path) after ``transform``,
    class index), classes sorted by name; ``extensions`` or ``is_valid_file`` pick files."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        self.transform = transform
        if extensions is None:
            extensions = IMG_EXTENSIONS
        classes, class_to_idx = self._find_classes(self.root)
        samples = make_dataset(self.root, class_to_idx, extensions, is_valid_file)
        if len(samples) == 0:
            raise RuntimeError(
                "Found 0 directories in subfolders of: " + self.root + "\n"
                "Supported extensions are: " + ",".join(extensions)
            )
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        self.dtype = default_dtype()

    def _find_classes(self, dir: str):
        classes = sorted(d.name for d in os.scandir(dir) if d.is_dir())
        return classes, {c: i for i, c in enumerate(classes)}

    def __getitem__(self, index: int):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self) -> int:
        return len(self.samples)


class ImageFolder(Dataset):
    """Every image file under ``root`` (sorted): items are ``[loader(path)]`` after
    ``transform``, without labels."""

    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        if extensions is None:
            extensions = IMG_EXTENSIONS
        samples = list(_files(os.path.expanduser(root), _validator(extensions, is_valid_file)))
        if len(samples) == 0:
            raise RuntimeError(
                "Found 0 files in subfolders of: " + self.root + "\n"
                "Supported extensions are: " + ",".join(extensions)
            )
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index: int):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self) -> int:
        return len(self.samples)
