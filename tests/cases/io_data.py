"""paddle.io: DataLoader batching and collation dtypes, samplers, datasets (goldens from real
Paddle). Shuffles are seeded with np.random.seed: Paddle's samplers draw from numpy's global RNG."""

import numpy as np
from _util import expect_error

import paddle


class _Fn(paddle.io.Dataset):
    def __init__(self, fn, n=5):
        self.fn, self.n = fn, n

    def __getitem__(self, i):
        return self.fn(i)

    def __len__(self):
        return self.n


class _Stream(paddle.io.IterableDataset):
    def __init__(self, n=5):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield np.array([i, -i], "float32"), i


class _ShardedStream(paddle.io.IterableDataset):
    def __iter__(self):
        info = paddle.io.get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(wid, 10, nw):
            yield np.array([i], "int64")


def _batches(loader):
    return [b for b in loader]


SAMPLES = {
    "tuple_np_int": lambda i: (np.full([2], i, "float32"), i),
    "float": lambda i: float(i) / 2,
    "bool": lambda i: bool(i % 2),
    "np_scalar": lambda i: np.float32(i),
    "np_int32": lambda i: np.array([i], "int32"),
    "np_f64_0d": lambda i: np.array(i * 0.5),
    "dict": lambda i: {"x": np.ones([2], "float32") * i, "y": i, "s": f"a{i}"},
    "tensor": lambda i: paddle.to_tensor([float(i)]),
    "nested": lambda i: [np.zeros([1]), [i, float(i)], {"k": np.int64(i)}],
    "tensor_tuple": lambda i: (paddle.to_tensor([i]), paddle.to_tensor(float(i))),
    "uint16_is_bf16": lambda i: np.array([16256 + i], np.uint16),
    "int8_u8": lambda i: (np.array([i], "int8"), np.array([i], "uint8")),
}


def case_collate_dtypes():
    out = {k: next(iter(paddle.io.DataLoader(_Fn(f), batch_size=2))) for k, f in SAMPLES.items()}
    b = out["uint16_is_bf16"]  # Paddle's numpy() of bfloat16 gives raw bits: compare as float32
    out["uint16_is_bf16"] = [str(b.dtype), b.astype("float32")]
    return out


def case_len_and_drop_last():
    out = []
    for n, bs, dl in [
        (5, 2, False),
        (5, 2, True),
        (5, 5, False),
        (5, 6, True),
        (5, 6, False),
        (1, 1, False),
    ]:
        loader = paddle.io.DataLoader(_Fn(lambda i: np.array([i]), n), batch_size=bs, drop_last=dl)
        out.append([len(loader), _batches(loader)])
    return out


def case_shuffle_numpy_seed():
    np.random.seed(3)
    loader = paddle.io.DataLoader(_Fn(lambda i: np.array([i]), 7), batch_size=3, shuffle=True)
    first = _batches(loader)
    second = _batches(loader)  # a new order each epoch
    np.random.seed(3)
    again = _batches(loader)
    return [first, second, again, len(loader)]


def case_shuffle_drop_last():
    np.random.seed(11)
    loader = paddle.io.DataLoader(
        _Fn(lambda i: (np.array([i]), i), 10), batch_size=4, shuffle=True, drop_last=True
    )
    return [len(loader), _batches(loader)]


def case_batch_size_none():
    return [
        _batches(paddle.io.DataLoader(_Fn(lambda i: np.array([i, i]), 3), batch_size=None)),
        len(paddle.io.DataLoader(_Fn(lambda i: np.array([i]), 3), batch_size=None)),
        _batches(paddle.io.DataLoader(_Stream(2), batch_size=None)),
    ]


def case_iterable_dataset():
    return [
        _batches(paddle.io.DataLoader(_Stream(5), batch_size=2)),
        _batches(paddle.io.DataLoader(_Stream(5), batch_size=2, drop_last=True)),
        _batches(paddle.io.DataLoader(_Stream(4), batch_size=2, drop_last=True)),
    ]


def case_tensor_dataset():
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(6, 2))
    y = paddle.to_tensor([1, 2, 3, 4, 5, 6])
    ds = paddle.io.TensorDataset([x, y])
    np.random.seed(5)
    return [
        len(ds),
        list(ds[4]),
        _batches(paddle.io.DataLoader(ds, batch_size=4)),
        _batches(paddle.io.DataLoader(ds, batch_size=4, shuffle=True)),
    ]


