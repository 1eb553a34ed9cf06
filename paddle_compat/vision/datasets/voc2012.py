"""PASCAL VOC2012 segmentation from its tar (images and masks read from the archive, never
extracted)."""

from __future__ import annotations

import io
import tarfile

import numpy as np

from ...io import Dataset
from ._local import default_dtype, image_backend, local_file

__all__ = ["VOC2012"]

VOC_URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
VOC_MD5 = "6cd6e144f989b92b3379bac3b3de84fd"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
MODE_FLAG_MAP = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """VOC2012 segmentation (``mode`` 'train', 'valid' or 'test', Paddle's mapping to the
    trainval/train/val lists): items are (image, mask), PIL images ('pil') or arrays in the
    default float dtype ('cv2'); ``transform`` applies to the image."""

    def __init__(
        self, data_file=None, mode: str = "train", transform=None, download=True, backend=None
    ):
        assert mode.lower() in ("train", "valid", "test"), (
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        )
        self.backend = image_backend(backend)
        self.flag = MODE_FLAG_MAP[mode.lower()]
        self.data_tar = None
        self.data_file = local_file(data_file, VOC_URL, VOC_MD5, "voc2012", download, "data_file")
        self.transform = transform
        self._load_anno()
        self.dtype = default_dtype()

    def _load_anno(self) -> None:
        self.data_tar = tarfile.open(self.data_file)
        self.name2mem = {m.name: m for m in self.data_tar.getmembers()}
        sets = self.data_tar.extractfile(self.name2mem[SET_FILE.format(self.flag)])
        names = [line.strip().decode("utf-8") for line in sets]
        self.data = [DATA_FILE.format(n) for n in names if n]
        self.labels = [LABEL_FILE.format(n) for n in names if n]

    def _open(self, name):
        from PIL import Image

        return Image.open(io.BytesIO(self.data_tar.extractfile(self.name2mem[name]).read()))

    def __getitem__(self, idx: int):
        data, label = self._open(self.data[idx]), self._open(self.labels[idx])
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self) -> int:
        return len(self.data)

    def __del__(self) -> None:
        if getattr(self, "data_tar", None):
            self.data_tar.close()
