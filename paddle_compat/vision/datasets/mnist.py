"""MNIST and FashionMNIST from their IDX files (gzip): 28x28 grey images and int64 labels."""

from __future__ import annotations

import gzip
import struct

import numpy as np

from ...io import Dataset
from ._local import default_dtype, image_backend, local_file

__all__ = ["FashionMNIST", "MNIST"]


def _read_idx(path: str, magic: int, header: str) -> tuple[tuple, bytes]:
    with gzip.open(path, "rb") as f:
        buf = f.read()
    n = struct.calcsize(header)
    if len(buf) < n:
        raise ValueError(f"{path} is not an IDX file: {len(buf)} bytes")
    fields = struct.unpack_from(header, buf, 0)
    if fields[0] != magic:
        raise ValueError(f"{path} is not an IDX file of this kind: magic {fields[0]} != {magic}")
    return fields[1:], buf[n:]


class MNIST(Dataset):
    """MNIST digits (``mode`` 'train' or 'test'): items are (image, label) with the image a
    PIL ``L`` image ('pil' backend) or a float32 28x28 array ('cv2'), after ``transform``,
    and the label an int64 array of shape [1]."""

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"

    def __init__(
        self,
        image_path: str | None = None,
        label_path: str | None = None,
        mode: str = "train",
        transform=None,
        download: bool = True,
        backend: str | None = None,
    ) -> None:
        assert mode.lower() in ("train", "test"), (
            f"mode should be 'train' or 'test', but got {mode}"
        )
        self.backend = image_backend(backend)
        self.mode = mode.lower()
        self.image_path = self._file(image_path, "IMAGE", download)
        self.label_path = self._file(label_path, "LABEL", download)
        self.transform = transform
        self._parse_dataset()
        self.dtype = default_dtype()

    def _file(self, path, kind: str, download: bool) -> str:
        """The image or label file (``kind`` 'IMAGE'/'LABEL') of this mode."""
        prefix = f"{self.mode.upper()}_{kind}"
        url, md5 = getattr(self, prefix + "_URL"), getattr(self, prefix + "_MD5")
        return local_file(path, url, md5, self.NAME, download, f"{kind.lower()}_path")

    def _parse_dataset(self) -> None:
        (n_img, rows, cols), img = _read_idx(self.image_path, 2051, ">IIII")
        (n_lab,), lab = _read_idx(self.label_path, 2049, ">II")
        n = min(n_img, n_lab)
        if len(img) < n * rows * cols or len(lab) < n:
            raise ValueError(
                f"{self.image_path} / {self.label_path} hold fewer samples than their headers "
                f"say ({n})"
            )
        pixels = np.frombuffer(img, np.uint8, n * rows * cols).reshape(n, rows * cols)
        self._shape = (rows, cols)
        self.images = list(pixels.astype("float32"))
        self.labels = list(np.frombuffer(lab, np.uint8, n).astype("int64").reshape(n, 1))

    def __getitem__(self, idx: int):
        image = np.reshape(self.images[idx], self._shape)
        label = self.labels[idx]
        if self.backend == "pil":
            from PIL import Image

            image = Image.fromarray(image.astype("uint8"), mode="L")
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(self.dtype), label.astype("int64")

    def __len__(self) -> int:
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST: MNIST's format and API, 10 clothing classes."""

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "bef4ecab320f06d8554ea6380940ec79"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "bb300cfdad3c16e7a12a480ee83cd310"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "8d4fb7e6c68d591d4c3dfef9ec88bf0d"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "25c81989df183df01b3e8a0aad5dffbe"
