"""``paddle.reader`` decorators: a *reader* is a function of no arguments that returns an
iterable of samples; each decorator here takes readers and returns a new reader."""

from __future__ import annotations

import itertools
import json
import logging
import multiprocessing
import random
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from queue import Queue
from typing import Any

__all__ = []

Reader = Callable[[], Iterable[Any]]

QUEUE_GET_TIMEOUT = 60  # seconds multiprocess_reader waits for a sample (Paddle's value)


def cache(reader: Reader) -> Reader:
    """Read all of ``reader`` now; the returned reader replays those samples."""
    samples = tuple(reader())

    def cached():
        yield from samples

    return cached


def map_readers(func: Callable, *readers: Reader) -> Reader:
    """A reader of ``func(s1, s2, ...)`` over the samples of ``readers`` taken in step."""

    def mapped():
        yield from map(func, *[r() for r in readers])

    return mapped


def shuffle(reader: Reader, buf_size: int) -> Reader:
    """Shuffle the samples of ``reader`` within consecutive buffers of ``buf_size`` samples
    (Python's ``random.shuffle``, so ``random.seed`` makes the order repeatable)."""

    def shuffled():
        buf = []
        for sample in reader():
            buf.append(sample)
            if len(buf) >= buf_size:
                random.shuffle(buf)
                yield from buf
                buf = []
        if buf:
            random.shuffle(buf)
            yield from buf

    return shuffled


def chain(*readers: Reader) -> Reader:
    """A reader of the samples of each reader in turn."""

    def chained():
        yield from itertools.chain(*[r() for r in readers])

    return chained


class ComposeNotAligned(ValueError):
    """Raised by a ``compose`` reader whose readers yield different numbers of samples."""


def _as_tuple(x) -> tuple:
    return x if isinstance(x, tuple) else (x,)


def compose(*readers: Reader, check_alignment: bool = True) -> Reader:
    """A reader of flat tuples joining one sample of each reader (tuple samples are spliced
    in). With ``check_alignment`` a reader that ends early (or yields None) raises
    ComposeNotAligned; without it, the shortest reader ends the output."""

    def composed():
        iters = [r() for r in readers]
        if not check_alignment:
            for outputs in zip(*iters):
                yield sum(map(_as_tuple, outputs), ())
            return
        for outputs in itertools.zip_longest(*iters):
            if any(o is None for o in outputs):
                raise ComposeNotAligned("outputs of readers are not aligned.")
            yield sum(map(_as_tuple, outputs), ())

    return composed


class _End:
    """Marks the end of the samples in a queue."""


def buffered(reader: Reader, size: int) -> Reader:
    """Read ahead up to ``size`` samples of ``reader`` in a background thread."""

    def buffered_reader():
        queue: Queue = Queue(maxsize=size)
        end = _End()

        def fill(samples):
            for s in samples:
                queue.put(s)
            queue.put(end)

        threading.Thread(target=fill, args=(reader(),), daemon=True).start()
        sample = queue.get()
        while sample is not end:
            yield sample
            sample = queue.get()

    return buffered_reader


def firstn(reader: Reader, n: int) -> Reader:
    """A reader of the first ``n`` samples of ``reader``."""

    def first():
        for i, item in enumerate(reader()):
            if i == n:
                break
            yield item

    return first


class XmapEndSignal:
    """Marks the end of the samples in ``xmap_readers``'s queues."""


def xmap_readers(
    mapper: Callable,
    reader: Reader,
    process_num: int,
    buffer_size: int,
    order: bool = False,
) -> Reader:
    """Map ``mapper`` over the samples of ``reader`` in ``process_num`` threads with queues of
    ``buffer_size``; the outputs keep the input order when ``order``, else come as finished."""

    def xreader():
        in_queue: Queue = Queue(buffer_size)
        out_queue: Queue = Queue(buffer_size)
        end = XmapEndSignal()
        turn = threading.Condition()
        next_out = [0]

        def read():
            for i, sample in enumerate(reader()):
                in_queue.put((i, sample))
            in_queue.put(end)

        def work():
            item = in_queue.get()
            while not isinstance(item, XmapEndSignal):
                i, sample = item
                result = mapper(sample)
                if order:
                    with turn:
                        turn.wait_for(lambda i=i: next_out[0] == i)
                        out_queue.put(result)
                        next_out[0] += 1
                        turn.notify_all()
                else:
                    out_queue.put(result)
                item = in_queue.get()
            in_queue.put(end)  # let the other workers see the end too
            out_queue.put(end)

        threading.Thread(target=read, daemon=True).start()
        for _ in range(process_num):
            threading.Thread(target=work, daemon=True).start()
        finished = 0
        while finished < process_num:
            result = out_queue.get()
            if isinstance(result, XmapEndSignal):
                finished += 1
            else:
                yield result

    return xreader


def _fork_context():
    # reader functions are closures: the child processes must be forked, not spawned
    return multiprocessing.get_context("fork")


def _read_into_queue(reader, queue):
    try:
        for sample in reader():
            if sample is None:
                raise ValueError("sample has None")
            queue.put(sample)
        queue.put(None)
    except Exception:
        queue.put("")
        raise


def _read_into_pipe(reader, conn):
    try:
        for sample in reader():
            if sample is None:
                raise ValueError("sample has None!")
            conn.send(json.dumps(sample))
        conn.send(json.dumps(None))
        conn.close()
    except Exception:
        conn.send(json.dumps(""))
        conn.close()
        raise


def multiprocess_reader(
    readers: Sequence[Reader],
    use_pipe: bool = True,
    queue_size: int = 1000,
) -> Reader:
    """Run each reader in its own forked process and merge their samples. With ``use_pipe``
    samples travel as JSON through pipes (tuples come back as lists), taken from the readers
    in turn; otherwise they are pickled through one queue of ``queue_size``."""
    if sys.platform == "win32":
        raise NotImplementedError("The multiprocess_reader method is not supported on windows.")
    assert isinstance(readers, list | tuple) and len(readers) > 0, (
        "`readers` must be list or tuple."
    )

    def queue_reader():
        ctx = _fork_context()
        queue = ctx.Queue(queue_size)
        procs = [ctx.Process(target=_read_into_queue, args=(r, queue)) for r in readers]
        for p in procs:
            p.start()
        finished = 0
        while finished < len(readers):
            try:
                sample = queue.get(timeout=QUEUE_GET_TIMEOUT)
            except Exception:
                logging.error(
                    "multiprocess_reader failed to get data from the multiprocessing.Queue."
                )
                raise
            if sample is None:
                finished += 1
            elif isinstance(sample, str) and sample == "":
                raise ValueError(
                    "multiprocess_reader failed to put data into the multiprocessing.Queue."
                )
            else:
                yield sample
        for p in procs:
            p.join()

    def pipe_reader():
        ctx = _fork_context()
        conns, procs = [], []
        for r in readers:
            parent, child = ctx.Pipe()
            conns.append(parent)
            procs.append(ctx.Process(target=_read_into_pipe, args=(r, child)))
            procs[-1].start()
        finished = 0
        while finished < len(readers):
            for conn in list(conns):
                sample = json.loads(conn.recv())
                if sample is None:
                    finished += 1
                    conn.close()
                    conns.remove(conn)
                elif sample == "":
                    conn.close()
                    conns.remove(conn)
                    raise ValueError(
                        "multiprocess_reader failed to send data into the multiprocessing.Pipe."
                    )
                else:
                    yield sample
        for p in procs:
            p.join()

    return pipe_reader if use_pipe else queue_reader
