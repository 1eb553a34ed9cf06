"""``paddle.dataset.flowers``: legacy Oxford 102 Flowers readers from the files in Paddle's
cache (``DATA_HOME/flowers``); the ``.mat`` files are read with scipy and images decoded with
OpenCV, as in Paddle."""

from __future__ import annotations

import functools
import tarfile
from multiprocessing import cpu_count

from ..reader import map_readers, xmap_readers
from ..utils import try_import
from ._legacy import legacy
from .common import download
from .image import load_image_bytes, simple_transform

__all__ = []

DATA_URL = "http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz"
LABEL_URL = "http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat"
SETID_URL = "http://paddlemodels.bj.bcebos.com/flowers/setid.mat"
DATA_MD5 = "52808999861908f626f3c1f4e79d11fa"
LABEL_MD5 = "e0620be6f572b9609742df49c70aed4d"
SETID_MD5 = "a5357ecc9cb78c4bef273ce3793fc85c"
# Paddle swaps the official split: the larger 'tstid' set is its training set
TRAIN_FLAG = "tstid"
TEST_FLAG = "trnid"
VALID_FLAG = "valid"


def default_mapper(is_train, sample):
    """Decode, resize to 256, crop 224 (random when training), subtract the BGR mean and
    flatten to float32."""
    img, label = sample
    img = simple_transform(load_image_bytes(img), 256, 224, is_train, mean=[103.94, 116.78, 123.68])
    return img.flatten().astype("float32"), label


train_mapper = functools.partial(default_mapper, True)
test_mapper = functools.partial(default_mapper, False)


def reader_creator(
    data_file,
    label_file,
    setid_file,
    dataset_name,
    mapper,
    buffered_size=1024,
    use_xmap=True,
    cycle=False,
):
    """A reader of ``mapper((image bytes, 0-based label))`` over the images of the set
    ``dataset_name`` ('tstid', 'trnid' or 'valid'), in tarball order."""

    def reader():
        scio = try_import("scipy.io")
        labels = scio.loadmat(label_file)["labels"][0]
        indexes = scio.loadmat(setid_file)[dataset_name][0]
        img2label = {f"jpg/image_{i:05}.jpg": labels[i - 1] for i in indexes}
        with tarfile.open(data_file) as tf:
            for mem in tf.getmembers():
                if mem.name in img2label:
                    yield tf.extractfile(mem).read(), int(img2label[mem.name]) - 1

    if use_xmap:
        return xmap_readers(mapper, reader, min(4, cpu_count()), buffered_size)
    return map_readers(mapper, reader)


def _files():
    return (
        download(DATA_URL, "flowers", DATA_MD5),
        download(LABEL_URL, "flowers", LABEL_MD5),
        download(SETID_URL, "flowers", SETID_MD5),
    )


@legacy("paddle.vision.datasets.Flowers")
def train(mapper=train_mapper, buffered_size=1024, use_xmap=True, cycle=False):
    """The training set (Paddle's: the official test ids)."""
    return reader_creator(*_files(), TRAIN_FLAG, mapper, buffered_size, use_xmap, cycle=cycle)


@legacy("paddle.vision.datasets.Flowers")
def test(mapper=test_mapper, buffered_size=1024, use_xmap=True, cycle=False):
    """The test set (Paddle's: the official training ids)."""
    return reader_creator(*_files(), TEST_FLAG, mapper, buffered_size, use_xmap, cycle=cycle)


@legacy("paddle.vision.datasets.Flowers")
def valid(mapper=test_mapper, buffered_size=1024, use_xmap=True):
    """The validation set."""
    return reader_creator(*_files(), VALID_FLAG, mapper, buffered_size, use_xmap)


def fetch():
    _files()
