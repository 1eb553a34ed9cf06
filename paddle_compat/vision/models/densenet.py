"""DenseNet 121/161/169/201/264 (``paddle.vision.models.densenet``)."""

from __future__ import annotations

import math

from ... import nn
from ..._ops.manipulation import concat, flatten
from ...framework import ParamAttr
from ...nn.initializer import Uniform
from ._utils import build

__all__: list[str] = []

_URL = "https://paddle-imagenet-models-name.bj.bcebos.com/dygraph/DenseNet{}_pretrained.pdparams"
# Paddle's pretrained weights: arch -> (url, md5)
model_urls: dict[str, tuple[str, str]] = {
    f"densenet{n}": (_URL.format(n), md5)
    for n, md5 in {
        121: "db1b239ed80a905290fd8b01d3af08e4",
        161: "62158869cb315098bd25ddbfd308a853",
        169: "82cc7c635c3f19098c748850efb2d796",
        201: "16ca29565a7712329cf9e36e02caaf58",
        264: "3270ce516b85370bba88cfdd9f60bff4",
    }.items()
}


def _conv(cin: int, cout: int, k, stride=1, pad=0, groups: int = 1) -> nn.Conv2D:
    return nn.Conv2D(
        cin,
        cout,
        k,
        stride=stride,
        padding=pad,
        groups=groups,
        weight_attr=ParamAttr(),
        bias_attr=False,
    )


class BNACConvLayer(nn.Layer):
    """Pre-activation unit: BatchNorm with activation ``act``, then a bias-free conv."""

    def __init__(
        self,
        num_channels: int,
        num_filters: int,
        filter_size,
        stride=1,
        pad=0,
        groups: int = 1,
        act: str = "relu",
    ) -> None:
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = _conv(num_channels, num_filters, filter_size, stride, pad, groups)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    """Bottleneck 1x1 then 3x3 pre-activation convs; the ``growth_rate`` new channels are
    concatenated to the input."""

    def __init__(self, num_channels: int, growth_rate: int, bn_size: int, dropout: float):
        super().__init__()
        self.dropout = dropout
        mid = bn_size * growth_rate
        self.bn_ac_func1 = BNACConvLayer(num_channels, mid, filter_size=1, stride=1, pad=0)
        self.bn_ac_func2 = BNACConvLayer(mid, growth_rate, filter_size=3, stride=1, pad=1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    """``num_layers`` DenseLayers, registered as ``{name}_1``, ``{name}_2``, ..."""

    def __init__(
        self,
        num_channels: int,
        num_layers: int,
        bn_size: int,
        growth_rate: int,
        dropout: float,
        name: str | None = None,
    ) -> None:
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        for i in range(num_layers):
            layer = DenseLayer(num_channels + i * growth_rate, growth_rate, bn_size, dropout)
            self.dense_layer_func.append(self.add_sublayer(f"{name}_{i + 1}", layer))

    def forward(self, input):
        for layer in self.dense_layer_func:
            input = layer(input)
        return input


class TransitionLayer(nn.Layer):
    """Pre-activation 1x1 conv then a 2x2 average pool, between dense blocks."""

    def __init__(self, num_channels: int, num_output_features: int) -> None:
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1, stride=1, pad=0)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    """Bias-free conv then BatchNorm with activation ``act`` (the stem)."""

    def __init__(
        self,
        num_channels: int,
        num_filters: int,
        filter_size,
        stride=1,
        pad=0,
        groups: int = 1,
        act: str = "relu",
    ) -> None:
        super().__init__()
        self._conv = _conv(num_channels, num_filters, filter_size, stride, pad, groups)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


_SPECS = {  # layers -> (initial features, growth rate, layers per block)
    121: (64, 32, [6, 12, 24, 16]),
    161: (96, 48, [6, 12, 36, 24]),
    169: (64, 32, [6, 12, 32, 32]),
    201: (64, 32, [6, 12, 48, 32]),
    264: (64, 32, [6, 12, 64, 48]),
}


class DenseNet(nn.Layer):
    """DenseNet with ``layers`` in 121/161/169/201/264; ``bn_size`` is the bottleneck width
    factor and ``dropout`` the rate after each dense layer (0 = none)."""

    def __init__(
        self,
        layers: int = 121,
        bn_size: int = 4,
        dropout: float = 0.0,
        num_classes: int = 1000,
        with_pool: bool = True,
    ) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        supported = list(_SPECS)
        assert layers in supported, f"supported layers are {supported} but input layer is {layers}"
        num_features, growth_rate, block_config = _SPECS[layers]
        self.conv1_func = ConvBNLayer(3, num_features, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        for i, num_layers in enumerate(block_config):
            block = DenseBlock(
                num_features, num_layers, bn_size, growth_rate, dropout, name=f"conv{i + 2}"
            )
            self.dense_block_func_list.append(self.add_sublayer(f"db_conv_{i + 2}", block))
            num_features += num_layers * growth_rate
            if i != len(block_config) - 1:
                trans = TransitionLayer(num_features, num_features // 2)
                self.transition_func_list.append(self.add_sublayer(f"tr_conv{i + 2}_blk", trans))
                num_features //= 2
        self.batch_norm = nn.BatchNorm(num_features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(num_features * 1.0)
            self.out = nn.Linear(
                num_features,
                num_classes,
                weight_attr=ParamAttr(initializer=Uniform(-stdv, stdv)),
                bias_attr=ParamAttr(),
            )

    def forward(self, input):
        x = self.pool2d_max(self.conv1_func(input))
        for i, block in enumerate(self.dense_block_func_list):
            x = block(x)
            if i < len(self.transition_func_list):
                x = self.transition_func_list[i](x)
        x = self.batch_norm(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = self.out(flatten(x, start_axis=1, stop_axis=-1))
        return x


def _densenet(layers: int, pretrained: bool, **kwargs) -> DenseNet:
    arch = f"densenet{layers}"
    return build(lambda: DenseNet(layers=layers, **kwargs), arch, pretrained, model_urls)


def densenet121(pretrained: bool = False, **kwargs) -> DenseNet:
    """DenseNet-121."""
    return _densenet(121, pretrained, **kwargs)


def densenet161(pretrained: bool = False, **kwargs) -> DenseNet:
    """DenseNet-161."""
    return _densenet(161, pretrained, **kwargs)


def densenet169(pretrained: bool = False, **kwargs) -> DenseNet:
    """DenseNet-169."""
    return _densenet(169, pretrained, **kwargs)


def densenet201(pretrained: bool = False, **kwargs) -> DenseNet:
    """DenseNet-201."""
    return _densenet(201, pretrained, **kwargs)


def densenet264(pretrained: bool = False, **kwargs) -> DenseNet:
    """DenseNet-264."""
    return _densenet(264, pretrained, **kwargs)
