"""The segment store (``_core/segment_store.py``): deferred segments' shapes and compiled
programs on disk, so a later process runs a recorded forward without tracing or compiling.
A child process runs the same small program twice on one cache directory; the rest checks
which kernels get stable names and how bad or foreign entries are handled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import paddle
from paddle_compat._core import deferred, program_prefetch, segment_store
from paddle_compat._core.registry import OpDef

_CHILD = r"""
import json, hashlib
import jax.monitoring as mon
import numpy as np
import paddle
from paddle_compat._core import deferred, mt19937, program_prefetch, segment_store

mt19937.wait_prepared()  # the first import stores the random generator: not counted below
base = dict(segment_store.stats)
deferred.SHORT_OPS = 0  # short segments compile (and are stored) the first time too
events = {"trace": 0, "compile": 0}
def on_duration(event, secs, **_):
    if "jaxpr_trace" in event:
        events["trace"] += 1
    elif "backend_compile" in event:
        events["compile"] += 1
mon.register_event_duration_secs_listener(on_duration)

paddle.seed(3)
model = paddle.nn.Sequential(
    paddle.nn.Conv2D(2, 4, 3), paddle.nn.BatchNorm2D(4), paddle.nn.ReLU(),
    paddle.nn.Flatten(), paddle.nn.Linear(64, 3))
x = paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 2, 6, 6)).astype("float32"))
m = paddle.to_tensor(np.array([[2.0, 1.0], [1.0, 3.0]], "float32"))
model.eval()
before = dict(events)
with paddle.no_grad():
    out = model(x)
    fwd = out.numpy()
    forward = {k: events[k] - before[k] for k in events}
    rows = (out[1] + out[:, 1:].sum()).astype(paddle.float64).numpy()  # host operands, a dtype
    inv = paddle.inverse(m * 2).numpy()  # LAPACK, from a stored program
    copy = paddle.to_tensor(out, dtype="float64") + paddle.to_tensor(out).sum()
    rows = rows + copy.numpy() + paddle.nonzero(out > 0).numpy().sum()
model.train()
model[0].weight.set_value(model[0].weight.numpy().astype("float64") * 0.5)
opt = paddle.optimizer.Adam(1e-2, parameters=model.parameters())
data = paddle.io.TensorDataset([x])
for _ in range(2):
    for (xb,) in paddle.io.DataLoader(data, batch_size=2):
        loss = model(xb).mean()
        loss.backward()
        paddle.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.clear_grad()
digest = hashlib.sha256()
for a in [fwd, rows, inv] + [p.numpy() for p in model.parameters()]:
    digest.update(a.tobytes())
stats = {k: v - base[k] for k, v in segment_store.stats.items()}
print(json.dumps({"forward": forward, "all": events, "stats": stats,
                  "prefetch": program_prefetch.stats,
                  "digest": digest.hexdigest(), "inv": inv.tolist()}))
