"""DataLoader worker processes (``num_workers > 0``), on the main process's side.

Paddle forks its workers. A forked child cannot use JAX (its runtime threads do not survive
``fork``, and the child hangs or aborts on its first op), so each worker here is a fresh
interpreter (``python -c``, JAX on CPU only) that receives the dataset, ``collate_fn`` and
``worker_init_fn`` through cloudpickle, which also carries classes defined in ``__main__`` or a
notebook. Scripts need no ``if __name__ == "__main__"`` guard. Fresh interpreters take about a
second to import, so finished workers wait in an idle pool and the next pass reuses them; each
pass still starts each worker from a fresh copy of the dataset, reseeded as Paddle reseeds.

The pass itself follows Paddle's: ``prefetch_factor * num_workers`` index batches in flight,
handed to workers round-robin, batches yielded in sampler order, an IterableDataset's worker
retired when its iterator ends.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
import time
import weakref
from multiprocessing.connection import Connection, wait

import numpy as np

from ..profiler._events import reader_span
from . import _transport
from ._worker_main import IDLE_EXIT_S
from .collate import to_loader_output

POLL_S = 5.0  # how often a blocked receive checks that every worker is alive
MAX_IDLE = 8


def _import_roots() -> list[str]:
    """What a job adds to a worker's ``sys.path``: this process's ``sys.path`` (``''`` as the
    current directory) plus the root each loaded module was imported from, so that a module
    imported before an ``os.chdir`` (or loaded from a file path) imports by name there too."""
    roots = [os.getcwd() if p == "" else p for p in sys.path]
    for name, mod in sys.modules.copy().items():
        f = getattr(mod, "__file__", None)
        if not f or name.startswith(("_", "paddle_compat", "jax", "numpy")):
            continue
        root = os.path.dirname(os.path.abspath(f))
        if os.path.basename(f) == "__init__.py":
            root = os.path.dirname(root)
        for _ in range(name.count(".")):
            root = os.path.dirname(root)
        roots.append(root)
    return list(dict.fromkeys(r for r in roots if r))


class _Worker:
    """One worker process and its two pipes."""

    def __init__(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        env = dict(os.environ)
        env["JAX_PLATFORMS"] = "cpu"  # Paddle's workers run on CPU too
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)  # each job adds more
        try:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    "import sys; from paddle_compat._io._worker_main import main; "
                    "main(int(sys.argv[1]), int(sys.argv[2]))",
                    str(to_child_r),
                    str(from_child_w),
                ],
                pass_fds=(to_child_r, from_child_w),
                env=env,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # Ctrl-C reaches the main process, which stops us
            )
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self.pid = self.proc.pid
        self.conn_out = Connection(to_child_w, readable=False)
        self.conn_in = Connection(from_child_r, writable=False)
        self.idle_since = time.monotonic()

    def send(self, msg, payload: bytes | None = None) -> None:
        self.conn_out.send_bytes(pickle.dumps(msg))
        if payload is not None:  # sent as is: no copy of a large blob inside another pickle
            self.conn_out.send_bytes(payload)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Ask the worker to exit (closing its pipe: it returns normally and flushes its
        output); ``kill`` makes sure."""
        if not self.conn_out.closed:
            self.conn_out.close()

    def kill(self, grace_s: float = 0.0) -> None:
        self.close()
        if grace_s > 0:
            try:
                self.proc.wait(grace_s)
            except subprocess.TimeoutExpired:
                pass
        if self.alive():
            self.proc.kill()
        self.proc.wait()
        if not self.conn_in.closed:
            self.conn_in.close()
        _transport.remove_leftovers(os.getpid(), self.pid)


def _stop_all(workers: list[_Worker], grace_s: float) -> None:
    """Close every pipe first, then wait (at most ``grace_s`` in all) and kill stragglers."""
    for w in workers:
        w.close()
    deadline = time.monotonic() + grace_s
    for w in workers:
        w.kill(max(0.0, deadline - time.monotonic()))


