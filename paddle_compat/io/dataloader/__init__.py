"""paddle.io.dataloader: the modules Paddle keeps the DataLoader pieces in."""

from . import batch_sampler, collate, dataset, sampler, worker  # noqa: F401
from .batch_sampler import BatchSampler, DistributedBatchSampler  # noqa: F401
from .dataset import (  # noqa: F401
    ChainDataset,
    ComposeDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import (  # noqa: F401
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from .worker import get_worker_info  # noqa: F401
