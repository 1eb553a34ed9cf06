"""paddle.io: datasets, samplers and the DataLoader."""

from .._io.collate import default_collate_fn, default_convert_fn  # noqa: F401
from .._io.dataloader import DataLoader, WorkerInfo, get_worker_info  # noqa: F401
from .._io.dataset import (  # noqa: F401
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .._io.sampler import (  # noqa: F401
    BatchSampler,
    DistributedBatchSampler,
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from . import dataloader  # noqa: F401,E402

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "ComposeDataset",
    "ChainDataset",
    "ConcatDataset",
    "Subset",
    "random_split",
    "DataLoader",
    "BatchSampler",
    "DistributedBatchSampler",
    "Sampler",
    "SequenceSampler",
    "RandomSampler",
    "WeightedRandomSampler",
    "SubsetRandomSampler",
    "get_worker_info",
]
