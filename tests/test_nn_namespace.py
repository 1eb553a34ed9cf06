"""paddle.nn holds every public name real Paddle 3.3.1's paddle.nn holds (recorded below from
``dir(paddle.nn)``), its torch-style submodules serve Paddle's names, and paddle.LazyGuard
defers initialization. Values against Paddle are in tests/cases/nn_repr.py (goldens)."""

from __future__ import annotations

import pytest

import paddle

nn = paddle.nn

PADDLE_NN = """
AdaptiveAvgPool1D AdaptiveAvgPool1d AdaptiveAvgPool2D AdaptiveAvgPool2d AdaptiveAvgPool3D
AdaptiveAvgPool3d AdaptiveLogSoftmaxWithLoss AdaptiveMaxPool1D AdaptiveMaxPool1d
AdaptiveMaxPool2D AdaptiveMaxPool2d AdaptiveMaxPool3D AdaptiveMaxPool3d AlphaDropout AvgPool1D
AvgPool2D AvgPool3D BCELoss BCEWithLogitsLoss BatchNorm BatchNorm1D BatchNorm2D BatchNorm3D
BeamSearchDecoder BiRNN Bilinear CELU CTCLoss ChannelShuffle CircularPad1D CircularPad1d
CircularPad2D CircularPad2d CircularPad3D CircularPad3d ClipGradByGlobalNorm ClipGradByNorm
ClipGradByValue ConstantPad1D ConstantPad1d ConstantPad2D ConstantPad2d ConstantPad3D
ConstantPad3d Conv1D Conv1DTranspose Conv1d Conv2D Conv2DTranspose Conv2d Conv3D Conv3DTranspose
Conv3d CosineEmbeddingLoss CosineSimilarity CrossEntropyLoss Dropout Dropout2D Dropout3D ELU
Embedding FeatureAlphaDropout Flatten Fold FractionalMaxPool2D FractionalMaxPool3D GELU GLU GRU
GRUCell GaussianNLLLoss GroupNorm HSigmoidLoss Hardshrink Hardsigmoid Hardswish Hardtanh
HingeEmbeddingLoss HuberLoss Identity InstanceNorm1D InstanceNorm2D InstanceNorm3D KLDivLoss
L1Loss LPPool1D LPPool1d LPPool2D LPPool2d LSTM LSTMCell Layer LayerDict LayerList LayerNorm
LeakyReLU Linear LocalResponseNorm LogSigmoid LogSoftmax MSELoss MarginRankingLoss MaxPool1D
MaxPool2D MaxPool3D MaxUnPool1D MaxUnPool2D MaxUnPool3D MaxUnpool1d MaxUnpool2d MaxUnpool3d
Maxout Mish Module ModuleDict ModuleList MultiHeadAttention MultiLabelMarginLoss
MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss PReLU Pad1D Pad2D Pad3D PairwiseDistance
Parameter ParameterDict ParameterList PixelShuffle PixelUnshuffle PoissonNLLLoss RNN RNNCellBase
RNNTLoss RReLU ReLU ReLU6 ReflectionPad1D ReflectionPad1d ReflectionPad2D ReflectionPad2d
ReflectionPad3D ReflectionPad3d ReplicationPad1D ReplicationPad1d ReplicationPad2D
ReplicationPad2d ReplicationPad3D ReplicationPad3d SELU Sequential SiLU Sigmoid Silu SimpleRNN
SimpleRNNCell SmoothL1Loss SoftMarginLoss Softmax Softmax2D Softplus Softshrink Softsign
SpectralNorm Swish SyncBatchNorm Tanh Tanhshrink ThresholdedReLU Transformer TransformerDecoder
TransformerDecoderLayer TransformerEncoder TransformerEncoderLayer TripletMarginLoss
TripletMarginWithDistanceLoss Unflatten Unfold Upsample UpsamplingBilinear2D
UpsamplingBilinear2d UpsamplingNearest2D UpsamplingNearest2d ZeroPad1D ZeroPad1d ZeroPad2D
ZeroPad2d ZeroPad3D ZeroPad3d attention clip decode dynamic_decode functional init initializer
layer loss modules parameter quant spectral_norm utils
""".split()

