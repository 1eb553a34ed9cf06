"""DataLoader worker processes (num_workers > 0): order, errors, crashes, persistence,
Tensors made in workers, shared memory and leaks. Paddle's own numbers (which worker fetches
which batch, the seeds of each worker's RNGs) are goldens in tests/cases/io_data.py."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import glob
import os
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import paddle
from paddle_compat._io import _transport, workers


class Squares(paddle.io.Dataset):
    def __init__(self, n=10, shape=(2,)):
        self.n, self.shape = n, shape

    def __getitem__(self, i):
        return np.full(self.shape, i * i, "float32"), np.int64(i)

    def __len__(self):
        return self.n


class Faulty(paddle.io.Dataset):
    """Sample 5 raises, or kills its worker (``exit``), or the worker_init_fn fails."""

    def __init__(self, how):
        self.how = how

    def __getitem__(self, i):
        if i == 5 and self.how == "raise":
            raise KeyError(f"no sample {i}")
        if i == 5 and self.how == "exit":
            os._exit(7)
        return np.array([i])

    def __len__(self):
        return 10


class Pids(paddle.io.Dataset):
    def __getitem__(self, i):
        return np.array([os.getpid(), random.randint(0, 10**6)])

    def __len__(self):
        return 4


class ToTensorDataset(paddle.io.Dataset):
    """Paddle ops inside the worker: a vision transform pipeline ending in Tensors."""

    def __init__(self):
        t = paddle.vision.transforms
        self.tf = t.Compose([t.ToTensor(), t.Normalize(mean=[0.5], std=[0.5])])

    def __getitem__(self, i):
        img = np.full((4, 4, 1), i * 10, np.uint8)
        return self.tf(img), paddle.to_tensor([i]) * 2

    def __len__(self):
        return 6


class Stream(paddle.io.IterableDataset):
    def __iter__(self):
        info = paddle.io.get_worker_info()
        yield from (np.array([info.id, i]) for i in range(3))


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _rows(loader):
    def host(t):
        return (t.numpy() if isinstance(t, paddle.Tensor) else np.asarray(t)).tolist()

    return [[host(t) for t in b] for b in loader]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(batch_size=3),
        dict(batch_size=3, drop_last=True, prefetch_factor=1),
        dict(batch_size=2, shuffle=True),
        dict(batch_size=4, num_workers=3),
        dict(batch_size=None),
        dict(batch_size=2, use_shared_memory=False),
    ],
    ids=["plain", "drop_last", "shuffle", "3_workers", "no_batching", "no_shm"],
)
def test_workers_yield_what_the_main_process_yields(kwargs):
    kwargs = {"num_workers": 2, **kwargs}
    ds = Squares()
    np.random.seed(3)
    got = _rows(paddle.io.DataLoader(ds, **kwargs))
    np.random.seed(3)
    np.random.randint(0, sys.maxsize)  # workers draw their base seed before the shuffle
    want = _rows(paddle.io.DataLoader(ds, **{**kwargs, "num_workers": 0}))
    assert got == want


def test_worker_exception_raises_in_main_process_with_its_traceback():
    start = time.monotonic()
    loader = paddle.io.DataLoader(Faulty("raise"), batch_size=2, num_workers=2)
    seen = []
    with pytest.raises(KeyError, match=r"DataLoader worker\(0\) caught KeyError") as err:
        for b in loader:
            seen.append(b.numpy().ravel().tolist())
    assert time.monotonic() - start < 5
    assert seen == [[0, 1], [2, 3]]  # batches before the failing one arrive in order
    assert "no sample 5" in str(err.value) and "__getitem__" in str(err.value)


def test_worker_init_fn_error_and_crash_are_reported():
    def init(worker_id):
        raise ValueError(f"init {worker_id}")

    loader = paddle.io.DataLoader(Squares(), batch_size=2, num_workers=2, worker_init_fn=init)
    with pytest.raises(ValueError, match=r"caught ValueError with message:(.|\n)*init 0"):
        next(iter(loader))
    start = time.monotonic()
    with pytest.raises(
        SystemError, match=r"1 workers exit unexpectedly, pids: \d+ \(exit code 7\)"
    ):
        list(paddle.io.DataLoader(Faulty("exit"), batch_size=2, num_workers=2))
    assert time.monotonic() - start < 5


def test_persistent_workers_keep_processes_and_rng_streams():
    loader = paddle.io.DataLoader(Pids(), batch_size=2, num_workers=2, persistent_workers=True)
    first, second = _rows(loader), _rows(loader)

    def pids(rows):
        return [batch[0][0] for batch in rows]

    def draws(rows):
        return [row[1] for batch in rows for row in batch]

    assert pids(first) == pids(second)  # the same two processes serve both passes
    assert len(set(pids(first))) == 2
    assert draws(first) != draws(second)  # their RNGs continue instead of being reseeded


def test_persistent_iterable_workers_restart_their_iterators():
    # Paddle 3.3.1 hangs here; each pass yields every worker's stream again.
    loader = paddle.io.DataLoader(Stream(), batch_size=2, num_workers=2, persistent_workers=True)
    want = [[[0, 0], [0, 1]], [[1, 0], [1, 1]], [[0, 2]], [[1, 2]]]
    assert [b.numpy().tolist() for b in loader] == want
    assert [b.numpy().tolist() for b in loader] == want


def test_tensors_made_in_workers_arrive_as_tensors():
    ds = ToTensorDataset()
    got = _rows(paddle.io.DataLoader(ds, batch_size=3, num_workers=2))
    want = _rows(paddle.io.DataLoader(ds, batch_size=3))
    assert got == want
    batch = next(iter(paddle.io.DataLoader(ds, batch_size=3, num_workers=2)))
    assert batch[0].shape == [3, 1, 4, 4] and batch[0].dtype == paddle.float32
    assert batch[0].stop_gradient


def test_breaking_out_stops_the_workers_and_a_new_pass_works():
    loader = paddle.io.DataLoader(Squares(40), batch_size=2, num_workers=2)
    it = iter(loader)
    next(it)
    procs = [w.proc for w in it._workers]
    del it
    for p in procs:
        p.wait(5)  # killed: their in-flight batches are not worth waiting for
    assert len(_rows(loader)) == 20


def test_many_samples_through_shared_memory_leave_nothing_behind():
    """10k samples, 64 KiB each in batches of 8 (each batch array goes through /dev/shm)."""
    if not _transport.shm_available():
        pytest.skip("no /dev/shm")
    ds = Squares(10_000, shape=(128, 128))
    loader = paddle.io.DataLoader(ds, batch_size=8, num_workers=2)

    def fds():  # open descriptors, not counting the two pipes of each idle pooled worker
        return len(os.listdir("/proc/self/fd")) - 2 * len(workers.POOL._idle)

    before = fds()
    seen, rss = 0, []
    for _ in range(3):
        for x, y in loader:
            assert x.numpy()[:, 0, 0].tolist() == (y.numpy().astype("float32") ** 2).tolist()
            seen += len(y)
        rss.append(_rss_bytes())
    assert seen == 30_000
    assert rss[2] - rss[1] < 64 << 20  # a pass moves 640 MB; memory does not grow with it
    assert fds() <= before
    assert not glob.glob(f"{_transport.SHM_DIR}/paddle_compat_dl_{os.getpid()}_*")
    assert len(workers.POOL._idle) <= workers.MAX_IDLE


class _Range(paddle.io.IterableDataset):
    """Paddle's documented sharding example, made unpicklable by a lock."""

    def __init__(self, start, end):
        self.start, self.end = start, end
        self.lock = threading.Lock()

    def __iter__(self):
        yield from (np.array([i]) for i in range(self.start, self.end))


