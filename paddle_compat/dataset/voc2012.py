"""``paddle.dataset.voc2012``: legacy PASCAL VOC 2012 segmentation readers of (image, label)
uint8 arrays from the tarball in Paddle's cache (``DATA_HOME/voc2012``)."""

from __future__ import annotations

import io
import tarfile

import numpy as np

from ._legacy import legacy
from .common import download

__all__ = []

VOC_URL = "http://host.robots.ox.ac.uk/pascal/VOC/voc2012/VOCtrainval_11-May-2012.tar"
VOC_MD5 = "6cd6e144f989b92b3379bac3b3de84fd"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
CACHE_DIR = "voc2012"


def reader_creator(filename, sub_name):
    """A reader of (image HWC uint8, class-index label HW uint8) for the names listed in
    ``ImageSets/Segmentation/<sub_name>.txt``.

    Paddle formats the names as ``bytes`` (so it never finds the files under Python 3);
    here they are decoded as text."""
    from PIL import Image

    tarobject = tarfile.open(filename)
    name2mem = {m.name: m for m in tarobject.getmembers()}

    def read(name):
        data = tarobject.extractfile(name2mem[name]).read()
        return np.array(Image.open(io.BytesIO(data)))

    def reader():
        for line in tarobject.extractfile(name2mem[SET_FILE.format(sub_name)]):
            name = line.strip().decode("utf-8")
            if name:
                yield read(DATA_FILE.format(name)), read(LABEL_FILE.format(name))

    return reader


def _file():
    return download(VOC_URL, CACHE_DIR, VOC_MD5)


@legacy("paddle.vision.datasets.VOC2012")
def train():
    """The 'trainval' images."""
    return reader_creator(_file(), "trainval")


@legacy("paddle.vision.datasets.VOC2012")
def test():
    """The 'train' images (Paddle's choice for its test reader)."""
    return reader_creator(_file(), "train")


@legacy("paddle.vision.datasets.VOC2012")
def val():
    """The 'val' images."""
    return reader_creator(_file(), "val")
