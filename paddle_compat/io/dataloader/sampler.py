"""paddle.io.dataloader.sampler."""

from ..._io.sampler import (  # noqa: F401
    RandomSampler,
    Sampler,
    SequenceSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
