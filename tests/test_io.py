"""paddle.io behaviour the goldens (tests/cases/io_data.py) cannot express: transfers per batch,
the in-process worker fallback, RNG sources, environment-driven ranks, deliberate differences from Paddle."""

from __future__ import annotations

import threading

import jax
import numpy as np
import pytest

import paddle
from paddle_compat._io import collate as collate_mod
from paddle_compat._io.dataloader import WorkerInfo


class _Fn(paddle.io.Dataset):
    def __init__(self, fn, n=6):
        self.fn, self.n = fn, n

    def __getitem__(self, i):
        return self.fn(i)

    def __len__(self):
        return self.n


def test_one_device_transfer_per_batch(monkeypatch):
    calls = []
    real = jax.device_put
    monkeypatch.setattr(
        collate_mod.jax, "device_put", lambda x, *a, **k: calls.append(x) or real(x, *a, **k)
    )

    def sample(i):
        return {"img": np.ones([3, 2], "float32") * i, "label": i, "extra": [np.zeros(1), float(i)]}

    loader = paddle.io.DataLoader(_Fn(sample), batch_size=4)
    batches = list(loader)
    assert len(batches) == 2 and len(calls) == 2  # one device_put per batch
    assert all(isinstance(c, list) and len(c) == 4 for c in calls)  # all arrays at once
    assert batches[0]["img"].shape == [4, 3, 2] and batches[1]["label"].tolist() == [4, 5]


def test_outputs_are_detached_tensors():
    w = paddle.to_tensor([1.0], stop_gradient=False)
    loader = paddle.io.DataLoader(_Fn(lambda i: w * i, 4), batch_size=2)
    for b in loader:
        assert isinstance(b, paddle.Tensor) and b.stop_gradient and b.shape == [2, 1]


def test_tensor_dataset_fast_path_matches_per_sample_collation():
    x = paddle.to_tensor(np.arange(20, dtype="float32").reshape(10, 2))
    y = paddle.to_tensor(np.arange(10))
    ds = paddle.io.TensorDataset([x, y])
    np.random.seed(0)
    fast = list(paddle.io.DataLoader(ds, batch_size=4, shuffle=True))
    np.random.seed(0)
    slow = list(
        paddle.io.DataLoader(
            ds, batch_size=4, shuffle=True, collate_fn=paddle.io.default_collate_fn
        )
    )
    assert len(fast) == len(slow) == 3
    for f, s in zip(fast, slow):
        assert [t.tolist() for t in f] == [t.tolist() for t in s]
        assert [t.dtype for t in f] == [t.dtype for t in s]


def test_string_only_batches_are_yielded():
    # Deliberate difference: Paddle's loader silently yields nothing for batches without any
    # array (its blocking queue carries tensors only); here the batch comes out as collated.
    loader = paddle.io.DataLoader(_Fn(lambda i: f"s{i}", 3), batch_size=2)
    assert list(loader) == [["s0", "s1"], ["s2"]]


def test_unpicklable_dataset_falls_back_to_in_process_workers():
    seen, inits = [], []

    def sample(i):
        info = paddle.io.get_worker_info()
        seen.append((i, info.id, info.num_workers))
        return np.array([i])

    ds = _Fn(sample, 6)
    ds.lock = threading.Lock()  # cannot be pickled: the workers' schedule runs here
    loader = paddle.io.DataLoader(
        ds,
        batch_size=2,
        num_workers=3,
        worker_init_fn=lambda wid: inits.append(paddle.io.get_worker_info().id == wid and wid),
    )
    with pytest.warns(UserWarning, match="cannot be sent to worker processes"):
        out = [b.numpy().ravel().tolist() for b in loader]
    assert out == [[0, 1], [2, 3], [4, 5]]
    assert [w for _, w, _ in seen] == [0, 0, 1, 1, 2, 2]
    assert inits == [0, 1, 2] or inits == [False, 1, 2]  # wid 0 is falsy
    assert paddle.io.get_worker_info() is None


def test_worker_info_is_read_only():
    info = WorkerInfo(id=0, num_workers=1, dataset=None, seed=1)
    with pytest.raises(RuntimeError, match="Cannot assign"):
        info.id = 3


def test_subset_random_sampler_and_random_split_follow_paddle_seed():
    def draw():
        paddle.seed(123)
        a = list(paddle.io.SubsetRandomSampler([10, 11, 12, 13, 14]))
        b = [list(s) for s in paddle.io.random_split(range(8), [3, 5])]
        return a, b

    first, second = draw(), draw()
    assert first == second
    assert sorted(first[0]) == [10, 11, 12, 13, 14]
    assert sorted(first[1][0] + first[1][1]) == list(range(8))


def test_distributed_batch_sampler_reads_rank_from_env(monkeypatch):
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "2")
    monkeypatch.setenv("PADDLE_TRAINER_ID", "1")
    s = paddle.io.DistributedBatchSampler(_Fn(lambda i: i, 7), batch_size=2)
    assert (s.nranks, s.local_rank) == (2, 1)
    assert list(s) == [[2, 3], [6, 0]]
    monkeypatch.delenv("PADDLE_TRAINERS_NUM")
    monkeypatch.delenv("PADDLE_TRAINER_ID")
    s = paddle.io.DistributedBatchSampler(_Fn(lambda i: i, 7), batch_size=2)
    assert (s.nranks, s.local_rank) == (1, 0) and len(s) == 4


def test_loader_is_reusable_and_callable():
    loader = paddle.io.DataLoader(
        _Fn(lambda i: np.array([i]), 5), batch_size=2, places=paddle.CPUPlace()
    )
    it = iter(loader)
    assert len(it) == 3
    assert [b.numpy().ravel().tolist() for b in it] == [[0, 1], [2, 3], [4]]
    with pytest.raises(StopIteration):
        next(it)
    assert len(list(loader())) == 3 and len(list(loader)) == 3
    assert next(iter(loader)).place == paddle.CPUPlace()


def test_iterable_dataset_workers_round_robin():
    class Dup(paddle.io.IterableDataset):  # not sharded: every worker yields everything
        def __iter__(self):
            yield from (np.array([i]) for i in range(3))

    out = [
        b.numpy().ravel().tolist() for b in paddle.io.DataLoader(Dup(), batch_size=2, num_workers=2)
    ]
    assert out == [[0, 1], [0, 1], [2], [2]]


def test_public_names():
    for name in (
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
        "default_collate_fn",
    ):
        assert hasattr(paddle.io, name), name
    from paddle.io.dataloader.collate import default_collate_fn, default_convert_fn  # noqa: F401
