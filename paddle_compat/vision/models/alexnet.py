"""AlexNet (``paddle.vision.models.alexnet``)."""

from __future__ import annotations

import math

from ... import nn
from ..._ops.manipulation import flatten
from ...framework import ParamAttr
from ...nn import functional as F
from ...nn.initializer import Uniform
from ._utils import build

__all__: list[str] = []

# Paddle's pretrained weights: arch -> (url, md5)
model_urls = {
    "alexnet": (
        "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/AlexNet_pretrained.pdparams",
        "7f0f9f737132e02732d75a1459d98a43",
    )
}


def _uniform(fan_in: int) -> dict:
    """Weight and bias attrs drawing from U(-1/sqrt(fan_in), 1/sqrt(fan_in)), as Paddle does."""
    stdv = 1.0 / math.sqrt(fan_in)
    return {
        "weight_attr": ParamAttr(initializer=Uniform(-stdv, stdv)),
        "bias_attr": ParamAttr(initializer=Uniform(-stdv, stdv)),
    }


class ConvPoolLayer(nn.Layer):
    """Conv2D (uniform init of bound ``stdv``), optional ReLU, then a 3x3/2 max pool."""

    def __init__(
        self,
        input_channels: int,
        output_channels: int,
        filter_size,
        stride,
        padding,
        stdv: float,
        groups: int = 1,
        act: str | None = None,
    ) -> None:
        super().__init__()
        self.relu = nn.ReLU() if act == "relu" else None
        self._conv = nn.Conv2D(
            in_channels=input_channels,
            out_channels=output_channels,
            kernel_size=filter_size,
            stride=stride,
            padding=padding,
            groups=groups,
            weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
            bias_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
        )
        self._pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)

    def forward(self, inputs):
        x = self._conv(inputs)
        if self.relu is not None:
            x = self.relu(x)
        return self._pool(x)


class AlexNet(nn.Layer):
    """AlexNet for 224x224 inputs (``num_classes <= 0`` drops the classifier)."""

    def __init__(self, num_classes: int = 1000) -> None:
        super().__init__()
        self.num_classes = num_classes
        inv = lambda n: 1.0 / math.sqrt(n)  # noqa: E731
        self._conv1 = ConvPoolLayer(3, 64, 11, 4, 2, inv(3 * 11 * 11), act="relu")
        self._conv2 = ConvPoolLayer(64, 192, 5, 1, 2, inv(64 * 5 * 5), act="relu")
        self._conv3 = nn.Conv2D(192, 384, 3, stride=1, padding=1, **_uniform(192 * 3 * 3))
        self._conv4 = nn.Conv2D(384, 256, 3, stride=1, padding=1, **_uniform(384 * 3 * 3))
        self._conv5 = ConvPoolLayer(256, 256, 3, 1, 1, inv(256 * 3 * 3), act="relu")
        if num_classes > 0:
            fan_in = 256 * 6 * 6  # Paddle uses this bound for all three linear layers
            self._drop1 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc6 = nn.Linear(256 * 6 * 6, 4096, **_uniform(fan_in))
            self._drop2 = nn.Dropout(p=0.5, mode="downscale_in_infer")
            self._fc7 = nn.Linear(4096, 4096, **_uniform(fan_in))
            self._fc8 = nn.Linear(4096, num_classes, **_uniform(fan_in))

    def forward(self, inputs):
        x = self._conv2(self._conv1(inputs))
        x = F.relu(self._conv3(x))
        x = F.relu(self._conv4(x))
        x = self._conv5(x)
        if self.num_classes > 0:
            x = self._drop1(flatten(x, start_axis=1, stop_axis=-1))
            x = self._drop2(F.relu(self._fc6(x)))
            x = self._fc8(F.relu(self._fc7(x)))
        return x


def alexnet(pretrained: bool = False, **kwargs) -> AlexNet:
    """AlexNet."""
    return build(lambda: AlexNet(**kwargs), "alexnet", pretrained, model_urls)
