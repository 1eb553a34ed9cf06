"""paddle.optimizer: optimizers (one fused compiled update per step) and ``lr`` schedulers."""

from . import lr  # noqa: F401
from ._adadelta import Adadelta
from ._adagrad import Adagrad
from ._adam import Adam
from ._adamax import Adamax
from ._adamw import AdamW
from ._asgd import ASGD
from ._lamb import Lamb
from ._lbfgs import LBFGS
from ._momentum import Momentum
from ._nadam import NAdam
from ._optax import Optax
from ._optimizer import Optimizer
from ._radam import RAdam
from ._rmsprop import RMSProp
from ._rprop import Rprop
from ._sgd import SGD

__all__ = [
    "Optimizer",
    "ASGD",
    "Adadelta",
    "Adagrad",
    "NAdam",
    "RAdam",
    "Rprop",
    "Adam",
    "AdamW",
    "Adamax",
    "RMSProp",
    "SGD",
    "Momentum",
    "Lamb",
    "LBFGS",
    "Optax",  # paddle-compat: any optax GradientTransformation as a Paddle optimizer
]