class _Pool:
    """Idle worker processes kept for the next DataLoader pass."""

    def __init__(self) -> None:
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def acquire(self, n: int) -> list[_Worker]:
        stale_after = time.monotonic() - (IDLE_EXIT_S - 30.0)  # about to leave on their own
        with self._lock:
            if self._pid != os.getpid():  # a forked copy of this module owns no workers
                self._idle, self._pid = [], os.getpid()
            fresh = [w for w in self._idle if w.alive() and w.idle_since > stale_after]
            stale = [w for w in self._idle if w not in fresh]
            got, self._idle = fresh[:n], fresh[n:]
        _stop_all(stale, 0.0)
        return got + [_Worker() for _ in range(n - len(got))]

    def release(self, workers: list[_Worker]) -> None:
        now = time.monotonic()
        with self._lock:
            keep = max(0, MAX_IDLE - len(self._idle))
            for w in workers[:keep]:
                w.idle_since = now
            self._idle.extend(workers[:keep])
        _stop_all(workers[keep:], 1.0)

    def shutdown(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        _stop_all(idle, 2.0)
        _transport.remove_leftovers(os.getpid())


POOL = _Pool()
atexit.register(POOL.shutdown)


class WorkerFailed(Exception):
    """The job could not be sent to workers (e.g. the dataset cannot be pickled)."""


def _job_blob(loader, base_seed: int) -> bytes:
    import cloudpickle

    from .._core.dtype import get_default_dtype

    vision_image = sys.modules.get("paddle_compat.vision.image")
    spec = {
        "dataset": loader.dataset,
        "iterable": loader._iterable,
        "auto_collate": loader.auto_collate_batch,
        "collate_fn": loader.collate_fn,
        "drop_last": loader.drop_last,
        "worker_init_fn": loader.worker_init_fn,
        "num_workers": loader.num_workers,
        "base_seed": base_seed,
        "use_shared_memory": loader.use_shared_memory and _transport.shm_available(),
        "owner_pid": os.getpid(),
        "default_dtype": get_default_dtype(),
        "image_backend": vision_image.get_image_backend() if vision_image else None,
    }
    try:
        return cloudpickle.dumps(spec)
    except Exception as e:  # noqa: BLE001 - any pickling failure means: load in-process
        raise WorkerFailed(f"{type(e).__name__}: {e}") from e


class MultiProcessIter:
    """One pass over a DataLoader with worker processes (reusable with persistent workers)."""

    def __init__(self, loader, index_sampler) -> None:
        self._loader = loader
        self._index_sampler = index_sampler
        self._sampler_iter = iter(index_sampler)
        n = loader.num_workers
        base_seed = int(np.random.randint(low=0, high=sys.maxsize))  # drawn as Paddle draws it
        blob = _job_blob(loader, base_seed)
        self._workers = POOL.acquire(n)
        self._reusable = [False]  # True once a pass has ended with nothing in flight
        self._dispose = weakref.finalize(self, _dispose, self._workers, self._reusable)
        try:
            path = _import_roots()  # modules loaded since a worker started
            for i, w in enumerate(self._workers):
                w.send(("start", i, path), blob)
        except OSError:
            self._kill()
            raise
        self._capacity = loader.prefetch_factor * n
        self._closed = False
        self._start_pass()

    def _start_pass(self) -> None:
        self._active = [True] * len(self._workers)
        self._cycle = 0
        self._send_idx = 0
        self._rcvd_idx = 0
        self._tasks: dict[int, int] = {}  # batch index -> worker that has it
        self._ready: dict[int, object] = {}  # batch index -> received batch
        self._done = False
        for _ in range(self._capacity):
            self._put_indices()

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self._index_sampler)

    def _put_indices(self) -> None:
        try:
            indices = next(self._sampler_iter)
        except StopIteration:
            return
        n = len(self._workers)
        for _ in range(n):
            w, self._cycle = self._cycle, (self._cycle + 1) % n
            if self._active[w]:
                break
        else:
            return
        worker = self._workers[w]
        try:
            worker.send(("fetch", self._send_idx, indices))
        except OSError:  # it died: Paddle's SystemError rather than a broken pipe
            self._check_alive(dead=worker)
            raise
        self._tasks[self._send_idx] = w
        self._send_idx += 1

    def _receive(self) -> None:
        """Wait for one message from any worker and file it."""
        conns = {w.conn_in: i for i, w in enumerate(self._workers)}
        while True:
            ready = wait(list(conns), timeout=POLL_S)
            if ready:
                break
            self._check_alive()
        conn = ready[0]
        try:
            msg = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            self._check_alive(dead=self._workers[conns[conn]])
            raise
        kind = msg[0]
        if kind == "batch":
            _, idx, data, layout = msg
            self._ready[idx] = pickle.loads(data, buffers=_transport.receive_buffers(conn, layout))
        elif kind == "stop":
            self._active[msg[1]] = False
            self._put_indices()
        elif kind == "error":  # raised when its batch's turn comes, after the ones before it
            _, idx, exc_type, text, name = msg
            worker = self._tasks.get(idx, conns[conn])
            self._ready[idx] = _WorkerError(worker, exc_type, text, name)

    def _check_alive(self, dead: _Worker | None = None) -> None:
        """Raise Paddle's SystemError if a worker has exited (``dead``: closed its pipe)."""
        if dead is not None:
            try:
                dead.proc.wait(POLL_S)
            except subprocess.TimeoutExpired:
                dead.proc.kill()
        failed = [w for w in self._workers if not w.alive()]
        if failed:
            self._kill()
            pids = ", ".join(f"{w.pid} (exit code {w.proc.returncode})" for w in failed)
            raise SystemError(f"DataLoader {len(failed)} workers exit unexpectedly, pids: {pids}")

    def __next__(self):
        with reader_span(self._loader):  # paddle.profiler: reader cost, Dataloader events
            try:
                return self._next()
            except StopIteration:
                raise
            except BaseException:  # incl. Ctrl-C mid-message: the pipes' state is unknown
                self._kill()
                raise

    def _next(self):
        if self._done or self._closed:
            raise StopIteration
        while True:
            idx = self._rcvd_idx
            if idx in self._ready:
                batch = self._ready.pop(idx)
                del self._tasks[idx]
                if isinstance(batch, _WorkerError):
                    self._kill()
                    raise batch.exception()
                self._rcvd_idx += 1
                self._put_indices()
                return to_loader_output(batch, self._loader._device, owned=True)
            if idx == self._send_idx:
                self._finish_pass()
                raise StopIteration
            if not self._active[self._tasks[idx]]:  # sent to an iterable worker that ended
                del self._tasks[idx]
                self._rcvd_idx += 1
                continue
            self._receive()

    def _finish_pass(self) -> None:
        self._done = True
        self._reusable[0] = True
        if not self._loader._persistent_workers:
            self._closed = True
            self._dispose()

    @property
    def reusable(self) -> bool:
        """Persistent workers: whether ``reset`` can start another pass on these workers."""
        return not self._closed

    def reset(self) -> None:
        """Persistent workers: drain what is in flight, then start a new pass."""
        try:
            self._sampler_iter = iter(())
            while any(self._active[w] for i, w in self._tasks.items() if i not in self._ready):
                self._receive()
            self._check_alive()
            for w in self._workers:
                w.send(("resume",))
        except OSError:
            self._check_alive()  # a worker died in between: Paddle's SystemError
            self._kill()
            raise
        except BaseException:
            self._kill()
            raise
        self._reusable[0] = False
        self._sampler_iter = iter(self._index_sampler)
        self._start_pass()

    def _kill(self) -> None:
        self._closed = True
        self._reusable[0] = False
        self._dispose()


