"""paddle.vision.datasets beyond the goldens (tests/cases/vision_datasets.py): nothing is
downloaded (Paddle's cache is used when it holds the file, else a clear error), and untrusted
files cannot run code or write outside their directory."""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import shutil
import sys
import tarfile
from pathlib import Path

import pytest
from paddle.vision import datasets

from paddle_compat.vision.datasets import _local

sys.path.insert(0, str(Path(__file__).parent / "cases"))
from vision_datasets import _write_cifar, _write_mnist  # noqa: E402


@pytest.mark.parametrize(
    "make, url",
    [
        (
            lambda: datasets.MNIST(),
            "https://dataset.bj.bcebos.com/mnist/train-images-idx3-ubyte.gz",
        ),
        (lambda: datasets.FashionMNIST(mode="test"), "fashion_mnist/t10k-images-idx3-ubyte.gz"),
        (lambda: datasets.Cifar10(), "https://dataset.bj.bcebos.com/cifar/cifar-10-python.tar.gz"),
        (lambda: datasets.Cifar100(mode="test"), "cifar-100-python.tar.gz"),
        (lambda: datasets.VOC2012(), "VOCtrainval_11-May-2012.tar"),
        (lambda: datasets.Flowers(), "102flowers.tgz"),
    ],
)
def test_no_download(make, url, tmp_path, monkeypatch):
    monkeypatch.setattr(_local, "DATA_HOME", str(tmp_path))
    with pytest.raises(RuntimeError, match="does not download datasets") as e:
        make()
    assert url in str(e.value) and str(tmp_path) in str(e.value)


def test_paddle_cache_is_used_when_its_md5_matches(tmp_path, monkeypatch):
    monkeypatch.setattr(_local, "DATA_HOME", str(tmp_path))
    src = _write_cifar(str(tmp_path), "c.tar.gz", ["cifar-10-batches-py/test_batch"], b"labels")
    cache = tmp_path / "cifar" / "cifar-10-python.tar.gz"
    cache.parent.mkdir()
    shutil.copy(src, cache)
    md5 = hashlib.md5(cache.read_bytes()).hexdigest()
    with pytest.raises(RuntimeError, match="does not download"):  # md5 differs from Paddle's
        datasets.Cifar10(mode="test")
    monkeypatch.setattr("paddle_compat.vision.datasets.cifar.CIFAR10_MD5", md5)
    assert len(datasets.Cifar10(mode="test")) == 3


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def test_cifar_pickles_cannot_run_code(tmp_path):
    path = tmp_path / "evil.tar.gz"
    raw = pickle.dumps({b"data": _Evil(), b"labels": [0]}, protocol=2)
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo("cifar-10-batches-py/data_batch_1")
        info.size = len(raw)
        tar.addfile(info, io.BytesIO(raw))
    with pytest.raises(pickle.UnpicklingError, match="posix.system|os.system"):
        datasets.Cifar10(str(path))


def test_mnist_header_longer_than_the_data(tmp_path):
    img, lab = _write_mnist(str(tmp_path))
    import gzip

    data = gzip.open(img).read()
    with gzip.open(img, "wb") as f:
        f.write(data[:1000])  # the header still says 100 images
    with pytest.raises(ValueError, match="fewer samples than their headers say"):
        datasets.MNIST(img, lab)