def _shard(worker_id):
    info = paddle.io.get_worker_info()
    ds = info.dataset
    per = -(-(ds.end - ds.start) // info.num_workers)
    ds.start, ds.end = ds.start + info.id * per, min(ds.start + (info.id + 1) * per, ds.end)


def test_the_in_process_fallback_gives_each_worker_its_own_dataset_copy():
    loader = paddle.io.DataLoader(_Range(0, 11), batch_size=2, num_workers=3, worker_init_fn=_shard)
    with pytest.warns(UserWarning, match="cannot be sent to worker processes"):
        got = [b.numpy().ravel().tolist() for b in loader]
    assert got == [[0, 1], [4, 5], [8, 9], [2, 3], [6, 7], [10]]  # real Paddle's output


def test_large_messages_both_ways_do_not_deadlock():
    """Index lists and batches far over a pipe's 64 KiB, with and without /dev/shm."""

    class Scalars(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.float32(i), f"s{i}"

        def __len__(self):
            return 60_000

    for shm in (False, True):
        loader = paddle.io.DataLoader(
            Scalars(), batch_size=20_000, shuffle=True, num_workers=2, use_shared_memory=shm
        )
        sizes = [(len(x), len(s)) for x, s in loader]
        assert sizes == [(20_000, 20_000)] * 3


def test_objects_and_exceptions_of_local_classes_come_back_as_themselves():
    @dataclasses.dataclass
    class Meta:
        name: str

    class Oops(Exception):
        pass

    class Objects(paddle.io.Dataset):
        def __getitem__(self, i):
            if i == 3:
                raise Oops("three")
            return np.array([i]), Meta(f"m{i}")

        def __len__(self):
            return 4

    it = iter(paddle.io.DataLoader(Objects(), batch_size=None, num_workers=2))
    assert [next(it)[1] for _ in range(3)] == [Meta("m0"), Meta("m1"), Meta("m2")]
    with pytest.raises(Oops, match=r"worker\(1\) caught Oops"):
        next(it)


def test_key_errors_read_as_text_and_threads_in_workers_see_worker_info():
    class Lookup(paddle.io.Dataset):
        def __getitem__(self, i):
            if i == 2:
                return {}["missing"]
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                wid = pool.submit(lambda: paddle.io.get_worker_info().id).result()
            return np.array([wid])

        def __len__(self):
            return 4

    it = iter(paddle.io.DataLoader(Lookup(), batch_size=1, num_workers=2))
    assert [next(it).item(), next(it).item()] == [0, 1]
    with pytest.raises(KeyError) as err:
        next(it)
    assert "\n  File " in str(err.value) and "\\n" not in str(err.value)


def test_a_persistent_loader_recovers_from_a_dead_worker_and_an_interrupt(monkeypatch):
    loader = paddle.io.DataLoader(Pids(), batch_size=2, num_workers=2, persistent_workers=True)
    _rows(loader)
    loader._iterator._workers[0].proc.kill()
    with pytest.raises(SystemError, match="workers exit unexpectedly"):
        _rows(loader)
    assert len(_rows(loader)) == 2  # fresh workers

    real, calls = _transport.receive_buffers, []

    def interrupted(conn, layout):  # Ctrl-C while a batch is half read
        if not calls:
            calls.append(1)
            raise KeyboardInterrupt
        return real(conn, layout)

    monkeypatch.setattr(workers._transport, "receive_buffers", interrupted)
    big = paddle.io.DataLoader(Squares(8, shape=(128, 128)), batch_size=2, num_workers=2)
    with pytest.raises(KeyboardInterrupt):
        _rows(big)
    assert len(_rows(big)) == 4


def test_worker_prints_reach_a_redirected_stdout(tmp_path):
    script = tmp_path / "prints.py"
    script.write_text(
        "import numpy as np, paddle\n"
        "class DS(paddle.io.Dataset):\n"
        "    def __getitem__(self, i):\n"
        "        print('getitem', i)\n"
        "        return np.array([i])\n"
        "    def __len__(self):\n"
        "        return 6\n"
        "for b in paddle.io.DataLoader(DS(), batch_size=2, num_workers=2):\n"
        "    pass\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    out = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert sorted(out.stdout.split("\n"))[1:] == [f"getitem {i}" for i in range(6)]
