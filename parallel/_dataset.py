"""Paddle's parameter-server datasets: ``QueueDataset`` (streams its files) and
``InMemoryDataset`` (loads them, shuffles, then serves batches), reading Paddle's MultiSlot
text format.

One instance per line; for each slot of ``use_var``, in order, the number of values and then
the values (``<n> v1 .. vn``): integers for int64 (``uint64``) slots, floats for float32 ones.
With ``parse_ins_id`` the line starts with ``1 <ins_id>``, then with ``parse_content``
``1 <content>``. Tokens after the last slot are ignored, as in Paddle.

Files are read directly when ``pipe_command``/``download_cmd`` are Paddle's default ``cat``;
other shell commands (and HDFS, ``fs_name``) are not run: loading raises NotImplementedError.
Paddle feeds batches to ``Executor.train_from_dataset``; here ``_feed_batches()`` yields
them as feed dicts ``{slot name: numpy array}`` (a slot's values of the batch's instances,
concatenated, shaped ``[-1, *shape[1:]]`` of its variable), the feed of ``Executor.run``.

Differences from Paddle: a dataset holds one process's data. ``global_shuffle`` with one
trainer shuffles it locally; across several trainers (instances sent between processes), and
with ``merge_size`` (merging instances by line id), it raises NotImplementedError.
``get_memory_data_size(fleet)`` sums the processes' sizes under ``jax.distributed``. Shuffles
use Python's ``random`` (Paddle's C++ engine is not reproduced). ``release_memory`` empties
the memory (Paddle keeps reporting the old size until the next load), a second
``load_into_memory`` replaces the first, and a malformed line raises ValueError (Paddle's C++
reader aborts the process).
"""

from __future__ import annotations

import contextlib
import gc
import random
import sys
import threading
from collections.abc import Iterator

import numpy as np

import paddle_compat as paddle

_DEFAULT_CMD = "cat"


# -- the MultiSlot text format -----------------------------------------------------------------
class _Slot:
    """One ``use_var`` slot of the data feed description."""

    def __init__(self, var):
        self.name = var.name
        if var.dtype == paddle.float32:
            self.type = "float"
        elif var.dtype == paddle.int64:
            self.type = "uint64"
        else:
            raise ValueError(
                "Currently, paddle.distributed.fleet.dataset only supports dtype=float32 and "
                "dtype=int64"
            )
        self.shape = [int(d) for d in var.shape]

    def desc(self) -> str:
        shape = "".join(f"    shape: {d}\n" for d in self.shape)
        return (
            f'  slots {{\n    name: "{self.name}"\n    type: "{self.type}"\n'
            f"    is_dense: true\n    is_used: true\n{shape}  }}\n"
        )


def _bad_line(line: str, slot: int, why: str) -> ValueError:
    return ValueError(
        f"(InvalidArgument) Cannot parse slot {slot} of the line {line!r}: {why}. Each slot "
        "is '<number of values> v1 .. vn' with at least one value; check the data generator."
    )


def parse_line(line: str, slots: list[_Slot], ins_id: bool, content: bool) -> tuple:
    """One instance: ``(ins_id, content, [values of each slot])`` (values as Python lists)."""
    tokens = line.split()
    pos = 0
    head = []
    for flag, what in ((ins_id, "ins_id"), (content, "content")):
        if not flag:
            head.append("")
            continue
        if len(tokens) < pos + 2 or tokens[pos] != "1":
            got = tokens[pos] if pos < len(tokens) else "nothing"
            raise ValueError(
                f"(InvalidArgument) The line {line!r} must start its {what} with '1 <{what}>' "
                f"(Num should be equal to 1), got {got}."
            )
        head.append(tokens[pos + 1])
        pos += 2
    values = []
    for k, slot in enumerate(slots):
        try:
            n = int(tokens[pos])
        except (IndexError, ValueError):
            raise _bad_line(line, k, "the number of values is missing or not an integer") from None
        if n <= 0:
            raise _bad_line(line, k, f"the number of values is {n}")
        chunk = tokens[pos + 1 : pos + 1 + n]
        if len(chunk) < n:
            raise _bad_line(line, k, f"{n} values announced, {len(chunk)} present")
        conv = int if slot.type == "uint64" else float
        try:
            values.append([conv(t) for t in chunk])
        except ValueError:
            raise _bad_line(line, k, f"a value is not a {slot.type} number") from None
        pos += 1 + n
    return head[0], head[1], values


