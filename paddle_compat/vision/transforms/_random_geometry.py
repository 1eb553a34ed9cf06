"""Random geometric transforms: ``RandomAffine``, ``RandomRotation``, ``RandomPerspective``
(Python's ``random``) and ``RandomErasing`` (``random`` for the coin, ``np.random`` for the
box and noise; ``paddle.normal`` for Tensor noise), drawing in Paddle's order."""

from __future__ import annotations

import numbers
import random
from collections.abc import Sequence

import numpy as np

from . import functional as F
from ._base import BaseTransform, _check_sequence_input, _get_image_size, _setup_angle


class RandomAffine(BaseTransform):
    """Random rotation (``degrees``), translation (fractions of the size), scale and shear
    (x range, or x and y ranges) about ``center``."""

    def __init__(
        self,
        degrees,
        translate=None,
        scale=None,
        shear=None,
        interpolation: str = "nearest",
        fill=0,
        center=None,
        keys=None,
    ) -> None:
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        super().__init__(keys)
        assert interpolation in ["nearest", "bilinear", "bicubic"]
        self.interpolation = interpolation
        if translate is not None:
            _check_sequence_input(translate, "translate", req_sizes=(2,))
            for t in translate:
                if not (0.0 <= t <= 1.0):
                    raise ValueError("translation values should be between 0 and 1")
        self.translate = translate
        if scale is not None:
            _check_sequence_input(scale, "scale", req_sizes=(2,))
            for s in scale:
                if s <= 0:
                    raise ValueError("scale values should be positive")
        self.scale = scale
        self.shear = None if shear is None else _setup_angle(shear, "shear", req_sizes=(2, 4))
        if fill is None:
            fill = 0
        elif not isinstance(fill, Sequence | numbers.Number):
            raise TypeError("Fill should be either a sequence or a number.")
        self.fill = fill
        if center is not None:
            _check_sequence_input(center, "center", req_sizes=(2,))
        self.center = center

    def _get_param(self, img_size, degrees, translate=None, scale_ranges=None, shears=None):
        """(angle, (tx, ty), scale, (shear_x, shear_y)) drawn in Paddle's order."""
        angle = random.uniform(degrees[0], degrees[1])
        if translate is not None:
            max_dx = float(translate[0] * img_size[0])
            max_dy = float(translate[1] * img_size[1])
            translations = (
                int(random.uniform(-max_dx, max_dx)),
                int(random.uniform(-max_dy, max_dy)),
            )
        else:
            translations = (0, 0)
        scale = 1.0 if scale_ranges is None else random.uniform(scale_ranges[0], scale_ranges[1])
        shear_x, shear_y = 0.0, 0.0
        if shears is not None:
            shear_x = random.uniform(shears[0], shears[1])
            if len(shears) == 4:
                shear_y = random.uniform(shears[2], shears[3])
        return angle, translations, scale, (shear_x, shear_y)

    def _apply_image(self, img):
        w, h = _get_image_size(img)
        params = self._get_param([w, h], self.degrees, self.translate, self.scale, self.shear)
        return F.affine(
            img, *params, interpolation=self.interpolation, fill=self.fill, center=self.center
        )


