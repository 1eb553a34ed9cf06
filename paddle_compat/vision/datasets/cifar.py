"""CIFAR-10 / CIFAR-100 from the python tarballs; the pickled batches are read with the
restricted unpickler (numpy arrays and plain values only: a pickle cannot run code)."""

from __future__ import annotations

import tarfile

import numpy as np

from ..._io._unpickler import restricted_load
from ...io import Dataset
from ._local import default_dtype, image_backend, local_file

__all__ = ["Cifar10", "Cifar100"]

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"
CIFAR10_URL = URL_PREFIX + "cifar-10-python.tar.gz"
CIFAR10_MD5 = "c58f30108f718f92721af3b95e74349a"
CIFAR100_URL = URL_PREFIX + "cifar-100-python.tar.gz"
CIFAR100_MD5 = "eb9058c3a382ffc7106e4002c42a8d85"
MODE_FLAG_MAP = {
    "train10": "data_batch",
    "test10": "test_batch",
    "train100": "train",
    "test100": "test",
}


class Cifar10(Dataset):
    """CIFAR-10 (``mode`` 'train' or 'test'): items are (image, label), the image a 32x32 RGB
    PIL image ('pil') or an HWC array in the default float dtype ('cv2'), after
    ``transform``; the label an int64 scalar array."""

    def __init__(
        self,
        data_file: str | None = None,
        mode: str = "train",
        transform=None,
        download: bool = True,
        backend: str | None = None,
    ) -> None:
        assert mode.lower() in ("train", "test"), (
            f"mode.lower() should be 'train' or 'test', but got {mode}"
        )
        self.mode = mode.lower()
        self.backend = image_backend(backend)
        self._init_url_md5_flag()
        self.data_file = local_file(
            data_file, self.data_url, self.data_md5, "cifar", download, "data_file"
        )
        self.transform = transform
        self._load_data()
        self.dtype = default_dtype()

    def _init_url_md5_flag(self) -> None:
        self.data_url, self.data_md5 = CIFAR10_URL, CIFAR10_MD5
        self.flag = MODE_FLAG_MAP[self.mode + "10"]

    def _load_data(self) -> None:
        self.data = []
        with tarfile.open(self.data_file, mode="r") as f:
            names = sorted(m.name for m in f if self.flag in m.name and m.isfile())
            for name in names:
                batch = restricted_load(f.extractfile(name), encoding="bytes")
                data = np.asarray(batch[b"data"])
                labels = batch.get(b"labels", batch.get(b"fine_labels", None))
                assert labels is not None
                if data.ndim != 2 or data.shape[1] != 3 * 32 * 32 or len(data) != len(labels):
                    raise ValueError(
                        f"{self.data_file}:{name} is not a CIFAR batch: data {data.shape}, "
                        f"{len(labels)} labels"
                    )
                self.data.extend(zip(data, labels))

    def __getitem__(self, idx: int):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            from PIL import Image

            image = Image.fromarray(image.astype("uint8"))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, np.array(label).astype("int64")
        return image.astype(self.dtype), np.array(label).astype("int64")

    def __len__(self) -> int:
        return len(self.data)


class Cifar100(Cifar10):
    """CIFAR-100 with its 100 fine labels; the same API as ``Cifar10``."""

    def _init_url_md5_flag(self) -> None:
        self.data_url, self.data_md5 = CIFAR100_URL, CIFAR100_MD5
        self.flag = MODE_FLAG_MAP[self.mode + "100"]