def case_batch_sampler():
    ds = _Fn(lambda i: i, 7)
    bs = paddle.io.BatchSampler(ds, batch_size=3)
    np.random.seed(1)
    shuffled = list(paddle.io.BatchSampler(ds, batch_size=3, shuffle=True))
    loader = paddle.io.DataLoader(
        _Fn(lambda i: np.array([i]), 7), batch_sampler=paddle.io.BatchSampler(ds, batch_size=4)
    )
    return [
        list(bs),
        len(bs),
        list(paddle.io.BatchSampler(ds, batch_size=3, drop_last=True)),
        len(paddle.io.BatchSampler(ds, batch_size=3, drop_last=True)),
        list(paddle.io.BatchSampler(sampler=paddle.io.SequenceSampler(range(5)), batch_size=2)),
        shuffled,
        len(loader),
        _batches(loader),
    ]


def case_distributed_batch_sampler():
    out = []
    for n, bs, nr, rank, shuffle, dl in [
        (7, 2, 2, 1, True, False),
        (7, 2, 2, 0, False, False),
        (10, 3, 3, 2, True, True),
        (7, 2, None, None, False, False),
        (5, 2, 4, 3, False, False),
    ]:
        s = paddle.io.DistributedBatchSampler(
            _Fn(lambda i: i, n),
            batch_size=bs,
            num_replicas=nr,
            rank=rank,
            shuffle=shuffle,
            drop_last=dl,
        )
        e0 = list(s)
        e1 = list(s)
        s.set_epoch(5)
        out.append([e0, e1, list(s), len(s), s.nranks, s.local_rank, s.num_samples, s.total_size])
    return out


def case_samplers():
    np.random.seed(0)
    rs = list(paddle.io.RandomSampler(range(6)))
    rs_rep = list(paddle.io.RandomSampler(range(6), replacement=True, num_samples=4))
    w = np.array([0.1, 0.2, 0.3, 0.4])
    wrs = list(paddle.io.WeightedRandomSampler(w, 5))
    wrs_norep = list(paddle.io.WeightedRandomSampler(w, 3, replacement=False))
    gen = list(paddle.io.RandomSampler(range(6), generator=iter([5, 4, 3]), num_samples=2))
    return [
        rs,
        rs_rep,
        wrs,
        wrs_norep,
        gen,
        list(paddle.io.SequenceSampler([7, 8, 9])),
        len(paddle.io.RandomSampler(range(6), replacement=True, num_samples=9)),
        len(paddle.io.WeightedRandomSampler(w, 5)),
        sorted(paddle.io.SubsetRandomSampler([1, 3, 5])),
        len(paddle.io.SubsetRandomSampler([1, 3, 5])),
    ]


def case_datasets():
    cd = paddle.io.ComposeDataset(
        [_Fn(lambda i: (np.array([i]), i), 3), _Fn(lambda i: ("x", i * 2), 3)]
    )
    cc = paddle.io.ConcatDataset([list(range(3)), list(range(10, 12))])
    sub = paddle.io.Subset(list(range(10)), [2, 4, 6])
    chain = paddle.io.ChainDataset([_Stream(2), _Stream(1)])
    paddle.seed(5)
    parts = paddle.io.random_split(range(10), [3, 7])
    fparts = paddle.io.random_split(range(10), [0.25, 0.75])
    return [
        len(cd),
        list(cd[1]),
        len(cc),
        [cc[i] for i in range(5)],
        cc[-1],
        cc.cumulative_sizes,
        list(sub),
        len(sub),
        [list(x) for x in chain],
        [len(p) for p in parts],
        sorted(list(parts[0]) + list(parts[1])),
        [len(p) for p in fparts],
        paddle.io.get_worker_info(),
    ]


def case_default_collate_fn():
    f = paddle.io.dataloader.collate.default_collate_fn
    return [
        f([(1, 2.0, True), (3, 4.0, False)]),
        f([{"a": np.ones(2, "float32"), "b": "s"}, {"a": np.zeros(2, "float32"), "b": "t"}]),
        f([paddle.to_tensor([1.0]), paddle.to_tensor([2.0])]),
        f([[np.int32(1), [2]], [np.int32(3), [4]]]),
    ]


