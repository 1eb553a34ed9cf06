"""Convolution gradients where paddle-compat lowers the convolution itself on CPU
(nn/functional/_conv_cpu.py): depthwise convolutions (their own VJP: one variadic reduce for
the weight, a flipped tap sum for the input) over strides, dilations, multipliers, NHWC, 1-D
and 3-D; and compiled train steps (``to_static``) of small CNNs whose few-channel first
convolution is XLA's inside the train program and the broadcast-products form op by op, both
against Paddle's numbers."""

import numpy as np
import paddle.nn as nn
import paddle.nn.functional as F

import paddle

TOLERANCE = {
    # float32 sums over up to ~1000 positions in another order than Paddle's kernels
    "case_depthwise_grads": (1e-4, 1e-5),
    "case_compiled_cnn_train_steps": (1e-4, 1e-5),
    "case_compiled_depthwise_block_train_steps": (1e-4, 1e-5),
}


def _arr(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


# (fn, x shape, weight shape, kwargs)
_DEPTHWISE = [
    (F.conv2d, (2, 6, 9, 9), (6, 1, 3, 3), {"groups": 6, "padding": 1}),
    (F.conv2d, (1, 4, 11, 12), (4, 1, 5, 5), {"groups": 4, "stride": 2, "padding": 2}),
    (F.conv2d, (2, 3, 10, 10), (3, 1, 3, 3), {"groups": 3, "dilation": 2, "padding": 2}),
    (F.conv2d, (2, 3, 8, 8), (6, 1, 3, 3), {"groups": 3, "padding": 1}),
    (F.conv2d, (2, 9, 9, 4), (4, 1, 3, 3), {"groups": 4, "stride": 2, "data_format": "NHWC"}),
    (F.conv2d, (1, 4, 7, 7), (4, 1, 3, 3), {"groups": 4, "stride": 3, "padding": 4}),
    (F.conv1d, (2, 5, 17), (5, 1, 5), {"groups": 5, "padding": 2}),
    (F.conv3d, (1, 3, 5, 6, 7), (3, 1, 3, 3, 3), {"groups": 3, "stride": 2, "padding": 1}),
]


def case_depthwise_grads():
    out = []
    for i, (fn, xs, ws, kw) in enumerate(_DEPTHWISE):
        x = paddle.to_tensor(_arr(i, *xs), stop_gradient=False)
        w = paddle.to_tensor(_arr(100 + i, *ws), stop_gradient=False)
        y = fn(x, w, **kw)
        g = paddle.to_tensor(_arr(200 + i, *y.shape))
        (y * g).sum().backward()
        out += [y, x.grad, w.grad]
    return out


def _set_weights(model, seed):
    for i, p in enumerate(model.parameters()):
        p.set_value(paddle.to_tensor(0.3 * _arr(seed + i, *p.shape)))


def _train(model, x, y, compiled, steps=3):
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())

    def step(x, y):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if compiled:
        step = paddle.jit.to_static(step)
    losses = [step(x, y) for _ in range(steps)]
    return [*losses, *model.parameters()]


def case_compiled_cnn_train_steps():
    """An RGB 3x3 conv (the few-channel lowering op by op, XLA's inside the train program),
    max and average pools over windows that do not overlap."""
    out = []
    for compiled in (False, True):
        model = nn.Sequential(
            nn.Conv2D(3, 8, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(8, 16, 3, padding=1),
            nn.ReLU(),
            nn.AvgPool2D(2, 2),
            nn.Flatten(),
            nn.Linear(16 * 4 * 4, 10),
        )
        _set_weights(model, 10)
        x = paddle.to_tensor(_arr(1, 8, 3, 16, 16))
        y = paddle.to_tensor(np.arange(8) % 10)
        out += _train(model, x, y, compiled)
    return out


def case_compiled_depthwise_block_train_steps():
    """A MobileNet-style block (pointwise, depthwise 3x3 stride 2 and 5x5, batch norm) trained
    op by op and compiled."""
    out = []
    for compiled in (False, True):
        model = nn.Sequential(
            nn.Conv2D(3, 12, 1),
            nn.BatchNorm2D(12),
            nn.ReLU(),
            nn.Conv2D(12, 12, 3, stride=2, padding=1, groups=12),
            nn.BatchNorm2D(12),
            nn.ReLU(),
            nn.Conv2D(12, 12, 5, padding=2, groups=12),
            nn.AdaptiveAvgPool2D(1),
            nn.Flatten(),
            nn.Linear(12, 10),
        )
        _set_weights(model, 30)
        x = paddle.to_tensor(_arr(2, 4, 3, 16, 16))
        y = paddle.to_tensor(np.arange(4) % 10)
        out += _train(model, x, y, compiled)
    return out
