"""paddle.io.dataloader.batch_sampler."""

from ..._io.sampler import BatchSampler, DistributedBatchSampler  # noqa: F401