class RandomRotation(BaseTransform):
    """Rotate by an angle ~ U(degrees) (a number d means (-d, d))."""

    def __init__(
        self, degrees, interpolation="nearest", expand=False, center=None, fill=0, keys=None
    ) -> None:
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise ValueError("If degrees is a single number, it must be positive.")
            self.degrees = (-degrees, degrees)
        else:
            if len(degrees) != 2:
                raise ValueError("If degrees is a sequence, it must be of len 2.")
            self.degrees = degrees
        super().__init__(keys)
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _get_param(self, degrees):
        return random.uniform(degrees[0], degrees[1])

    def _apply_image(self, img):
        angle = self._get_param(self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class RandomPerspective(BaseTransform):
    """With probability ``prob``, move each corner inward by up to ``distortion_scale`` of
    half the size and warp the image to match."""

    def __init__(
        self, prob=0.5, distortion_scale=0.5, interpolation="nearest", fill=0, keys=None
    ) -> None:
        super().__init__(keys)
        assert 0 <= prob <= 1, "probability must be between 0 and 1"
        assert 0 <= distortion_scale <= 1, "distortion_scale must be between 0 and 1"
        assert interpolation in ["nearest", "bilinear", "bicubic"]
        assert isinstance(fill, numbers.Number | str | list | tuple)
        self.prob = prob
        self.distortion_scale = distortion_scale
        self.interpolation = interpolation
        self.fill = fill

    def get_params(self, width: int, height: int, distortion_scale: float):
        """(startpoints, endpoints): the image corners and their random displacements
        (top-left, top-right, bottom-right, bottom-left; x drawn before y)."""
        dx, dy = int(distortion_scale * (width // 2)), int(distortion_scale * (height // 2))

        def near(limit):
            return int(random.uniform(0, limit + 1))

        def far(size, limit):
            return int(random.uniform(size - limit - 1, size))

        topleft = [near(dx), near(dy)]
        topright = [far(width, dx), near(dy)]
        botright = [far(width, dx), far(height, dy)]
        botleft = [near(dx), far(height, dy)]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        return startpoints, [topleft, topright, botright, botleft]

    def _apply_image(self, img):
        width, height = _get_image_size(img)
        if random.random() < self.prob:
            startpoints, endpoints = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, startpoints, endpoints, self.interpolation, self.fill)
        return img


class RandomErasing(BaseTransform):
    """With probability ``prob``, erase a random box of area ~ U(scale) of the image and
    aspect ratio ~ logU(ratio) with ``value`` (a number, per-channel values, or 'random'
    noise)."""

    def __init__(
        self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, keys=None
    ) -> None:
        super().__init__(keys)
        assert isinstance(scale, tuple | list), "scale should be a tuple or list"
        assert scale[0] >= 0 and scale[1] <= 1 and scale[0] <= scale[1], (
            "scale should be of kind (min, max) and in range [0, 1]"
        )
        assert isinstance(ratio, tuple | list), "ratio should be a tuple or list"
        assert ratio[0] >= 0 and ratio[0] <= ratio[1], "ratio should be of kind (min, max)"
        assert prob >= 0 and prob <= 1, "The probability should be in range [0, 1]"
        assert isinstance(value, numbers.Number | str | tuple | list), (
            "value should be a number, tuple, list or str"
        )
        if isinstance(value, str) and value != "random":
            raise ValueError("value must be 'random' when type is str")
        self.prob = prob
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    def _dynamic_get_param(self, img, scale, ratio, value):
        """(top, left, h, w, fill) of the box; after 10 misses, the whole image and itself."""
        import paddle_compat as paddle

        if F._is_pil_image(img):
            shape = np.asarray(img).astype(np.uint8).shape
            h, w, c = shape[-3], shape[-2], shape[-1]
        elif F._is_numpy_image(img):
            h, w, c = img.shape[-3], img.shape[-2], img.shape[-1]
        else:
            c, h, w = img.shape[-3], img.shape[-2], img.shape[-1]
        img_area = h * w
        log_ratio = np.log(ratio)
        for _ in range(10):
            erase_area = np.random.uniform(*scale) * img_area
            aspect_ratio = np.exp(np.random.uniform(*log_ratio))
            erase_h = int(round(np.sqrt(erase_area * aspect_ratio)))
            erase_w = int(round(np.sqrt(erase_area / aspect_ratio)))
            if erase_h >= h or erase_w >= w:
                continue
            if F._is_tensor_image(img):
                if value is None:
                    v = paddle.normal(shape=[c, erase_h, erase_w]).astype(img.dtype)
                else:
                    v = paddle.to_tensor(value, dtype=img.dtype)[:, None, None]
            elif value is None:
                v = np.random.normal(size=[erase_h, erase_w, c]) * 255
            else:
                v = np.array(value)[None, None, :]
            top = np.random.randint(0, h - erase_h + 1)
            left = np.random.randint(0, w - erase_w + 1)
            return top, left, erase_h, erase_w, v
        return 0, 0, h, w, img

    def _apply_image(self, img):
        if random.random() < self.prob:
            if isinstance(self.value, numbers.Number):
                value = [self.value]
            elif isinstance(self.value, str):
                value = None
            else:
                value = self.value
            if value is not None and not (len(value) == 1 or len(value) == 3):
                raise ValueError(
                    "Value should be a single number or a sequence with length equals to "
                    "image's channel."
                )
            top, left, erase_h, erase_w, v = self._dynamic_get_param(
                img, self.scale, self.ratio, value
            )
            return F.erase(img, top, left, erase_h, erase_w, v, self.inplace)
        return img
