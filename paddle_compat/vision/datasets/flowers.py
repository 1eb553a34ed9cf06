"""Oxford 102 Flowers from ``102flowers.tgz`` and the ``imagelabels.mat``/``setid.mat``
files (read with scipy, as Paddle does)."""

from __future__ import annotations

import os
import tarfile

import numpy as np

from ...io import Dataset
from ._local import default_dtype, image_backend, local_file

__all__ = ["Flowers"]

DATA_URL = "http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz"
LABEL_URL = "http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat"
SETID_URL = "http://paddlemodels.bj.bcebos.com/flowers/setid.mat"
DATA_MD5 = "52808999861908f626f3c1f4e79d11fa"
LABEL_MD5 = "e0620be6f572b9609742df49c70aed4d"
SETID_MD5 = "a5357ecc9cb78c4bef273ce3793fc85c"
# Paddle's split: its "train" reads the file's test ids (the larger set)
MODE_FLAG_MAP = {"train": "tstid", "test": "trnid", "valid": "valid"}


def _loadmat(path):
    try:
        import scipy.io
    except ImportError:
        raise ImportError(
            "Failed importing scipy.io. This likely means that some paddle modules require "
            "additional dependencies that have to be manually installed (usually with "
            "`pip install scipy`)."
        ) from None
    return scipy.io.loadmat(path)


def _safe_extract(tar: tarfile.TarFile, target: str) -> None:
    """Extract only regular files and directories inside ``target`` (tarfile's ``data``
    filter where Python has it; the same check by hand before 3.10.12/3.11.4)."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(target, filter="data")
        return
    root = os.path.realpath(target)
    members = []
    for m in tar.getmembers():
        path = os.path.realpath(os.path.join(root, m.name))
        if not (m.isfile() or m.isdir()) or os.path.commonpath([root, path]) != root:
            raise tarfile.TarError(f"refusing to extract {m.name!r} from the Flowers tarball")
        members.append(m)
    tar.extractall(target, members=members)


class Flowers(Dataset):
    """Flowers (``mode`` 'train', 'valid' or 'test'): items are (image, label) with a PIL
    image ('pil') or an HWC array ('cv2') after ``transform``, and an int64 label of shape
    [1] (1-based classes, as in the .mat file). The tarball is extracted next to itself once
    (members are checked: nothing is written outside that directory)."""

    def __init__(
        self,
        data_file=None,
        label_file=None,
        setid_file=None,
        mode: str = "train",
        transform=None,
        download: bool = True,
        backend: str | None = None,
    ) -> None:
        assert mode.lower() in ("train", "valid", "test"), (
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        )
        self.backend = image_backend(backend)
        flag = MODE_FLAG_MAP[mode.lower()]
        data_file = local_file(data_file, DATA_URL, DATA_MD5, "flowers", download, "data_file")
        label_file = local_file(label_file, LABEL_URL, LABEL_MD5, "flowers", download, "label_file")
        setid_file = local_file(setid_file, SETID_URL, SETID_MD5, "flowers", download, "setid_file")
        self.transform = transform
        self.data_path = data_file.replace(".tgz", "/")
        os.makedirs(self.data_path, exist_ok=True)
        if not os.path.exists(os.path.join(self.data_path, "jpg")):
            with tarfile.open(data_file) as tar:
                _safe_extract(tar, self.data_path)
        self.labels = _loadmat(label_file)["labels"][0]
        self.indexes = _loadmat(setid_file)[flag][0]

    def __getitem__(self, idx: int):
        index = self.indexes[idx]
        label = np.array([self.labels[index - 1]])
        from PIL import Image

        image = Image.open(os.path.join(self.data_path, f"jpg/image_{index:05}.jpg"))
        if self.backend == "cv2":
            image = np.array(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(default_dtype()), label.astype("int64")

    def __len__(self) -> int:
        return len(self.indexes)