"""


def _python(cache_dir, argv, **env):
    """The JSON line a fresh Python prints last, run with ``argv`` on the store at
    ``cache_dir``."""
    out = subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PADDLE_COMPAT_CACHE_DIR": str(cache_dir), **env},
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _child(cache_dir, deferred="1", **env):
    return _python(cache_dir, ["-c", _CHILD], PADDLE_COMPAT_DEFERRED=deferred, **env)


@pytest.mark.parametrize("mode", ["1", "0"], ids=["deferred", "op_by_op"])
def test_a_second_process_runs_stored_programs_without_tracing_or_compiling(tmp_path, mode):
    first = _child(tmp_path, mode)
    assert first["stats"]["saved"] >= 3 and first["stats"]["loaded"] == 0  # fwd, inv, steps
    if mode == "1":
        assert first["forward"]["compile"] == 1  # the forward: one program
    second = _child(tmp_path, mode)
    assert second["stats"]["loaded"] == first["stats"]["saved"]
    assert second["stats"]["saved"] == second["stats"]["avals_saved"] == 0
    assert second["forward"] == second["all"] == {"trace": 0, "compile": 0}
    assert second["digest"] == first["digest"]  # the same programs: the same bits
    np.testing.assert_allclose(second["inv"], np.linalg.inv([[4.0, 2.0], [2.0, 6.0]]), rtol=1e-6)
    # the first process stored the order it took programs in: the second read most ahead
    assert first["prefetch"]["read_ahead"] == 0
    assert second["prefetch"]["used"] >= second["stats"]["loaded"] // 2
    third = _child(tmp_path, mode, PADDLE_COMPAT_PREFETCH="0")
    assert third["prefetch"]["read_ahead"] == third["prefetch"]["hits"] == 0
    assert third["digest"] == first["digest"] and third["stats"] == second["stats"]


_SCRIPT = r"""
import json
import numpy as np
import paddle
from paddle_compat._core import program_prefetch
x = paddle.to_tensor(np.ones([2, 3], "float32"))
y = paddle.nn.Linear(3, 2)(x).numpy()
print(json.dumps(program_prefetch.stats))
"""


def test_a_script_reads_ahead_what_its_last_run_took_first(tmp_path):
    """A script's start is a node of the remembered order: its second run (other arguments
    too) queues the programs the first took first (a forward) at import; another script, or
    a ``-c`` string, starts with nothing queued."""
    script, other = tmp_path / "train.py", tmp_path / "predict.py"
    script.write_text(_SCRIPT)
    other.write_text(_SCRIPT)

    def run(*argv):
        return _python(tmp_path / "cache", argv)

    assert run(str(script))["read_ahead"] == 0
    second = run(str(script), "--epochs", "3")
    assert second["read_ahead"] >= 1 and second["hits"] >= 1
    assert run(str(other))["read_ahead"] == 0
    assert run("-c", _SCRIPT)["read_ahead"] == 0


def test_switched_off_the_store_writes_nothing(tmp_path):
    out = _child(tmp_path, PADDLE_COMPAT_SEGMENT_CACHE="0")
    assert out["stats"]["saved"] == out["stats"]["avals_saved"] == 0
    assert not (tmp_path / "paddle_compat_segments").exists()


def _user_fn(a):
    return a


def _closure():
    return lambda a: a


_OP = paddle.add  # an OpDef of the package


@pytest.mark.parametrize(
    "key,named",
    [
        ((_OP, (("alpha", 1.0), ("axis", -1)), (float, int), None, (None,)), True),
        (("vjp", (_OP, ()), (True, False), (True,)), True),
        (("x", np.dtype("float32"), np.float32(0.5), jnp.bfloat16, Ellipsis, 2 + 1j), True),
        ((jax.tree_util.tree_structure([0, (0, 0)]),), True),
        ("autograd.sum", True),
        ((("dtype", paddle.int64),), True),
        ((_user_fn,), False),  # a user's function: its source is not fingerprinted
        ((_closure(),), False),  # a closure: what it captured is not in its name
        ((object(),), False),
        (({"a": 1},), False),
    ],
    ids=[
        "op",
        "vjp",
        "scalars",
        "treedef",
        "string",
        "paddle_dtype",
        "user_fn",
        "closure",
        "object",
        "dict",
    ],
)
def test_which_kernel_keys_get_stable_names(key, named):
    def fn(a):
        return a

    segment_store.note(fn, key)
    assert (segment_store.kernel_name(fn) is not None) is named


def test_names_keep_values_and_types_apart():
    names = set()
    for v in (1, 1.0, True, "1", np.float32(1), np.int64(1), -0.0, 0.0):

        def fn(a):
            return a

        names.add(segment_store.kernel_name(segment_store.note(fn, ("k", v))))
    assert len(names) == 8


def test_a_users_op_has_no_stable_name():
    od = OpDef.__new__(OpDef)
    od.name, od.fn = "my_op", _user_fn
    assert od.__segment_name__() is None
    assert paddle.add.__segment_name__() == "op:add"


@pytest.fixture
def store(tmp_path, monkeypatch):
    before = jax.config.jax_compilation_cache_dir
    jax.config.update("jax_compilation_cache_dir", str(tmp_path))
    monkeypatch.delenv(segment_store.ENV, raising=False)
    monkeypatch.setattr(deferred, "SHORT_OPS", 0)  # short segments are stored at once
    segment_store.reset()
    yield tmp_path
    jax.config.update("jax_compilation_cache_dir", before)
    segment_store.reset()


def _segment(x):
    with deferred.mode(True):
        return (paddle.exp(x) * 3).numpy()


def test_a_corrupt_or_foreign_entry_is_a_miss(store):
    x = paddle.to_tensor(np.arange(5, dtype="float32"))
    want = np.exp(np.arange(5, dtype="float32")) * 3
    saved = segment_store.stats["saved"]
    np.testing.assert_allclose(_segment(x), want, rtol=1e-6)
    assert segment_store.stats["saved"] == saved + 1
    (prog,) = list((store / "paddle_compat_segments").glob("*/programs/*.bin"))
    data = prog.read_bytes()
    head = data[: data.index(b"\n", len(segment_store._MAGIC)) + 1]
    for bad in (head + b"garbage", b"another key\n" + data[len(head) :]):
        prog.write_bytes(bad)
        deferred._forget_programs()  # a fresh trie: the next flush reads the store
        failed = segment_store.stats["failed"]
        np.testing.assert_allclose(_segment(x), want, rtol=1e-6)
        assert prog.read_bytes()[: len(head)] == head  # compiled afresh and stored again
        assert segment_store.stats["failed"] == failed + (bad.startswith(head))


def test_programs_that_call_back_into_python_are_never_stored(store):
    def run(a):
        return jax.pure_callback(np.negative, jax.ShapeDtypeStruct(a.shape, a.dtype), a)

    jitted = segment_store.note(jax.jit(run), "test.callback")
    a = jnp.arange(3.0)
    saved = segment_store.stats["saved"]
    compiled = segment_store.compile_and_save(jitted, [a], "callback segment")
    np.testing.assert_array_equal(compiled(a), -np.arange(3.0))
    assert segment_store.stats["saved"] == saved
    assert segment_store.load_program("callback segment", 1) is None


def test_eager_kernels_hold_a_bounded_number_of_programs(store, monkeypatch):
    monkeypatch.setattr(segment_store, "MAX_KERNEL_PROGRAMS", 3)
    segment_store.drop_tables()
    for n in range(1, 8):  # seven shapes: seven programs, at most three held at a time
        x = paddle.to_tensor(np.arange(n, dtype="float32"))
        np.testing.assert_array_equal((paddle.exp(x) * 0).numpy(), np.zeros(n, "float32"))
        assert sum(len(t) for t in segment_store._tables) <= 3


def test_warm_traces_lists_what_a_second_run_still_traces(tmp_path):
    script = tmp_path / "user.py"
    script.write_text(
        "import jax.numpy as jnp\nimport numpy as np\nimport paddle\n"
        "x = paddle.to_tensor(np.ones(3, 'float32'))\n"
        "y = (x * 2).sum()\n"  # package kernels: from the store in the second run
        "z = jnp.sin(np.ones(3))\n"  # the user's own JAX call: traced in every process
    )
    tool = os.path.join(os.path.dirname(__file__), "..", "tools", "warm_traces.py")
    out = subprocess.run(
        [sys.executable, tool, str(script)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "--- 1 traces in the warm run" in out.stdout
    assert "user.py:6" in out.stdout


def _new_process(pf, monkeypatch):
    for name in ("_futures", "_next_known"):
        monkeypatch.setattr(pf, name, {})
    for name in ("_taken", "_next_read"):
        monkeypatch.setattr(pf, name, set())
    monkeypatch.setattr(pf, "_trace", [])


@pytest.fixture
def fresh_prefetch(monkeypatch):
    """program_prefetch with no history (a new process, as far as it knows) and no reader
    thread until the test starts one."""
    import queue

    _new_process(program_prefetch, monkeypatch)
    monkeypatch.setattr(program_prefetch, "_work", queue.PriorityQueue())
    monkeypatch.setattr(program_prefetch, "_threads", [None] * program_prefetch._WORKERS)
    monkeypatch.setattr(program_prefetch, "_on", True)
    monkeypatch.setattr(program_prefetch, "stats", dict.fromkeys(program_prefetch.stats, 0))
    monkeypatch.setattr(program_prefetch, "NEXT", 2)
    monkeypatch.setattr(program_prefetch, "FAR", 4)
    return program_prefetch


@pytest.mark.parametrize(
    "d_ms,order",
    [(50.0, ["d", "b", "c"]), (5.0, ["b", "c", "d"])],
    ids=["slow_read_starts_first", "by_when_needed"],
)
def test_the_programs_that_followed_are_read_ahead_in_time(
    fresh_prefetch, monkeypatch, d_ms, order
):
    pf, stored = fresh_prefetch, {}
    monkeypatch.setattr(pf, "NEXT", 3)
    clock = iter(range(0, 10**6, 10))  # each program taken 10 ms after the last
    monkeypatch.setattr(pf.time, "perf_counter", lambda: next(clock) / 1e3)
    read_ms = {"a": 1.0, "b": 1.0, "c": 1.0, "d": d_ms, "e": 1.0, "f": 30.0}

    def write(d, successors):
        stored[d] = [tuple(x) for x in successors]

    def load(d):
        return f"program {d}"

    for d in "abcdef":  # the first process: nothing stored yet, nothing read ahead
        pf.note_taken(d, read_ms[d], stored.get, write, load)
    assert pf._work.empty()
    pf.drain()  # at exit: the tail's successors are stored too
    # the NEXT (3) next ones with their read and delay ms, then up to FAR (4) places on
    # only the slow ones (>= SLOW_MS): e is left out, f (30 ms) is kept by b
    assert stored["a"] == [("b", 1.0, 10.0), ("c", 1.0, 20.0), ("d", d_ms, 30.0)]
    assert [x[0] for x in stored["b"]] == ["c", "d", "e", "f"]
    _new_process(pf, monkeypatch)  # a second process
    pf.note_taken("a", 1.0, stored.get, write, load)
    queued = [pf._work.get_nowait() for _ in range(pf._work.qsize())]
    # by when each read must start: last run's delay less its read time, earliest first
    assert [item[-1] for item in queued] == order
    for item in queued:
        pf._work.put(item)
    assert pf.take("c") is None  # still queued: the caller reads it itself, sooner
    reader = threading.Thread(target=pf._worker, daemon=True)
    reader.start()
    assert pf.take("d")[0] == "program d"
    assert pf._work.qsize() == 0
    pf.note_taken("a", 1.0, stored.get, write, load)  # taken again (its table dropped)
    assert pf._work.qsize() == 0  # its successors were queued the first time
    pf._work.put((0, 0, None, None, None))  # (a reader stops on a None future)
    reader.join(5)


def test_a_process_the_stored_order_does_not_foresee_stops_reading_ahead(
    fresh_prefetch, monkeypatch
):
    pf = fresh_prefetch
    monkeypatch.setattr(pf, "SURPRISES", 2)
    stored = {"a": [("b", 1.0, 10.0), ("c", 1.0, 20.0)]}
    for d in ("x", "y"):  # read from the store, not foreseen
        assert pf.take(d) is None
    pf.note_taken("a", 1.0, stored.get, lambda d, s: None, lambda d: d)
    assert pf._work.empty() and pf.stats["unforeseen"] == 2


@pytest.mark.parametrize(
    "payload",
    [b"garbage", b"{}", b'[["a", 1.0]]', b'[["a", "x", 2]]', b"[1, 2]", b"null"],
    ids=["not_json", "not_a_list", "short_entry", "not_a_number", "not_entries", "null"],
)
def test_an_unreadable_successor_list_is_none(store, payload):
    segment_store._write("next", "d" * 64, payload)
    assert segment_store._read_next("d" * 64) is None


def test_a_read_ahead_of_a_foreign_or_missing_program_is_none(store):
    assert segment_store._load_by_digest("0" * 64, jax.devices()[0]) is None
    segment_store._write("programs", "some key", b"{}\nnot a pickle")
    digest = segment_store._digest("some key")
    assert segment_store._load_by_digest(digest, jax.devices()[0]) is None  # undecodable
    path = segment_store._path("programs", "", digest)
    path.rename(path.with_name("e" * 64 + ".bin"))  # a file whose key is not its name
    assert segment_store._load_by_digest("e" * 64, jax.devices()[0]) is None
