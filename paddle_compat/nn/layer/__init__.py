"""``paddle.nn.layer``: Paddle's module paths for the layer classes (``paddle.nn.layer.rnn``,
``paddle.nn.layer.transformer``, ...); the classes are ``paddle.nn``'s (see ``nn/_paths.py``)."""

from . import (  # noqa: F401
    activation,
    common,
    container,
    conv,
    distance,
    layers,
    loss,
    norm,
    pooling,
    rnn,
    transformer,
    vision,
)
