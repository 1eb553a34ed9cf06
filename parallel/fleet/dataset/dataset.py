"""``paddle.distributed.fleet.dataset.dataset``: where Paddle defines its datasets."""

from ..._dataset import DatasetBase, InMemoryDataset, QueueDataset

__all__ = ["DatasetBase", "InMemoryDataset", "QueueDataset"]
