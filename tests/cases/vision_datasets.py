"""paddle.vision.datasets on small files written in Paddle's formats (MNIST IDX gz, CIFAR
python tarballs, image folders, a VOC2012 tar): items, lengths, dtypes, both backends, errors
(goldens from real Paddle)."""

import gzip
import io
import os
import pickle
import struct
import tarfile
import tempfile

import numpy as np
from _util import expect_error, rng
from paddle.vision import datasets

import paddle


def _as_values(item):
    """A dataset item as plain values (PIL images become their mode, size and pixels)."""
    if isinstance(item, tuple | list):
        return [_as_values(x) for x in item]
    if hasattr(item, "getdata") and hasattr(item, "mode"):
        return {"mode": item.mode, "size": list(item.size), "pixels": np.asarray(item)}
    return item


def _write_mnist(d, n=100):  # Paddle reads labels in blocks of 100
    r = rng(1)
    images = r.integers(0, 256, (n, 28, 28)).astype(np.uint8)
    labels = r.integers(0, 10, n).astype(np.uint8)
    img, lab = os.path.join(d, "img.gz"), os.path.join(d, "lab.gz")
    with gzip.open(img, "wb") as f:
        f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    with gzip.open(lab, "wb") as f:
        f.write(struct.pack(">II", 2049, n) + labels.tobytes())
    return img, lab


def case_mnist():
    with tempfile.TemporaryDirectory() as d:
        img, lab = _write_mnist(d)
        pil = datasets.MNIST(image_path=img, label_path=lab, mode="test")
        cv2 = datasets.FashionMNIST(image_path=img, label_path=lab, backend="cv2")
        tfm = datasets.MNIST(
            image_path=img, label_path=lab, transform=lambda im: np.asarray(im)[:2, :3]
        )
        return {
            "len": len(pil),
            "pil": _as_values(pil[1]),
            "cv2": list(cv2[2]),
            "transform": list(tfm[0]),
            "dtype": cv2.dtype,
            "bad_mode": expect_error(lambda: datasets.MNIST(img, lab, mode="valid")),
            "bad_backend": expect_error(lambda: datasets.MNIST(img, lab, backend="tensor")),
            "no_download": expect_error(lambda: datasets.MNIST(img, None, download=False)),
            "missing": expect_error(
                lambda: datasets.MNIST(img, os.path.join(d, "x.gz"), download=False)
            ),
        }


def _write_cifar(d, name, flag_names, label_key):
    r = rng(2)
    path = os.path.join(d, name)
    with tarfile.open(path, "w:gz") as tar:
        for i, member in enumerate(flag_names):
            batch = {
                b"data": r.integers(0, 256, (3, 3072)).astype(np.uint8),
                label_key: [int(x) for x in r.integers(0, 10, 3)],
                b"batch_label": f"batch {i}".encode(),
            }
            raw = pickle.dumps(batch, protocol=2)
            info = tarfile.TarInfo(member)
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))
    return path


def case_cifar():
    with tempfile.TemporaryDirectory() as d:
        c10 = _write_cifar(
            d,
            "c10.tar.gz",
            [
                "cifar-10-batches-py/data_batch_2",
                "cifar-10-batches-py/data_batch_1",
                "cifar-10-batches-py/test_batch",
            ],
            b"labels",
        )
        c100 = _write_cifar(
            d, "c100.tar.gz", ["cifar-100-python/train", "cifar-100-python/test"], b"fine_labels"
        )
        train = datasets.Cifar10(c10, mode="train")
        test = datasets.Cifar10(c10, mode="TEST", backend="cv2")
        fine = datasets.Cifar100(c100, mode="test", backend="cv2")
        return {
            "lens": [len(train), len(test), len(fine)],
            "train": _as_values(train[4]),
            "test": list(test[1]),
            "fine": list(fine[0]),
            "bad_mode": expect_error(lambda: datasets.Cifar10(c10, mode="valid")),
        }