def _dispose(workers: list[_Worker], reusable: list[bool]) -> None:
    """Give a pass's workers back to the pool (its pass finished cleanly) or stop them. Runs
    from ``weakref.finalize``, so the workers are still intact when the iterator is collected
    in a reference cycle (a persistent loader and its iterator)."""
    owned = list(workers)
    workers.clear()
    if reusable[0]:
        try:
            for w in owned:
                w.send(("end",))
        except OSError:
            pass
        else:
            POOL.release(owned)
            return
    _stop_all(owned, 0.5)  # a moment to finish and flush their output, then killed


class _KeyErrorMessage(str):
    """KeyError shows its argument's repr; this one shows the traceback as written."""

    def __repr__(self) -> str:
        return str(self)


class _WorkerError:
    """A worker's exception, re-raised in the main process as Paddle words it."""

    def __init__(self, worker_id: int, exc_type, text: str, name: str) -> None:
        self.worker_id, self.exc_type, self.text, self.name = worker_id, exc_type, text, name

    def exception(self) -> BaseException:
        msg = f"DataLoader worker({self.worker_id}) caught {self.name} with message:\n{self.text}"
        if issubclass(self.exc_type, KeyError):
            msg = _KeyErrorMessage(msg)
        try:
            return self.exc_type(msg)
        except Exception:  # an exception class that does not take one message
            return RuntimeError(msg)
