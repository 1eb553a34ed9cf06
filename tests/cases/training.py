"""50-step training runs of an MLP and a small CNN: same initial weights and data as real
Paddle, losses must match to 1e-4 relative (eager and to_static)."""

import paddle.nn as nn
import paddle.nn.functional as F
from _util import rng

import paddle

TOLERANCE = {
    name: (1e-4, 1e-6)
    for name in (
        "case_mlp_adam_eager",
        "case_mlp_adam_to_static",
        "case_mlp_sgd_grad_accumulation",
        "case_cnn_momentum_eager",
        "case_cnn_adamw_to_static",
    )
}
STEPS = 50


def _set_weights(model, seed):
    r = rng(seed)
    for p in model.parameters():  # same order and shapes in both frameworks
        p.set_value((r.standard_normal(p.shape) * 0.2).astype("float32"))


def _mlp():
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    _set_weights(model, 1)
    return model


def _cnn():
    # The conv before BatchNorm has no bias (the usual layout): a bias there has an exactly-zero
    # gradient, and Adam's m/sqrt(v) turns the rounding noise left in it into lr-sized random
    # steps, so any two implementations (or Paddle on two devices) drift apart.
    model = nn.Sequential(
        nn.Conv2D(1, 4, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2D(2),
        nn.Conv2D(4, 8, 3, bias_attr=False),
        nn.BatchNorm2D(8),
        nn.ReLU(),
        nn.Flatten(),
        nn.Linear(8, 3),
    )
    _set_weights(model, 2)
    return model


def _mlp_data():
    r = rng(3)
    x = r.standard_normal((STEPS, 8, 16)).astype("float32")
    y = r.integers(0, 4, (STEPS, 8)).astype("int64")
    return x, y


def _cnn_data():
    r = rng(4)
    x = r.standard_normal((STEPS, 4, 1, 6, 6)).astype("float32")
    y = r.integers(0, 3, (STEPS, 4)).astype("int64")
    return x, y


def _train(model, opt, loss_fn, data, compiled=False):
    def step(x, y):
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    if compiled:
        step = paddle.jit.to_static(step)
    xs, ys = data
    return [float(step(paddle.to_tensor(x), paddle.to_tensor(y))) for x, y in zip(xs, ys)]


def case_mlp_adam_eager():
    model = _mlp()
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    return _train(model, opt, F.cross_entropy, _mlp_data())


def case_mlp_adam_to_static():
    model = _mlp()
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    return _train(model, opt, F.cross_entropy, _mlp_data(), compiled=True)


def case_mlp_sgd_grad_accumulation():
    model = _mlp()
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    xs, ys = _mlp_data()
    losses = []
    for i, (x, y) in enumerate(zip(xs, ys)):
        loss = F.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y)) / 4
        loss.backward()
        if (i + 1) % 4 == 0:
            opt.step()
            opt.clear_grad()
        losses.append(float(loss))
    return losses


def case_cnn_momentum_eager():
    model = _cnn()
    opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=model.parameters())
    losses = _train(model, opt, F.cross_entropy, _cnn_data())
    model.eval()
    x = paddle.to_tensor(_cnn_data()[0][0])
    return {"losses": losses, "eval_logits": model(x), "bn_mean": model[4]._mean}


def case_cnn_adamw_to_static():
    model = _cnn()
    opt = paddle.optimizer.AdamW(
        learning_rate=0.01,
        weight_decay=0.01,
        parameters=model.parameters(),
        grad_clip=nn.ClipGradByGlobalNorm(1.0),
    )
    return _train(model, opt, F.cross_entropy, _cnn_data(), compiled=True)
