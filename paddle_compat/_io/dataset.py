"""paddle.io datasets: Dataset, IterableDataset, TensorDataset, ComposeDataset, ChainDataset,
Subset, ConcatDataset and random_split."""

from __future__ import annotations

import bisect
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ComposeDataset",
    "ChainDataset",
    "Subset",
    "ConcatDataset",
    "random_split",
]

_T = TypeVar("_T")


class Dataset(Generic[_T]):
    """A map-style dataset: subclasses implement ``__getitem__(idx)`` and ``__len__()``."""

    def __init__(self) -> None:
        pass

    def __getitem__(self, idx: int) -> _T:
        raise NotImplementedError(f"'__getitem__' not implement in class {self.__class__.__name__}")

    def __len__(self) -> int:
        raise NotImplementedError(f"'__len__' not implement in class {self.__class__.__name__}")


class IterableDataset(Dataset[_T]):
    """A stream dataset: subclasses implement ``__iter__()``; it has no length or indexing."""

    def __init__(self) -> None:
        pass

    def __iter__(self) -> Iterator[_T]:
        raise NotImplementedError(f"'__iter__' not implement in class {self.__class__.__name__}")

    def __getitem__(self, idx: int):
        raise RuntimeError(
            f"'__getitem__' should not be called for IterableDataset{self.__class__.__name__}"
        )

    def __len__(self):
        raise RuntimeError(
            f"'__len__' should not be called for IterableDataset{self.__class__.__name__}"
        )


class TensorDataset(Dataset):
    """Samples are the rows of the given Tensors: ``ds[i] == tuple(t[i] for t in tensors)``."""

    def __init__(self, tensors: Sequence) -> None:
        assert all(t.shape[0] == tensors[0].shape[0] for t in tensors), (
            "tensors not have same shape of the 1st dimension"
        )
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


def to_list(value):
    if value is None:
        return value
    if isinstance(value, list | tuple):
        return list(value)
    return [value]


class ComposeDataset(Dataset):
    """Zips map-style datasets of equal length: sample ``i`` concatenates their fields."""

    def __init__(self, datasets: list) -> None:
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "input datasets should not be empty"
        for i, ds in enumerate(self.datasets):
            assert isinstance(ds, Dataset), "each input dataset should be paddle.io.Dataset"
            assert not isinstance(ds, IterableDataset), "paddle.io.IterableDataset not supported"
            if i > 0:
                assert len(ds) == len(self.datasets[i - 1]), "lengths of datasets should be same"

    def __len__(self) -> int:
        return len(self.datasets[0])

    def __getitem__(self, idx):
        sample = []
        for ds in self.datasets:
            sample.extend(to_list(ds[idx]))
        return tuple(sample)


class ChainDataset(IterableDataset):
    """Iterates the given IterableDatasets one after another."""

    def __init__(self, datasets: list) -> None:
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "input datasets should not be empty"
        for ds in self.datasets:
            assert isinstance(ds, IterableDataset), (
                "ChainDataset only support paddle.io.IterableDataset"
            )

    def __iter__(self):
        for ds in self.datasets:
            yield from ds


class Subset(Dataset[_T]):
    """The samples of ``dataset`` at ``indices``."""

    def __init__(self, dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset[_T]):
    """Map-style datasets one after another."""

    @staticmethod
    def cumsum(sequence) -> list[int]:
        out, total = [], 0
        for ds in sequence:
            total += len(ds)
            out.append(total)
        return out

    def __init__(self, datasets: Iterable) -> None:
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), (
                "ConcatDataset does not support IterableDataset"
            )
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        ds_idx = bisect.bisect_right(self.cumulative_sizes, idx)
        sample_idx = idx if ds_idx == 0 else idx - self.cumulative_sizes[ds_idx - 1]
        return self.datasets[ds_idx][sample_idx]


def randperm_list(n: int) -> list[int]:
    """A permutation of ``range(n)`` from the global paddle generator (``paddle.seed``)."""
    import jax

    import paddle_compat

    fn = getattr(paddle_compat, "randperm", None)
    if fn is not None:
        return fn(n).tolist()
    from .._core.random import next_key

    key = jax.random.wrap_key_data(next_key())
    return [int(i) for i in jax.device_get(jax.random.permutation(key, n))]


def random_split(dataset, lengths: Sequence[Any], generator=None) -> list[Subset]:
    """Split ``dataset`` into non-overlapping random Subsets of the given lengths (or fractions
    summing to 1), shuffled by the paddle generator (reproducible after ``paddle.seed``)."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(int(math.floor(len(dataset) * frac)))
        for i in range(len(dataset) - sum(sizes)):
            sizes[i % len(sizes)] += 1
        lengths = sizes
        for i, n in enumerate(lengths):
            if n == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.",
                    stacklevel=2,
                )
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm_list(sum(lengths))
    out, offset = [], 0
    for n in lengths:
        out.append(Subset(dataset, indices[offset : offset + n]))
        offset += n
    return out
