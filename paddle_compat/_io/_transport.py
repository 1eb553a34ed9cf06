"""How a worker process hands a batch to the main process.

A batch is pickled with protocol 5, so every numpy array's memory travels out of band. With
``use_shared_memory`` an array of at least ``SHM_MIN_BYTES`` is written once to a file in
``/dev/shm`` and read once by the main process (two copies, no pipe traffic); smaller arrays and
the pickle itself go through the pipe. The main process unlinks each file as soon as it has
opened it; files of a worker that died or was stopped are removed by name
(``remove_leftovers``). The channel only ever carries data between this library's own
processes.
"""

from __future__ import annotations

import glob
import itertools
import os
import pickle

import numpy as np

from .._core.host_memory import aligned_empty
from .._core.tensor import Tensor

SHM_DIR = "/dev/shm"
SHM_MIN_BYTES = 1 << 16
_PREFIX = "paddle_compat_dl"
_seq = itertools.count()


def shm_available() -> bool:
    return os.path.isdir(SHM_DIR) and os.access(SHM_DIR, os.W_OK)


def _host(x):
    """Tensors (made by the dataset in the worker) travel as numpy arrays."""
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, list | tuple):
        out = [_host(v) for v in x]
        return out if isinstance(x, list) else tuple(out)
    if isinstance(x, dict):
        return {k: _host(v) for k, v in x.items()}
    return x


def _shm_path(owner_pid: int) -> str:
    return os.path.join(SHM_DIR, f"{_PREFIX}_{owner_pid}_{os.getpid()}_{next(_seq)}")


def _write_file(path: str, mem: memoryview) -> None:
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    try:
        done = 0
        while done < mem.nbytes:
            done += os.write(fd, mem[done:])
    finally:
        os.close(fd)


def send_batch(conn, idx: int, batch, use_shm: bool, owner_pid: int) -> None:
    """Worker side: one ("batch", idx, ...) message, then each inline buffer."""
    batch, buffers = _host(batch), []
    try:
        data = pickle.dumps(batch, protocol=5, buffer_callback=buffers.append)
    except (pickle.PicklingError, AttributeError, TypeError):
        import cloudpickle  # objects of classes the main process sent by value (its __main__)

        buffers = []
        data = cloudpickle.dumps(batch, protocol=5, buffer_callback=buffers.append)
    layout, inline = [], []
    for buf in buffers:
        mem = buf.raw()
        if use_shm and mem.nbytes >= SHM_MIN_BYTES:
            path = _shm_path(owner_pid)
            _write_file(path, mem)
            layout.append(("shm", path, mem.nbytes))
        else:
            layout.append(("pipe", mem.nbytes))
            inline.append(mem)
    conn.send_bytes(pickle.dumps(("batch", idx, data, layout)))
    for mem in inline:
        conn.send_bytes(mem)


def _read_file(path: str, nbytes: int) -> np.ndarray:
    """Read (one copy; a mapping would hold a file descriptor for as long as the batch lives)
    and unlink."""
    out = aligned_empty(nbytes, np.uint8)  # the batch's Tensors wrap it without a copy
    with open(path, "rb", buffering=0) as f:
        os.unlink(path)
        view, done = memoryview(out), 0
        while done < nbytes:
            n = f.readinto(view[done:])
            if not n:
                raise EOFError(f"DataLoader: shared-memory file {path} ended early")
            done += n
    return out


def receive_buffers(conn, layout) -> list:
    """Main side: the out-of-band buffers of a batch message, in order."""
    out = []
    for item in layout:
        if item[0] == "shm":
            out.append(_read_file(item[1], item[2]))
        else:
            out.append(conn.recv_bytes())
    return out


def remove_leftovers(owner_pid: int, worker_pid: int | str = "*") -> None:
    """Unlink the shared-memory files a worker wrote for ``owner_pid`` and nobody mapped."""
    for path in glob.glob(os.path.join(SHM_DIR, f"{_PREFIX}_{owner_pid}_{worker_pid}_*")):
        try:
            os.unlink(path)
        except OSError:
            pass
