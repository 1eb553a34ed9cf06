"""Batch collation for paddle.io.DataLoader, with Paddle's rules.

``default_collate_fn`` stacks numpy arrays and Python/numpy numbers on the host (numbers become
``np.array(batch)``: int -> int64, float -> float64, bool -> bool), stacks Tensors with
``paddle.stack``, keeps strings as lists, recurses into dicts and sequences (sequences come out
as lists). The DataLoader then turns every ndarray in the batch into a Tensor, all of a batch's
arrays in one host-to-device transfer.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

from .._core.place import put

__all__ = ["default_collate_fn", "default_convert_fn", "to_loader_output"]


def _tensor_cls():
    from .._core.tensor import Tensor

    return Tensor


def _collate(batch, stack_tensors):
    Tensor = _tensor_cls()
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return np.stack(batch, axis=0)
    if isinstance(sample, Tensor | jax.Array):
        return stack_tensors(batch)
    if isinstance(sample, numbers.Number):
        return np.array(batch)
    if isinstance(sample, str | bytes):
        return batch
    if isinstance(sample, Mapping):
        return {key: _collate([d[key] for d in batch], stack_tensors) for key in sample}
    if isinstance(sample, Sequence):
        n = len(sample)
        if not all(len(s) == n for s in batch):
            raise RuntimeError("fields number not same among samples in a batch")
        return [_collate(list(fields), stack_tensors) for fields in zip(*batch)]
    raise TypeError(
        "batch data con only contains: tensor, numpy.ndarray, dict, list, number, "
        f"but got {type(sample)}"
    )


def _paddle_stack(batch):
    from .._core.registry import call_op

    Tensor = _tensor_cls()
    return call_op("stack", [b if isinstance(b, Tensor) else Tensor(b) for b in batch], axis=0)


def _device_stack(batch):
    """For the loader: stack on device without recording autograd (outputs are detached)."""
    Tensor = _tensor_cls()
    return Tensor(jnp.stack([b._value if isinstance(b, Tensor) else b for b in batch]))


def default_collate_fn(batch):
    """Collate a list of samples into a batch (see the module docstring for the rules)."""
    return _collate(batch, _paddle_stack)


def loader_collate_fn(batch):
    return _collate(batch, _device_stack)


def default_convert_fn(batch):
    """Without automatic batching: samples pass through, sequences become lists."""
    Tensor = _tensor_cls()
    if isinstance(batch, Tensor | np.ndarray | str | bytes):
        return batch
    if isinstance(batch, Mapping):
        return {key: default_convert_fn(batch[key]) for key in batch}
    if isinstance(batch, Sequence):
        return [default_convert_fn(d) for d in batch]
    return batch


class _Slot:
    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index


def to_loader_output(batch, device, owned: bool = False):
    """What Paddle's loader yields for a collated batch: every ndarray/Tensor becomes a fresh
    Tensor (stop_gradient=True; uint16 arrays are bfloat16 bits), sequences become lists,
    mappings dicts, numbers and strings stay. All ndarrays move in one ``device_put``; ``owned``:
    the arrays are the loader's own (a worker's batch), so JAX may take them over uncopied."""
    Tensor = _tensor_cls()
    host: list[np.ndarray] = []

    def walk(x):
        if isinstance(x, np.ndarray):
            if x.dtype == np.uint16:
                x = x.view(ml_dtypes.bfloat16)
            elif x.dtype.kind in "OUS" or x.dtype.names:
                raise TypeError(f"DataLoader cannot make a Tensor of numpy dtype {x.dtype}.")
            host.append(x)
            return _Slot(len(host) - 1)
        if isinstance(x, Tensor):
            return Tensor(x._value)
        if isinstance(x, jax.Array):
            return Tensor(x)
        if isinstance(x, str | bytes | numbers.Number):
            return x
        if isinstance(x, Sequence):
            return [walk(v) for v in x]
        if isinstance(x, Mapping):
            return {k: walk(v) for k, v in x.items()}
        return x

    if isinstance(batch, str | bytes):
        return batch
    out = walk(batch)
    if not host:
        return out
    moved = put(host, device, owned)

    def fill(x):
        if isinstance(x, _Slot):
            return Tensor(moved[x.index])
        if type(x) is list:
            return [fill(v) for v in x]
        if type(x) is dict:
            return {k: fill(v) for k, v in x.items()}
        return x

    return fill(out)