SUBMODULE_NAMES = {
    "init": [
        "Constant",
        "Dirac",
        "KaimingNormal",
        "KaimingUniform",
        "Normal",
        "Orthogonal",
        "TruncatedNormal",
        "Uniform",
        "XavierNormal",
        "XavierUniform",
        "calculate_gain",
        "constant_",
        "dirac_",
        "eye_",
        "kaiming_normal_",
        "kaiming_uniform_",
        "normal_",
        "ones_",
        "orthogonal_",
        "trunc_normal_",
        "uniform_",
        "xavier_normal_",
        "xavier_uniform_",
        "zeros_",
        "_calculate_fan_in_and_fan_out",
    ],
    "attention": ["SDPBackend", "sdpa_kernel", "sdpa", "_cur_sdpa_kernel_backends"],
    "parameter": ["EagerParamBase", "Parameter"],
    "modules": ["Module", "container", "module"],
    "modules.container": ["LayerDict", "LayerList", "ModuleDict", "ModuleList"],
    "modules.module": ["Layer", "Module"],
}


@pytest.mark.parametrize("name", PADDLE_NN)
def test_paddle_nn_has_name(name):
    assert hasattr(nn, name), f"paddle.nn.{name} is missing"


@pytest.mark.parametrize("sub", sorted(SUBMODULE_NAMES))
def test_submodule_names(sub):
    import importlib

    mod = importlib.import_module(f"paddle.nn.{sub}")
    missing = [n for n in SUBMODULE_NAMES[sub] if not hasattr(mod, n)]
    assert not missing, f"paddle.nn.{sub} lacks {missing}"


def test_loss_module_is_layer_loss():
    assert nn.loss is nn.layer.loss
    assert nn.loss.BCELoss is nn.BCELoss


def test_lazy_guard_initialize_runs_once_and_keeps_version():
    with paddle.LazyGuard():
        lin = nn.Linear(4, 3)
    w = lin.weight
    assert not w._is_initialized()
    paddle.seed(11)
    w.initialize()
    assert w._is_initialized() and w.inplace_version == 0
    with pytest.raises(AssertionError, match="_init_func"):
        w.initialize()  # as Paddle: the initializer runs once
    paddle.seed(11)
    assert (nn.Linear(4, 3).weight.numpy() == w.numpy()).all()


def test_lazy_guard_only_inside_the_block():
    with paddle.LazyGuard():
        pass
    lin = nn.Linear(2, 2)
    assert not hasattr(lin.weight, "_lazy_init")
    assert nn.initializer._lazy.active() is False


def test_sdpa_kernel_restores_on_error():
    from paddle.nn.attention import SDPBackend, _cur_sdpa_kernel_backends, sdpa_kernel

    with pytest.raises(KeyError):
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION], set_priority=True):
            raise KeyError("x")
    assert _cur_sdpa_kernel_backends() == [SDPBackend.MATH]


def test_paddle_nn_has_no_extra_public_names():
    extra = {n for n in dir(nn) if not n.startswith("_")} - set(PADDLE_NN)
    assert not extra, f"paddle.nn names Paddle 3.3.1 does not have: {sorted(extra)}"


def test_lazy_parameter_written_then_initialized_is_overwritten():
    with paddle.LazyGuard():
        lin = nn.Linear(2, 2)
    lin.weight.set_value(paddle.full([2, 2], 3.0))
    assert lin.weight._is_initialized()
    lin.weight.initialize()  # as Paddle: the kept initializer still runs
    assert not (lin.weight.numpy() == 3.0).any()


def test_lazy_parameter_filled_by_nn_init_counts_as_initialized():
    with paddle.LazyGuard():
        lin = nn.Linear(2, 2)
    nn.init.ones_(lin.weight)
    assert lin.weight._is_initialized() and lin.weight.inplace_version == 0
    lin.weight.initialize()  # as Paddle: the kept initializer still runs
    assert not (lin.weight.numpy() == 1.0).all()
