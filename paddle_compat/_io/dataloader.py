"""paddle.io.DataLoader, get_worker_info.

Batches are built in the calling process: samples are fetched, collated on the host with numpy
(Tensors are stacked on device), and every array of a batch goes to the device in one transfer.
``num_workers > 0`` is accepted and emulated in-process, deterministically: batch ``k`` is
fetched "by" worker ``k % num_workers`` (``get_worker_info()`` reports it during the fetch), an
IterableDataset gets one iterator per worker whose batches are interleaved round-robin as
Paddle's workers' are, and ``worker_init_fn(i)`` runs once per worker when iteration starts.
Unlike Paddle's worker processes, the workers do not reseed ``random``/numpy/paddle RNGs, and
``worker_init_fn`` runs in this process.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable

import numpy as np

from .._core.tensor import Tensor
from ..profiler._events import reader_span
from .collate import default_convert_fn, loader_collate_fn, to_loader_output
from .dataset import Dataset, IterableDataset, TensorDataset
from .sampler import BatchSampler, _InfiniteIterableSampler

__all__ = ["DataLoader", "get_worker_info", "WorkerInfo"]


class WorkerInfo:
    """Describes the data-loading worker running the current fetch (read-only)."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        super().__setattr__(key, val)

    def __repr__(self) -> str:
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_local = threading.local()


def get_worker_info() -> WorkerInfo | None:
    """Inside a DataLoader worker: its ``WorkerInfo`` (id, num_workers, dataset, seed);
    ``None`` in the main process."""
    return getattr(_local, "info", None)


@contextlib.contextmanager
def _as_worker(info: WorkerInfo | None):
    prev = getattr(_local, "info", None)
    _local.info = info
    try:
        yield
    finally:
        _local.info = prev


def _device(places):
    from .._core.place import Place, current_device, device_from_spec

    if isinstance(places, list | tuple):
        places = places[0] if places else None
    if places is None:
        return current_device()
    if isinstance(places, Place):
        return places.jax_device
    if isinstance(places, str):
        return device_from_spec(places.lower())
    return current_device()


class DataLoader:
    """Iterates ``dataset`` in batches (``paddle.io.DataLoader``).

    Each batch is ``collate_fn(list of samples)`` (default: ``default_collate_fn``), with every
    numpy array turned into a Tensor on the current device (stop_gradient=True) and tuples
    turned into lists. ``batch_size=None`` yields single samples (no batching).
    ``shuffle=True`` draws the order from numpy's global RNG like Paddle, so
    ``np.random.seed(s)`` gives real Paddle's exact order. ``num_workers > 0`` runs in-process
    (see the module docstring); ``use_buffer_reader``, ``prefetch_factor``,
    ``use_shared_memory``, ``timeout`` and ``persistent_workers`` are accepted and have no
    effect. ``feed_list``/``return_list`` only matter for Paddle's static-graph mode.

    Example::

        loader = paddle.io.DataLoader(dataset, batch_size=32, shuffle=True, drop_last=True)
        for x, y in loader:
            ...
    """

    def __init__(
        self,
        dataset: Dataset,
        feed_list=None,
        places=None,
        return_list: bool = True,
        batch_sampler: BatchSampler | None = None,
        batch_size: int | None = 1,
        shuffle: bool = False,
        drop_last: bool = False,
        collate_fn: Callable | None = None,
        num_workers: int = 0,
        use_buffer_reader: bool = True,
        reader_buffer_size: int = 2,
        prefetch_factor: int = 2,
        use_shared_memory: bool = True,
        timeout: int = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        persistent_workers: bool = False,
    ) -> None:
        self.dataset = dataset
        self.feed_list = feed_list
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.use_buffer_reader = use_buffer_reader
        self.reader_buffer_size = reader_buffer_size
        self.prefetch_factor = prefetch_factor
        self.worker_init_fn = worker_init_fn
        self.places = places
        self._device = _device(places)
        assert num_workers >= 0, "num_workers should be a non-negative value"
        self.num_workers = num_workers
        assert prefetch_factor > 0, "prefetch_factor should be a positive value"
        self.use_shared_memory = use_shared_memory and num_workers > 0
        assert timeout >= 0, "timeout should be a non-negative value"
        self.timeout = timeout
        self._persistent_workers = persistent_workers
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError(f"IterableDataset not support shuffle, but got shuffle={shuffle}")
            if batch_sampler is not None:
                raise ValueError("IterableDataset expect unspecified batch_sampler")
        if batch_sampler is not None:
            assert batch_size == 1 and not shuffle and not drop_last, (
                "batch_size/shuffle/drop_last should not be set when batch_sampler is given"
            )
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            assert batch_size > 0, (
                "batch_size should be None or a positive value when batch_sampler is not given"
            )
            self.batch_size = batch_size
            if self._iterable:
                self.batch_sampler = _InfiniteIterableSampler(dataset, batch_size)
            else:
                self.batch_sampler = BatchSampler(
                    dataset=dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last
                )
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None
        self.pin_memory = False

    def __len__(self) -> int:
        if self._iterable:
            raise ValueError("length of IterableDataset not supported")
        if self.auto_collate_batch:
            return len(self.batch_sampler)
        return len(self.dataset)

    def __iter__(self) -> _LoaderIter:
        return _LoaderIter(self)

    def __call__(self) -> _LoaderIter:
        return self.__iter__()


