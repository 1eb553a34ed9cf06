"""What a DataLoader worker does with one batch of indices: read the samples and collate them.

Shared by the main-process loader and the worker processes (``_io/_worker_main.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from .collate import default_convert_fn, loader_collate_fn


class Fetcher:
    """Paddle's map-style and iterable fetchers: ``fetch(indices)`` gives one collated batch.

    For an IterableDataset it keeps one iterator over the dataset and raises StopIteration
    when the iterator ends before any sample of the batch (or before a full batch with
    ``drop_last``)."""

    def __init__(
        self,
        dataset,
        iterable: bool,
        auto_collate: bool,
        collate_fn: Callable | None,
        drop_last: bool,
    ) -> None:
        self.dataset = dataset
        self.auto_collate = auto_collate
        self.drop_last = drop_last
        if collate_fn is not None:
            self.collate = collate_fn
        else:
            self.collate = loader_collate_fn if auto_collate else default_convert_fn
        self._it = iter(dataset) if iterable else None

    def fetch(self, indices):
        if self._it is None:
            ds = self.dataset
            data = [ds[i] for i in indices] if self.auto_collate else ds[indices]
            return self.collate(data)
        if not self.auto_collate:
            return self.collate(next(self._it))
        data = []
        for _ in indices:
            try:
                data.append(next(self._it))
            except StopIteration:
                break
        if not data or (self.drop_last and len(data) < len(indices)):
            raise StopIteration
        return self.collate(data)
