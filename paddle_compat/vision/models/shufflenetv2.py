"""ShuffleNetV2 (``paddle.vision.models.shufflenetv2``)."""

from __future__ import annotations

from collections.abc import Callable

from ... import nn
from ..._ops.manipulation import concat, flatten, reshape, split, transpose
from ..ops import ConvNormActivation
from ._utils import build

__all__: list[str] = []

_HAPI = "https://paddle-hapi.bj.bcebos.com/models/"
# Paddle's pretrained weights: arch -> (url, md5)
model_urls: dict[str, tuple[str, str]] = {
    arch: (f"{_HAPI}{arch}.pdparams", md5)
    for arch, md5 in {
        "shufflenet_v2_x0_25": "1e509b4c140eeb096bb16e214796d03b",
        "shufflenet_v2_x0_33": "3d7b3ab0eaa5c0927ff1026d31b729bd",
        "shufflenet_v2_x0_5": "5e5cee182a7793c4e4c73949b1a71bd4",
        "shufflenet_v2_x1_0": "122d42478b9e81eb49f8a9ede327b1a4",
        "shufflenet_v2_x1_5": "faced5827380d73531d0ee027c67826d",
        "shufflenet_v2_x2_0": "cd3dddcd8305e7bcd8ad14d1c69a5784",
        "shufflenet_v2_swish": "adde0aa3b023e5b0c94a68be1c394b84",
    }.items()
}


def create_activation_layer(act: str | None):
    """The activation Layer class for ``act`` ('swish', 'relu' or None)."""
    if act == "swish":
        return nn.Swish
    if act == "relu":
        return nn.ReLU
    if act is None:
        return None
    raise RuntimeError(f"The activation function is not supported: {act}")


def channel_shuffle(x, groups: int):
    """Interleave the channels of NCHW ``x`` across ``groups`` groups."""
    n, c, h, w = x.shape[0:4]
    x = reshape(x, shape=[n, groups, c // groups, h, w])
    x = transpose(x, perm=[0, 2, 1, 3, 4])
    return reshape(x, shape=[n, c, h, w])


def _unit(cin: int, cout: int, k: int, stride=1, groups: int = 1, act=None):
    return ConvNormActivation(
        in_channels=cin,
        out_channels=cout,
        kernel_size=k,
        stride=stride,
        padding=(k - 1) // 2,
        groups=groups,
        activation_layer=act,
    )


class InvertedResidual(nn.Layer):
    """Stride-1 unit: split the channels in half, transform one half (1x1, 3x3 depthwise,
    1x1), concatenate and shuffle."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        stride,
        activation_layer: Callable[..., nn.Layer] = nn.ReLU,
    ) -> None:
        super().__init__()
        half = out_channels // 2
        self._conv_pw = _unit(in_channels // 2, half, 1, act=activation_layer)
        self._conv_dw = _unit(half, half, 3, stride, groups=half)
        self._conv_linear = _unit(half, half, 1, act=activation_layer)

    def forward(self, inputs):
        c = inputs.shape[1] // 2
        x1, x2 = split(inputs, num_or_sections=[c, c], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    """Downsampling unit: two strided branches over the whole input, concatenated and
    shuffled."""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        stride,
        activation_layer: Callable[..., nn.Layer] = nn.ReLU,
    ) -> None:
        super().__init__()
        half = out_channels // 2
        act = activation_layer
        self._conv_dw_1 = _unit(in_channels, in_channels, 3, stride, groups=in_channels)
        self._conv_linear_1 = _unit(in_channels, half, 1, act=act)
        self._conv_pw_2 = _unit(in_channels, half, 1, act=act)
        self._conv_dw_2 = _unit(half, half, 3, stride, groups=half)
        self._conv_linear_2 = _unit(half, half, 1, act=act)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


_STAGE_CHANNELS = {
    0.25: [-1, 24, 24, 48, 96, 512],
    0.33: [-1, 24, 32, 64, 128, 512],
    0.5: [-1, 24, 48, 96, 192, 1024],
    1.0: [-1, 24, 116, 232, 464, 1024],
    1.5: [-1, 24, 176, 352, 704, 1024],
    2.0: [-1, 24, 224, 488, 976, 2048],
}


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2 with ``scale`` in 0.25/0.33/0.5/1.0/1.5/2.0 and activation ``act``
    ('relu' or 'swish'); ``num_classes <= 0`` drops the classifier, ``with_pool=False`` the
    global average pool."""

    def __init__(
        self,
        scale: float = 1.0,
        act: str | None = "relu",
        num_classes: int = 1000,
        with_pool: bool = True,
    ) -> None:
        super().__init__()
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        act_layer = create_activation_layer(act)
        if scale not in _STAGE_CHANNELS:
            raise NotImplementedError(f"This scale size:[{scale}] is not implemented!")
        channels = _STAGE_CHANNELS[scale]
        self._conv1 = _unit(3, channels[1], 3, stride=2, act=act_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage, repeats in enumerate([4, 8, 4]):
            cin, cout = channels[stage + 1], channels[stage + 2]
            for i in range(repeats):
                if i == 0:
                    block = InvertedResidualDS(cin, cout, stride=2, activation_layer=act_layer)
                else:
                    block = InvertedResidual(cout, cout, stride=1, activation_layer=act_layer)
                self._block_list.append(self.add_sublayer(f"{stage + 2}_{i + 1}", block))
        self._last_conv = _unit(channels[-2], channels[-1], 1, act=act_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = channels[-1]
            self._fc = nn.Linear(channels[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for block in self._block_list:
            x = block(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(flatten(x, start_axis=1, stop_axis=-1))
        return x


def _shufflenet_v2(arch: str, pretrained: bool, scale: float, **kwargs) -> ShuffleNetV2:
    return build(lambda: ShuffleNetV2(scale=scale, **kwargs), arch, pretrained, model_urls)


def shufflenet_v2_x0_25(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 0.25x."""
    return _shufflenet_v2("shufflenet_v2_x0_25", pretrained, 0.25, **kwargs)


def shufflenet_v2_x0_33(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 0.33x."""
    return _shufflenet_v2("shufflenet_v2_x0_33", pretrained, 0.33, **kwargs)


def shufflenet_v2_x0_5(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 0.5x."""
    return _shufflenet_v2("shufflenet_v2_x0_5", pretrained, 0.5, **kwargs)


def shufflenet_v2_x1_0(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 1.0x."""
    return _shufflenet_v2("shufflenet_v2_x1_0", pretrained, 1.0, **kwargs)


def shufflenet_v2_x1_5(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 1.5x."""
    return _shufflenet_v2("shufflenet_v2_x1_5", pretrained, 1.5, **kwargs)


def shufflenet_v2_x2_0(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 2.0x."""
    return _shufflenet_v2("shufflenet_v2_x2_0", pretrained, 2.0, **kwargs)


def shufflenet_v2_swish(pretrained: bool = False, **kwargs) -> ShuffleNetV2:
    """ShuffleNetV2 1.0x with swish activations."""
    return _shufflenet_v2("shufflenet_v2_swish", pretrained, 1.0, act="swish", **kwargs)
