"""The user's own programs from the foundation issue, run unchanged."""

import paddle.nn as nn
from _util import rng

import paddle


class SimpleNet(nn.Layer):
    def __init__(self):
        super(SimpleNet, self).__init__()  # noqa: UP008 - the user's spelling
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 10)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.relu(self.fc1(x))
        x = self.fc2(x)
        return paddle.nn.functional.log_softmax(x, axis=1)


def case_print_simple_net():
    model = SimpleNet()
    return {
        "repr": str(model),
        "keys": list(model.state_dict().keys()),
        "shapes": [list(p.shape) for p in model.parameters()],
    }


class RandomDataset(paddle.io.Dataset):
    def __init__(self, n=16):
        r = rng(5)
        self.x = r.standard_normal((n, 784)).astype("float32")
        self.y = r.standard_normal((n, 10)).astype("float32")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def case_gradient_accumulation_with_dataloader():
    model = SimpleNet()
    r = rng(6)
    for p in model.parameters():
        p.set_value((r.standard_normal(p.shape) * 0.05).astype("float32"))
    dataloader = paddle.io.DataLoader(RandomDataset(), batch_size=2, shuffle=False)
    optimizer = paddle.optimizer.Adam(parameters=model.parameters())
    accum_steps = 4
    losses = []
    for i, (data, label) in enumerate(dataloader):
        pred = model(data)
        loss = paddle.nn.functional.mse_loss(pred, label)
        loss = loss / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.clear_grad()
        losses.append(float(loss))
    return {"losses": losses, "fc2_bias": model.fc2.bias}


TOLERANCE = {"case_gradient_accumulation_with_dataloader": (1e-4, 1e-6)}