def _write_folder(d):
    from PIL import Image

    r = rng(3)
    for cls, n in (("cat", 2), ("dog", 1)):
        os.makedirs(os.path.join(d, cls, "sub"), exist_ok=True)
        for i in range(n):
            pixels = r.integers(0, 256, (4, 5, 3)).astype(np.uint8)
            Image.fromarray(pixels).save(os.path.join(d, cls, f"{i}.png"))
        Image.fromarray(r.integers(0, 256, (3, 3)).astype(np.uint8)).save(
            os.path.join(d, cls, "sub", "g.bmp")
        )
        with open(os.path.join(d, cls, "notes.txt"), "w") as f:
            f.write("not an image")


def case_folders():
    with tempfile.TemporaryDirectory() as d:
        _write_folder(d)
        folder = datasets.DatasetFolder(d)
        only_png = datasets.DatasetFolder(
            d, extensions=[".png"], loader=lambda p: os.path.basename(p)
        )
        images = datasets.ImageFolder(d, transform=lambda im: np.asarray(im).shape)
        with tempfile.TemporaryDirectory() as empty:
            os.makedirs(os.path.join(empty, "a"))
            none_found = expect_error(lambda: datasets.DatasetFolder(empty))
            no_files = expect_error(lambda: datasets.ImageFolder(empty))
        return {
            "classes": folder.classes,
            "class_to_idx": folder.class_to_idx,
            "targets": folder.targets,
            "names": [os.path.relpath(p, d) for p, _ in folder.samples],
            "first": _as_values(folder[0]),
            "gray_as_rgb": _as_values(folder[2]),
            "only_png": [only_png[i] for i in range(len(only_png))],
            "image_folder": [images[i] for i in range(len(images))],
            "none_found": none_found,
            "no_files": no_files,
        }


def case_voc2012():
    from PIL import Image

    r = rng(4)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "voc.tar")
        with tarfile.open(path, "w") as tar:

            def add(name, raw):
                info = tarfile.TarInfo(name)
                info.size = len(raw)
                tar.addfile(info, io.BytesIO(raw))

            names = ["2007_000032", "2007_000039"]
            add(
                "VOCdevkit/VOC2012/ImageSets/Segmentation/trainval.txt",
                ("\n".join(names) + "\n").encode(),
            )
            add("VOCdevkit/VOC2012/ImageSets/Segmentation/val.txt", (names[1] + "\n").encode())
            for n in names:
                for kind, ext, shape in (
                    ("JPEGImages", "png", (4, 6, 3)),
                    ("SegmentationClass", "png", (4, 6)),
                ):
                    buf = io.BytesIO()
                    Image.fromarray(r.integers(0, 20, shape).astype(np.uint8)).save(
                        buf, format="PNG"
                    )
                    add(
                        f"VOCdevkit/VOC2012/{kind}/{n}.{'jpg' if kind == 'JPEGImages' else ext}",
                        buf.getvalue(),
                    )
        train = datasets.VOC2012(path)
        valid = datasets.VOC2012(path, mode="valid", backend="cv2")
        out = {
            "lens": [len(train), len(valid)],
            "train": _as_values(train[1]),
            "valid": list(valid[0]),
        }
        del train, valid
        return out


def case_backend_and_image_load():
    from PIL import Image

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "x.png")
        Image.fromarray(rng(5).integers(0, 256, (3, 4, 3)).astype(np.uint8)).save(path)
        before = paddle.vision.get_image_backend()
        img = paddle.vision.image_load(path)
        tensor_backend = paddle.vision.image_load(path, backend="tensor")
        bad = expect_error(lambda: paddle.vision.set_image_backend("opencv"))
        paddle.vision.set_image_backend("cv2")
        after = paddle.vision.get_image_backend()
        paddle.vision.set_image_backend("pil")
        return {
            "before": before,
            "after": after,
            "image": _as_values(img),
            "tensor_backend": tensor_backend is None,
            "bad": bad,
        }
