"""Stored programs read ahead of need, on background threads.

A fresh process with a warm store spends its first forward and train step reading programs
back (XLA:CPU deserializes each fused loop, ~0.65 ms a fusion): an EfficientNet-B0 train
step reads 274 of them, ~1 s, one after another on the thread that runs the ops, 0.6 s of it
the fused Adam update. Processes tend to run the same programs in the same order, so the
store remembers, for each program, the ``NEXT`` programs taken after it and, up to ``FAR``
places on, the ones that were slow to read, each with its read time and how long after it was
taken (a small file per program, rewritten only when that changes). When a program is taken,
those that followed it last time are queued for reader threads (XLA releases the GIL while
it deserializes) by when each must start to be read in time, earliest first, and the op that
needs one takes it from there: it waits for a read already running and reads a still-queued
one itself. So the update is read while the forward and backward run. A script's start is
such a node too (``segment_store.note_start``, at import, keyed by its path): the
programs its last run took first, a model's forward, are read while it builds the model.

Reads ahead only load what the store holds (the same files the main thread would read); a
program the process never asks for is read and dropped. Reads ahead compete for the CPU with
what runs meanwhile (on 2 cores a first forward can take longer while the train step's
programs are read). At exit queued reads are dropped and a running one is waited for. A
forked child (DataLoader workers) starts with none in flight. ``PADDLE_COMPAT_PREFETCH=0``
turns it off.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import itertools
import os
import queue
import threading
import time

ENV = "PADDLE_COMPAT_PREFETCH"
NEXT = 64  # successors remembered per program
# ... and, further on (up to FAR places), those that took at least SLOW_MS to read: started
# that early, a large program (an optimizer update of every parameter) is read while the
# forward and backward run
FAR, SLOW_MS = 1024, 20.0
TRACE_MAX = 16384  # programs of a process whose order is remembered (its start matters most)
_WORKERS = min(4, max(1, (os.cpu_count() or 2) - 1))

_on = os.environ.get(ENV, "1").strip().lower() not in ("0", "off", "false", "no")
_futures: dict = {}  # digest -> Future of (program or None, ms its read took)
_taken: set = set()  # digests this process took (they are not read ahead again)
_trace: list = []  # [digest, ms its read took] in the order taken
_next_known: dict = {}  # digest -> _shape of its successors as stored (None: none stored)
_next_read: set = set()  # digests whose stored successors this process read
_writer: list = [None]  # write_next of the last note_taken (for the order's tail at exit)
_work: queue.PriorityQueue = queue.PriorityQueue()
_seq = itertools.count()
_threads: list = []
_idle = threading.Condition()
_running = [0]
_closing = [False]  # set by drain: no read starts after it
# read_ahead: reads queued; hits: programs taken that were queued; used: of those, the ones
# read on a reader thread; unforeseen: programs read from the store that were not queued
stats = {"read_ahead": 0, "hits": 0, "used": 0, "unforeseen": 0}
# A process that mostly reads programs the last runs' order did not foresee (it runs other
# code than they did) stops reading ahead, so reader threads do not read what it will not
# take: from SURPRISES unforeseen reads on, when they outnumber the hits. It still notes the
# order, for the next process.
SURPRISES = 64


def enabled() -> bool:
    return _on


def take(digest: str):
    """``(program, ms its read took)`` as read ahead (a ``jax.stages.Compiled``), or None:
    not read ahead, still queued (the caller reads it now, which is sooner), or unreadable."""
    fut = _futures.pop(digest, None)
    if fut is None:
        stats["unforeseen"] += 1
        return None
    stats["hits"] += 1
    if fut.cancel():
        return None
    try:
        prog, ms = fut.result()
    except Exception:
        return None
    if prog is None:
        return None
    stats["used"] += 1
    return prog, ms


def note_taken(digest: str, ms: float, read_next, write_next, load) -> None:
    """Program ``digest`` was just taken (read in ``ms``; compiled: an estimate): remember the
    order, store the successors of the program ``FAR`` places back, and queue reads of the
    programs that followed this one last time, by when each must start to be read in time
    (last run's delay after this one, less its read time), earliest first; the caller reads
    a still-queued one itself. ``read_next(d)`` / ``write_next(d, [[digest, ms, delay ms],
    ...])`` read and write a program's stored successors; ``load(d)`` reads a program (None
    when it cannot)."""
    if not _on:
        return
    now = time.perf_counter()
    _writer[0] = write_next
    _taken.add(digest)
    if len(_trace) < TRACE_MAX:
        _trace.append([digest, round(ms, 2), now])
        i = len(_trace) - 1 - FAR
        if i >= 0:
            _remember(i, write_next)
    if digest in _next_read:  # taken again (its table was dropped): queued the first time
        return
    _next_read.add(digest)
    nxt = read_next(digest)
    _next_known.setdefault(digest, _shape(nxt))
    if stats["unforeseen"] >= SURPRISES and stats["unforeseen"] > stats["hits"]:
        return
    for d, ms, delay in nxt or ():
        if d not in _taken and d not in _futures:
            _submit(d, now + (delay - ms) / 1e3, load)


def _successors(i: int) -> list:
    """``[digest, ms, delay ms]`` of the programs taken after the ``i``-th: the next
    ``NEXT``, then up to ``FAR`` places on the slow ones."""
    t0 = _trace[i][2]
    near = _trace[i + 1 : i + 1 + NEXT]
    far = [e for e in _trace[i + 1 + NEXT : i + 1 + FAR] if e[1] >= SLOW_MS]
    return [[d, ms, round(1e3 * (t - t0), 1)] for d, ms, t in near + far]


def _shape(successors) -> tuple | None:
    """What a change of ``successors`` is judged by: which programs, and which were slow
    (read times and delays themselves vary from run to run)."""
    return tuple((e[0], e[1] >= SLOW_MS) for e in successors) if successors else None


def _remember(i: int, write_next) -> None:
    """Store the successors of the ``i``-th program taken, when they changed."""
    digest, successors = _trace[i][0], _successors(i)
    shape = _shape(successors)
    if _next_known.get(digest) != shape:
        _next_known[digest] = shape
        write_next(digest, successors)


def _submit(digest: str, start: float, load) -> None:
    fut = concurrent.futures.Future()
    _futures[digest] = fut
    if len(_threads) < _WORKERS:
        t = threading.Thread(target=_worker, name="paddle_compat-prefetch", daemon=True)
        _threads.append(t)
        t.start()
    stats["read_ahead"] += 1
    _work.put((start, next(_seq), fut, load, digest))


def _worker() -> None:
    while True:
        _, _, fut, load, digest = _work.get()
        if fut is None:  # (tests stop a reader this way)
            return
        with _idle:  # counted before it starts, so drain never misses a read about to start
            if _closing[0]:
                fut.cancel()
                continue
            _running[0] += 1
        try:
            if not fut.set_running_or_notify_cancel():
                continue
            t = time.perf_counter()
            prog = load(digest)
            fut.set_result((prog, 1e3 * (time.perf_counter() - t)))
        except BaseException as e:  # noqa: BLE001 - handed to whoever takes it
            fut.set_exception(e)
        finally:
            with _idle:
                _running[0] -= 1
                _idle.notify_all()


def drain(timeout: float = 5.0, final: bool = False) -> None:
    """At exit (``final``): store the successors of the last programs taken (fewer than
    ``NEXT``), cancel queued reads and wait (at most ``timeout`` s) for the running ones, so
    no read is inside XLA while the interpreter goes down (a read counts as running from the
    moment its reader takes it off the queue, and with ``final`` none starts after this)."""
    with _idle:
        _closing[0] = _closing[0] or final
    if _writer[0] is not None:
        for i in range(max(0, len(_trace) - FAR), len(_trace) - 1):
            try:
                _remember(i, _writer[0])
            except Exception:  # noqa: BLE001 - a store gone at exit: nothing to keep
                break
    for fut in list(_futures.values()):
        fut.cancel()
    _futures.clear()
    with _idle:
        _idle.wait_for(lambda: _running[0] == 0, timeout)


def _forget_in_child() -> None:
    """A forked child has none of the parent's reader threads: nothing is in flight."""
    global _work, _idle
    _futures.clear()
    _threads.clear()
    _work = queue.PriorityQueue()
    _idle = threading.Condition()
    _running[0] = 0
    _closing[0] = False


atexit.register(drain, final=True)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