def case_custom_collate_output():
    def collate(samples):
        return {
            "x": np.stack(samples),
            "n": len(samples),
            "np_scalar": np.float32(2.5),
            "t": (np.array(1), "s"),
        }

    return next(
        iter(
            paddle.io.DataLoader(
                _Fn(lambda i: np.array([i], "float32")), batch_size=3, collate_fn=collate
            )
        )
    )


def case_num_workers():
    np.random.seed(4)
    shuffled = _batches(
        paddle.io.DataLoader(
            _Fn(lambda i: np.array([i]), 6), batch_size=2, shuffle=True, num_workers=2
        )
    )
    plain = _batches(
        paddle.io.DataLoader(_Fn(lambda i: np.array([i]), 5), batch_size=2, num_workers=2)
    )
    sharded = _batches(paddle.io.DataLoader(_ShardedStream(), batch_size=2, num_workers=2))
    return [shuffled, plain, sharded]


class _WorkerDraws(paddle.io.Dataset):
    """Each sample reports its worker and draws from the three RNGs Paddle's workers reseed."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        import random

        info = paddle.io.get_worker_info()
        draws = [np.random.randint(0, 1000), random.randint(0, 1000)]
        draws.append(paddle.randint(0, 1000, [1]).item())
        return np.array([i, info.id, info.num_workers, info.seed % 1000, *draws])


class _WorkerStream(paddle.io.IterableDataset):
    """Unsharded: every worker yields all of it (5 samples, a partial last batch)."""

    def __iter__(self):
        import random

        for i in range(5):
            yield np.array([i, paddle.io.get_worker_info().id, random.randint(0, 99)])


def case_worker_processes():
    """Worker processes: which worker fetches which batch, WorkerInfo, and the seeds Paddle gives
    each worker's random, numpy and paddle RNGs (base seed drawn from numpy's global RNG);
    persistent workers keep their RNG streams. (Paddle 3.3.1 hangs with persistent workers on an
    IterableDataset, so that is tested in tests/test_dataloader_workers.py instead.)"""
    np.random.seed(5)
    ds = _WorkerDraws()
    fresh = paddle.io.DataLoader(ds, batch_size=2, num_workers=2)
    kept = paddle.io.DataLoader(ds, batch_size=3, num_workers=3, persistent_workers=True)
    stream = paddle.io.DataLoader(_WorkerStream(), batch_size=2, num_workers=2)
    return [
        _batches(fresh),
        _batches(fresh),
        _batches(kept),
        _batches(kept),
        _batches(stream),
        _batches(stream),
        _batches(paddle.io.DataLoader(ds, batch_size=None, num_workers=2)),
    ]


def case_errors():
    ds = _Fn(lambda i: i, 4)
    return [
        expect_error(lambda: len(paddle.io.DataLoader(_Stream(), batch_size=2))),
        expect_error(lambda: paddle.io.DataLoader(_Stream(), batch_size=2, shuffle=True)),
        expect_error(
            lambda: paddle.io.DataLoader(ds, batch_size=3, batch_sampler=paddle.io.BatchSampler(ds))
        ),
        expect_error(lambda: paddle.io.DataLoader(ds, batch_size=0)),
        expect_error(lambda: paddle.io.Dataset()[0]),
        expect_error(lambda: len(paddle.io.Dataset())),
        expect_error(lambda: _Stream()[0]),
        expect_error(lambda: paddle.io.RandomSampler(range(3), num_samples=5)),
        expect_error(lambda: paddle.io.RandomSampler(range(3), replacement=1)),
        expect_error(lambda: paddle.io.SubsetRandomSampler([])),
        expect_error(lambda: paddle.io.WeightedRandomSampler([1.0], 0)),
        expect_error(lambda: paddle.io.random_split(range(5), [2, 2])),
        expect_error(lambda: paddle.io.dataloader.collate.default_collate_fn([[1, 2], [3]])),
        expect_error(lambda: paddle.io.dataloader.collate.default_collate_fn([object()])),
        expect_error(lambda: paddle.io.ConcatDataset([[1, 2]])[-3]),
        expect_error(lambda: paddle.io.BatchSampler(ds, batch_size=0)),
        expect_error(
            lambda: paddle.io.BatchSampler(ds, shuffle=True, sampler=paddle.io.SequenceSampler(ds))
        ),
    ]
