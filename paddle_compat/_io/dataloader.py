"""paddle.io.DataLoader, get_worker_info.

With ``num_workers=0`` batches are built in the calling process: samples are fetched, collated
on the host with numpy (Tensors are stacked on device), and every array of a batch goes to the
device in one transfer. With ``num_workers > 0`` worker processes fetch and collate
(``_io/workers.py``); if the dataset cannot be sent to them (it cannot be pickled), the loader
warns and runs the workers' schedule in this process instead: batch ``k`` is fetched "by"
worker ``k % num_workers``, an IterableDataset gets one iterator per worker, ``worker_init_fn``
runs here and no RNG is reseeded.
"""

from __future__ import annotations

import contextlib
import copy
import sys
import threading
import warnings
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np

from .._core import segment_store
from .._core.tensor import Tensor, to_device
from ..profiler._events import reader_span
from .collate import to_loader_output
from .dataset import Dataset, IterableDataset, TensorDataset
from .fetcher import Fetcher
from .sampler import BatchSampler, _InfiniteIterableSampler

__all__ = ["DataLoader", "get_worker_info", "WorkerInfo"]


@jax.jit
def _take_rows(values, index):
    """A batch of a TensorDataset's rows."""
    return jnp.take(values, index, axis=0)


segment_store.note(_take_rows, "io.take_rows")


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


_process_info: WorkerInfo | None = None  # set in a worker process, for all its threads


def get_worker_info() -> WorkerInfo | None:
    """Inside a DataLoader worker: its ``WorkerInfo`` (id, num_workers, dataset, seed);
    ``None`` in the main process."""
    info = getattr(_local, "info", None)
    return info if info is not None else _process_info


def _set_worker_info(info: WorkerInfo | None) -> None:
    """A worker process's info (every thread of the process sees it, as in Paddle)."""
    global _process_info
    _process_info = info


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
    ``np.random.seed(s)`` gives real Paddle's exact order. ``num_workers > 0`` starts worker
    processes (fresh interpreters, not forks: see ``_io/workers.py``) that keep
    ``prefetch_factor * num_workers`` batches in flight; ``persistent_workers`` keeps them
    between passes, ``use_shared_memory`` hands large arrays over through ``/dev/shm``. As in
    Paddle, ``timeout`` only sets how often a waiting loader checks its workers (a slow worker
    is waited for). ``use_buffer_reader`` and ``reader_buffer_size`` have no effect. With
    ``return_list=False`` and a ``feed_list`` of static Variables each batch is
    ``[{variable name: tensor}]`` (a feed for ``Executor.run``), as in Paddle.

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
        self._iterator = None  # persistent workers' iterator

    def __len__(self) -> int:
        if self._iterable:
            raise ValueError("length of IterableDataset not supported")
        if self.auto_collate_batch:
            return len(self.batch_sampler)
        return len(self.dataset)

    def __iter__(self):
        if not self.return_list and self.feed_list:  # static mode: [{feed name: batch}]
            names = [v.name for v in self.feed_list]
            return ([dict(zip(names, b if isinstance(b, list | tuple) else [b]))]
                    for b in self._iter_batches())  # fmt: skip
        return self._iter_batches()

    def _iter_batches(self):
        if self.num_workers == 0 or _tensor_dataset_fast_path(self):
            return _LoaderIter(self)
        from . import workers

        if self._persistent_workers and self._iterator is not None and self._iterator.reusable:
            self._iterator.reset()
            return self._iterator
        try:
            it = workers.MultiProcessIter(self, _index_sampler(self))
        except workers.WorkerFailed as e:
            warnings.warn(
                f"DataLoader: the dataset, collate_fn or worker_init_fn cannot be sent to "
                f"worker processes ({e}); loading in the main process instead",
                stacklevel=2,
            )
            return _LoaderIter(self)
        if self._persistent_workers:
            self._iterator = it
        return it

    def __call__(self):
        return self.__iter__()


def _worker_copy(dataset):
    """Each in-process "worker" gets its own copy of the dataset, as each of Paddle's forked
    workers does (a ``worker_init_fn`` that shards it changes only its copy): deep if it can
    be, else shallow (the dataset could not be pickled, and may not deep-copy either)."""
    try:
        return copy.deepcopy(dataset)
    except Exception:  # noqa: BLE001 - locks, files, generators
        try:
            return copy.copy(dataset)
        except Exception:  # noqa: BLE001
            return dataset


def _index_sampler(loader: DataLoader):
    if loader.auto_collate_batch:
        return loader.batch_sampler
    if loader._iterable:
        return _InfiniteIterableSampler(loader.dataset, 1)
    return range(len(loader.dataset))


def _tensor_dataset_fast_path(loader: DataLoader) -> bool:
    """A TensorDataset with the default collate: batches are device gathers, done here whatever
    ``num_workers`` says (no user code runs, so nothing can tell)."""
    return (
        loader.auto_collate_batch
        and loader.collate_fn is None
        and loader.worker_init_fn is None
        and type(loader.dataset) is TensorDataset
        and all(isinstance(t, Tensor) for t in loader.dataset.tensors)
    )


class _LoaderIter:
    """One pass over a DataLoader in this process (``num_workers=0``, or the fallback that runs
    the workers' schedule here)."""

    def __init__(self, loader: DataLoader):
        self._loader = loader
        self._index_sampler = _index_sampler(loader)
        self._sampler_iter = iter(self._index_sampler)
        self._fast_tensor_dataset = _tensor_dataset_fast_path(loader)
        n = loader.num_workers
        self._workers: list[WorkerInfo | None] = [None]
        if n > 0 and not self._fast_tensor_dataset:
            base_seed = int(np.random.randint(low=0, high=sys.maxsize))  # as Paddle draws it
            self._workers = [
                WorkerInfo(
                    id=i, num_workers=n, dataset=_worker_copy(loader.dataset), seed=base_seed
                )
                for i in range(n)
            ]
            for info in self._workers:
                if loader.worker_init_fn is not None:
                    with _as_worker(info):
                        loader.worker_init_fn(info.id)
        self._fetchers: list[Fetcher] = []
        for info in self._workers:
            with _as_worker(info):
                self._fetchers.append(
                    Fetcher(
                        loader.dataset if info is None else info.dataset,
                        loader._iterable,
                        loader.auto_collate_batch,
                        loader.collate_fn,
                        loader.drop_last,
                    )
                )
        self._active = list(range(len(self._workers)))
        self._turn = 0
        self._done = False

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self._index_sampler)

    @staticmethod
    def _gather_tensor_dataset(ds, indices):
        """TensorDataset + default collate: one gather per tensor instead of one slice per
        sample and a stack (a kernel read from the segment store in a warm process)."""
        idx = to_device(np.asarray(indices, dtype=np.int64), owned=True)
        return [Tensor(segment_store.call(_take_rows, [t._value, idx])) for t in ds.tensors]

    def _next_batch(self):
        loader = self._loader
        if not loader._iterable:
            indices = next(self._sampler_iter)
            if self._fast_tensor_dataset:
                return self._gather_tensor_dataset(loader.dataset, indices)
            w = self._turn % len(self._workers)
            self._turn += 1
            with _as_worker(self._workers[w]):
                return self._fetchers[w].fetch(indices)
        while self._active:  # IterableDataset: round-robin over workers that still have data
            pos = self._turn % len(self._active)
            w = self._active[pos]
            indices = next(self._sampler_iter)
            try:
                with _as_worker(self._workers[w]):
                    batch = self._fetchers[w].fetch(indices)
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