def _parse_lines(lines, slots: list[_Slot], ins_id: bool, content: bool) -> Iterator[tuple]:
    """``parse_line`` over many lines, with a lean loop; a line it cannot take is handed to
    ``parse_line``, which raises the error that names the problem."""
    convs = [int if s.type == "uint64" else float for s in slots]
    skip = 2 * (ins_id + content)
    for line in lines:
        tokens = line.split()
        try:
            if skip and (tokens[0] != "1" or (content and ins_id and tokens[2] != "1")):
                raise ValueError
            pos = skip
            values = []
            for conv in convs:
                n = int(tokens[pos])
                end = pos + 1 + n
                if n <= 0 or end > len(tokens):
                    raise ValueError
                values.append(list(map(conv, tokens[pos + 1 : end])))
                pos = end
        except (IndexError, ValueError):
            parse_line(line, slots, ins_id, content)  # raises the detailed error
            raise  # pragma: no cover - parse_line accepted what the lean loop did not
        yield (
            tokens[1] if ins_id else "",
            tokens[skip - 1] if content else "",
            values,
        )


@contextlib.contextmanager
def _no_gc():
    """Pause the cyclic garbage collector: loading makes millions of small acyclic objects,
    and its passes over the growing heap cost more than the parsing itself."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _int64(vals: list[int]) -> np.ndarray:
    try:
        return np.array(vals, dtype=np.int64)
    except OverflowError:  # uint64 feasigns: Paddle keeps their bits
        return np.array([v % (1 << 64) for v in vals], dtype=np.uint64).view(np.int64)


def _batch_feed(records: list[tuple], slots: list[_Slot]) -> dict[str, np.ndarray]:
    feed = {}
    for k, slot in enumerate(slots):
        flat = [v for r in records for v in r[2][k]]
        arr = _int64(flat) if slot.type == "uint64" else np.array(flat, dtype=np.float32)
        inner = slot.shape[1:]
        if inner and all(d > 0 for d in inner):
            size = int(np.prod(inner))
            if arr.size % size:
                raise ValueError(
                    f"slot {slot.name!r}: {arr.size} values in a batch cannot be shaped "
                    f"[-1, {', '.join(map(str, inner))}]."
                )
            arr = arr.reshape([-1, *inner])
        feed[slot.name] = arr
    return feed


# -- datasets ----------------------------------------------------------------------------------
class DatasetBase:
    """Settings shared by the datasets: batch size, reader threads, slots, input command."""

    def __init__(self) -> None:
        self._feed_name = "MultiSlotDataFeed"
        self._batch_size: int | None = None
        self._input_type: int | None = None
        self._slots: list[_Slot] = []
        self._pipe_command = _DEFAULT_CMD
        self._download_cmd = _DEFAULT_CMD
        self._fs = ("", "")
        self.thread_num = 1
        self.filelist: list[str] = []
        self.use_ps_gpu = False
        self.parse_ins_id = False
        self.parse_content = False

    def init(
        self,
        batch_size: int = 1,
        thread_num: int = 1,
        use_var: list | None = None,
        pipe_command: str = "cat",
        input_type: int = 0,
        fs_name: str = "",
        fs_ugi: str = "",
        download_cmd: str = "cat",
    ) -> None:
        """Set the batch size, reader threads, slots (``use_var``) and input commands."""
        self._set_batch_size(batch_size)
        self._set_thread(thread_num)
        self._set_use_var([] if use_var is None else use_var)
        self._set_pipe_command(pipe_command)
        self._set_input_type(input_type)
        self._set_hdfs_config(fs_name, fs_ugi)
        self._set_download_cmd(download_cmd)

    def set_filelist(self, filelist: list[str]) -> None:
        """The files this worker reads."""
        self.filelist = filelist

    # the setters Paddle's scripts call directly
    def _set_pipe_command(self, pipe_command: str) -> None:
        self._pipe_command = pipe_command

    def _set_batch_size(self, batch_size: int) -> None:
        self._batch_size = int(batch_size)

    def _set_thread(self, thread_num: int) -> None:
        self.thread_num = thread_num

    def _set_input_type(self, input_type: int) -> None:
        self._input_type = int(input_type)

    def _set_use_var(self, var_list: list) -> None:
        self._slots += [_Slot(v) for v in var_list]  # Paddle appends to the description

    def _set_hdfs_config(self, fs_name: str, fs_ugi: str) -> None:
        self._fs = (fs_name, fs_ugi)

    def _set_download_cmd(self, download_cmd: str) -> None:
        self._download_cmd = download_cmd

    def _set_use_ps_gpu(self, use_ps_gpu) -> None:
        self.use_ps_gpu = False  # no heterps (GPU parameter server) build here, as on CPU Paddle

    def _prepare_to_run(self) -> None:
        self.thread_num = max(1, min(self.thread_num, len(self.filelist)))

    def _finish_to_run(self) -> None:
        pass

    def _dynamic_adjust_before_train(self, thread_num: int) -> None:
        pass

    def _dynamic_adjust_after_train(self) -> None:
        pass

    def _desc(self) -> str:
        """The data feed description in protobuf text format (Paddle's DataFeedDesc)."""
        out = f'name: "{self._feed_name}"\n'
        if self._batch_size is not None:
            out += f"batch_size: {self._batch_size}\n"
        if self._slots:
            out += "multi_slot_desc {\n" + "".join(s.desc() for s in self._slots) + "}\n"
        out += f'pipe_command: "{self._pipe_command}"\n'
        if self._input_type is not None:
            out += f"input_type: {self._input_type}\n"
        return out

    # -- reading -------------------------------------------------------------------------------
    def _check_commands(self) -> None:
        for arg, cmd in (
            ("pipe_command", self._pipe_command),
            ("download_cmd", self._download_cmd),
        ):
            if cmd.strip() != _DEFAULT_CMD:
                raise NotImplementedError(
                    f"{type(self).__name__}: {arg}={cmd!r} would run a shell command; only "
                    f"the default 'cat' (read the files as they are) is supported. Write the "
                    "files in the MultiSlot format, or convert them in Python first."
                )
        if self._fs[0]:
            raise NotImplementedError(
                f"{type(self).__name__}: reading from HDFS (fs_name={self._fs[0]!r}) is not "
                "supported; copy the files to a local path."
            )

    def _read_file(self, path: str) -> Iterator[tuple]:
        try:
            f = open(path, encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as e:  # Paddle's `cat` reports the file and goes on
            print(f"cat: {path}: {e.strerror}", file=sys.stderr)
            return
        with f:
            # a blank line is an error, as in Paddle
            yield from _parse_lines(f, self._slots, self.parse_ins_id, self.parse_content)

    def _read_all(self) -> Iterator[tuple]:
        self._check_commands()
        for path in self.filelist:
            yield from self._read_file(path)

    def _batches_of(self, records) -> Iterator[dict[str, np.ndarray]]:
        size = max(1, self._batch_size or 1)
        batch: list[tuple] = []
        for r in records:
            batch.append(r)
            if len(batch) == size:
                yield _batch_feed(batch, self._slots)
                batch = []
        if batch:
            yield _batch_feed(batch, self._slots)


class QueueDataset(DatasetBase):
    """A dataset that streams its files batch by batch, never holding them in memory."""

    def __init__(self) -> None:
        super().__init__()
        self._feed_name = "MultiSlotDataFeed"

    def _feed_batches(self) -> Iterator[dict[str, np.ndarray]]:
        """The batches of the files, read as they are consumed (feed dicts)."""
        return self._batches_of(self._read_all())


class InMemoryDataset(DatasetBase):
    """A dataset that loads its files into memory, can shuffle them, then serves batches."""

    def __init__(self) -> None:
        super().__init__()
        self._feed_name = "MultiSlotInMemoryDataFeed"
        self.fleet_send_batch_size: int | None = None
        self.is_user_set_queue_num = False
        self.queue_num: int | None = None
        self.parse_logkey = False
        self.merge_by_sid = True
        self.enable_pv_merge = False
        self.merge_by_lineid = False
        self.merge_size = -1
        self.fleet_send_sleep_seconds: int | None = None
        self.fea_eval = False
        self.candidate_size = 10000
        self._records: list[tuple] = []
        self._shuffled = 0
        self._preload: threading.Thread | None = None
        self._preload_error: BaseException | None = None
        self._rng = random.Random()
        self._date: tuple[int, int, int] | None = None

    def init(self, **kwargs) -> None:
        """``DatasetBase.init``'s settings plus ``data_feed_type`` and ``queue_num``; unknown
        keys are ignored (as in Paddle)."""
        known = (
            "batch_size",
            "thread_num",
            "use_var",
            "pipe_command",
            "input_type",
            "fs_name",
            "fs_ugi",
            "download_cmd",
        )
        super().init(**{k: kwargs[k] for k in known if k in kwargs})
        self._feed_name = "MultiSlotInMemoryDataFeed"
        if kwargs.get("queue_num", -1) > 0:
            self._set_queue_num(kwargs["queue_num"])

    def _init_distributed_settings(self, **kwargs) -> None:
        """Line-id merging, ins_id/content parsing, fleet send settings, feature evaluation."""
        if kwargs.get("merge_size", -1) > 0:
            self._set_merge_by_lineid(kwargs["merge_size"])
        self._set_parse_ins_id(kwargs.get("parse_ins_id", False))
        self._set_parse_content(kwargs.get("parse_content", False))
        if kwargs.get("fleet_send_batch_size"):
            self._set_fleet_send_batch_size(kwargs["fleet_send_batch_size"])
        if kwargs.get("fleet_send_sleep_seconds"):
            self._set_fleet_send_sleep_seconds(kwargs["fleet_send_sleep_seconds"])
        if kwargs.get("fea_eval", False):
            self._set_fea_eval(kwargs.get("candidate_size", 10000), True)

    def update_settings(self, **kwargs) -> None:
        """Change any setting of ``init`` or ``_init_distributed_settings`` (``use_var``
        appends slots, as in Paddle; ``fs_name`` needs ``fs_ugi`` with it)."""
        setters = {
            "pipe_command": self._set_pipe_command,
            "batch_size": self._set_batch_size,
            "thread_num": self._set_thread,
            "use_var": self._set_use_var,
            "input_type": self._set_input_type,
            "download_cmd": self._set_download_cmd,
            "parse_ins_id": self._set_parse_ins_id,
            "parse_content": self._set_parse_content,
            "fleet_send_batch_size": self._set_fleet_send_batch_size,
            "fleet_send_sleep_seconds": self._set_fleet_send_sleep_seconds,
        }
        for key, value in kwargs.items():
            if key in setters:
                setters[key](value)
            elif key == "fs_name" and "fs_ugi" in kwargs:
                self._set_hdfs_config(value, kwargs["fs_ugi"])
            elif key == "merge_size" and value > 0:
                self._set_merge_by_lineid(value)
            elif key == "fea_eval" and value:
                self._set_fea_eval(kwargs.get("candidate_size", 10000), True)

    # the setters Paddle's scripts call directly
    def _set_feed_type(self, data_feed_type: str) -> None:
        self._feed_name = data_feed_type

    def _set_queue_num(self, queue_num: int) -> None:
        self.is_user_set_queue_num = True
        self.queue_num = queue_num

    def _set_parse_ins_id(self, parse_ins_id: bool) -> None:
        self.parse_ins_id = parse_ins_id

    def _set_parse_content(self, parse_content: bool) -> None:
        self.parse_content = parse_content

    def _set_fleet_send_batch_size(self, fleet_send_batch_size: int = 1024) -> None:
        self.fleet_send_batch_size = fleet_send_batch_size

    def _set_fleet_send_sleep_seconds(self, fleet_send_sleep_seconds: int = 0) -> None:
        self.fleet_send_sleep_seconds = fleet_send_sleep_seconds

    def _set_merge_by_lineid(self, merge_size: int = 2) -> None:
        self.merge_by_lineid = True
        self.merge_size = merge_size
        self.parse_ins_id = True

    def _set_fea_eval(self, record_candidate_size: int, fea_eval: bool = True) -> None:
        self.fea_eval = fea_eval
        if fea_eval:
            self.candidate_size = record_candidate_size

    def _prepare_to_run(self) -> None:
        if self.thread_num <= 0:
            self.thread_num = 1
        if self.queue_num is None:
            self.queue_num = self.thread_num

    # -- memory ----------------------------------------------------------------------------
    def set_date(self, date: str) -> None:
        """The training date (``YYYYMMDD``) of a GPU parameter server pass; without one (as
        on CPU Paddle) the date is only checked."""
        year, month, day = int(date[:4]), int(date[4:6]), int(date[6:])
        self._date = (year, month, day)

    def load_into_memory(self, is_shuffle: bool = False) -> None:
        """Read the file list into memory (replacing what was loaded before)."""
        self._prepare_to_run()
        with _no_gc():
            self._records = list(self._read_all())
        self._shuffled = 0

    def preload_into_memory(self, thread_num: int | None = None) -> None:
        """Start ``load_into_memory`` in the background; ``wait_preload_done`` joins it."""
        self._prepare_to_run()
        self._check_commands()  # fail here, not in the thread

        def load():
            try:
                self._records = list(self._read_all())
                self._shuffled = 0
            except BaseException as e:  # noqa: BLE001 - re-raised by wait_preload_done
                self._preload_error = e

        self._preload_error = None
        self._preload = threading.Thread(target=load, daemon=True)
        self._preload.start()

    def wait_preload_done(self) -> None:
        """Wait for ``preload_into_memory``; raises what the load raised."""
        if self._preload is not None:
            self._preload.join()
            self._preload = None
        if self._preload_error is not None:
            err, self._preload_error = self._preload_error, None
            raise err

    def local_shuffle(self) -> None:
        """Shuffle the instances in memory."""
        self._rng.shuffle(self._records)

    def global_shuffle(self, fleet=None, thread_num: int = 12) -> None:
        """Shuffle the instances of every trainer among all of them. With one trainer this
        shuffles the local instances; several trainers are not supported."""
        trainers = fleet.worker_num() if fleet is not None else 1
        if trainers > 1:
            raise NotImplementedError(
                f"global_shuffle across {trainers} trainers (sending instances between "
                "processes) is not implemented; use local_shuffle on each trainer."
            )
        if self.merge_by_lineid:
            raise NotImplementedError(
                "global_shuffle with merge_size (merging instances by line id) is not implemented."
            )
        if self.fleet_send_batch_size is None:
            self.fleet_send_batch_size = 1024
        if self.fleet_send_sleep_seconds is None:
            self.fleet_send_sleep_seconds = 0
        self._rng.shuffle(self._records)
        self._shuffled = len(self._records)

    def slots_shuffle(self, slots: list[str]) -> None:
        """With ``fea_eval``: shuffle the values of the named slots among the instances (to
        measure how much the model relies on them)."""
        if not self.fea_eval:
            return
        names = [s.name for s in self._slots]
        for name in set(slots):
            if name not in names:
                continue
            k = names.index(name)
            column = [r[2][k] for r in self._records]
            self._rng.shuffle(column)
            for r, v in zip(self._records, column):
                r[2][k] = v

    def release_memory(self) -> None:
        """Drop the instances in memory."""
        self._records = []
        self._shuffled = 0

    def get_memory_data_size(self, fleet=None) -> np.int64:
        """The number of instances in memory (summed over processes with ``fleet``)."""
        return _total(len(self._records), fleet)

    def get_shuffle_data_size(self, fleet=None) -> np.int64:
        """The number of instances the last ``global_shuffle`` shuffled (summed over
        processes with ``fleet``)."""
        return _total(self._shuffled, fleet)

    def _feed_batches(self) -> Iterator[dict[str, np.ndarray]]:
        """The batches of the instances in memory, in their current order (feed dicts)."""
        return self._batches_of(self._records)


def _total(local: int, fleet) -> np.int64:
    """``local`` summed over the processes of ``jax.distributed`` when a fleet is given."""
    n = np.array([local], dtype=np.int64)
    if fleet is not None:
        import jax

        if jax.process_count() > 1:
            from jax.experimental import multihost_utils

            n = np.asarray(multihost_utils.process_allgather(n)).sum(axis=0)
    return n[0]
