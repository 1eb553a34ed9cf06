"""``paddle.distributed.fleet.dataset``: the parameter-server datasets (see ``parallel/_dataset.py``)."""

from . import dataset
from .dataset import DatasetBase, InMemoryDataset, QueueDataset

__all__ = ["DatasetBase", "InMemoryDataset", "QueueDataset", "dataset"]
