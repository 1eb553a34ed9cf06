"""``paddle.dataset.image``: the legacy image helpers (decode with OpenCV, resize the short
side, crops, flips, CHW layout, mean subtraction). OpenCV (``cv2``) is needed for decoding and
resizing, as in Paddle."""

from __future__ import annotations

import os
import pickle
import sys
import tarfile

import numpy as np

try:
    import cv2
except ImportError:
    cv2 = None

__all__ = []


def _check_cv2() -> bool:
    if cv2 is None:
        sys.stderr.write(
            "Warning with paddle image module: opencv-python should be imported,\n"
            "         or paddle image module could NOT work; please install opencv-python first."
        )
        return False
    return True


def batch_images_from_tar(data_file, dataset_name, img2label, num_per_batch=1024):
    """Split the images of a tarball named in ``img2label`` into pickled batches of
    ``num_per_batch`` in ``<data_file>_batch/<dataset_name>_<pid>/``; returns the path of the
    text file listing the batch files."""
    batch_dir = data_file + "_batch"
    out_path = f"{batch_dir}/{dataset_name}_{os.getpid()}"
    meta_file = f"{batch_dir}/{dataset_name}_{os.getpid()}.txt"
    if os.path.exists(out_path):
        return meta_file
    os.makedirs(out_path)

    def dump(data, labels, file_id):
        with open(f"{out_path}/batch_{file_id}", "wb") as f:
            pickle.dump({"label": labels, "data": data}, f, protocol=2)

    data, labels, file_id = [], [], 0
    with tarfile.open(data_file) as tf:
        for mem in tf.getmembers():
            if mem.name in img2label:
                data.append(tf.extractfile(mem).read())
                labels.append(img2label[mem.name])
                if len(data) == num_per_batch:
                    dump(data, labels, file_id)
                    data, labels, file_id = [], [], file_id + 1
    if data:
        dump(data, labels, file_id)
    with open(meta_file, mode="a") as meta:
        meta.writelines(
            os.path.abspath(f"{out_path}/{name}") + "\n" for name in os.listdir(out_path)
        )
    return meta_file


def load_image_bytes(bytes, is_color=True):
    """Decode an encoded image (BGR HWC uint8, or HW grey when not ``is_color``)."""
    assert _check_cv2() is True
    buf = np.asarray(bytearray(bytes), dtype=np.uint8)
    return cv2.imdecode(buf, 1 if is_color else 0)


def load_image(file, is_color=True):
    """Read an image file (BGR HWC uint8, or HW grey when not ``is_color``)."""
    assert _check_cv2() is True
    return cv2.imread(file, 1 if is_color else 0)


def resize_short(im, size):
    """Resize (bicubic) so that the shorter side is ``size``, keeping the aspect ratio."""
    assert _check_cv2() is True
    h, w = im.shape[:2]
    h_new, w_new = size, size
    if h > w:
        h_new = size * h // w
    else:
        w_new = size * w // h
    return cv2.resize(im, (w_new, h_new), interpolation=cv2.INTER_CUBIC)


def to_chw(im, order=(2, 0, 1)):
    """Transpose an HWC image to CHW (or any ``order`` of its axes)."""
    assert len(im.shape) == len(order)
    return im.transpose(order)


def center_crop(im, size, is_color=True):
    """The central ``size`` x ``size`` crop."""
    h, w = im.shape[:2]
    top, left = (h - size) // 2, (w - size) // 2
    return im[top : top + size, left : left + size]


def random_crop(im, size, is_color=True):
    """A ``size`` x ``size`` crop at a random place (numpy's global random state)."""
    h, w = im.shape[:2]
    top = np.random.randint(0, h - size + 1)
    left = np.random.randint(0, w - size + 1)
    return im[top : top + size, left : left + size]


def left_right_flip(im, is_color=True):
    """Mirror the image horizontally."""
    return im[:, ::-1, :] if len(im.shape) == 3 and is_color else im[:, ::-1]


def simple_transform(im, resize_size, crop_size, is_train, is_color=True, mean=None):
    """Resize the short side, crop (random crop and a random flip when training, else the
    center), move to CHW, convert to float32 and subtract ``mean`` when given."""
    im = resize_short(im, resize_size)
    if is_train:
        im = random_crop(im, crop_size, is_color=is_color)
        if np.random.randint(2) == 0:
            im = left_right_flip(im, is_color)
    else:
        im = center_crop(im, crop_size, is_color=is_color)
    if len(im.shape) == 3:
        im = to_chw(im)
    im = im.astype("float32")
    if mean is not None:
        mean = np.array(mean, dtype=np.float32)
        if mean.ndim == 1 and is_color:
            mean = mean[:, np.newaxis, np.newaxis]
        elif mean.ndim != 1:
            assert len(mean.shape) == len(im)
        im -= mean
    return im


def load_and_transform(filename, resize_size, crop_size, is_train, is_color=True, mean=None):
    """``load_image`` then ``simple_transform``."""
    im = load_image(filename, is_color)
    return simple_transform(im, resize_size, crop_size, is_train, is_color, mean)
