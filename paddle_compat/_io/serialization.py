"""paddle.save / paddle.load (being written)."""


def reduce_tensor(t):
    import numpy as np

    from .._core.tensor import Tensor

    return (Tensor, (np.asarray(t._value),))


def save(obj, path, protocol=4, **configs):
    raise NotImplementedError("paddle.save is being written")


def load(path, **configs):
    raise NotImplementedError("paddle.load is being written")
