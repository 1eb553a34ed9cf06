"""paddle.io samplers and batch samplers.

Randomness follows Paddle: ``RandomSampler`` and ``WeightedRandomSampler`` draw from numpy's
global RNG (``np.random.seed`` reproduces real Paddle's order exactly; ``paddle.seed`` does not
affect them, as in Paddle), ``DistributedBatchSampler`` shuffles with
``np.random.RandomState(epoch)``, ``SubsetRandomSampler`` uses the paddle generator.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Generic, TypeVar

import numpy as np

from .dataset import IterableDataset, randperm_list

__all__ = [
    "Sampler",
    "SequenceSampler",
    "RandomSampler",
    "WeightedRandomSampler",
    "SubsetRandomSampler",
    "BatchSampler",
    "DistributedBatchSampler",
]

_T = TypeVar("_T")


class Sampler(Generic[_T]):
    """Base class: yields sample indices (subclasses implement ``__iter__``/``__len__``)."""

    def __init__(self, data_source: Sized | None = None) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[_T]:
        raise NotImplementedError


class SequenceSampler(Sampler[int]):
    """Indices ``0 .. len(data_source) - 1`` in order."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler[int]):
    """Shuffled indices (or ``num_samples`` draws with replacement), from numpy's global RNG;
    a ``generator`` (an iterator of indices) replaces the draws."""

    def __init__(
        self,
        data_source: Sized,
        replacement: bool = False,
        num_samples: int | None = None,
        generator=None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(
                f"expect boolean value for replacement, but got replacement={self.replacement}"
            )
        if not self.replacement and self.num_samples > len(self.data_source):
            raise ValueError(
                "num_samples should be smaller than or equal to length of data_source when "
                f"replacement is False, but got num_samples: {self.num_samples} > "
                f"data_source: {len(self.data_source)}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer, but got num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        if self.generator:
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
            return
        n = len(self.data_source)
        yield from np.random.choice(
            np.arange(n), self.num_samples, replace=self.replacement
        ).tolist()

    def __len__(self) -> int:
        return self.num_samples


def _weights_array(weights) -> np.ndarray:
    if hasattr(weights, "numpy") and not isinstance(weights, np.ndarray):
        weights = weights.numpy()
    return np.asarray(weights)


class WeightedRandomSampler(Sampler[int]):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``."""

    def __init__(self, weights, num_samples: int, replacement: bool = True) -> None:
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement

    def __iter__(self) -> Iterator[int]:
        w = _weights_array(self.weights)
        assert len(w.shape) <= 2, "weights should be a 1-D or 2-D array"
        w = w.reshape((-1, w.shape[-1]))
        assert np.all(w >= 0.0), "weights should be positive value"
        assert not np.any(w == np.inf), "weights should not be INF"
        assert not np.any(np.isnan(w)), "weights should not be NaN"
        nonzero = np.sum(w > 0.0, axis=1)
        assert np.all(nonzero > 0), "weights should have positive values"
        if not self.replacement:
            assert np.all(nonzero >= self.num_samples), (
                "weights positive value number should not less than num_samples when "
                "replacement=False"
            )
        w = w / w.sum(axis=1, keepdims=True)
        rows = [
            np.random.choice(w.shape[1], self.num_samples, self.replacement, w[i])
            for i in range(w.shape[0])
        ]
        return iter(np.array(rows).reshape(-1).tolist())

    def __len__(self) -> int:
        shape = _weights_array(self.weights).shape
        return self.num_samples * (int(np.prod(shape)) // shape[-1])


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order (paddle generator: reproducible after
    ``paddle.seed``; the order differs from real Paddle's, whose RNG is different)."""

    def __init__(self, indices: Sequence[int]) -> None:
        if len(indices) == 0:
            raise ValueError(
                "The length of `indices` in SubsetRandomSampler should be greater than 0."
            )
        self.indices = indices

    def __iter__(self) -> Iterator[int]:
        for i in randperm_list(len(self.indices)):
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler[Sequence[int]]):
    """Groups indices from ``sampler`` (or a Sequence/Random sampler over ``dataset``) into
    lists of ``batch_size``; the last short batch is kept unless ``drop_last``."""

    def __init__(
        self,
        dataset: Sized | None = None,
        sampler=None,
        shuffle: bool = False,
        batch_size: int = 1,
        drop_last: bool = False,
    ) -> None:
        if dataset is None:
            assert sampler is not None, "either dataset or sampler should be set"
            assert isinstance(sampler, Sampler | Iterable), (
                f"sampler should be either paddle.io.Sampler or Iterable, but got {type(sampler)}"
            )
            assert not shuffle, "shuffle should be False when sampler is set"
            self.sampler = sampler
        else:
            assert not isinstance(dataset, IterableDataset), (
                "dataset should not be a paddle.io.IterableDataset"
            )
            assert sampler is None, "should not set both dataset and sampler"
            assert isinstance(shuffle, bool), (
                f"shuffle should be a boolean value, but got {type(shuffle)}"
            )
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        assert isinstance(batch_size, int) and batch_size > 0, (
            f"batch_size should be a positive integer, but got {batch_size}"
        )
        self.batch_size = batch_size
        self.shuffle = shuffle
        assert isinstance(drop_last, bool), (
            f"drop_last should be a boolean value, but got {type(drop_last)}"
        )
        self.drop_last = drop_last
        self._acc_steps = 1

    def _batches(self, indices) -> Iterator[list[int]]:
        size = self.batch_size * self._acc_steps
        batch = []
        for idx in indices:
            batch.append(idx)
            if len(batch) == size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __iter__(self) -> Iterator[list[int]]:
        return self._batches(self.sampler)

    def _count(self, num_samples: int) -> int:
        size = self.batch_size * self._acc_steps
        return (num_samples + int(not self.drop_last) * (size - 1)) // size

    def __len__(self) -> int:
        return self._count(len(self.sampler))


class _InfiniteIterableSampler(Sampler):
    """Batches of ``None`` placeholders for IterableDatasets."""

    def __init__(self, dataset, batch_size: int = 1) -> None:
        assert isinstance(dataset, IterableDataset), (
            "dataset should be an instance of paddle.io.IterableDataset"
        )
        self.dataset = dataset
        self.batch_size = batch_size

    def __iter__(self):
        while True:
            yield [None] * self.batch_size


def _env_world() -> tuple[int, int]:
    """(nranks, rank) as Paddle's ParallelEnv reads them; one process by default."""
    return (
        int(os.environ.get("PADDLE_TRAINERS_NUM", "1")),
        int(os.environ.get("PADDLE_TRAINER_ID", "0")),
    )


class DistributedBatchSampler(BatchSampler):
    """The share of ``dataset`` that rank ``rank`` of ``num_replicas`` reads: indices padded to
    a multiple of ``num_replicas``, shuffled with ``np.random.RandomState(epoch)`` when
    ``shuffle``, then dealt out in batch-size blocks. Without arguments, the replica count and
    rank come from ``PADDLE_TRAINERS_NUM``/``PADDLE_TRAINER_ID`` (rank 0 of 1 if unset)."""

    def __init__(
        self,
        dataset: Sized,
        batch_size: int,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = False,
        drop_last: bool = False,
    ) -> None:
        self.dataset = dataset
        assert isinstance(batch_size, int) and batch_size > 0, (
            "batch_size should be a positive integer"
        )
        self.batch_size = batch_size
        assert isinstance(shuffle, bool), "shuffle should be a boolean value"
        self.shuffle = shuffle
        assert isinstance(drop_last, bool), "drop_last should be a boolean number"
        env_n, env_rank = _env_world()
        if num_replicas is not None:
            assert isinstance(num_replicas, int) and num_replicas > 0, (
                "num_replicas should be a positive integer"
            )
            self.nranks = num_replicas
        else:
            self.nranks = env_n
        if rank is not None:
            assert isinstance(rank, int) and rank >= 0, "rank should be a non-negative integer"
            self.local_rank = rank
        else:
            self.local_rank = env_rank
        self.drop_last = drop_last
        self.epoch = 0
        self.num_samples = int(math.ceil(len(self.dataset) * 1.0 / self.nranks))
        self.total_size = self.num_samples * self.nranks
        self._acc_steps = 1

    def _local_indices(self) -> list[int]:
        n = len(self.dataset)
        indices = list(range(n))
        pad = self.total_size - n
        indices += (indices * math.ceil(pad / n))[:pad] if n and pad > n else indices[:pad]
        assert len(indices) == self.total_size
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            bs, nr, r = self.batch_size, self.nranks, self.local_rank
            last = self.total_size % (bs * nr)
            assert last % nr == 0
            last_local = last // nr
            local = []
            for i in range(r * bs, len(indices) - last, bs * nr):
                local.extend(indices[i : i + bs])
            tail = indices[len(indices) - last :]
            local.extend(tail[r * last_local : (r + 1) * last_local])
            indices = local
        assert len(indices) == self.num_samples
        return indices

    def __iter__(self) -> Iterator[list[int]]:
        yield from self._batches(self._local_indices())  # lazily, like Paddle's generator

    def __len__(self) -> int:
        return self._count(self.num_samples)

    def set_epoch(self, epoch: int) -> None:
        """Seed of the next shuffle (call once per epoch so every rank agrees)."""
        self.epoch = epoch
