"""The DataLoader worker process: reads jobs and index batches from the main process and
answers with collated batches (``python -c`` entry point, see ``_io/workers.py``).

Messages in (pickled): ``("start", worker_id, job)`` where ``job`` is cloudpickled (the
dataset, collate_fn, worker_init_fn and seeds), ``("fetch", idx, indices)``, ``("resume",)``
(a new epoch of persistent workers) and ``("end",)`` (the job is over; wait for the next).
Messages out: ``("batch", ...)`` (``_transport.send_batch``), ``("stop", worker_id)`` when an
IterableDataset's iterator ends, ``("error", idx, exc_type, text)``.

Seeding follows Paddle's workers: ``random.seed(base + id)``, ``paddle.seed(base + id)`` and
numpy seeded with the SeedSequence words of ``(id, base)``.
"""

from __future__ import annotations

import pickle
import queue
import random
import sys
import threading
import traceback
from multiprocessing.connection import Connection

IDLE_EXIT_S = 300.0


def worker_seeds(base_seed: int, worker_id: int) -> list[int]:
    """The four 32-bit words Paddle's worker seeds numpy with (a SeedSequence of the id and
    the base seed's two halves)."""
    import numpy as np

    entropy = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]
    return np.random.SeedSequence(entropy, pool_size=4).generate_state(4).tolist()


class _Job:
    """One worker's share of one DataLoader pass (or of every pass, with persistent workers)."""

    def __init__(self, worker_id: int, blob: bytes) -> None:
        import cloudpickle
        import numpy as np

        import paddle_compat as paddle

        from . import dataloader
        from .fetcher import Fetcher

        self.worker_id = worker_id
        self.drained = False
        self.init_error = None
        try:  # e.g. a module the dataset's class lives in cannot be imported here
            self.spec = spec = cloudpickle.loads(blob)
        except Exception:
            self.init_error = sys.exc_info()
            return
        paddle.set_default_dtype(spec["default_dtype"])
        if spec.get("image_backend"):
            paddle.vision.set_image_backend(spec["image_backend"])
        seed = spec["base_seed"] + worker_id
        random.seed(seed)
        paddle.seed(seed)
        np.random.seed(worker_seeds(spec["base_seed"], worker_id))
        dataloader._set_worker_info(
            dataloader.WorkerInfo(
                id=worker_id,
                num_workers=spec["num_workers"],
                dataset=spec["dataset"],
                seed=spec["base_seed"],
            )
        )
        self._make_fetcher = lambda drop_last: Fetcher(
            spec["dataset"], spec["iterable"], spec["auto_collate"], spec["collate_fn"], drop_last
        )
        try:
            if spec["worker_init_fn"] is not None:
                spec["worker_init_fn"](worker_id)
            self.fetcher = self._make_fetcher(spec["drop_last"])
        except Exception:
            self.init_error = sys.exc_info()

    def resume(self) -> None:
        self.drained = False
        self.fetcher = self._make_fetcher(self.spec["drop_last"])


def _send_error(conn: Connection, idx: int, exc_info) -> None:
    """The exception's class goes back by cloudpickle (one defined in the main process's
    ``__main__`` comes back as itself), else as RuntimeError; its name and traceback as text."""
    import cloudpickle

    exc_type = exc_info[0]
    text = "".join(traceback.format_exception(*exc_info))
    try:
        blob = cloudpickle.dumps(("error", idx, exc_type, text, exc_type.__name__))
    except Exception:
        blob = pickle.dumps(("error", idx, RuntimeError, text, exc_type.__name__))
    conn.send_bytes(blob)


def _serve(job: _Job, conn_out: Connection, idx: int, indices) -> None:
    from ._transport import send_batch

    if job.init_error is not None:
        _send_error(conn_out, idx, job.init_error)
        return
    if job.drained:
        return
    try:
        batch = job.fetcher.fetch(indices)
    except StopIteration:
        if not job.spec["iterable"]:
            _send_error(conn_out, idx, sys.exc_info())
            return
        job.drained = True
        conn_out.send_bytes(pickle.dumps(("stop", job.worker_id)))
        return
    except Exception:
        _send_error(conn_out, idx, sys.exc_info())
        return
    try:
        send_batch(conn_out, idx, batch, job.spec["use_shared_memory"], job.spec["owner_pid"])
    except Exception:  # e.g. an object in the batch that cannot be pickled
        _send_error(conn_out, idx, sys.exc_info())


def main(read_fd: int, write_fd: int) -> None:
    """Serve until the main process closes the pipe (it exited or stopped this worker)."""
    try:
        _loop(read_fd, write_fd)
    except (BrokenPipeError, KeyboardInterrupt):  # the main process is gone or stopping us
        pass


def _reader(conn_in: Connection, inbox: queue.SimpleQueue) -> None:
    """Drain the main process's messages as they come, so that its sends never wait on this
    worker while the worker waits on the main process to read a large batch (pipes hold
    64 KiB). ``None`` marks the end of the pipe."""
    try:
        while True:
            inbox.put(conn_in.recv_bytes())
    except (EOFError, OSError):
        inbox.put(None)


def _loop(read_fd: int, write_fd: int) -> None:
    conn_in, conn_out = Connection(read_fd, writable=False), Connection(write_fd, readable=False)
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    threading.Thread(target=_reader, args=(conn_in, inbox), daemon=True).start()
    job: _Job | None = None
    while True:
        try:
            raw = inbox.get(timeout=IDLE_EXIT_S) if job is None else inbox.get()
        except queue.Empty:
            return
        if raw is None:
            return
        msg = pickle.loads(raw)
        kind = msg[0]
        if kind == "fetch":
            _serve(job, conn_out, msg[1], msg[2])
        elif kind == "start":  # the job's cloudpickled spec follows as its own message
            blob = inbox.get()
            if blob is None:
                return
            sys.path.extend(p for p in msg[2] if p not in sys.path)
            job = _Job(msg[1], blob)
        elif kind == "resume":
            job.resume()
        elif kind == "end":
            from . import dataloader

            job = None
            dataloader._set_worker_info(None)