class _LoaderIter:
    """One pass over a DataLoader."""

    def __init__(self, loader: DataLoader):
        self._loader = loader
        self._batch_sampler = loader.batch_sampler
        auto = loader.auto_collate_batch
        if auto:
            index_sampler = loader.batch_sampler
        elif loader._iterable:
            index_sampler = _InfiniteIterableSampler(loader.dataset, 1)
        else:
            index_sampler = range(len(loader.dataset))
        self._sampler_iter = iter(index_sampler)
        if loader.collate_fn is not None:
            self._collate = loader.collate_fn
        else:
            self._collate = loader_collate_fn if auto else default_convert_fn
        self._fast_tensor_dataset = (
            auto
            and loader.collate_fn is None
            and type(loader.dataset) is TensorDataset
            and all(isinstance(t, Tensor) for t in loader.dataset.tensors)
        )
        n = loader.num_workers
        self._workers: list[WorkerInfo | None] = [None]
        if n > 0:
            base_seed = int(np.random.randint(low=0, high=sys.maxsize))  # as Paddle draws it
            self._workers = [
                WorkerInfo(id=i, num_workers=n, dataset=loader.dataset, seed=base_seed)
                for i in range(n)
            ]
            for info in self._workers:
                if loader.worker_init_fn is not None:
                    with _as_worker(info):
                        loader.worker_init_fn(info.id)
        self._dataset_iters: list = []
        if loader._iterable:
            for info in self._workers:
                with _as_worker(info):
                    self._dataset_iters.append(iter(loader.dataset))
        self._active = list(range(len(self._workers)))
        self._turn = 0
        self._done = False

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self._batch_sampler)

    def _fetch_map(self, indices):
        ds = self._loader.dataset
        if self._fast_tensor_dataset:
            return self._gather_tensor_dataset(ds, indices)
        if self._loader.auto_collate_batch:
            data = [ds[i] for i in indices]
        else:
            data = ds[indices]
        return self._collate(data)

    @staticmethod
    def _gather_tensor_dataset(ds, indices):
        """TensorDataset + default collate: one gather per tensor instead of one slice per
        sample and a stack."""
        import jax.numpy as jnp

        idx = np.asarray(indices, dtype=np.int64)
        return [Tensor(jnp.take(t._value, idx, axis=0)) for t in ds.tensors]

    def _fetch_iterable(self, it, indices):
        if self._loader.auto_collate_batch:
            data = []
            for _ in indices:
                try:
                    data.append(next(it))
                except StopIteration:
                    break
            if not data or (self._loader.drop_last and len(data) < len(indices)):
                raise StopIteration
        else:
            data = next(it)
        return self._collate(data)

    def _next_batch(self):
        loader = self._loader
        if not loader._iterable:
            indices = next(self._sampler_iter)
            info = self._workers[self._turn % len(self._workers)]
            self._turn += 1
            with _as_worker(info):
                return self._fetch_map(indices)
        while self._active:  # IterableDataset: round-robin over workers that still have data
            pos = self._turn % len(self._active)
            w = self._active[pos]
            indices = next(self._sampler_iter)
            try:
                with _as_worker(self._workers[w]):
                    batch = self._fetch_iterable(self._dataset_iters[w], indices)
            except StopIteration:
                del self._active[pos]
                continue
            self._turn = pos + 1
            return batch
        raise StopIteration

    def __next__(self):
        if self._done:
            raise StopIteration
        with reader_span(self._loader):  # paddle.profiler: reader cost, Dataloader events
            try:
                batch = self._next_batch()
            except StopIteration:
                self._done = True
                raise
            return to_loader_output(batch, self._loader._device)
