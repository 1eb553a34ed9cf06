"""``paddle.utils.run_check``: check that the installation works."""

from __future__ import annotations


def run_check() -> None:
    """Train one step of a small network on each device JAX sees, and say whether it worked
    (paddle-compat prints what Paddle prints, naming the devices it checked)."""
    import numpy as np

    from .. import nn, optimizer, to_tensor
    from .._core.place import _gpus

    print("Running verify PaddlePaddle program ... ")
    layer = nn.Linear(2, 4)
    opt = optimizer.SGD(learning_rate=0.01, parameters=layer.parameters())
    loss = layer(to_tensor(np.ones((2, 2), "float32"))).mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    gpus = len(_gpus())
    where = f"{gpus} GPU" if gpus else "1 CPU"
    print(f"PaddlePaddle works well on {where}.")
    print(
        "PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now."
    )
