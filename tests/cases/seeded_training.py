"""A seeded eager training script, written as a Paddle tutorial would be: after paddle.seed the
initial weights, the random data and the dropout masks are real Paddle's (and after
np.random.seed the DataLoader's shuffle, which Paddle draws from numpy), so the loss curve
equals Paddle's to float rounding."""

import numpy as np
import paddle.nn.functional as F

import paddle
from paddle import nn

TOLERANCE = {"case_lenet_adam_dropout": (2e-5, 1e-6), "case_mlp_sgd_shuffle": (2e-5, 1e-6)}


class LeNet(nn.Layer):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 5, stride=1, padding=0),
            nn.ReLU(),
            nn.MaxPool2D(2, 2),
        )
        self.fc = nn.Sequential(
            nn.Linear(16 * 5 * 5, 120),
            nn.Dropout(0.3),
            nn.Linear(120, 84),
            nn.Linear(84, num_classes),
        )

    def forward(self, x):
        x = self.features(x)
        x = paddle.flatten(x, 1)
        return self.fc(x)


def case_lenet_adam_dropout():
    paddle.seed(2024)
    model = LeNet()
    opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters())
    x = paddle.randn([8, 1, 28, 28])
    y = paddle.randint(0, 10, [8, 1])
    losses = []
    for _ in range(4):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(loss)
    return [losses, model.fc[0].weight[:2, :5]]


def case_mlp_sgd_shuffle():
    paddle.seed(7)
    np.random.seed(7)
    data = paddle.rand([24, 6])
    label = (data.sum(axis=1, keepdim=True) > 3).astype("float32")
    loader = paddle.io.DataLoader(
        paddle.io.TensorDataset([data, label]), batch_size=8, shuffle=True
    )
    net = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Dropout(0.2), nn.Linear(16, 1))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    losses = []
    for _ in range(2):
        for xb, yb in loader:
            loss = F.binary_cross_entropy_with_logits(net(xb), yb)
            loss.backward()
            opt.step()
            opt.clear_grad()
            losses.append(loss)
    return losses
